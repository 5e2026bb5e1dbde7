// Intl: NumberFormat and DateTimeFormat backed by native formatters (en-US
// complete, a few other locales, any other locale falling back to en-US),
// with PluralRules, Collator, ListFormat and RelativeTimeFormat for English.
(function (native) {
  'use strict';
  const incompatible = (what, o) => new TypeError('Method Intl.' + what + ' called on incompatible receiver ' + String(o));

  class NumberFormat {
    #token;
    #format;
    static #of(o, what) {
      try { return o.#token; } catch { throw incompatible('NumberFormat.prototype.' + what, o); }
    }
    constructor(locales = undefined, options = undefined) {
      this.#token = native.numberFormat(locales, options);
    }
    get format() {
      const t = NumberFormat.#of(this, 'format');
      if (this.#format === undefined) this.#format = (x) => native.formatNumber(t, x);
      return this.#format;
    }
    formatToParts(x) { return native.formatNumberToParts(NumberFormat.#of(this, 'formatToParts'), x); }
    formatRange(a, b) { const t = NumberFormat.#of(this, 'formatRange'); return native.formatNumber(t, a) + '–' + native.formatNumber(t, b); }
    resolvedOptions() { return native.numberResolvedOptions(NumberFormat.#of(this, 'resolvedOptions')); }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(NumberFormat.prototype, 'Intl.NumberFormat');

  class DateTimeFormat {
    #token;
    #format;
    static #of(o, what) {
      try { return o.#token; } catch { throw incompatible('DateTimeFormat.prototype.' + what, o); }
    }
    constructor(locales = undefined, options = undefined) {
      this.#token = native.dateFormat(locales, options, 'any', 'date');
    }
    get format() {
      const t = DateTimeFormat.#of(this, 'format');
      if (this.#format === undefined) this.#format = (d) => native.formatDate(t, d === undefined ? Date.now() : Number(d));
      return this.#format;
    }
    formatToParts(d) { return [{ type: 'literal', value: this.format(d) }]; }
    formatRange(a, b) { return this.format(a) + ' – ' + this.format(b); }
    resolvedOptions() { return native.dateResolvedOptions(DateTimeFormat.#of(this, 'resolvedOptions')); }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(DateTimeFormat.prototype, 'Intl.DateTimeFormat');

  class PluralRules {
    #type;
    constructor(locales = undefined, options = {}) {
      this.#type = options && options.type === 'ordinal' ? 'ordinal' : 'cardinal';
    }
    select(n) {
      n = Number(n);
      if (this.#type === 'ordinal') {
        const a = Math.abs(n), m10 = a % 10, m100 = a % 100;
        if (m10 === 1 && m100 !== 11) return 'one';
        if (m10 === 2 && m100 !== 12) return 'two';
        if (m10 === 3 && m100 !== 13) return 'few';
        return 'other';
      }
      return n === 1 || n === -1 ? 'one' : 'other';
    }
    resolvedOptions() { return { locale: 'en-US', type: this.#type, minimumIntegerDigits: 1, minimumFractionDigits: 0, maximumFractionDigits: 3, pluralCategories: this.#type === 'ordinal' ? ['few', 'one', 'two', 'other'] : ['one', 'other'] }; }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(PluralRules.prototype, 'Intl.PluralRules');

  const collate = (a, b, numeric, base) => {
    if (base) { a = a.toLowerCase(); b = b.toLowerCase(); }
    if (numeric) {
      const re = /(\d+)|(\D+)/g;
      const pa = a.match(re) || [], pb = b.match(re) || [];
      for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
        const x = pa[i], y = pb[i];
        const nx = /^\d/.test(x), ny = /^\d/.test(y);
        if (nx && ny) {
          const d = Number(x) - Number(y);
          if (d !== 0) return d < 0 ? -1 : 1;
        } else {
          const c = x.localeCompare(y);
          if (c !== 0) return c < 0 ? -1 : 1;
        }
      }
      return pa.length === pb.length ? 0 : pa.length < pb.length ? -1 : 1;
    }
    const c = a.localeCompare(b);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  };
  class Collator {
    #numeric;
    #base;
    constructor(locales = undefined, options = {}) {
      options = options || {};
      this.#numeric = Boolean(options.numeric);
      this.#base = options.sensitivity === 'base' || options.sensitivity === 'accent';
    }
    #compare;
    get compare() {
      if (this.#compare === undefined) this.#compare = (a, b) => collate(String(a), String(b), this.#numeric, this.#base);
      return this.#compare;
    }
    resolvedOptions() { return { locale: 'en-US', usage: 'sort', sensitivity: this.#base ? 'base' : 'variant', ignorePunctuation: false, collation: 'default', numeric: this.#numeric, caseFirst: 'false' }; }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(Collator.prototype, 'Intl.Collator');

  class ListFormat {
    #type;
    #style;
    constructor(locales = undefined, options = {}) {
      options = options || {};
      this.#type = options.type || 'conjunction';
      this.#style = options.style || 'long';
    }
    format(list) {
      const items = [...list].map(String);
      const word = this.#type === 'disjunction' ? 'or' : this.#type === 'unit' ? '' : (this.#style === 'long' ? 'and' : '&');
      if (items.length === 0) return '';
      if (items.length === 1) return items[0];
      if (this.#type === 'unit') return items.join(this.#style === 'narrow' ? ' ' : ', ');
      if (items.length === 2) return items[0] + ' ' + word + ' ' + items[1];
      return items.slice(0, -1).join(', ') + ', ' + word + ' ' + items[items.length - 1];
    }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(ListFormat.prototype, 'Intl.ListFormat');

  const units = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  class RelativeTimeFormat {
    #numeric;
    #nf;
    constructor(locales = undefined, options = {}) {
      options = options || {};
      this.#numeric = options.numeric || 'always';
      this.#nf = new NumberFormat('en-US');
    }
    format(value, unit) {
      value = Number(value);
      let u = String(unit).replace(/s$/, '');
      if (!units.includes(u)) throw new RangeError('Invalid unit argument for format() \'' + unit + '\'');
      if (this.#numeric === 'auto') {
        const special = {
          day: { '-1': 'yesterday', '0': 'today', '1': 'tomorrow' },
          year: { '-1': 'last year', '0': 'this year', '1': 'next year' },
          month: { '-1': 'last month', '0': 'this month', '1': 'next month' },
          week: { '-1': 'last week', '0': 'this week', '1': 'next week' },
          quarter: { '-1': 'last quarter', '0': 'this quarter', '1': 'next quarter' },
          hour: { '0': 'this hour' }, minute: { '0': 'this minute' }, second: { '0': 'now' },
        };
        const s = special[u] && special[u][String(value)];
        if (s) return s;
      }
      const abs = Math.abs(value);
      const label = u + (abs === 1 ? '' : 's');
      const n = this.#nf.format(abs);
      return value < 0 || Object.is(value, -0) ? n + ' ' + label + ' ago' : 'in ' + n + ' ' + label;
    }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(RelativeTimeFormat.prototype, 'Intl.RelativeTimeFormat');

  const Intl = {};
  for (const [k, v] of Object.entries({ NumberFormat, DateTimeFormat, PluralRules, Collator, ListFormat, RelativeTimeFormat })) {
    Object.defineProperty(Intl, k, { value: v, writable: true, configurable: true });
  }
  Object.defineProperty(Intl, 'getCanonicalLocales', { value: (l) => native.supportedLocales(l, true), writable: true, configurable: true });
  native.setTag(Intl, 'Intl');
  return Intl;
})
