// toLocaleString for numbers, BigInts and dates, and localeCompare, through
// Intl; installed when the snippet's code names toLocale… or localeCompare.
(function (Intl, native) {
  'use strict';
  const define = (obj, name, fn) => Object.defineProperty(obj, name, { value: fn, writable: true, configurable: true, enumerable: false });
  const numberValue = Number.prototype.valueOf, bigintValue = BigInt.prototype.valueOf, dateValue = Date.prototype.getTime;
  // Each method makes a format per call, as the specification says, except
  // when called without locales and options (the usual call, often in a
  // loop or a sort): that format is made once, on first use, and reused.
  const formatFor = (make) => {
    let plain;
    return (locales, options) => locales === undefined && options === undefined ? (plain ??= make()) : make(locales, options);
  };
  const numberFormat = formatFor((locales, options) => new Intl.NumberFormat(locales, options).format);
  define(Number.prototype, 'toLocaleString', function toLocaleString(locales = undefined, options = undefined) {
    return numberFormat(locales, options)(numberValue.call(this));
  });
  define(BigInt.prototype, 'toLocaleString', function toLocaleString(locales = undefined, options = undefined) {
    return numberFormat(locales, options)(bigintValue.call(this));
  });
  const dateMethod = (name, required, defaults) => {
    const dateFormat = formatFor((locales, options) => native.dateFormat(locales, options, required, defaults));
    define(Date.prototype, name, {
      [name](locales = undefined, options = undefined) {
        const t = dateValue.call(this);
        if (t !== t) return 'Invalid Date';
        return native.formatDate(dateFormat(locales, options), t);
      },
    }[name]);
  };
  const compare = formatFor((locales, options) => new Intl.Collator(locales, options).compare);
  define(String.prototype, 'localeCompare', function localeCompare(that, locales = undefined, options = undefined) {
    if (this === undefined || this === null) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    return compare(locales, options)(String(this), String(that));
  });
  dateMethod('toLocaleString', 'any', 'all');
  dateMethod('toLocaleDateString', 'date', 'date');
  dateMethod('toLocaleTimeString', 'time', 'time');
})
