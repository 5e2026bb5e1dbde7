// util: the parts of Node 20's util module that snippets use. format,
// formatWithOptions and inspect are the run's console formatter
// (native.format, native.inspect); types asks the engine for an object's
// internal kind (native.kind) rather than trusting Symbol.toStringTag;
// isDeepStrictEqual follows node's lib/internal/util/comparisons.js in
// strict mode; deprecate writes its warning once to stderr (native.warn),
// when the deprecated function is first called.
(function (native) {
  'use strict';
  const { ERR, received } = native.errors;
  // baseKind is what the engine tells of an object (see kind in
  // modules.go); kind adds the kinds it leaves as "Object" or
  // "Function", told by the methods that only accept them or, for
  // iterators, generators and async functions, by their prototype chain.
  const baseKind = native.kind;
  const apply = Reflect.apply;
  const protoOf = Object.getPrototypeOf;
  const isPrototypeOf = Object.prototype.isPrototypeOf;
  const hasProto = (v, proto) => apply(isPrototypeOf, proto, [v]);
  const AsyncFunctionProto = protoOf(async function () {});
  const GeneratorFunctionProto = protoOf(function* () {});
  const GeneratorProto = GeneratorFunctionProto.prototype;
  const MapIteratorProto = protoOf(new Map().keys());
  const SetIteratorProto = protoOf(new Set().values());
  const weakMapHas = WeakMap.prototype.has;
  const weakSetHas = WeakSet.prototype.has;
  const dataViewLength = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
  const accepts = (method, v, args) => {
    try {
      apply(method, v, args);
      return true;
    } catch {
      return false;
    }
  };
  const kind = (v) => {
    const k = baseKind(v);
    if (k === 'Function') {
      if (hasProto(v, AsyncFunctionProto)) return 'AsyncFunction';
      if (hasProto(v, GeneratorFunctionProto)) return 'GeneratorFunction';
      return k;
    }
    if (k !== 'Object') return k;
    if (accepts(weakMapHas, v, [{}])) return 'WeakMap';
    if (accepts(weakSetHas, v, [{}])) return 'WeakSet';
    if (accepts(dataViewLength, v, [])) return 'DataView';
    if (hasProto(v, MapIteratorProto)) return 'Map Iterator';
    if (hasProto(v, SetIteratorProto)) return 'Set Iterator';
    if (hasProto(v, GeneratorProto)) return 'Generator';
    return k;
  };
  const invalidArg = (name, type, value) => ERR('ERR_INVALID_ARG_TYPE', TypeError, `The "${name}" argument must be of type ${type}.${received(value)}`);
  const typedArrayNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  const is = (k) => (v) => kind(v) === k;
  const isBase = (k) => (v) => baseKind(v) === k;
  const isTypedArray = (v) => typedArrayNames.includes(baseKind(v));
  const isBoxedPrimitive = (v) => ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(baseKind(v));
  const types = {
    isExternal: () => false,
    isDate: isBase('Date'),
    isArgumentsObject: isBase('Arguments'),
    isBigIntObject: isBase('BigInt'),
    isBooleanObject: isBase('Boolean'),
    isNumberObject: isBase('Number'),
    isStringObject: isBase('String'),
    isSymbolObject: isBase('Symbol'),
    isNativeError: isBase('Error'),
    isRegExp: isBase('RegExp'),
    isAsyncFunction: is('AsyncFunction'),
    isGeneratorFunction: is('GeneratorFunction'),
    isGeneratorObject: is('Generator'),
    isPromise: isBase('Promise'),
    isMap: isBase('Map'),
    isSet: isBase('Set'),
    isMapIterator: is('Map Iterator'),
    isSetIterator: is('Set Iterator'),
    isWeakMap: is('WeakMap'),
    isWeakSet: is('WeakSet'),
    isArrayBuffer: isBase('ArrayBuffer'),
    isDataView: is('DataView'),
    isSharedArrayBuffer: () => false,
    isProxy: isBase('Proxy'),
    isModuleNamespaceObject: () => false,
    isAnyArrayBuffer: isBase('ArrayBuffer'),
    isBoxedPrimitive,
    isArrayBufferView: (v) => isTypedArray(v) || kind(v) === 'DataView',
    isTypedArray,
  };
  for (const name of typedArrayNames) types['is' + name] = isBase(name);

  // --- isDeepStrictEqual ---------------------------------------------------
  const { getPrototypeOf, keys: objectKeys, getOwnPropertySymbols, is: objectIs } = Object;
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);
  const tagOf = (v) => Object.prototype.toString.call(v);
  const isError = (v) => baseKind(v) === 'Error' || v instanceof Error;
  const ownEnumerableSymbols = (o) => getOwnPropertySymbols(o).filter((s) => isEnumerable(o, s));
  const nonIndexKeys = (o) => objectKeys(o).filter((k) => !(String(k >>> 0) === k && (k >>> 0) !== 0xffffffff));
  const bytesOf = (v) => (baseKind(v) === 'ArrayBuffer' ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  const sameBytes = (a, b) => {
    const x = bytesOf(a), y = bytesOf(b);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  };
  const unbox = (v) => {
    switch (baseKind(v)) {
      case 'Number': return Number.prototype.valueOf.call(v);
      case 'String': return String.prototype.valueOf.call(v);
      case 'Boolean': return Boolean.prototype.valueOf.call(v);
      case 'BigInt': return BigInt.prototype.valueOf.call(v);
      default: return Symbol.prototype.valueOf.call(v);
    }
  };
  const kNoIterator = 0, kIsArray = 1, kIsSet = 2, kIsMap = 3;

  function innerDeepEqual(a, b, memos) {
    if (a === b) return a !== 0 || objectIs(a, b);
    if (typeof a !== 'object') return typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b);
    if (typeof b !== 'object' || a === null || b === null) return false;
    if (getPrototypeOf(a) !== getPrototypeOf(b)) return false;
    if (tagOf(a) !== tagOf(b)) return false;
    const ka = baseKind(a), kb = baseKind(b);
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      const keysA = nonIndexKeys(a), keysB = nonIndexKeys(b);
      if (keysA.length !== keysB.length) return false;
      return keyCheck(a, b, memos, kIsArray, keysA);
    }
    if (tagOf(a) === '[object Object]' && ka === 'Object') return keyCheck(a, b, memos, kNoIterator);
    if (ka === 'Date') {
      if (kb !== 'Date' || Date.prototype.getTime.call(a) !== Date.prototype.getTime.call(b)) return false;
    } else if (ka === 'RegExp') {
      if (kb !== 'RegExp' || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
    } else if (isError(a)) {
      if (!isError(b) || a.message !== b.message || a.name !== b.name) return false;
    } else if (isTypedArray(a)) {
      if (ka !== kb || !sameBytes(a, b)) return false;
      const keysA = nonIndexKeys(a);
      if (keysA.length !== nonIndexKeys(b).length) return false;
      return keyCheck(a, b, memos, kNoIterator, keysA);
    } else if (ka === 'Set') {
      if (kb !== 'Set' || a.size !== b.size) return false;
      return keyCheck(a, b, memos, kIsSet);
    } else if (ka === 'Map') {
      if (kb !== 'Map' || a.size !== b.size) return false;
      return keyCheck(a, b, memos, kIsMap);
    } else if (ka === 'ArrayBuffer') {
      if (kb !== 'ArrayBuffer' || !sameBytes(a, b)) return false;
    } else if (isBoxedPrimitive(a)) {
      if (ka !== kb || !objectIs(unbox(a), unbox(b))) return false;
    } else if (Array.isArray(b) || isTypedArray(b) || kb === 'Set' || kb === 'Map' || kb === 'Date' || kb === 'RegExp' || kb === 'ArrayBuffer' || isBoxedPrimitive(b) || isError(b)) {
      return false;
    }
    return keyCheck(a, b, memos, kNoIterator);
  }

  function keyCheck(a, b, memos, iterationType, aKeys) {
    if (aKeys === undefined) {
      aKeys = objectKeys(a);
      if (aKeys.length !== objectKeys(b).length) return false;
    }
    for (const k of aKeys) if (!isEnumerable(b, k)) return false;
    const symA = ownEnumerableSymbols(a);
    if (symA.length !== ownEnumerableSymbols(b).length) return false;
    for (const s of symA) if (!isEnumerable(b, s)) return false;
    aKeys = aKeys.concat(symA);
    if (aKeys.length === 0 && (iterationType === kNoIterator || (iterationType === kIsArray && a.length === 0) || a.size === 0)) return true;
    if (memos === undefined) {
      memos = { a: new Map(), b: new Map(), position: 0 };
    } else {
      const memoA = memos.a.get(a);
      if (memoA !== undefined) {
        const memoB = memos.b.get(b);
        if (memoB !== undefined) return memoA === memoB;
      }
      memos.position++;
    }
    memos.a.set(a, memos.position);
    memos.b.set(b, memos.position);
    const result = objEquiv(a, b, iterationType, aKeys, memos);
    memos.a.delete(a);
    memos.b.delete(b);
    return result;
  }

  function setEquiv(a, b, memos) {
    let pending = null;
    for (const v of a) {
      if (typeof v === 'object' && v !== null) {
        (pending ??= []).push(v);
      } else if (!b.has(v)) {
        return false;
      }
    }
    if (pending === null) return true;
    const rest = [];
    for (const v of b) if (typeof v === 'object' && v !== null) rest.push(v);
    for (const v of pending) {
      const i = rest.findIndex((w) => innerDeepEqual(v, w, memos));
      if (i === -1) return false;
      rest.splice(i, 1);
    }
    return true;
  }

  function mapEquiv(a, b, memos) {
    let pending = null;
    for (const [k, v] of a) {
      if (typeof k === 'object' && k !== null) {
        (pending ??= []).push([k, v]);
      } else if (!b.has(k) || !innerDeepEqual(v, b.get(k), memos)) {
        return false;
      }
    }
    if (pending === null) return true;
    const rest = [];
    for (const e of b) if (typeof e[0] === 'object' && e[0] !== null) rest.push(e);
    for (const [k, v] of pending) {
      const i = rest.findIndex(([k2, v2]) => innerDeepEqual(k, k2, memos) && innerDeepEqual(v, v2, memos));
      if (i === -1) return false;
      rest.splice(i, 1);
    }
    return true;
  }

  function objEquiv(a, b, iterationType, keys, memos) {
    if (iterationType === kIsSet) {
      if (!setEquiv(a, b, memos)) return false;
    } else if (iterationType === kIsMap) {
      if (!mapEquiv(a, b, memos)) return false;
    } else if (iterationType === kIsArray) {
      for (let i = 0; i < a.length; i++) {
        if (hasOwn(a, i)) {
          if (!hasOwn(b, i) || !innerDeepEqual(a[i], b[i], memos)) return false;
        } else if (hasOwn(b, i)) {
          return false;
        }
      }
    }
    for (const k of keys) if (!innerDeepEqual(a[k], b[k], memos)) return false;
    return true;
  }

  // --- promisify, callbackify, inherits, deprecate ------------------------
  const customPromisify = Symbol.for('nodejs.util.promisify.custom');
  function promisify(original) {
    if (typeof original !== 'function') throw invalidArg('original', 'function', original);
    // The run's setTimeout and setImmediate promisify as node's do
    // (timers/promises).
    switch (native.timerName(original)) {
      case 'setTimeout': return function setTimeout(delay, value) { return new Promise((resolve) => original(resolve, delay, value)); };
      case 'setImmediate': return function setImmediate(value) { return new Promise((resolve) => original(resolve, value)); };
    }
    if (original[customPromisify]) {
      const fn = original[customPromisify];
      if (typeof fn !== 'function') throw invalidArg('util.promisify.custom', 'function', fn);
      return Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
    }
    function fn(...args) {
      return new Promise((resolve, reject) => {
        Reflect.apply(original, this, [...args, (err, ...values) => (err ? reject(err) : resolve(values[0]))]);
      });
    }
    Object.setPrototypeOf(fn, getPrototypeOf(original));
    Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
    return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
  }
  promisify.custom = customPromisify;

  function callbackify(original) {
    if (typeof original !== 'function') throw invalidArg('original', 'function', original);
    function callbackified(...args) {
      const cb = args.pop();
      if (typeof cb !== 'function') throw invalidArg('last argument', 'function', cb);
      const onRejected = (reason) => {
        if (!reason) {
          const e = new Error('Promise was rejected with a falsy value');
          e.code = 'ERR_FALSY_VALUE_REJECTION';
          e.reason = reason;
          reason = e;
        }
        cb(reason);
      };
      Reflect.apply(original, this, args).then((ret) => cb(null, ret), onRejected);
    }
    const descriptors = Object.getOwnPropertyDescriptors(original);
    if (typeof descriptors.length.value === 'number') descriptors.length.value++;
    if (typeof descriptors.name.value === 'string') descriptors.name.value += 'Callbackified';
    Object.setPrototypeOf(callbackified, getPrototypeOf(original));
    return Object.defineProperties(callbackified, descriptors);
  }

  function inherits(ctor, superCtor) {
    if (ctor === undefined || ctor === null) throw invalidArg('ctor', 'function', ctor);
    if (superCtor === undefined || superCtor === null) throw invalidArg('superCtor', 'function', superCtor);
    if (superCtor.prototype === undefined) throw invalidArg('superCtor.prototype', 'object', superCtor.prototype);
    Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  }

  const codesWarned = new Set();
  function deprecate(fn, msg, code) {
    if (typeof fn !== 'function') throw invalidArg('fn', 'function', fn);
    let warned = false;
    function deprecated(...args) {
      if (!warned) {
        warned = true;
        if (code === undefined || !codesWarned.has(code)) {
          if (code !== undefined) codesWarned.add(code);
          native.warn(`(codeexec) ${code !== undefined ? `[${code}] ` : ''}DeprecationWarning: ${msg}\n`);
        }
      }
      if (new.target) return Reflect.construct(fn, args, new.target);
      return Reflect.apply(fn, this, args);
    }
    Object.setPrototypeOf(deprecated, fn);
    if (fn.prototype) deprecated.prototype = fn.prototype;
    return deprecated;
  }

  function inspect(value, opts) {
    if (arguments.length > 2 || (opts !== undefined && (typeof opts !== 'object' || opts === null))) {
      // The legacy form inspect(value, showHidden, depth).
      const o = {};
      if (typeof opts === 'boolean') o.showHidden = opts;
      if (arguments.length > 2 && arguments[2] !== undefined) o.depth = arguments[2];
      opts = o;
    }
    return native.inspect(value, opts);
  }
  inspect.custom = Symbol.for('nodejs.util.inspect.custom');

  const util = {
    format: function format(...args) { return native.format(undefined, args); },
    formatWithOptions: function formatWithOptions(inspectOptions, ...args) {
      if (inspectOptions === null || typeof inspectOptions !== 'object') throw invalidArg('inspectOptions', 'object', inspectOptions);
      return native.format(inspectOptions, args);
    },
    inspect,
    isDeepStrictEqual: function isDeepStrictEqual(a, b) { return innerDeepEqual(a, b, undefined); },
    types,
    promisify,
    callbackify,
    inherits,
    deprecate,
    stripVTControlCharacters(str) {
      if (typeof str !== 'string') throw invalidArg('str', 'string', str);
      // eslint-disable-next-line no-control-regex
      return str.replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, '');
    },
    toUSVString(input) {
      const s = String(input);
      let out = '';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
          out += s[i] + s[i + 1];
          i++;
        } else {
          out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i];
        }
      }
      return out;
    },
    isArray: Array.isArray,
    isBoolean: (v) => typeof v === 'boolean',
    isNull: (v) => v === null,
    isNullOrUndefined: (v) => v === null || v === undefined,
    isNumber: (v) => typeof v === 'number',
    isString: (v) => typeof v === 'string',
    isSymbol: (v) => typeof v === 'symbol',
    isUndefined: (v) => v === undefined,
    isRegExp: types.isRegExp,
    isObject: (v) => v !== null && typeof v === 'object',
    isDate: types.isDate,
    isError: (v) => isError(v),
    isFunction: (v) => typeof v === 'function',
    isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  };
  // TextEncoder and TextDecoder are the globals, built when first read.
  for (const name of ['TextEncoder', 'TextDecoder']) {
    Object.defineProperty(util, name, {
      get() {
        const v = native.global(name);
        Object.defineProperty(util, name, { value: v, writable: true, enumerable: true, configurable: true });
        return v;
      },
      set(v) { Object.defineProperty(util, name, { value: v, writable: true, enumerable: true, configurable: true }); },
      enumerable: true,
      configurable: true,
    });
  }
  return util;
})
