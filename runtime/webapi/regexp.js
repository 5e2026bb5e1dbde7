// RegExp, replaced so that a u-flag pattern's \p{...} and \P{...} match what
// they do in Node (native.rewrite turns them into classes before goja sees
// the pattern). The d flag (match indices) is goja's own (patched, see
// third_party/goja/PATCH.md). The prototype is the original's, so literals
// and instanceof are unchanged.
(function (native, Orig) {
  'use strict';
  const proto = Orig.prototype;
  const sources = new WeakMap();
  const desc = (name) => Object.getOwnPropertyDescriptor(proto, name);
  const origFlags = desc('flags').get, origSource = desc('source').get;
  const isRegExp = (v) => v !== null && typeof v === 'object' && (v[Symbol.match] !== undefined ? Boolean(v[Symbol.match]) : v instanceof Orig);

  function RegExp(pattern, flags) {
    const patternIsRegExp = isRegExp(pattern);
    if (new.target === undefined && patternIsRegExp && flags === undefined && pattern.constructor === RegExp) return pattern;
    let src, f;
    if (patternIsRegExp) {
      src = pattern instanceof Orig ? (sources.get(pattern) ?? origSource.call(pattern)) : String(pattern.source);
      f = flags === undefined ? (pattern instanceof Orig ? RegExp.prototype.flags === undefined ? '' : origFlags.call(pattern) : String(pattern.flags)) : String(flags);
    } else {
      src = pattern === undefined ? '' : String(pattern);
      f = flags === undefined ? '' : String(flags);
    }
    const rewritten = native.rewrite(src, f);
    const re = Reflect.construct(Orig, [rewritten, f], new.target === undefined ? RegExp : new.target);
    if (rewritten !== src) sources.set(re, src);
    return re;
  }
  Object.defineProperty(RegExp, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(proto, 'constructor', { value: RegExp, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(RegExp, Symbol.species, { get() { return this; }, configurable: true });

  Object.defineProperty(proto, 'source', {
    get() { return sources.has(this) ? sources.get(this) : origSource.call(this); },
    enumerable: false, configurable: true,
  });
  Object.defineProperty(proto, 'toString', {
    value: function toString() { return '/' + this.source + '/' + this.flags; },
    writable: true, enumerable: false, configurable: true,
  });
  return RegExp;
})
