// The helpers with which buffer.js, events.js, process.js and
// textcoding.js make node's errors, defined once and given to them as
// native.errors: never a global.
(function () {
  'use strict';
  // ERR makes a Ctor error with node's code property.
  const ERR = (code, Ctor, msg) => { const e = new Ctor(msg); e.code = code; return e; };
  // outOfRange writes a received number as node's ERR_OUT_OF_RANGE does:
  // integers beyond 2 ** 32 with _ separators.
  const outOfRange = (v) => (Number.isInteger(v) && Math.abs(v) > 2 ** 32 ? String(v).replace(/\B(?=(\d{3})+(?!\d))/g, '_') : String(v));
  return { ERR, outOfRange };
})
