// URL and URLSearchParams (WHATWG-style): parsing and serializing are done
// by native.parseURL; the classes keep the components and Node's inspect
// output.
(function (native) {
  'use strict';
  const invalidURL = (input) => {
    const e = new TypeError('Invalid URL');
    e.code = 'ERR_INVALID_URL';
    e.input = input;
    return e;
  };
  const invalidThis = (what) => {
    const e = new TypeError('Value of "this" must be of type ' + what);
    e.code = 'ERR_INVALID_THIS';
    return e;
  };
  const missingArgs = (...names) => {
    const e = new TypeError('The ' + names.map((n) => '"' + n + '"').join(' and ') + ' argument' + (names.length > 1 ? 's' : '') + ' must be specified');
    e.code = 'ERR_MISSING_ARGS';
    return e;
  };

  // --- URLSearchParams
  // Private state, reached through these functions: the list is
  // [name, value, name, value, ...]; the owner is the URL whose query the
  // params are.
  let listOf, setList, ownerOf, setOwner, isParams;
  const parseParams = (s) => {
    const out = [];
    if (s === '') return out;
    for (const part of s.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = eq >= 0 ? part.slice(0, eq) : part;
      const value = eq >= 0 ? part.slice(eq + 1) : '';
      out.push(native.formDecode(name), native.formDecode(value));
    }
    return out;
  };
  const serializeParams = (l) => {
    const parts = [];
    for (let i = 0; i < l.length; i += 2) parts.push(native.formEncode(l[i]) + '=' + native.formEncode(l[i + 1]));
    return parts.join('&');
  };
  const update = (p) => {
    const url = ownerOf(p);
    if (url !== null) setSearchFromParams(url, serializeParams(listOf(p)));
  };

  class URLSearchParams {
    #list = [];
    #owner = null;
    static {
      listOf = (p) => {
        try { return p.#list; } catch { throw invalidThis('URLSearchParams'); }
      };
      setList = (p, l) => { p.#list = l; };
      ownerOf = (p) => p.#owner;
      setOwner = (p, u) => { p.#owner = u; };
      isParams = (p) => p !== null && typeof p === 'object' && #list in p;
    }
    constructor(init = undefined) {
      let l = [];
      if (init === undefined || init === null) {
        l = [];
      } else if (typeof init === 'object' || typeof init === 'function') {
        if (isParams(init)) {
          l = listOf(init).slice();
        } else if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function') || typeof pair[Symbol.iterator] !== 'function') {
              const e = new TypeError('Each query pair must be an iterable [name, value] tuple');
              e.code = 'ERR_INVALID_TUPLE';
              throw e;
            }
            const items = [...pair];
            if (items.length !== 2) {
              const e = new TypeError('Each query pair must be an iterable [name, value] tuple');
              e.code = 'ERR_INVALID_TUPLE';
              throw e;
            }
            l.push(String(items[0]), String(items[1]));
          }
        } else {
          for (const k of Reflect.ownKeys(init)) {
            if (typeof k !== 'string') continue;
            const d = Object.getOwnPropertyDescriptor(init, k);
            if (d !== undefined && d.enumerable) l.push(k, String(init[k]));
          }
        }
      } else {
        let s = String(init);
        if (s[0] === '?') s = s.slice(1);
        l = parseParams(s);
      }
      this.#list = l;
    }
    get size() { return listOf(this).length / 2; }
    append(name, value) {
      if (arguments.length < 2) throw missingArgs('name', 'value');
      listOf(this).push(String(name), String(value));
      update(this);
    }
    delete(name, value = undefined) {
      if (arguments.length < 1) throw missingArgs('name');
      const l = listOf(this);
      name = String(name);
      const v = value === undefined ? undefined : String(value);
      for (let i = 0; i < l.length;) {
        if (l[i] === name && (v === undefined || l[i + 1] === v)) l.splice(i, 2);
        else i += 2;
      }
      update(this);
    }
    get(name) {
      if (arguments.length < 1) throw missingArgs('name');
      const l = listOf(this);
      name = String(name);
      for (let i = 0; i < l.length; i += 2) if (l[i] === name) return l[i + 1];
      return null;
    }
    getAll(name) {
      if (arguments.length < 1) throw missingArgs('name');
      const l = listOf(this);
      name = String(name);
      const out = [];
      for (let i = 0; i < l.length; i += 2) if (l[i] === name) out.push(l[i + 1]);
      return out;
    }
    has(name, value = undefined) {
      if (arguments.length < 1) throw missingArgs('name');
      const l = listOf(this);
      name = String(name);
      const v = value === undefined ? undefined : String(value);
      for (let i = 0; i < l.length; i += 2) if (l[i] === name && (v === undefined || l[i + 1] === v)) return true;
      return false;
    }
    set(name, value) {
      if (arguments.length < 2) throw missingArgs('name', 'value');
      const l = listOf(this);
      name = String(name);
      value = String(value);
      let found = false;
      for (let i = 0; i < l.length;) {
        if (l[i] === name) {
          if (!found) { l[i + 1] = value; found = true; i += 2; } else l.splice(i, 2);
        } else i += 2;
      }
      if (!found) l.push(name, value);
      update(this);
    }
    sort() {
      const l = listOf(this);
      const pairs = [];
      for (let i = 0; i < l.length; i += 2) pairs.push([l[i], l[i + 1]]);
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      l.length = 0;
      for (const [n, v] of pairs) l.push(n, v);
      update(this);
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') {
        const e = new TypeError('The "callback" argument must be of type function');
        e.code = 'ERR_INVALID_ARG_TYPE';
        throw e;
      }
      const l = listOf(this);
      for (let i = 0; i < l.length; i += 2) callback.call(thisArg, l[i + 1], l[i], this);
    }
    entries() { listOf(this); return newParamsIterator(this, 'key+value'); }
    keys() { listOf(this); return newParamsIterator(this, 'key'); }
    values() { listOf(this); return newParamsIterator(this, 'value'); }
    toString() { return serializeParams(listOf(this)); }
  }
  native.setIterator(URLSearchParams.prototype, URLSearchParams.prototype.entries);
  native.setTag(URLSearchParams.prototype, 'URLSearchParams');
  native.registerInspect(URLSearchParams.prototype, function (recurseTimes, ctx, inspect) {
    const l = listOf(this);
    if (typeof recurseTimes === 'number' && recurseTimes < 0) return '[Object]';
    const innerOpts = Object.assign({}, ctx);
    if (recurseTimes !== null) innerOpts.depth = recurseTimes - 1;
    const output = [];
    for (let i = 0; i < l.length; i += 2) output.push(inspect(l[i], innerOpts) + ' => ' + inspect(l[i + 1], innerOpts));
    const length = output.reduce((prev, cur) => prev + cur.length + 2, -2);
    const name = this.constructor.name;
    if (length > ctx.breakLength) return name + ' {\n  ' + output.join(',\n  ') + ' }';
    if (output.length) return name + ' { ' + output.join(', ') + ' }';
    return name + ' {}';
  });

  // URLSearchParams' iterators, as Node's: each step reads the list as it
  // is then (an entry appended while iterating is seen); tagged and
  // printed "URLSearchParams Iterator". Not generators: a generator
  // function here would give snippets the GeneratorFunction constructor,
  // which the runtime restricts only for the snippets that may make a
  // generator themselves (transform.Generators).
  let newParamsIterator;
  class URLSearchParamsIterator {
    #params;
    #kind;
    #index = 0;
    static {
      newParamsIterator = (params, kind) => {
        const it = new URLSearchParamsIterator();
        it.#params = params;
        it.#kind = kind;
        return it;
      };
      native.registerInspect(URLSearchParamsIterator.prototype, function (recurseTimes, ctx, inspect) {
        const kind = this.#kind, index = this.#index;
        const l = listOf(this.#params);
        const innerOpts = Object.assign({}, ctx);
        if (recurseTimes !== null) innerOpts.depth = recurseTimes - 1;
        const output = [];
        for (let i = index; i < l.length; i += 2) {
          output.push(kind === 'key' ? l[i] : kind === 'value' ? l[i + 1] : [l[i], l[i + 1]]);
        }
        const outputStrs = output.map((v) => inspect(v, innerOpts));
        const body = inspect(output, innerOpts).includes('\n') ? '\n  ' + outputStrs.join(',\n  ') : ' ' + outputStrs.join(', ');
        return 'URLSearchParams Iterator {' + body + ' }';
      });
    }
    next() {
      let l;
      try {
        l = listOf(this.#params);
      } catch {
        throw invalidThis('URLSearchParamsIterator');
      }
      const i = this.#index;
      if (i >= l.length) return { value: undefined, done: true };
      this.#index = i + 2;
      const kind = this.#kind;
      return { value: kind === 'key' ? l[i] : kind === 'value' ? l[i + 1] : [l[i], l[i + 1]], done: false };
    }
  }
  // Like Node's: the iterator prototype's own are next and the tag, its
  // prototype %IteratorPrototype% (whose [Symbol.iterator] returns the
  // iterator).
  delete URLSearchParamsIterator.prototype.constructor;
  Object.setPrototypeOf(URLSearchParamsIterator.prototype, Object.getPrototypeOf(Object.getPrototypeOf([].keys())));
  native.setTag(URLSearchParamsIterator.prototype, 'URLSearchParams Iterator');

  // --- URL
  // The components: [href, protocol, username, password, hostname, port,
  // pathname, search, hash, origin, special].
  let stateOf, setStateRaw;
  const parse = (input, base) => {
    const c = native.parseURL(input, base);
    if (c === null) return null;
    return { href: c[0], protocol: c[1], username: c[2], password: c[3], hostname: c[4], port: c[5], pathname: c[6], search: c[7], hash: c[8], origin: c[9], params: null };
  };
  const setState = (u, c) => {
    const params = stateOf(u).params;
    c.params = params;
    setStateRaw(u, c);
    if (params) setList(params, parseParams(c.search.slice(1)));
  };
  function setSearchFromParams(u, query) {
    const s = stateOf(u);
    const c = parse(rebuild(s, { search: query === '' ? '' : '?' + query }));
    if (c !== null) { c.params = s.params; setStateRaw(u, c); }
  }
  const rebuild = (s, change) => {
    const p = Object.assign({}, s, change);
    const special = native.isSpecial(p.protocol);
    let auth = '';
    if (p.hostname !== '' || special || p.protocol === 'file:') {
      auth = '//';
      if (p.username !== '' || p.password !== '') auth += p.username + (p.password !== '' ? ':' + p.password : '') + '@';
      auth += p.hostname + (p.port !== '' ? ':' + p.port : '');
    }
    return p.protocol + auth + p.pathname + p.search + p.hash;
  };
  const setter = (name, fn) => function (value) {
    const s = stateOf(this);
    const c = parse(fn(s, String(value)));
    if (c !== null) setState(this, c);
  };

  class URL {
    #state;
    static {
      stateOf = (u) => {
        try { return u.#state; } catch { throw invalidThis('URL'); }
      };
      setStateRaw = (u, c) => { u.#state = c; };
    }
    constructor(input, base = undefined) {
      if (arguments.length === 0) throw missingArgs('url');
      input = String(input);
      if (base !== undefined) base = String(base);
      const c = parse(input, base);
      if (c === null) throw invalidURL(input);
      this.#state = c;
    }
    static canParse(input, base = undefined) {
      if (arguments.length === 0) throw missingArgs('url');
      return parse(String(input), base === undefined ? undefined : String(base)) !== null;
    }
    get href() { return stateOf(this).href; }
    set href(value) {
      const c = parse(String(value));
      if (c === null) throw invalidURL(String(value));
      setState(this, c);
    }
    get origin() { return stateOf(this).origin; }
    get protocol() { return stateOf(this).protocol; }
    get username() { return stateOf(this).username; }
    get password() { return stateOf(this).password; }
    get host() { const s = stateOf(this); return s.hostname + (s.port !== '' ? ':' + s.port : ''); }
    get hostname() { return stateOf(this).hostname; }
    get port() { return stateOf(this).port; }
    get pathname() { return stateOf(this).pathname; }
    get search() { const s = stateOf(this); return s.search.length > 1 ? s.search : ''; }
    get hash() { const s = stateOf(this); return s.hash.length > 1 ? s.hash : ''; }
    get searchParams() {
      const s = stateOf(this);
      if (!s.params) {
        s.params = new URLSearchParams(s.search.slice(1));
        setOwner(s.params, this);
      }
      return s.params;
    }
    toString() { return stateOf(this).href; }
    toJSON() { return stateOf(this).href; }
  }
  native.registerInspect(URL.prototype, function (depth, opts, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const constructor = Object.getPrototypeOf(this).constructor || URL;
    const obj = { __proto__: { constructor } };
    obj.href = this.href;
    obj.origin = this.origin;
    obj.protocol = this.protocol;
    obj.username = this.username;
    obj.password = this.password;
    obj.host = this.host;
    obj.hostname = this.hostname;
    obj.port = this.port;
    obj.pathname = this.pathname;
    obj.search = this.search;
    obj.searchParams = this.searchParams;
    obj.hash = this.hash;
    return constructor.name + ' ' + inspect(obj, opts);
  });
  const accessors = {
    protocol: (s, v) => rebuild(s, { protocol: v.replace(/:.*$/, '') + ':' }),
    username: (s, v) => rebuild(s, { username: native.userinfoEncode(v) }),
    password: (s, v) => rebuild(s, { password: native.userinfoEncode(v) }),
    host: (s, v) => { const i = v.lastIndexOf(':'); return i > v.lastIndexOf(']') ? rebuild(s, { hostname: v.slice(0, i), port: v.slice(i + 1) }) : rebuild(s, { hostname: v }); },
    hostname: (s, v) => rebuild(s, { hostname: v }),
    port: (s, v) => rebuild(s, { port: v.replace(/[^0-9].*$/, '') }),
    pathname: (s, v) => rebuild(s, { pathname: v === '' || v[0] === '/' ? v : '/' + v }),
    search: (s, v) => rebuild(s, { search: v === '' ? '' : v[0] === '?' ? v : '?' + v }),
    hash: (s, v) => rebuild(s, { hash: v === '' ? '' : v[0] === '#' ? v : '#' + v }),
  };
  for (const name of Object.keys(accessors)) {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, name);
    Object.defineProperty(URL.prototype, name, { get: d.get, set: setter(name, accessors[name]), enumerable: true, configurable: true });
  }
  for (const name of ['href', 'origin', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'searchParams', 'protocol', 'toString', 'toJSON']) {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, name);
    d.enumerable = true;
    Object.defineProperty(URL.prototype, name, d);
  }
  native.setTag(URL.prototype, 'URL');
  return { URL, URLSearchParams };
})
