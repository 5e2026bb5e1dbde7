// Object.groupBy, Map.groupBy, Promise.withResolvers and
// String.prototype.isWellFormed/toWellFormed (ES2024), WeakRef and
// FinalizationRegistry (ES2021), which goja lacks, and the message of
// Promise.any's AggregateError, for the snippets that use them; installed only when the snippet's code names them (transform.Features). A WeakRef holds
// its target for the run (deref() never gives undefined) and a
// FinalizationRegistry never calls its callback: both are what the
// specification allows an engine whose collector never reclaims them.
(function (g, which) {
  'use strict';
  const define = (obj, name, fn) => Object.defineProperty(obj, name, { value: fn, writable: true, configurable: true, enumerable: false });
  const requireCallable = (fn) => {
    if (typeof fn !== 'function') throw new TypeError(String(fn) + ' is not a function');
  };
  if (which.groupBy) {
    define(g.Object, 'groupBy', function groupBy(items, callback) {
      requireCallable(callback);
      const out = Object.create(null);
      let i = 0;
      for (const item of items) {
        const key = callback(item, i++);
        const k = typeof key === 'symbol' ? key : String(key);
        if (Object.prototype.hasOwnProperty.call(out, k)) out[k].push(item);
        else out[k] = [item];
      }
      return out;
    });
    define(g.Map, 'groupBy', function groupBy(items, callback) {
      requireCallable(callback);
      const out = new Map();
      let i = 0;
      for (const item of items) {
        let key = callback(item, i++);
        if (key === 0) key = 0; // -0 becomes +0
        const group = out.get(key);
        if (group) group.push(item);
        else out.set(key, [item]);
      }
      return out;
    });
  }
  if (which.wellFormed) {
    const thisString = (self, name) => {
      if (self === undefined || self === null) throw new TypeError('String.prototype.' + name + ' called on null or undefined');
      return String(self);
    };
    // The index of the first lone surrogate of s at or after i, or -1.
    const loneAt = (s, i) => {
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0xD800 && c <= 0xDBFF) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xDC00 && d <= 0xDFFF) i++;
          else return i;
        } else if (c >= 0xDC00 && c <= 0xDFFF) {
          return i;
        }
      }
      return -1;
    };
    define(g.String.prototype, 'isWellFormed', function isWellFormed() {
      return loneAt(thisString(this, 'isWellFormed'), 0) < 0;
    });
    define(g.String.prototype, 'toWellFormed', function toWellFormed() {
      const s = thisString(this, 'toWellFormed');
      let out = '', from = 0;
      for (let i = loneAt(s, 0); i >= 0; i = loneAt(s, from)) {
        out += s.slice(from, i) + '\uFFFD';
        from = i + 1;
      }
      return out + s.slice(from);
    });
  }
  // Defined once per global object: a session's later run keeps the
  // classes its earlier runs' objects are instances of.
  if (which.weakRefs && typeof g.WeakRef !== 'function') {
    const requireObject = (v, what) => {
      if (v === null || (typeof v !== 'object' && typeof v !== 'function')) throw new TypeError(what + ': invalid target');
    };
    const methods = (ctor, tag, fns) => {
      for (const fn of fns) define(ctor.prototype, fn.name, fn);
      Object.defineProperty(ctor.prototype, Symbol.toStringTag, { value: tag, configurable: true });
    };
    const targets = new WeakMap();
    const WeakRef = function WeakRef(target) {
      if (new.target === undefined) throw new TypeError("Constructor WeakRef requires 'new'");
      requireObject(target, 'WeakRef');
      targets.set(this, target);
    };
    methods(WeakRef, 'WeakRef', [function deref() {
      if (!targets.has(this)) throw new TypeError('WeakRef.prototype.deref called on an incompatible receiver');
      return targets.get(this);
    }]);
    const registries = new WeakSet();
    const FinalizationRegistry = function FinalizationRegistry(cleanup) {
      if (new.target === undefined) throw new TypeError("Constructor FinalizationRegistry requires 'new'");
      requireCallable(cleanup);
      registries.add(this);
    };
    const requireRegistry = (self, name) => {
      if (!registries.has(self)) throw new TypeError('FinalizationRegistry.prototype.' + name + ' called on an incompatible receiver');
    };
    methods(FinalizationRegistry, 'FinalizationRegistry', [
      function register(target, heldValue) {
        requireRegistry(this, 'register');
        requireObject(target, 'FinalizationRegistry.prototype.register');
        if (target === heldValue) throw new TypeError('FinalizationRegistry.prototype.register: target and holdings must not be same');
      },
      function unregister(token) {
        requireRegistry(this, 'unregister');
        requireObject(token, 'FinalizationRegistry.prototype.unregister');
        return false;
      },
    ]);
    define(g, 'WeakRef', WeakRef);
    define(g, 'FinalizationRegistry', FinalizationRegistry);
  }
  // goja's Promise.any rejects with an AggregateError without a message;
  // node's says "All promises were rejected".
  // Wrapped once: a session's later run finds the wrapper, not the
  // engine's native function.
  if (which.promiseAny && /\[native code\]/.test(Function.prototype.toString.call(g.Promise.any))) {
    const original = g.Promise.any;
    const message = 'All promises were rejected';
    const wrapped = function any(iterable) {
      return original.call(this, iterable).then(undefined, (e) => {
        if (e instanceof g.AggregateError && !Object.prototype.hasOwnProperty.call(e, 'message')) {
          Object.defineProperty(e, 'message', { value: message, writable: true, configurable: true, enumerable: false });
          if (typeof e.stack === 'string' && e.stack.startsWith('AggregateError\n')) {
            Object.defineProperty(e, 'stack', { value: 'AggregateError: ' + message + e.stack.slice(14), writable: true, configurable: true, enumerable: false });
          }
        }
        throw e;
      });
    };
    define(g.Promise, 'any', wrapped);
  }
  if (which.withResolvers) {
    define(g.Promise, 'withResolvers', function withResolvers() {
      let resolve, reject;
      const promise = new this((res, rej) => { resolve = res; reject = rej; });
      return { promise, resolve, reject };
    });
  }
})
