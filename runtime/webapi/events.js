// Event, CustomEvent, EventTarget, AbortController and AbortSignal, as
// Node 20's globals. AbortSignal.timeout uses an interval, cleared when it
// fires, so that a pending timeout signal does not keep a finished run
// alive (Node unrefs its timer for the same reason).
(function (native, DOMException, setInterval, clearInterval, queueMicrotask) {
  'use strict';
  const { ERR, outOfRange } = native.errors;

  class Event {
    #type; #bubbles; #cancelable; #composed;
    #defaultPrevented = false;
    #timeStamp;
    #stop = false;
    #target = null;
    #current = null;
    #phase = 0;
    #dispatching = false;
    #passive = false;
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw ERR('ERR_MISSING_ARGS', TypeError, 'The "type" argument must be specified');
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "options" argument must be of type object.');
      }
      this.#type = String(type);
      this.#bubbles = Boolean(options && options.bubbles);
      this.#cancelable = Boolean(options && options.cancelable);
      this.#composed = Boolean(options && options.composed);
      this.#timeStamp = native.now();
    }
    get type() { return this.#type; }
    get bubbles() { return this.#bubbles; }
    get cancelable() { return this.#cancelable; }
    get composed() { return this.#composed; }
    get defaultPrevented() { return this.#cancelable && this.#defaultPrevented; }
    get timeStamp() { return this.#timeStamp; }
    get target() { return this.#target; }
    get currentTarget() { return this.#current; }
    get srcElement() { return this.#target; }
    get eventPhase() { return this.#phase; }
    get isTrusted() { return false; }
    get returnValue() { return !this.defaultPrevented; }
    set returnValue(v) { if (!v) this.preventDefault(); }
    get cancelBubble() { return this.#stop; }
    set cancelBubble(v) { if (v) this.#stop = true; }
    composedPath() { return this.#dispatching ? [this.#current] : []; }
    preventDefault() { if (!this.#passive) this.#defaultPrevented = true; }
    stopPropagation() { this.#stop = true; }
    stopImmediatePropagation() { this.#stop = true; Event.#immediate.add(this); }
    static #immediate = new WeakSet();
    static _begin(e, target) {
      if (e.#dispatching) throw ERR('ERR_EVENT_RECURSION', Error, 'The event "' + e.#type + '" is already being dispatched');
      e.#dispatching = true; e.#target = target; e.#current = target; e.#phase = 2;
    }
    static _passive(e, p) { e.#passive = p; }
    static _stopped(e) { return Event.#immediate.has(e); }
    static _end(e) { e.#dispatching = false; e.#current = null; e.#phase = 0; }
  }
  for (const [k, v] of [['NONE', 0], ['CAPTURING_PHASE', 1], ['AT_TARGET', 2], ['BUBBLING_PHASE', 3]]) {
    Object.defineProperty(Event, k, { value: v, enumerable: true });
    Object.defineProperty(Event.prototype, k, { value: v, enumerable: true });
  }
  native.setTag(Event.prototype, 'Event');
  const begin = Event._begin, passive = Event._passive, stopped = Event._stopped, end = Event._end;
  delete Event._begin; delete Event._passive; delete Event._stopped; delete Event._end;
  native.registerInspect(Event.prototype, function (depth, opts, inspect) {
    const name = this.constructor.name;
    if (typeof depth === 'number' && depth < 0) return name;
    const obj = Object.create({ constructor: this.constructor });
    obj.type = this.type;
    obj.defaultPrevented = this.defaultPrevented;
    obj.cancelable = this.cancelable;
    obj.timeStamp = this.timeStamp;
    return name + ' ' + inspect(obj, opts);
  });

  class CustomEvent extends Event {
    #detail;
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw ERR('ERR_MISSING_ARGS', TypeError, 'The "type" argument must be specified');
      super(type, options);
      this.#detail = options && options.detail !== undefined ? options.detail : null;
    }
    get detail() { return this.#detail; }
  }
  native.setTag(CustomEvent.prototype, 'CustomEvent');

  const listenerKey = (l, capture) => ({ l, capture });
  class EventTarget {
    #listeners = new Map();
    addEventListener(type, listener, options = undefined) {
      if (arguments.length < 2) throw ERR('ERR_MISSING_ARGS', TypeError, 'The "type" and "listener" arguments must be specified');
      if (listener === null || listener === undefined) return;
      const o = typeof options === 'boolean' ? { capture: options } : (options || {});
      const capture = Boolean(o.capture);
      const signal = o.signal;
      if (signal !== undefined && signal.aborted) return;
      type = String(type);
      let list = this.#listeners.get(type);
      if (!list) { list = []; this.#listeners.set(type, list); }
      if (list.some((x) => x.l === listener && x.capture === capture)) return;
      const entry = Object.assign(listenerKey(listener, capture), { once: Boolean(o.once), passive: Boolean(o.passive), removed: false });
      list.push(entry);
      if (signal !== undefined) {
        signal.addEventListener('abort', () => this.removeEventListener(type, listener, { capture }), { once: true });
      }
    }
    removeEventListener(type, listener, options = undefined) {
      const capture = typeof options === 'boolean' ? options : Boolean(options && options.capture);
      const list = this.#listeners.get(String(type));
      if (!list) return;
      const i = list.findIndex((x) => x.l === listener && x.capture === capture);
      if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
    }
    dispatchEvent(event) {
      if (!(event instanceof Event)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "event" argument must be an instance of Event. Received ' + (event === null ? 'null' : typeof event));
      begin(event, this);
      try {
        const list = this.#listeners.get(event.type);
        for (const entry of list ? list.slice() : []) {
          if (entry.removed) continue;
          if (entry.once) this.removeEventListener(event.type, entry.l, { capture: entry.capture });
          passive(event, entry.passive);
          try {
            const l = entry.l;
            if (typeof l === 'function') l.call(this, event);
            else if (l && typeof l.handleEvent === 'function') l.handleEvent(event);
          } catch (err) {
            queueMicrotask(() => { throw err; });
          }
          passive(event, false);
          if (stopped(event)) break;
        }
      } finally {
        end(event);
      }
      return !event.defaultPrevented;
    }
  }
  native.setTag(EventTarget.prototype, 'EventTarget');

  const ILLEGAL = {};
  class AbortSignal extends EventTarget {
    #aborted = false;
    #reason = undefined;
    #onabort = null;
    constructor(key) {
      if (key !== ILLEGAL) throw ERR('ERR_ILLEGAL_CONSTRUCTOR', TypeError, 'Illegal constructor');
      super();
    }
    get aborted() { return this.#aborted; }
    get reason() { return this.#reason; }
    get onabort() { return this.#onabort; }
    set onabort(fn) {
      if (this.#onabort) this.removeEventListener('abort', this.#onabort);
      this.#onabort = typeof fn === 'function' ? fn : null;
      if (this.#onabort) this.addEventListener('abort', this.#onabort);
    }
    throwIfAborted() { if (this.#aborted) throw this.#reason; }
    static _abort(s, reason) {
      if (s.#aborted) return;
      s.#aborted = true;
      s.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      s.dispatchEvent(new Event('abort'));
    }
    static abort(reason = undefined) {
      const s = new AbortSignal(ILLEGAL);
      s.#aborted = true;
      s.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      return s;
    }
    static timeout(delay) {
      const ms = Number(delay);
      if (typeof delay !== 'number') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "delay" argument must be of type number. Received ' + (delay === undefined ? 'undefined' : delay === null ? 'null' : 'type ' + typeof delay + ' (' + String(delay) + ')'));
      if (!Number.isInteger(ms)) throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "delay" is out of range. It must be an integer. Received ' + String(delay));
      if (ms < 0 || ms > 4294967295) throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "delay" is out of range. It must be >= 0 && <= 4294967295. Received ' + outOfRange(delay));
      const s = new AbortSignal(ILLEGAL);
      const id = setInterval(() => {
        clearInterval(id);
        abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, ms);
      return s;
    }
    static any(signals) {
      if (signals === null || typeof signals !== 'object' || typeof signals[Symbol.iterator] !== 'function') {
        throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "signals" argument must be an instance of Array.');
      }
      const list = [...signals];
      list.forEach((x, i) => {
        if (!(x instanceof AbortSignal)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "signals[' + i + ']" argument must be an instance of AbortSignal.');
      });
      const s = new AbortSignal(ILLEGAL);
      const done = list.find((x) => x.aborted);
      if (done) {
        s.#aborted = true;
        s.#reason = done.reason;
        return s;
      }
      for (const x of list) x.addEventListener('abort', () => abortSignal(s, x.reason), { once: true });
      return s;
    }
  }
  native.setTag(AbortSignal.prototype, 'AbortSignal');
  const abortSignal = AbortSignal._abort;
  delete AbortSignal._abort;
  native.registerInspect(AbortSignal.prototype, function (depth, opts, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const obj = Object.create({ constructor: AbortSignal });
    obj.aborted = this.aborted;
    return 'AbortSignal ' + inspect(obj, opts);
  });

  class AbortController {
    #signal = new AbortSignal(ILLEGAL);
    get signal() { return this.#signal; }
    abort(reason = undefined) { abortSignal(this.#signal, reason); }
  }
  native.setTag(AbortController.prototype, 'AbortController');
  native.registerInspect(AbortController.prototype, function (depth, opts, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const obj = Object.create({ constructor: AbortController });
    obj.signal = this.signal;
    return 'AbortController ' + inspect(obj, opts);
  });

  return { Event, CustomEvent, EventTarget, AbortController, AbortSignal };
})
