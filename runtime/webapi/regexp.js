// RegExp, replaced so that a u-flag pattern's \p{...} and \P{...} match what
// they do in Node (native.rewrite turns them into classes before goja sees
// the pattern) and so that the d flag works for patterns without capture
// groups (indices of the whole match); with capture groups it is a
// SyntaxError, never indices that could be wrong. The prototype is the
// original's, so literals and instanceof are unchanged.
(function (native, Orig) {
  'use strict';
  const proto = Orig.prototype;
  const withIndices = new WeakSet();
  const sources = new WeakMap();
  const desc = (name) => Object.getOwnPropertyDescriptor(proto, name);
  const origFlags = desc('flags').get, origSource = desc('source').get, origExec = proto.exec;
  const isRegExp = (v) => v !== null && typeof v === 'object' && (v[Symbol.match] !== undefined ? Boolean(v[Symbol.match]) : v instanceof Orig);

  // captures reports whether a pattern has a capturing group.
  const captures = (p) => {
    let inClass = false;
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === '\\') { i++; continue; }
      if (inClass) { if (c === ']') inClass = false; continue; }
      if (c === '[') { inClass = true; continue; }
      if (c === '(' && (p[i + 1] !== '?' || (p[i + 2] === '<' && p[i + 3] !== '=' && p[i + 3] !== '!'))) return true;
    }
    return false;
  };

  function RegExp(pattern, flags) {
    const patternIsRegExp = isRegExp(pattern);
    if (new.target === undefined && patternIsRegExp && flags === undefined && pattern.constructor === RegExp) return pattern;
    let src, f;
    if (patternIsRegExp) {
      src = pattern instanceof Orig ? (sources.get(pattern) ?? origSource.call(pattern)) : String(pattern.source);
      f = flags === undefined ? (pattern instanceof Orig ? RegExp.prototype.flags === undefined ? '' : Reflect.apply(flagsGetter, pattern, []) : String(pattern.flags)) : String(flags);
    } else {
      src = pattern === undefined ? '' : String(pattern);
      f = flags === undefined ? '' : String(flags);
    }
    let d = false;
    if (f.includes('d')) {
      if (f.indexOf('d') !== f.lastIndexOf('d')) throw new SyntaxError("Invalid flags supplied to RegExp constructor '" + f + "'");
      d = true;
      f = f.replace('d', '');
      if (captures(src)) {
        throw new SyntaxError('Invalid regular expression: /' + src + '/' + flags + ': the d flag (match indices) is supported only for patterns without capture groups in this sandbox');
      }
    }
    const rewritten = native.rewrite(src, f);
    const re = Reflect.construct(Orig, [rewritten, f], new.target === undefined ? RegExp : new.target);
    if (rewritten !== src) sources.set(re, src);
    if (d) withIndices.add(re);
    return re;
  }
  Object.defineProperty(RegExp, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(proto, 'constructor', { value: RegExp, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(RegExp, Symbol.species, { get() { return this; }, configurable: true });

  const flagsGetter = function () {
    const f = origFlags.call(this);
    return withIndices.has(this) ? 'd' + f : f;
  };
  Object.defineProperty(proto, 'flags', { get: flagsGetter, enumerable: false, configurable: true });
  Object.defineProperty(proto, 'hasIndices', { get() { return withIndices.has(this); }, enumerable: false, configurable: true });
  Object.defineProperty(proto, 'source', {
    get() { return sources.has(this) ? sources.get(this) : origSource.call(this); },
    enumerable: false, configurable: true,
  });
  Object.defineProperty(proto, 'toString', {
    value: function toString() { return '/' + this.source + '/' + this.flags; },
    writable: true, enumerable: false, configurable: true,
  });
  Object.defineProperty(proto, 'exec', {
    value: function exec(s) {
      const m = origExec.call(this, s);
      if (m !== null && withIndices.has(this)) {
        const indices = [[m.index, m.index + m[0].length]];
        indices.groups = undefined;
        m.indices = indices;
      }
      return m;
    },
    writable: true, enumerable: false, configurable: true,
  });
  return RegExp;
})
