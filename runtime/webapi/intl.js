// Intl: NumberFormat and DateTimeFormat backed by native formatters (en-US
// complete, a few other locales, any other locale falling back to en-US),
// with PluralRules, Collator, ListFormat, DisplayNames and RelativeTimeFormat (long, short
// and narrow) for English and eight other locales.
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

  // rtfData are CLDR relative-time patterns (long style) by locale and
  // unit, as node v20 prints them: future and past patterns by plural
  // category, and the words numeric: "auto" uses. Built on first use.
  let rtfCache;
  const rtfData = () => rtfCache || (rtfCache = {"en-GB":{"year":{"future":{"other":"in {0} years","one":"in {0} year"},"past":{"other":"{0} years ago","one":"{0} year ago"},"auto":{"0":"this year","1":"next year","-1":"last year"}},"quarter":{"future":{"other":"in {0} quarters","one":"in {0} quarter"},"past":{"other":"{0} quarters ago","one":"{0} quarter ago"},"auto":{"0":"this quarter","1":"next quarter","-1":"last quarter"}},"month":{"future":{"other":"in {0} months","one":"in {0} month"},"past":{"other":"{0} months ago","one":"{0} month ago"},"auto":{"0":"this month","1":"next month","-1":"last month"}},"week":{"future":{"other":"in {0} weeks","one":"in {0} week"},"past":{"other":"{0} weeks ago","one":"{0} week ago"},"auto":{"0":"this week","1":"next week","-1":"last week"}},"day":{"future":{"other":"in {0} days","one":"in {0} day"},"past":{"other":"{0} days ago","one":"{0} day ago"},"auto":{"0":"today","1":"tomorrow","-1":"yesterday"}},"hour":{"future":{"other":"in {0} hours","one":"in {0} hour"},"past":{"other":"{0} hours ago","one":"{0} hour ago"},"auto":{"0":"this hour"}},"minute":{"future":{"other":"in {0} minutes","one":"in {0} minute"},"past":{"other":"{0} minutes ago","one":"{0} minute ago"},"auto":{"0":"this minute"}},"second":{"future":{"other":"in {0} seconds","one":"in {0} second"},"past":{"other":"{0} seconds ago","one":"{0} second ago"},"auto":{"0":"now"}}},"de":{"year":{"future":{"other":"in {0} Jahren","one":"in {0} Jahr"},"past":{"other":"vor {0} Jahren","one":"vor {0} Jahr"},"auto":{"0":"dieses Jahr","1":"nächstes Jahr","-1":"letztes Jahr"}},"quarter":{"future":{"other":"in {0} Quartalen","one":"in {0} Quartal"},"past":{"other":"vor {0} Quartalen","one":"vor {0} Quartal"},"auto":{"0":"dieses Quartal","1":"nächstes Quartal","-1":"letztes Quartal"}},"month":{"future":{"other":"in {0} Monaten","one":"in {0} Monat"},"past":{"other":"vor {0} Monaten","one":"vor {0} Monat"},"auto":{"0":"diesen Monat","1":"nächsten Monat","-1":"letzten Monat"}},"week":{"future":{"other":"in {0} Wochen","one":"in {0} Woche"},"past":{"other":"vor {0} Wochen","one":"vor {0} Woche"},"auto":{"0":"diese Woche","1":"nächste Woche","-1":"letzte Woche"}},"day":{"future":{"other":"in {0} Tagen","one":"in {0} Tag"},"past":{"other":"vor {0} Tagen","one":"vor {0} Tag"},"auto":{"0":"heute","1":"morgen","2":"übermorgen","-2":"vorgestern","-1":"gestern"}},"hour":{"future":{"other":"in {0} Stunden","one":"in {0} Stunde"},"past":{"other":"vor {0} Stunden","one":"vor {0} Stunde"},"auto":{"0":"in dieser Stunde"}},"minute":{"future":{"other":"in {0} Minuten","one":"in {0} Minute"},"past":{"other":"vor {0} Minuten","one":"vor {0} Minute"},"auto":{"0":"in dieser Minute"}},"second":{"future":{"other":"in {0} Sekunden","one":"in {0} Sekunde"},"past":{"other":"vor {0} Sekunden","one":"vor {0} Sekunde"},"auto":{"0":"jetzt"}}},"fr":{"year":{"future":{"one":"dans {0} an","other":"dans {0} ans"},"past":{"one":"il y a {0} an","other":"il y a {0} ans"},"auto":{"0":"cette année","1":"l’année prochaine","-1":"l’année dernière"}},"quarter":{"future":{"one":"dans {0} trimestre","other":"dans {0} trimestres"},"past":{"one":"il y a {0} trimestre","other":"il y a {0} trimestres"},"auto":{"0":"ce trimestre","1":"le trimestre prochain","-1":"le trimestre dernier"}},"month":{"future":{"one":"dans {0} mois","other":"dans {0} mois"},"past":{"one":"il y a {0} mois","other":"il y a {0} mois"},"auto":{"0":"ce mois-ci","1":"le mois prochain","-1":"le mois dernier"}},"week":{"future":{"one":"dans {0} semaine","other":"dans {0} semaines"},"past":{"one":"il y a {0} semaine","other":"il y a {0} semaines"},"auto":{"0":"cette semaine","1":"la semaine prochaine","-1":"la semaine dernière"}},"day":{"future":{"one":"dans {0} jour","other":"dans {0} jours"},"past":{"one":"il y a {0} jour","other":"il y a {0} jours"},"auto":{"0":"aujourd’hui","1":"demain","2":"après-demain","-2":"avant-hier","-1":"hier"}},"hour":{"future":{"one":"dans {0} heure","other":"dans {0} heures"},"past":{"one":"il y a {0} heure","other":"il y a {0} heures"},"auto":{"0":"cette heure-ci"}},"minute":{"future":{"one":"dans {0} minute","other":"dans {0} minutes"},"past":{"one":"il y a {0} minute","other":"il y a {0} minutes"},"auto":{"0":"cette minute-ci"}},"second":{"future":{"one":"dans {0} seconde","other":"dans {0} secondes"},"past":{"one":"il y a {0} seconde","other":"il y a {0} secondes"},"auto":{"0":"maintenant"}}},"es":{"year":{"future":{"other":"dentro de {0} años","one":"dentro de {0} año"},"past":{"other":"hace {0} años","one":"hace {0} año"},"auto":{"0":"este año","1":"el próximo año","-1":"el año pasado"}},"quarter":{"future":{"other":"dentro de {0} trimestres","one":"dentro de {0} trimestre"},"past":{"other":"hace {0} trimestres","one":"hace {0} trimestre"},"auto":{"0":"este trimestre","1":"el próximo trimestre","-1":"el trimestre pasado"}},"month":{"future":{"other":"dentro de {0} meses","one":"dentro de {0} mes"},"past":{"other":"hace {0} meses","one":"hace {0} mes"},"auto":{"0":"este mes","1":"el próximo mes","-1":"el mes pasado"}},"week":{"future":{"other":"dentro de {0} semanas","one":"dentro de {0} semana"},"past":{"other":"hace {0} semanas","one":"hace {0} semana"},"auto":{"0":"esta semana","1":"la próxima semana","-1":"la semana pasada"}},"day":{"future":{"other":"dentro de {0} días","one":"dentro de {0} día"},"past":{"other":"hace {0} días","one":"hace {0} día"},"auto":{"0":"hoy","1":"mañana","2":"pasado mañana","-2":"anteayer","-1":"ayer"}},"hour":{"future":{"other":"dentro de {0} horas","one":"dentro de {0} hora"},"past":{"other":"hace {0} horas","one":"hace {0} hora"},"auto":{"0":"esta hora"}},"minute":{"future":{"other":"dentro de {0} minutos","one":"dentro de {0} minuto"},"past":{"other":"hace {0} minutos","one":"hace {0} minuto"},"auto":{"0":"este minuto"}},"second":{"future":{"other":"dentro de {0} segundos","one":"dentro de {0} segundo"},"past":{"other":"hace {0} segundos","one":"hace {0} segundo"},"auto":{"0":"ahora"}}},"ja":{"year":{"future":{"other":"{0} 年後"},"past":{"other":"{0} 年前"},"auto":{"0":"今年","1":"来年","-1":"昨年"}},"quarter":{"future":{"other":"{0} 四半期後"},"past":{"other":"{0} 四半期前"},"auto":{"0":"今四半期","1":"翌四半期","-1":"前四半期"}},"month":{"future":{"other":"{0} か月後"},"past":{"other":"{0} か月前"},"auto":{"0":"今月","1":"来月","-1":"先月"}},"week":{"future":{"other":"{0} 週間後"},"past":{"other":"{0} 週間前"},"auto":{"0":"今週","1":"来週","-1":"先週"}},"day":{"future":{"other":"{0} 日後"},"past":{"other":"{0} 日前"},"auto":{"0":"今日","1":"明日","2":"明後日","-2":"一昨日","-1":"昨日"}},"hour":{"future":{"other":"{0} 時間後"},"past":{"other":"{0} 時間前"},"auto":{}},"minute":{"future":{"other":"{0} 分後"},"past":{"other":"{0} 分前"},"auto":{}},"second":{"future":{"other":"{0} 秒後"},"past":{"other":"{0} 秒前"},"auto":{"0":"今"}}},"zh":{"year":{"future":{"other":"{0}年后"},"past":{"other":"{0}年前"},"auto":{"0":"今年","1":"明年","-1":"去年"}},"quarter":{"future":{"other":"{0}个季度后"},"past":{"other":"{0}个季度前"},"auto":{"0":"本季度","1":"下季度","-1":"上季度"}},"month":{"future":{"other":"{0}个月后"},"past":{"other":"{0}个月前"},"auto":{"0":"本月","1":"下个月","-1":"上个月"}},"week":{"future":{"other":"{0}周后"},"past":{"other":"{0}周前"},"auto":{"0":"本周","1":"下周","-1":"上周"}},"day":{"future":{"other":"{0}天后"},"past":{"other":"{0}天前"},"auto":{"0":"今天","1":"明天","2":"后天","-2":"前天","-1":"昨天"}},"hour":{"future":{"other":"{0}小时后"},"past":{"other":"{0}小时前"},"auto":{"0":"这一时间 / 此时"}},"minute":{"future":{"other":"{0}分钟后"},"past":{"other":"{0}分钟前"},"auto":{"0":"此刻"}},"second":{"future":{"other":"{0}秒钟后"},"past":{"other":"{0}秒钟前"},"auto":{"0":"现在"}}},"pt":{"year":{"future":{"one":"em {0} ano","other":"em {0} anos"},"past":{"one":"há {0} ano","other":"há {0} anos"},"auto":{"0":"este ano","1":"próximo ano","-1":"ano passado"}},"quarter":{"future":{"one":"em {0} trimestre","other":"em {0} trimestres"},"past":{"one":"há {0} trimestre","other":"há {0} trimestres"},"auto":{"0":"este trimestre","1":"próximo trimestre","-1":"último trimestre"}},"month":{"future":{"one":"em {0} mês","other":"em {0} meses"},"past":{"one":"há {0} mês","other":"há {0} meses"},"auto":{"0":"este mês","1":"próximo mês","-1":"mês passado"}},"week":{"future":{"one":"em {0} semana","other":"em {0} semanas"},"past":{"one":"há {0} semana","other":"há {0} semanas"},"auto":{"0":"esta semana","1":"próxima semana","-1":"semana passada"}},"day":{"future":{"one":"em {0} dia","other":"em {0} dias"},"past":{"one":"há {0} dia","other":"há {0} dias"},"auto":{"0":"hoje","1":"amanhã","2":"depois de amanhã","-2":"anteontem","-1":"ontem"}},"hour":{"future":{"one":"em {0} hora","other":"em {0} horas"},"past":{"one":"há {0} hora","other":"há {0} horas"},"auto":{"0":"esta hora"}},"minute":{"future":{"one":"em {0} minuto","other":"em {0} minutos"},"past":{"one":"há {0} minuto","other":"há {0} minutos"},"auto":{"0":"este minuto"}},"second":{"future":{"one":"em {0} segundo","other":"em {0} segundos"},"past":{"one":"há {0} segundo","other":"há {0} segundos"},"auto":{"0":"agora"}}},"hi":{"year":{"future":{"one":"{0} वर्ष में","other":"{0} वर्ष में"},"past":{"one":"{0} वर्ष पहले","other":"{0} वर्ष पहले"},"auto":{"0":"इस वर्ष","1":"अगला वर्ष","-1":"पिछला वर्ष"}},"quarter":{"future":{"one":"{0} तिमाही में","other":"{0} तिमाहियों में"},"past":{"one":"{0} तिमाही पहले","other":"{0} तिमाही पहले"},"auto":{"0":"इस तिमाही","1":"अगली तिमाही","-1":"अंतिम तिमाही"}},"month":{"future":{"one":"{0} माह में","other":"{0} माह में"},"past":{"one":"{0} माह पहले","other":"{0} माह पहले"},"auto":{"0":"इस माह","1":"अगला माह","-1":"पिछला माह"}},"week":{"future":{"one":"{0} सप्ताह में","other":"{0} सप्ताह में"},"past":{"one":"{0} सप्ताह पहले","other":"{0} सप्ताह पहले"},"auto":{"0":"इस सप्ताह","1":"अगला सप्ताह","-1":"पिछला सप्ताह"}},"day":{"future":{"one":"{0} दिन में","other":"{0} दिन में"},"past":{"one":"{0} दिन पहले","other":"{0} दिन पहले"},"auto":{"0":"आज","1":"कल","2":"परसों","-2":"परसों","-1":"कल"}},"hour":{"future":{"one":"{0} घंटे में","other":"{0} घंटे में"},"past":{"one":"{0} घंटे पहले","other":"{0} घंटे पहले"},"auto":{"0":"यह घंटा"}},"minute":{"future":{"one":"{0} मिनट में","other":"{0} मिनट में"},"past":{"one":"{0} मिनट पहले","other":"{0} मिनट पहले"},"auto":{"0":"यह मिनट"}},"second":{"future":{"one":"{0} सेकंड में","other":"{0} सेकंड में"},"past":{"one":"{0} सेकंड पहले","other":"{0} सेकंड पहले"},"auto":{"0":"अब"}}}});
  // rtfStyled are the short and narrow patterns, in the same form, by
  // style and locale ("en" is also the fallback of a locale without data),
  // printed from node v20 by a script that formats each unit with a number
  // of every plural category and numeric "auto" from -2 to 2. Built on
  // first use.
  let rtfStyledCache;
  const rtfStyled = () => rtfStyledCache || (rtfStyledCache = {"short":{"en":{"year":{"future":{"other":"in {0} yr."},"past":{"other":"{0} yr. ago"},"auto":{"0":"this yr.","1":"next yr.","-1":"last yr."}},"quarter":{"future":{"other":"in {0} qtrs.","one":"in {0} qtr."},"past":{"other":"{0} qtrs. ago","one":"{0} qtr. ago"},"auto":{"0":"this qtr.","1":"next qtr.","-1":"last qtr."}},"month":{"future":{"other":"in {0} mo."},"past":{"other":"{0} mo. ago"},"auto":{"0":"this mo.","1":"next mo.","-1":"last mo."}},"week":{"future":{"other":"in {0} wk."},"past":{"other":"{0} wk. ago"},"auto":{"0":"this wk.","1":"next wk.","-1":"last wk."}},"day":{"future":{"other":"in {0} days","one":"in {0} day"},"past":{"other":"{0} days ago","one":"{0} day ago"},"auto":{"0":"today","1":"tomorrow","-1":"yesterday"}},"hour":{"future":{"other":"in {0} hr."},"past":{"other":"{0} hr. ago"},"auto":{"0":"this hour"}},"minute":{"future":{"other":"in {0} min."},"past":{"other":"{0} min. ago"},"auto":{"0":"this minute"}},"second":{"future":{"other":"in {0} sec."},"past":{"other":"{0} sec. ago"},"auto":{"0":"now"}}},"en-GB":{"year":{"future":{"other":"in {0} yr"},"past":{"other":"{0} yr ago"},"auto":{"0":"this yr","1":"next yr","-1":"last yr"}},"quarter":{"future":{"other":"in {0} qtr"},"past":{"other":"{0} qtr ago"},"auto":{"0":"this qtr.","1":"next qtr.","-1":"last qtr."}},"month":{"future":{"other":"in {0} mo"},"past":{"other":"{0} mo ago"},"auto":{"0":"this mo","1":"next mo","-1":"last mo"}},"week":{"future":{"other":"in {0} wk"},"past":{"other":"{0} wk ago"},"auto":{"0":"this wk","1":"next wk","-1":"last wk"}},"day":{"future":{"other":"in {0} days","one":"in {0} day"},"past":{"other":"{0} days ago","one":"{0} day ago"},"auto":{"0":"today","1":"tomorrow","-1":"yesterday"}},"hour":{"future":{"other":"in {0} hr"},"past":{"other":"{0} hr ago"},"auto":{"0":"this hour"}},"minute":{"future":{"other":"in {0} min"},"past":{"other":"{0} min ago"},"auto":{"0":"this minute"}},"second":{"future":{"other":"in {0} sec"},"past":{"other":"{0} sec ago"},"auto":{"0":"now"}}},"de":{"year":{"future":{"other":"in {0} Jahren","one":"in {0} Jahr"},"past":{"other":"vor {0} Jahren","one":"vor {0} Jahr"},"auto":{"0":"dieses Jahr","1":"nächstes Jahr","-1":"letztes Jahr"}},"quarter":{"future":{"other":"in {0} Quart."},"past":{"other":"vor {0} Quart."},"auto":{"0":"dieses Quartal","1":"nächstes Quartal","-1":"letztes Quartal"}},"month":{"future":{"other":"in {0} Monaten","one":"in {0} Monat"},"past":{"other":"vor {0} Monaten","one":"vor {0} Monat"},"auto":{"0":"diesen Monat","1":"nächsten Monat","-1":"letzten Monat"}},"week":{"future":{"other":"in {0} Wochen","one":"in {0} Woche"},"past":{"other":"vor {0} Wochen","one":"vor {0} Woche"},"auto":{"0":"diese Woche","1":"nächste Woche","-1":"letzte Woche"}},"day":{"future":{"other":"in {0} Tagen","one":"in {0} Tag"},"past":{"other":"vor {0} Tagen","one":"vor {0} Tag"},"auto":{"0":"heute","1":"morgen","2":"übermorgen","-2":"vorgestern","-1":"gestern"}},"hour":{"future":{"other":"in {0} Std."},"past":{"other":"vor {0} Std."},"auto":{"0":"in dieser Stunde"}},"minute":{"future":{"other":"in {0} Min."},"past":{"other":"vor {0} Min."},"auto":{"0":"in dieser Minute"}},"second":{"future":{"other":"in {0} Sek."},"past":{"other":"vor {0} Sek."},"auto":{"0":"jetzt"}}},"fr":{"year":{"future":{"other":"dans {0} a"},"past":{"other":"il y a {0} a"},"auto":{"0":"cette année","1":"l’an prochain","-1":"l’an dernier"}},"quarter":{"future":{"other":"dans {0} trim."},"past":{"other":"il y a {0} trim."},"auto":{"0":"ce trimestre","1":"le trimestre prochain","-1":"le trimestre dernier"}},"month":{"future":{"other":"dans {0} m."},"past":{"other":"il y a {0} m."},"auto":{"0":"ce mois-ci","1":"le mois prochain","-1":"le mois dernier"}},"week":{"future":{"other":"dans {0} sem."},"past":{"other":"il y a {0} sem."},"auto":{"0":"cette semaine","1":"la semaine prochaine","-1":"la semaine dernière"}},"day":{"future":{"other":"dans {0} j"},"past":{"other":"il y a {0} j"},"auto":{"0":"aujourd’hui","1":"demain","2":"après-demain","-2":"avant-hier","-1":"hier"}},"hour":{"future":{"other":"dans {0} h"},"past":{"other":"il y a {0} h"},"auto":{"0":"cette heure-ci"}},"minute":{"future":{"other":"dans {0} min"},"past":{"other":"il y a {0} min"},"auto":{"0":"cette minute-ci"}},"second":{"future":{"other":"dans {0} s"},"past":{"other":"il y a {0} s"},"auto":{"0":"maintenant"}}},"es":{"year":{"future":{"other":"dentro de {0} a"},"past":{"other":"hace {0} a"},"auto":{"0":"este año","1":"el próximo año","-1":"el año pasado"}},"quarter":{"future":{"other":"dentro de {0} trim."},"past":{"other":"hace {0} trim."},"auto":{"0":"este trimestre","1":"el próximo trimestre","-1":"el trimestre pasado"}},"month":{"future":{"other":"dentro de {0} m"},"past":{"other":"hace {0} m"},"auto":{"0":"este mes","1":"el próximo mes","-1":"el mes pasado"}},"week":{"future":{"other":"dentro de {0} sem."},"past":{"other":"hace {0} sem."},"auto":{"0":"esta sem.","1":"próx. sem.","-1":"sem. ant."}},"day":{"future":{"other":"dentro de {0} d"},"past":{"other":"hace {0} d"},"auto":{"0":"hoy","1":"mañana","2":"pasado mañana","-2":"anteayer","-1":"ayer"}},"hour":{"future":{"other":"dentro de {0} h"},"past":{"other":"hace {0} h"},"auto":{"0":"esta hora"}},"minute":{"future":{"other":"dentro de {0} min"},"past":{"other":"hace {0} min"},"auto":{"0":"este minuto"}},"second":{"future":{"other":"dentro de {0} s"},"past":{"other":"hace {0} s"},"auto":{"0":"ahora"}}},"ja":{"year":{"future":{"other":"{0} 年後"},"past":{"other":"{0} 年前"},"auto":{"0":"今年","1":"来年","-1":"昨年"}},"quarter":{"future":{"other":"{0} 四半期後"},"past":{"other":"{0} 四半期前"},"auto":{"0":"今四半期","1":"翌四半期","-1":"前四半期"}},"month":{"future":{"other":"{0} か月後"},"past":{"other":"{0} か月前"},"auto":{"0":"今月","1":"来月","-1":"先月"}},"week":{"future":{"other":"{0} 週間後"},"past":{"other":"{0} 週間前"},"auto":{"0":"今週","1":"来週","-1":"先週"}},"day":{"future":{"other":"{0} 日後"},"past":{"other":"{0} 日前"},"auto":{"0":"今日","1":"明日","2":"明後日","-2":"一昨日","-1":"昨日"}},"hour":{"future":{"other":"{0} 時間後"},"past":{"other":"{0} 時間前"},"auto":{"0":"1 時間以内"}},"minute":{"future":{"other":"{0} 分後"},"past":{"other":"{0} 分前"},"auto":{"0":"1 分以内"}},"second":{"future":{"other":"{0} 秒後"},"past":{"other":"{0} 秒前"},"auto":{"0":"今"}}},"zh":{"year":{"future":{"other":"{0}年后"},"past":{"other":"{0}年前"},"auto":{"0":"今年","1":"明年","-1":"去年"}},"quarter":{"future":{"other":"{0}个季度后"},"past":{"other":"{0}个季度前"},"auto":{"0":"本季度","1":"下季度","-1":"上季度"}},"month":{"future":{"other":"{0}个月后"},"past":{"other":"{0}个月前"},"auto":{"0":"本月","1":"下个月","-1":"上个月"}},"week":{"future":{"other":"{0}周后"},"past":{"other":"{0}周前"},"auto":{"0":"本周","1":"下周","-1":"上周"}},"day":{"future":{"other":"{0}天后"},"past":{"other":"{0}天前"},"auto":{"0":"今天","1":"明天","2":"后天","-2":"前天","-1":"昨天"}},"hour":{"future":{"other":"{0}小时后"},"past":{"other":"{0}小时前"},"auto":{"0":"这一时间 / 此时"}},"minute":{"future":{"other":"{0}分钟后"},"past":{"other":"{0}分钟前"},"auto":{"0":"此刻"}},"second":{"future":{"other":"{0}秒后"},"past":{"other":"{0}秒前"},"auto":{"0":"现在"}}},"pt":{"year":{"future":{"one":"em {0} ano","other":"em {0} anos"},"past":{"one":"há {0} ano","other":"há {0} anos"},"auto":{"0":"este ano","1":"próximo ano","-1":"ano passado"}},"quarter":{"future":{"other":"em {0} trim."},"past":{"other":"há {0} trim."},"auto":{"0":"este trimestre","1":"próximo trimestre","-1":"último trimestre"}},"month":{"future":{"one":"em {0} mês","other":"em {0} meses"},"past":{"one":"há {0} mês","other":"há {0} meses"},"auto":{"0":"este mês","1":"próximo mês","-1":"mês passado"}},"week":{"future":{"other":"em {0} sem."},"past":{"other":"há {0} sem."},"auto":{"0":"esta semana","1":"próxima semana","-1":"semana passada"}},"day":{"future":{"one":"em {0} dia","other":"em {0} dias"},"past":{"one":"há {0} dia","other":"há {0} dias"},"auto":{"0":"hoje","1":"amanhã","2":"depois de amanhã","-2":"anteontem","-1":"ontem"}},"hour":{"future":{"other":"em {0} h"},"past":{"other":"há {0} h"},"auto":{"0":"esta hora"}},"minute":{"future":{"other":"em {0} min."},"past":{"other":"há {0} min."},"auto":{"0":"este minuto"}},"second":{"future":{"other":"em {0} seg."},"past":{"other":"há {0} seg."},"auto":{"0":"agora"}}},"hi":{"year":{"future":{"other":"{0} वर्ष में"},"past":{"other":"{0} वर्ष पहले"},"auto":{"0":"इस वर्ष","1":"अगला वर्ष","-1":"पिछला वर्ष"}},"quarter":{"future":{"one":"{0} तिमाही में","other":"{0} तिमाहियों में"},"past":{"one":"{0} तिमाही पहले","other":"{0} तिमाहियों पहले"},"auto":{"0":"इस तिमाही","1":"अगली तिमाही","-1":"अंतिम तिमाही"}},"month":{"future":{"other":"{0} माह में"},"past":{"other":"{0} माह पहले"},"auto":{"0":"इस माह","1":"अगला माह","-1":"पिछला माह"}},"week":{"future":{"other":"{0} सप्ताह में"},"past":{"other":"{0} सप्ताह पहले"},"auto":{"0":"इस सप्ताह","1":"अगला सप्ताह","-1":"पिछला सप्ताह"}},"day":{"future":{"other":"{0} दिन में"},"past":{"other":"{0} दिन पहले"},"auto":{"0":"आज","1":"आने वाला कल","2":"परसों","-2":"परसों","-1":"बीता कल"}},"hour":{"future":{"other":"{0} घं॰ में"},"past":{"other":"{0} घं॰ पहले"},"auto":{"0":"यह घंटा"}},"minute":{"future":{"other":"{0} मि॰ में"},"past":{"other":"{0} मि॰ पहले"},"auto":{"0":"यह मिनट"}},"second":{"future":{"other":"{0} से॰ में"},"past":{"other":"{0} से॰ पहले"},"auto":{"0":"अब"}}}},"narrow":{"en":{"year":{"future":{"other":"in {0}y"},"past":{"other":"{0}y ago"},"auto":{"0":"this yr.","1":"next yr.","-1":"last yr."}},"quarter":{"future":{"other":"in {0}q"},"past":{"other":"{0}q ago"},"auto":{"0":"this qtr.","1":"next qtr.","-1":"last qtr."}},"month":{"future":{"other":"in {0}mo"},"past":{"other":"{0}mo ago"},"auto":{"0":"this mo.","1":"next mo.","-1":"last mo."}},"week":{"future":{"other":"in {0}w"},"past":{"other":"{0}w ago"},"auto":{"0":"this wk.","1":"next wk.","-1":"last wk."}},"day":{"future":{"other":"in {0}d"},"past":{"other":"{0}d ago"},"auto":{"0":"today","1":"tomorrow","-1":"yesterday"}},"hour":{"future":{"other":"in {0}h"},"past":{"other":"{0}h ago"},"auto":{"0":"this hour"}},"minute":{"future":{"other":"in {0}m"},"past":{"other":"{0}m ago"},"auto":{"0":"this minute"}},"second":{"future":{"other":"in {0}s"},"past":{"other":"{0}s ago"},"auto":{"0":"now"}}},"en-GB":{"year":{"future":{"other":"in {0} yr"},"past":{"other":"{0} yr ago"},"auto":{"0":"this yr","1":"next yr","-1":"last yr"}},"quarter":{"future":{"other":"in {0} qtr"},"past":{"other":"{0} qtr ago"},"auto":{"0":"this qtr.","1":"next qtr.","-1":"last qtr."}},"month":{"future":{"other":"in {0} mo"},"past":{"other":"{0} mo ago"},"auto":{"0":"this mo","1":"next mo","-1":"last mo"}},"week":{"future":{"other":"in {0} wk"},"past":{"other":"{0} wk ago"},"auto":{"0":"this wk","1":"next wk","-1":"last wk"}},"day":{"future":{"other":"in {0} days","one":"in {0} day"},"past":{"other":"{0} days ago","one":"{0} day ago"},"auto":{"0":"today","1":"tomorrow","-1":"yesterday"}},"hour":{"future":{"other":"in {0} hr"},"past":{"other":"{0} hr ago"},"auto":{"0":"this hour"}},"minute":{"future":{"other":"in {0} min"},"past":{"other":"{0} min ago"},"auto":{"0":"this minute"}},"second":{"future":{"other":"in {0} sec"},"past":{"other":"{0} sec ago"},"auto":{"0":"now"}}},"de":{"year":{"future":{"other":"in {0} Jahren","one":"in {0} Jahr"},"past":{"other":"vor {0} Jahren","one":"vor {0} Jahr"},"auto":{"0":"dieses Jahr","1":"nächstes Jahr","-1":"letztes Jahr"}},"quarter":{"future":{"other":"in {0} Q"},"past":{"other":"vor {0} Q"},"auto":{"0":"dieses Quartal","1":"nächstes Quartal","-1":"letztes Quartal"}},"month":{"future":{"other":"in {0} Monaten","one":"in {0} Monat"},"past":{"other":"vor {0} Monaten","one":"vor {0} Monat"},"auto":{"0":"diesen Monat","1":"nächsten Monat","-1":"letzten Monat"}},"week":{"future":{"other":"in {0} Wo."},"past":{"other":"vor {0} Wo."},"auto":{"0":"diese Woche","1":"nächste Woche","-1":"letzte Woche"}},"day":{"future":{"other":"in {0} Tagen","one":"in {0} Tag"},"past":{"other":"vor {0} Tagen","one":"vor {0} Tag"},"auto":{"0":"heute","1":"morgen","2":"übermorgen","-2":"vorgestern","-1":"gestern"}},"hour":{"future":{"other":"in {0} Std."},"past":{"other":"vor {0} Std."},"auto":{"0":"in dieser Stunde"}},"minute":{"future":{"other":"in {0} m"},"past":{"other":"vor {0} m"},"auto":{"0":"in dieser Minute"}},"second":{"future":{"other":"in {0} s"},"past":{"other":"vor {0} s"},"auto":{"0":"jetzt"}}},"fr":{"year":{"future":{"other":"+{0} a"},"past":{"other":"-{0} a"},"auto":{"0":"cette année","1":"l’an prochain","-1":"l’an dernier"}},"quarter":{"future":{"other":"+{0} trim."},"past":{"other":"-{0} trim."},"auto":{"0":"ce trimestre","1":"le trimestre prochain","-1":"le trimestre dernier"}},"month":{"future":{"other":"+{0} m."},"past":{"other":"-{0} m."},"auto":{"0":"ce mois-ci","1":"le mois prochain","-1":"le mois dernier"}},"week":{"future":{"other":"+{0} sem."},"past":{"other":"-{0} sem."},"auto":{"0":"cette semaine","1":"la semaine prochaine","-1":"la semaine dernière"}},"day":{"future":{"other":"+{0} j"},"past":{"other":"-{0} j"},"auto":{"0":"aujourd’hui","1":"demain","2":"après-demain","-2":"avant-hier","-1":"hier"}},"hour":{"future":{"other":"+{0} h"},"past":{"other":"-{0} h"},"auto":{"0":"cette heure-ci"}},"minute":{"future":{"other":"+{0} min"},"past":{"other":"-{0} min"},"auto":{"0":"cette minute-ci"}},"second":{"future":{"other":"+{0} s"},"past":{"other":"-{0} s"},"auto":{"0":"maintenant"}}},"es":{"year":{"future":{"other":"dentro de {0} a"},"past":{"other":"hace {0} a"},"auto":{"0":"este año","1":"el próximo año","-1":"el año pasado"}},"quarter":{"future":{"other":"dentro de {0} trim."},"past":{"other":"hace {0} trim."},"auto":{"0":"este trimestre","1":"el próximo trimestre","-1":"el trimestre pasado"}},"month":{"future":{"other":"dentro de {0} m"},"past":{"other":"hace {0} m"},"auto":{"0":"este mes","1":"el próximo mes","-1":"el mes pasado"}},"week":{"future":{"other":"dentro de {0} sem."},"past":{"other":"hace {0} sem."},"auto":{"0":"esta sem.","1":"próx. sem.","-1":"sem. ant."}},"day":{"future":{"other":"dentro de {0} d"},"past":{"other":"hace {0} d"},"auto":{"0":"hoy","1":"mañana","2":"pasado mañana","-2":"anteayer","-1":"ayer"}},"hour":{"future":{"other":"dentro de {0} h"},"past":{"other":"hace {0} h"},"auto":{"0":"esta hora"}},"minute":{"future":{"other":"dentro de {0} min"},"past":{"other":"hace {0} min"},"auto":{"0":"este minuto"}},"second":{"future":{"other":"dentro de {0} s"},"past":{"other":"hace {0} s"},"auto":{"0":"ahora"}}},"ja":{"year":{"future":{"other":"{0}年後"},"past":{"other":"{0}年前"},"auto":{"0":"今年","1":"来年","-1":"昨年"}},"quarter":{"future":{"other":"{0}四半期後"},"past":{"other":"{0}四半期前"},"auto":{"0":"今四半期","1":"翌四半期","-1":"前四半期"}},"month":{"future":{"other":"{0}か月後"},"past":{"other":"{0}か月前"},"auto":{"0":"今月","1":"来月","-1":"先月"}},"week":{"future":{"other":"{0}週間後"},"past":{"other":"{0}週間前"},"auto":{"0":"今週","1":"来週","-1":"先週"}},"day":{"future":{"other":"{0}日後"},"past":{"other":"{0}日前"},"auto":{"0":"今日","1":"明日","2":"明後日","-2":"一昨日","-1":"昨日"}},"hour":{"future":{"other":"{0}時間後"},"past":{"other":"{0}時間前"},"auto":{"0":"1 時間以内"}},"minute":{"future":{"other":"{0}分後"},"past":{"other":"{0}分前"},"auto":{"0":"1 分以内"}},"second":{"future":{"other":"{0}秒後"},"past":{"other":"{0}秒前"},"auto":{"0":"今"}}},"zh":{"year":{"future":{"other":"{0}年后"},"past":{"other":"{0}年前"},"auto":{"0":"今年","1":"明年","-1":"去年"}},"quarter":{"future":{"other":"{0}个季度后"},"past":{"other":"{0}个季度前"},"auto":{"0":"本季度","1":"下季度","-1":"上季度"}},"month":{"future":{"other":"{0}个月后"},"past":{"other":"{0}个月前"},"auto":{"0":"本月","1":"下个月","-1":"上个月"}},"week":{"future":{"other":"{0}周后"},"past":{"other":"{0}周前"},"auto":{"0":"本周","1":"下周","-1":"上周"}},"day":{"future":{"other":"{0}天后"},"past":{"other":"{0}天前"},"auto":{"0":"今天","1":"明天","2":"后天","-2":"前天","-1":"昨天"}},"hour":{"future":{"other":"{0}小时后"},"past":{"other":"{0}小时前"},"auto":{"0":"这一时间 / 此时"}},"minute":{"future":{"other":"{0}分钟后"},"past":{"other":"{0}分钟前"},"auto":{"0":"此刻"}},"second":{"future":{"other":"{0}秒后"},"past":{"other":"{0}秒前"},"auto":{"0":"现在"}}},"pt":{"year":{"future":{"one":"em {0} ano","other":"em {0} anos"},"past":{"one":"há {0} ano","other":"há {0} anos"},"auto":{"0":"este ano","1":"próximo ano","-1":"ano passado"}},"quarter":{"future":{"other":"em {0} trim."},"past":{"other":"há {0} trim."},"auto":{"0":"este trimestre","1":"próximo trimestre","-1":"último trimestre"}},"month":{"future":{"one":"em {0} mês","other":"em {0} meses"},"past":{"one":"há {0} mês","other":"há {0} meses"},"auto":{"0":"este mês","1":"próximo mês","-1":"mês passado"}},"week":{"future":{"other":"em {0} sem."},"past":{"other":"há {0} sem."},"auto":{"0":"esta semana","1":"próxima semana","-1":"semana passada"}},"day":{"future":{"one":"em {0} dia","other":"em {0} dias"},"past":{"one":"há {0} dia","other":"há {0} dias"},"auto":{"0":"hoje","1":"amanhã","2":"depois de amanhã","-2":"anteontem","-1":"ontem"}},"hour":{"future":{"other":"em {0} h"},"past":{"other":"há {0} h"},"auto":{"0":"esta hora"}},"minute":{"future":{"other":"em {0} min."},"past":{"other":"há {0} min."},"auto":{"0":"este minuto"}},"second":{"future":{"other":"em {0} seg."},"past":{"other":"há {0} seg."},"auto":{"0":"agora"}}},"hi":{"year":{"future":{"other":"{0} वर्ष में"},"past":{"other":"{0} वर्ष पहले"},"auto":{"0":"इस साल","1":"अगले साल","-1":"पिछले साल"}},"quarter":{"future":{"other":"{0} ति॰ में"},"past":{"other":"{0} ति॰ पहले"},"auto":{"0":"इस तिमाही","1":"अगली तिमाही","-1":"अंतिम तिमाही"}},"month":{"future":{"other":"{0} माह में"},"past":{"other":"{0} माह पहले"},"auto":{"0":"इस माह","1":"अगला माह","-1":"पिछला माह"}},"week":{"future":{"other":"{0} सप्ताह में"},"past":{"other":"{0} सप्ताह पहले"},"auto":{"0":"इस सप्ताह","1":"अगला सप्ताह","-1":"पिछला सप्ताह"}},"day":{"future":{"other":"{0} दिन में"},"past":{"other":"{0} दिन पहले"},"auto":{"0":"आज","1":"आने वाला कल","2":"परसों","-2":"परसों","-1":"बीता कल"}},"hour":{"future":{"other":"{0} घं॰ में"},"past":{"other":"{0} घं॰ पहले"},"auto":{"0":"यह घंटा"}},"minute":{"future":{"other":"{0} मि॰ में"},"past":{"other":"{0} मि॰ पहले"},"auto":{"0":"यह मिनट"}},"second":{"future":{"other":"{0} से॰ में"},"past":{"other":"{0} से॰ पहले"},"auto":{"0":"अब"}}}}});
  const rtfLocale = (locales) => {
    let tag = Array.isArray(locales) ? locales[0] : locales;
    if (typeof tag !== 'string') return null;
    tag = tag.replace(/_/g, '-');
    const all = rtfData();
    if (/^en-GB$/i.test(tag)) return { key: 'en-GB', tag };
    const lang = tag.split('-')[0].toLowerCase();
    return all[lang] ? { key: lang, tag } : null;
  };
  const units = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  const rtfOption = (options, name, allowed) => {
    const v = options[name];
    if (v === undefined) return allowed[0];
    const s = String(v);
    if (!allowed.includes(s)) throw new RangeError('Value ' + s + ' out of range for Intl.RelativeTimeFormat options property ' + name);
    return s;
  };
  class RelativeTimeFormat {
    #numeric;
    #style;
    #nf;
    #loc;
    #pr;
    #data;
    #locale;
    constructor(locales = undefined, options = undefined) {
      if (options === null) throw new TypeError('Intl.RelativeTimeFormat called on null or undefined');
      options = options === undefined ? {} : Object(options);
      this.#style = rtfOption(options, 'style', ['long', 'short', 'narrow']);
      this.#numeric = rtfOption(options, 'numeric', ['always', 'auto']);
      this.#locale = native.supportedLocales(locales)[0] || 'en-US';
      this.#loc = rtfLocale(locales);
      this.#nf = new NumberFormat(this.#loc ? this.#loc.tag : 'en-US');
      if (this.#style !== 'long') {
        const byLocale = rtfStyled()[this.#style];
        this.#data = byLocale[this.#loc ? this.#loc.key : 'en'] || byLocale.en;
        this.#pr = new PluralRules(this.#loc ? this.#loc.tag : 'en-US');
      } else if (this.#loc) {
        this.#data = rtfData()[this.#loc.key];
        this.#pr = new PluralRules(this.#loc.tag);
      }
    }
    format(value, unit) {
      value = Number(value);
      let u = String(unit).replace(/s$/, '');
      if (!units.includes(u)) throw new RangeError('Invalid unit argument for format() \'' + unit + '\'');
      if (this.#data) {
        const e = this.#data[u];
        if (this.#numeric === 'auto' && e.auto[String(value)] !== undefined && !Object.is(value, -0)) return e.auto[String(value)];
        const abs = Math.abs(value);
        const forms = value < 0 || Object.is(value, -0) ? e.past : e.future;
        const pattern = forms[this.#pr.select(abs)] || forms.other;
        return pattern.replace('{0}', this.#nf.format(abs));
      }
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
    resolvedOptions() { return { locale: this.#locale, style: this.#style, numeric: this.#numeric, numberingSystem: 'latn' }; }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(RelativeTimeFormat.prototype, 'Intl.RelativeTimeFormat');

  // Segmenter: the UAX #29 grapheme, word and sentence boundaries
  // (native.segment). A Segments object holds its input's segments, made
  // when it is first iterated or searched.
  class Segmenter {
    #locale;
    #granularity;
    constructor(locales = undefined, options = undefined) {
      if (options === null) throw new TypeError('Cannot convert undefined or null to object');
      const g = options === undefined || options.granularity === undefined ? 'grapheme' : String(options.granularity);
      if (g !== 'grapheme' && g !== 'word' && g !== 'sentence') throw new RangeError('Value ' + g + ' out of range for Intl.Segmenter options property granularity');
      this.#locale = native.supportedLocales(locales)[0] || 'en-US';
      this.#granularity = g;
    }
    segment(input) {
      const s = String(input), g = this.#granularity;
      let all;
      const list = () => {
        if (all) return all;
        const b = native.segment(s, g);
        all = [];
        for (let i = 0; i < b.length; i += 3) {
          const seg = { segment: s.slice(b[i], b[i + 1]), index: b[i], input: s };
          if (g === 'word') seg.isWordLike = b[i + 2];
          all.push(seg);
        }
        return all;
      };
      return new Segments(s, list);
    }
    resolvedOptions() { return { locale: this.#locale, granularity: this.#granularity }; }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  const arrayValues = Array.prototype.values;
  class Segments {
    #input;
    #list;
    constructor(input, list) {
      this.#input = input;
      this.#list = list;
    }
    containing(index) {
      const n = Math.trunc(Number(index)) || 0;
      const all = this.#list();
      if (n < 0 || n >= this.#input.length || all.length === 0) return undefined;
      let lo = 0, hi = all.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (all[mid].index <= n) lo = mid;
        else hi = mid - 1;
      }
      return all[lo];
    }
    static {
      native.setIterator(Segments.prototype, function () { return arrayValues.call(this.#list()); });
    }
  }
  native.setTag(Segmenter.prototype, 'Intl.Segmenter');

  // DisplayNames: names of regions, languages, scripts and currencies
  // (native.displayNames; what it covers is said in
  // intl_displaynames.go).
  const dnOption = (options, name, allowed, def) => {
    const v = options[name];
    if (v === undefined) return def;
    const s = String(v);
    if (!allowed.includes(s)) throw new RangeError('Value ' + s + ' out of range for Intl.DisplayNames options property ' + name);
    return s;
  };
  class DisplayNames {
    #options;
    #of;
    constructor(locales = undefined, options = undefined) {
      if (options === undefined) throw new TypeError('invalid_argument');
      if (options === null) throw new TypeError('Cannot convert undefined or null to object');
      options = Object(options);
      // The first requested locale the sandbox has data for.
      const requested = Array.isArray(locales) ? locales : [locales];
      let locale = native.supportedLocales(locales)[0] || 'en-US';
      for (const l of requested) {
        const s = typeof l === 'string' ? native.supportedLocales(l)[0] : undefined;
        if (s !== undefined && s !== 'en-US' || /^en-US$/i.test(l)) { locale = s; break; }
      }
      dnOption(options, 'localeMatcher', ['lookup', 'best fit'], 'best fit');
      const style = dnOption(options, 'style', ['narrow', 'short', 'long'], 'long');
      const type = dnOption(options, 'type', ['language', 'region', 'script', 'currency', 'calendar', 'dateTimeField'], undefined);
      if (type === undefined) throw new TypeError('invalid_argument');
      const fallback = dnOption(options, 'fallback', ['code', 'none'], 'code');
      const languageDisplay = dnOption(options, 'languageDisplay', ['dialect', 'standard'], 'dialect');
      this.#options = type === 'language' ? { locale, style, type, fallback, languageDisplay } : { locale, style, type, fallback };
      this.#of = native.displayNames(locale, type, style, languageDisplay);
    }
    of(code) {
      let o;
      try { o = this.#options; } catch { throw incompatible('DisplayNames.prototype.of', this); }
      const s = String(code);
      const name = this.#of(s);
      if (name !== undefined || o.fallback === 'none') return name;
      return o.type === 'language' ? s.toLowerCase().replace(/-([a-z])([a-z]{3})(?=-|$)/, (m, a, b) => '-' + a.toUpperCase() + b).replace(/-([a-z]{2})$/, (m, r) => '-' + r.toUpperCase()) : s;
    }
    resolvedOptions() {
      let o;
      try { o = this.#options; } catch { throw incompatible('DisplayNames.prototype.resolvedOptions', this); }
      return { ...o };
    }
    static supportedLocalesOf(locales) { return native.supportedLocales(locales); }
  }
  native.setTag(DisplayNames.prototype, 'Intl.DisplayNames');
  // Called without new, DisplayNames says so in V8's words.
  const requiresNew = (C) => {
    const F = { [C.name]: function (locales, options) {
      if (new.target === undefined) throw new TypeError('Constructor Intl.' + C.name + " requires 'new'");
      return Reflect.construct(C, [locales, options], new.target);
    } }[C.name];
    Object.defineProperty(F, 'prototype', { value: C.prototype, writable: false });
    Object.defineProperty(C.prototype, 'constructor', { value: F, writable: true, configurable: true });
    F.supportedLocalesOf = C.supportedLocalesOf;
    return F;
  };

  // NumberFormat, DateTimeFormat and Collator may be called without new.
  const callable = (C) => {
    const F = { [C.name]: function (locales = undefined, options = undefined) { return new C(locales, options); } }[C.name];
    Object.defineProperty(F, 'prototype', { value: C.prototype, writable: false });
    Object.defineProperty(C.prototype, 'constructor', { value: F, writable: true, configurable: true });
    F.supportedLocalesOf = C.supportedLocalesOf;
    return F;
  };
  const Intl = {};
  for (const [k, v] of Object.entries({ NumberFormat: callable(NumberFormat), DateTimeFormat: callable(DateTimeFormat), PluralRules, Collator: callable(Collator), ListFormat, RelativeTimeFormat, Segmenter, DisplayNames: requiresNew(DisplayNames) })) {
    Object.defineProperty(Intl, k, { value: v, writable: true, configurable: true });
  }
  Object.defineProperty(Intl, 'getCanonicalLocales', { value: (l) => native.supportedLocales(l, true), writable: true, configurable: true });
  native.setTag(Intl, 'Intl');
  return Intl;
})
