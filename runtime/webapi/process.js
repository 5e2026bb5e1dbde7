// process: a sandbox's process object with Node 20's shape for what a
// snippet reasonably uses. env holds only what the embedder passed;
// stdout/stderr write into the run's captured streams; exit ends the run.
// nextTick callbacks run when the microtask queue has drained, before
// anything else the loop does (native.ticksPending tells the loop, which
// calls the drain function given to native.setDrain).
(function (native, queueMicrotask) {
  'use strict';
  const { ERR } = native.errors;
  const ticks = [];
  native.setDrain(() => {
    while (ticks.length > 0) {
      const [fn, args] = ticks.shift();
      fn(...args);
    }
  });
  const stream = (fd, name) => {
    const write = (chunk, encoding, cb) => {
      if (typeof encoding === 'function') { cb = encoding; encoding = undefined; }
      if (typeof chunk === 'string') native.write(fd, chunk);
      else if (chunk instanceof Uint8Array) native.write(fd, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(encoding));
      else throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array.');
      if (typeof cb === 'function') queueMicrotask(cb);
      return true;
    };
    return { fd, write, writable: true, _type: name, end(chunk, encoding, cb) { if (chunk !== undefined && typeof chunk !== 'function') write(chunk, encoding, cb); } };
  };
  const exitCodeOf = (v) => {
    if (v === undefined || v === null) return undefined;
    if ((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?[0-9]+$/.test(v.trim()))) return Number(v) | 0;
    if (typeof v === 'number') throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "code" is out of range. It must be an integer. Received ' + String(v));
    throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "code" argument must be of type number. Received ' + (typeof v === 'object' ? 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : 'type ' + typeof v + ' (' + (typeof v === 'string' ? "'" + v + "'" : String(v)) + ')'));
  };
  let exitCode;
  const listeners = new Map();
  const process = {
    title: 'codeexec',
    version: native.version,
    versions: { node: native.version.slice(1) },
    arch: native.arch,
    platform: native.platform,
    release: { name: 'node' },
    argv: native.argv,
    argv0: native.argv[0],
    execArgv: [],
    execPath: native.argv[0],
    pid: 1,
    ppid: 0,
    env: native.env,
    stdout: stream(1, 'stdout'),
    stderr: stream(2, 'stderr'),
    cwd() { return native.cwd; },
    chdir(dir) { throw ERR('ERR_WORKER_UNSUPPORTED_OPERATION', TypeError, 'process.chdir() is not supported in this sandbox'); },
    exit(code) {
      const c = exitCodeOf(code);
      native.exit(c === undefined ? (exitCode === undefined ? 0 : exitCode) : c);
    },
    nextTick(fn, ...args) {
      if (typeof fn !== 'function') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "callback" argument must be of type function. Received ' + (fn === null ? 'null' : typeof fn === 'object' ? 'an instance of ' + ((fn.constructor && fn.constructor.name) || 'Object') : 'type ' + typeof fn + ' (' + String(fn) + ')'));
      if (ticks.length === 0) native.ticksPending();
      ticks.push([fn, args]);
    },
    hrtime(prev) {
      const ns = native.hrtime();
      let s = Math.floor(ns / 1e9), n = ns % 1e9;
      if (prev !== undefined) {
        if (!Array.isArray(prev)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "time" argument must be an instance of Array.');
        s -= prev[0]; n -= prev[1];
        if (n < 0) { s -= 1; n += 1e9; }
      }
      return [s, n];
    },
    memoryUsage() { return native.memoryUsage(); },
    uptime() { return native.hrtime() / 1e9; },
    cpuUsage() { const us = Math.round(native.hrtime() / 1e3); return { user: us, system: 0 }; },
    emitWarning(warning) { native.write(2, '(node:1) ' + (warning instanceof Error ? warning.name + ': ' + warning.message : 'Warning: ' + String(warning)) + '\n'); },
    on(event, fn) { if (!listeners.has(event)) listeners.set(event, []); listeners.get(event).push(fn); return process; },
    once(event, fn) { return process.on(event, fn); },
    off(event, fn) { const l = listeners.get(event); if (l) { const i = l.indexOf(fn); if (i >= 0) l.splice(i, 1); } return process; },
    emit(event, ...args) { const l = listeners.get(event); if (!l || l.length === 0) return false; for (const fn of l.slice()) fn(...args); return true; },
    listenerCount(event) { const l = listeners.get(event); return l ? l.length : 0; },
  };
  process.addListener = process.on;
  process.removeListener = process.off;
  process.hrtime.bigint = () => BigInt(native.hrtime());
  process.memoryUsage.rss = () => native.memoryUsage().rss;
  Object.defineProperty(process, 'exitCode', {
    get() { return exitCode; },
    set(v) { exitCode = exitCodeOf(v); native.setExitCode(exitCode === undefined ? 0 : exitCode); },
    enumerable: true, configurable: false,
  });
  native.setTag(process, 'process');
  return process;
})
