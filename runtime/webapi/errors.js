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
  // received says what a function got instead of the type it needs, as
  // node's ERR_INVALID_ARG_TYPE messages end: " Received an instance of
  // Array", " Received type number (1)".
  const received = (v) => {
    if (v === null) return ' Received null';
    if (v === undefined) return ' Received undefined';
    if (typeof v === 'function') return ' Received function ' + v.name;
    if (typeof v === 'object') return v.constructor && v.constructor.name ? ' Received an instance of ' + v.constructor.name : ' Received ' + String(v);
    let s = String(v);
    if (s.length > 28) s = s.slice(0, 25) + '...';
    if (typeof v === 'string') s = "'" + s + "'";
    return ' Received type ' + typeof v + ' (' + s + ')';
  };
  return { ERR, outOfRange, received };
})
