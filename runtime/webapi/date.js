// Date, as node prints and parses it where goja differs: toString and
// toTimeString name the zone in full ("(Coordinated Universal Time)",
// not "(UTC)"), and a string of seven or more digits is an invalid date,
// not year 0. The prototype is the original's, so instanceof and every
// other method are unchanged.
(function (Orig) {
  'use strict';
  const proto = Orig.prototype;
  // The factory runs for every snippet whose code names Date, so it makes
  // nothing it can leave to the first call: no regular expression (the
  // first one costs the VM its RegExp prototype), no table, no iterator.
  let zones;
  // fullZone replaces a final "(ABBR)", three to five capitals, with the
  // zone's full name when it has one.
  const fullZone = (s) => {
    const open = s.lastIndexOf('(');
    const abbr = s.slice(open + 1, -1);
    if (open < 0 || s[s.length - 1] !== ')' || abbr.length < 3 || abbr.length > 5) return s;
    for (let i = 0; i < abbr.length; i++) {
      const c = abbr.charCodeAt(i);
      if (c < 65 || c > 90) return s;
    }
    zones ??= {
      UTC: 'Coordinated Universal Time', GMT: 'Greenwich Mean Time', BST: 'British Summer Time',
      EST: 'Eastern Standard Time', EDT: 'Eastern Daylight Time', CST: 'Central Standard Time', CDT: 'Central Daylight Time',
      MST: 'Mountain Standard Time', MDT: 'Mountain Daylight Time', PST: 'Pacific Standard Time', PDT: 'Pacific Daylight Time',
      AKST: 'Alaska Standard Time', AKDT: 'Alaska Daylight Time', HST: 'Hawaii-Aleutian Standard Time',
      CET: 'Central European Standard Time', CEST: 'Central European Summer Time',
      EET: 'Eastern European Standard Time', EEST: 'Eastern European Summer Time',
      WET: 'Western European Standard Time', WEST: 'Western European Summer Time',
      JST: 'Japan Standard Time', KST: 'Korean Standard Time', IST: 'India Standard Time',
    };
    const name = zones[abbr];
    return name ? s.slice(0, open) + '(' + name + ')' : s;
  };
  const origToString = proto.toString, origTimeString = proto.toTimeString;
  Object.defineProperty(proto, 'toString', { value: function toString() { return fullZone(origToString.call(this)); }, writable: true, configurable: true });
  Object.defineProperty(proto, 'toTimeString', { value: function toTimeString() { return fullZone(origTimeString.call(this)); }, writable: true, configurable: true });

  // A string of seven or more ASCII digits between white space (what
  // /^\s*\d{7,}\s*$/ matches: trim removes what \s does) is no date.
  const parse = function parse(s) {
    const t = String(s).trim();
    let digits = t.length >= 7;
    for (let i = 0; digits && i < t.length; i++) {
      const c = t.charCodeAt(i);
      digits = c >= 48 && c <= 57;
    }
    return digits ? NaN : Orig.parse(s);
  };
  function Date(...args) {
    if (new.target === undefined) return fullZone(Orig());
    if (args.length === 1 && typeof args[0] === 'string') args = [parse(args[0])];
    return Reflect.construct(Orig, args, new.target);
  }
  Object.defineProperty(Date, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(proto, 'constructor', { value: Date, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(Date, 'length', { value: 7 });
  Object.defineProperty(Date, 'now', { value: Orig.now, writable: true, configurable: true });
  Object.defineProperty(Date, 'UTC', { value: Orig.UTC, writable: true, configurable: true });
  Object.defineProperty(Date, 'parse', { value: parse, writable: true, configurable: true });
  return Date;
})
