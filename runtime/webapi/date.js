// Date, as node prints and parses it where goja differs: toString and
// toTimeString name the zone in full ("(Coordinated Universal Time)",
// not "(UTC)"), and a string of seven or more digits is an invalid date,
// not year 0. The prototype is the original's, so instanceof and every
// other method are unchanged.
(function (Orig) {
  'use strict';
  const proto = Orig.prototype;
  const zones = {
    UTC: 'Coordinated Universal Time', GMT: 'Greenwich Mean Time', BST: 'British Summer Time',
    EST: 'Eastern Standard Time', EDT: 'Eastern Daylight Time', CST: 'Central Standard Time', CDT: 'Central Daylight Time',
    MST: 'Mountain Standard Time', MDT: 'Mountain Daylight Time', PST: 'Pacific Standard Time', PDT: 'Pacific Daylight Time',
    AKST: 'Alaska Standard Time', AKDT: 'Alaska Daylight Time', HST: 'Hawaii-Aleutian Standard Time',
    CET: 'Central European Standard Time', CEST: 'Central European Summer Time',
    EET: 'Eastern European Standard Time', EEST: 'Eastern European Summer Time',
    WET: 'Western European Standard Time', WEST: 'Western European Summer Time',
    JST: 'Japan Standard Time', KST: 'Korean Standard Time', IST: 'India Standard Time',
  };
  const fullZone = (s) => s.replace(/\(([A-Z]{3,5})\)$/, (m, abbr) => (zones[abbr] ? '(' + zones[abbr] + ')' : m));
  const origToString = proto.toString, origTimeString = proto.toTimeString;
  Object.defineProperty(proto, 'toString', { value: function toString() { return fullZone(origToString.call(this)); }, writable: true, configurable: true });
  Object.defineProperty(proto, 'toTimeString', { value: function toTimeString() { return fullZone(origTimeString.call(this)); }, writable: true, configurable: true });

  const digitsOnly = /^\s*\d{7,}\s*$/;
  const parse = function parse(s) { return digitsOnly.test(String(s)) ? NaN : Orig.parse(s); };
  function Date(...args) {
    if (new.target === undefined) return fullZone(Orig());
    if (args.length === 1 && typeof args[0] === 'string') args = [parse(args[0])];
    return Reflect.construct(Orig, args, new.target);
  }
  Object.defineProperty(Date, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(proto, 'constructor', { value: Date, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(Date, 'length', { value: 7 });
  for (const k of ['now', 'UTC']) Object.defineProperty(Date, k, { value: Orig[k], writable: true, configurable: true });
  Object.defineProperty(Date, 'parse', { value: parse, writable: true, configurable: true });
  return Date;
})
