// Object.groupBy, Map.groupBy and Promise.withResolvers (ES2024), for the
// snippets that use them; installed only when the source mentions them.
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
  if (which.withResolvers) {
    define(g.Promise, 'withResolvers', function withResolvers() {
      let resolve, reject;
      const promise = new this((res, rej) => { resolve = res; reject = rej; });
      return { promise, resolve, reject };
    });
  }
})
