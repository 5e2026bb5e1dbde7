// toLocaleString for numbers, BigInts and dates, and localeCompare, through
// Intl; installed when the snippet mentions toLocale or localeCompare.
(function (Intl, native) {
  'use strict';
  const define = (obj, name, fn) => Object.defineProperty(obj, name, { value: fn, writable: true, configurable: true, enumerable: false });
  const numberValue = Number.prototype.valueOf, bigintValue = BigInt.prototype.valueOf, dateValue = Date.prototype.getTime;
  define(Number.prototype, 'toLocaleString', function toLocaleString(locales = undefined, options = undefined) {
    return new Intl.NumberFormat(locales, options).format(numberValue.call(this));
  });
  define(BigInt.prototype, 'toLocaleString', function toLocaleString(locales = undefined, options = undefined) {
    return new Intl.NumberFormat(locales, options).format(bigintValue.call(this));
  });
  const dateMethod = (name, required, defaults) => define(Date.prototype, name, {
    [name](locales = undefined, options = undefined) {
      const t = dateValue.call(this);
      if (t !== t) return 'Invalid Date';
      return native.formatDate(native.dateFormat(locales, options, required, defaults), t);
    },
  }[name]);
  define(String.prototype, 'localeCompare', function localeCompare(that, locales = undefined, options = undefined) {
    if (this === undefined || this === null) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    return new Intl.Collator(locales, options).compare(String(this), String(that));
  });
  dateMethod('toLocaleString', 'any', 'all');
  dateMethod('toLocaleDateString', 'date', 'date');
  dateMethod('toLocaleTimeString', 'time', 'time');
})
