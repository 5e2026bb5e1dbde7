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
    formatToParts(d) { return native.formatDateToParts(DateTimeFormat.#of(this, 'formatToParts'), d === undefined ? Date.now() : Number(d)); }
    formatRange(a, b) { return this.format(a) + ' – ' + this.format(b); }
    resolvedOptions() { return native.dateResolvedOptions(DateTimeFormat.#of(this, 'resolvedOptions')); }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(DateTimeFormat.prototype, 'Intl.DateTimeFormat');

  class PluralRules {
    #token;
    static #of(o, what) {
      try { return o.#token; } catch { throw incompatible('PluralRules.prototype.' + what, o); }
    }
    constructor(locales = undefined, options = undefined) {
      if (new.target === undefined) throw new TypeError("Constructor Intl.PluralRules requires 'new'");
      this.#token = native.pluralRules(locales, options);
    }
    select(n) { return native.pluralSelect(PluralRules.#of(this, 'select'), Number(n)); }
    resolvedOptions() { return native.pluralResolved(PluralRules.#of(this, 'resolvedOptions')); }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(PluralRules.prototype, 'Intl.PluralRules');

  class Collator {
    #token;
    #compare;
    static #of(o, what) {
      try { return o.#token; } catch { throw incompatible('Collator.prototype.' + what, o); }
    }
    constructor(locales = undefined, options = undefined) {
      this.#token = native.collator(locales, options);
    }
    get compare() {
      const t = Collator.#of(this, 'compare');
      if (this.#compare === undefined) this.#compare = (a, b) => native.collatorCompare(t, String(a), String(b));
      return this.#compare;
    }
    resolvedOptions() { return native.collatorResolved(Collator.#of(this, 'resolvedOptions')); }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(Collator.prototype, 'Intl.Collator');

  // listData are CLDR list patterns as [middle, two, end] per locale and
  // kind (conjunction, disjunction, short conjunction, unit); en-US is the
  // default below.
  const listData = {
    'en-GB': { conj: [', ', ' and ', ' and '], disj: [', ', ' or ', ' or '], short: [', ', ' and ', ' and '], unit: [', ', ', ', ', '] },
    de: { conj: [', ', ' und ', ' und '], disj: [', ', ' oder ', ' oder '], short: [', ', ' und ', ' und '], unit: [', ', ', ', ' und '] },
    fr: { conj: [', ', ' et ', ' et '], disj: [', ', ' ou ', ' ou '], short: [', ', ' et ', ' et '], unit: [', ', ' et ', ' et '] },
    es: { conj: [', ', ' y ', ' y '], disj: [', ', ' o ', ' o '], short: [', ', ' y ', ' y '], unit: [', ', ' y ', ' y '] },
    pt: { conj: [', ', ' e ', ' e '], disj: [', ', ' ou ', ' ou '], short: [', ', ' e ', ' e '], unit: [', ', ' e ', ' e '] },
    ja: { conj: ['、', '、', '、'], disj: ['、', 'または', '、または'], short: ['、', '、', '、'], unit: [' ', ' ', ' '] },
    zh: { conj: ['、', '和', '和'], disj: ['、', '或', '或'], short: ['、', '和', '和'], unit: ['', '', ''] },
    hi: { conj: [', ', ' और ', ', और '], disj: [', ', ' या ', ' या '], short: [', ', ' और ', ' और '], unit: [', ', ' और ', ', और '] },
  };
  const listLocale = (locales) => {
    let tag = Array.isArray(locales) ? locales[0] : locales;
    if (typeof tag !== 'string') return null;
    tag = tag.replace(/_/g, '-');
    if (/^en-GB$/i.test(tag)) return listData['en-GB'];
    return listData[tag.split('-')[0].toLowerCase()] || null;
  };
  class ListFormat {
    #type;
    #style;
    #data;
    constructor(locales = undefined, options = {}) {
      options = options || {};
      this.#type = options.type || 'conjunction';
      this.#style = options.style || 'long';
      this.#data = listLocale(locales);
    }
    format(list) {
      const items = [...list].map(String);
      if (this.#data) {
        const d = this.#data;
        const [middle, two, end] = this.#type === 'disjunction' ? d.disj : this.#type === 'unit' ? d.unit : this.#style === 'long' ? d.conj : d.short;
        if (items.length === 0) return '';
        if (items.length === 1) return items[0];
        if (items.length === 2) return items[0] + two + items[1];
        return items.slice(0, -1).join(middle) + end + items[items.length - 1];
      }
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

  // NumberFormat, DateTimeFormat and Collator may be called without new.
  const callable = (C) => {
    const F = { [C.name]: function (locales = undefined, options = undefined) { return new C(locales, options); } }[C.name];
    Object.defineProperty(F, 'prototype', { value: C.prototype, writable: false });
    Object.defineProperty(C.prototype, 'constructor', { value: F, writable: true, configurable: true });
    F.supportedLocalesOf = C.supportedLocalesOf;
    return F;
  };
  const Intl = {};
  for (const [k, v] of Object.entries({ NumberFormat: callable(NumberFormat), DateTimeFormat: callable(DateTimeFormat), PluralRules, Collator: callable(Collator), ListFormat, RelativeTimeFormat })) {
    Object.defineProperty(Intl, k, { value: v, writable: true, configurable: true });
  }
  Object.defineProperty(Intl, 'getCanonicalLocales', { value: (l) => native.supportedLocales(l, true), writable: true, configurable: true });
  native.setTag(Intl, 'Intl');
  return Intl;
})
