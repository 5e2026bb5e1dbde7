package webapi_test

import (
	"testing"

	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// TestIntlNullOptions checks that a null options argument is a TypeError,
// as in node v20 (undefined means no options; null is not an object).
func TestIntlNullOptions(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { try { new Intl.Collator("en", null); return "no" } catch (e) { return e.name } })()`, Want: `"TypeError"`},
		{Expr: `(() => { try { new Intl.PluralRules("en", null); return "no" } catch (e) { return e.name } })()`, Want: `"TypeError"`},
		{Expr: `[new Intl.Collator("en", undefined).resolvedOptions().numeric, new Intl.PluralRules("en", undefined).select(1)]`, Want: `[false,"one"]`},
		{Expr: `[new Intl.Collator("en", { numeric: true, ignorePunctuation: true }).resolvedOptions().numeric, new Intl.Collator("en", { ignorePunctuation: true }).resolvedOptions().ignorePunctuation]`, Want: `[true,true]`},
	})
}

// TestIntlResolvedLocale checks the locale Collator and PluralRules report
// (expected values from node v20): zh keeps its region for collation only.
func TestIntlResolvedLocale(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["zh-TW", "zh", "en-GB", "xx"].map((l) => [new Intl.Collator(l).resolvedOptions().locale, new Intl.PluralRules(l).resolvedOptions().locale])`, Want: `[["zh-TW","zh"],["zh","zh"],["en","en"],["en-US","en-US"]]`},
	})
}

// TestIntlZoneNames checks en-US zone names (expected values from node
// v20): UTC by name, US zones by abbreviation, others as GMT offsets.
func TestIntlZoneNames(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5)); return [["UTC", "short"], ["Etc/GMT", "short"], ["UTC", "long"], ["America/Chicago", "short"], ["Asia/Kolkata", "short"]].map(([z, n]) => d.toLocaleString("en-US", { timeZone: z, timeZoneName: n })) })()`, Want: `["1/2/2024, 3:04:05 PM UTC","1/2/2024, 3:04:05 PM UTC","1/2/2024, 3:04:05 PM Coordinated Universal Time","1/2/2024, 9:04:05 AM CST","1/2/2024, 8:34:05 PM GMT+5:30"]`},
	})
}

// TestIntlDateTimeValues checks that format and formatToParts take the
// same time values (a RangeError beyond ±8.64e15 ms, as in node v20), and
// that formatToParts, for options the locale's patterns do not cover,
// joins to format's text.
func TestIntlDateTimeValues(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const f = new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }); const r = (g) => { try { return g() } catch (e) { return e.name + ": " + e.message } }; return [NaN, Infinity, 8.64e15, 8.64e15 + 1].map((x) => [r(() => f.formatToParts(x).length), r(() => f.format(x))]) })()`, Want: `[["RangeError: Invalid time value","RangeError: Invalid time value"],["RangeError: Invalid time value","RangeError: Invalid time value"],[5,"9/13/275760"],["RangeError: Invalid time value","RangeError: Invalid time value"]]`},
		{Expr: `["de", "en-US", "fr"].map((l) => { const f = new Intl.DateTimeFormat(l, { timeZone: "UTC", era: "short" }), d = Date.UTC(2024, 0, 2, 15, 4, 5); return f.format(d) === f.formatToParts(d).map((p) => p.value).join("") })`, Want: `[true,true,true]`},
	})
}

// TestIntlPluralCategories checks resolvedOptions().pluralCategories
// (expected values from node v20): the locale's categories for the type,
// whatever the fraction digits. Not fr: x/text's CLDR data has no "many"
// for it, which node lists.
func TestIntlPluralCategories(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[["en", {}], ["en", { minimumFractionDigits: 1 }], ["en", { maximumFractionDigits: 0 }], ["pl", { minimumFractionDigits: 2 }], ["ar", {}], ["en", { type: "ordinal" }], ["cy", { type: "ordinal" }], ["ja", {}], ["ru", { maximumFractionDigits: 0 }]].map(([l, o]) => new Intl.PluralRules(l, o).resolvedOptions().pluralCategories)`,
			Want: `[["one","other"],["one","other"],["one","other"],["few","many","one","other"],["few","many","one","two","zero","other"],["few","one","two","other"],["few","many","one","two","zero","other"],["other"],["few","many","one","other"]]`},
		{Expr: `(() => { const a = new Intl.PluralRules("ar").resolvedOptions().pluralCategories; a.push("mine"); return new Intl.PluralRules("ar").resolvedOptions().pluralCategories.length })()`, Want: `6`},
	})
}

// TestIntlCurrencyCode checks which currency codes NumberFormat accepts
// (expected values from node v20): three ASCII letters, in either case.
func TestIntlCurrencyCode(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["US1", "usd", "U$D", "EURO", "€UR"].map((c) => { try { return new Intl.NumberFormat("en", { style: "currency", currency: c }).resolvedOptions().currency } catch (e) { return e.name + ": " + e.message } })`,
			Want: `["RangeError: Invalid currency code : US1","USD","RangeError: Invalid currency code : U$D","RangeError: Invalid currency code : EURO","RangeError: Invalid currency code : €UR"]`},
	})
}

// TestIntlAccountingCurrency checks currencySign "accounting" (expected
// values from node v20): parentheses where the locale's accounting
// pattern has them, the minus sign elsewhere and for currency names.
func TestIntlAccountingCurrency(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["en-US", "fr-FR", "de-DE", "pl-PL"].map((l) => new Intl.NumberFormat(l, { style: "currency", currency: "USD", currencySign: "accounting" }).format(-1234.5))`, Want: `["($1,234.50)","(1 234,50 $US)","-1.234,50 $","(1234,50 USD)"]`},
		{Expr: `[(5).toLocaleString("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }), (-5).toLocaleString("en-US", { style: "currency", currency: "USD", currencySign: "accounting", signDisplay: "never" }), (-5).toLocaleString("en-US", { style: "currency", currency: "USD", currencySign: "accounting", currencyDisplay: "name" })]`, Want: `["$5.00","$5.00","-5.00 US dollars"]`},
		{Expr: `new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).formatToParts(-5).map((p) => p.type + ":" + p.value).join(" ")`, Want: `"literal:( currency:$ integer:5 decimal:. fraction:00 literal:)"`},
		{Expr: `(() => { try { new Intl.NumberFormat("en", { currencySign: "x" }); return "no" } catch (e) { return e.name } })()`, Want: `"RangeError"`},
	})
}

// TestIntlRelativeTimeStyles checks the short and narrow styles of
// Intl.RelativeTimeFormat (expected values from node v20).
func TestIntlRelativeTimeStyles(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const s = new Intl.RelativeTimeFormat("en", { style: "short" }), n = new Intl.RelativeTimeFormat("en", { style: "narrow" }); return [s.format(3, "month"), s.format(-1, "year"), s.format(-3, "quarters"), n.format(-2, "day"), n.format(5, "hour"), new Intl.RelativeTimeFormat("en", { style: "short", numeric: "auto" }).format(1, "month")] })()`, Want: `["in 3 mo.","1 yr. ago","3 qtrs. ago","2d ago","in 5h","next mo."]`},
		{Expr: `[new Intl.RelativeTimeFormat("fr", { style: "narrow" }).format(-1, "year"), new Intl.RelativeTimeFormat("de", { style: "short" }).format(5, "hour"), new Intl.RelativeTimeFormat("ja", { style: "narrow" }).format(3, "month"), new Intl.RelativeTimeFormat("es", { style: "long" }).format(-2, "day")]`, Want: `["-1 a","in 5 Std.","3か月後","hace 2 días"]`},
		{Expr: `[new Intl.RelativeTimeFormat("en-US", { style: "narrow" }).resolvedOptions().style, (() => { try { new Intl.RelativeTimeFormat("en", { style: "tiny" }); return "no" } catch (e) { return e.name } })()]`, Want: `["narrow","RangeError"]`},
	})
}

// TestIntlRegionalDates checks the default date and time formats of the
// generated locales (expected values from node v20).
func TestIntlRegionalDates(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); return ["en-CA", "en-AU", "de-CH", "sv-SE", "nl-NL", "ru-RU", "ko-KR"].map((l) => d.toLocaleDateString(l, { timeZone: "UTC" })) })()`, Want: `["2024-01-15","15/01/2024","15.1.2024","2024-01-15","15-1-2024","15.01.2024","2024. 1. 15."]`},
		{Expr: `(() => { const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); return [d.toLocaleString("en-CA", { timeZone: "UTC" }), d.toLocaleString("it", { timeZone: "UTC" }), d.toLocaleTimeString("fr-CA", { timeZone: "UTC", hour12: false }), d.toLocaleTimeString("fr-CA", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" })] })()`, Want: `["2024-01-15, 2:05:09 p.m.","15/01/2024, 14:05:09","14 h 05 min 09 s","14 h 05"]`},
	})
}

// TestIntlCompactUnits checks compact notation in the locales that count
// in 万, 億 or lakh (expected values from node v20).
func TestIntlCompactUnits(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[1.2e8, 12345, 1234, 99999999, 3.4e16].map((n) => n.toLocaleString("ja-JP", { notation: "compact" }))`, Want: `["1.2億","1.2万","1234","1億","3.4京"]`},
		{Expr: `[new Intl.NumberFormat("zh-CN", { notation: "compact" }).format(2e12), new Intl.NumberFormat("ko-KR", { notation: "compact" }).format(1234), new Intl.NumberFormat("en-IN", { notation: "compact" }).format(1.5e9), new Intl.NumberFormat("ja", { notation: "compact", compactDisplay: "long" }).format(-45678)]`, Want: `["2万亿","1.2천","150Cr","-4.6万"]`},
		{Expr: `[(123456).toLocaleString("hi-IN"), (-0).toLocaleString("en", { notation: "compact" })]`, Want: `["1,23,456","-0"]`},
	})
}

// TestIntlDisplayNames checks Intl.DisplayNames (expected values from
// node v20).
func TestIntlDisplayNames(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["en", "fr", "de", "ja", "es"].map((l) => new Intl.DisplayNames(l, { type: "region" }).of("US"))`, Want: `["United States","États-Unis","Vereinigte Staaten","アメリカ合衆国","Estados Unidos"]`},
		{Expr: `(() => { const g = new Intl.DisplayNames("en", { type: "language" }); return [g.of("fr"), g.of("en-US"), g.of("zh-Hans"), g.of("zh-TW"), g.of("sr-Latn"), g.of("xx"), new Intl.DisplayNames("ja", { type: "language" }).of("pt-BR")] })()`, Want: `["French","American English","Simplified Chinese","Chinese (Taiwan)","Serbian (Latin)","xx","ポルトガル語 (ブラジル)"]`},
		{Expr: `[new Intl.DisplayNames("de", { type: "currency" }).of("usd"), new Intl.DisplayNames("en", { type: "script" }).of("Cyrl"), new Intl.DisplayNames("en", { type: "region", style: "short" }).of("GB"), new Intl.DisplayNames("en", { type: "calendar" }).of("gregory"), new Intl.DisplayNames("fr", { type: "dateTimeField", style: "narrow" }).of("weekOfYear"), new Intl.DisplayNames("en", { type: "region", fallback: "none" }).of("QQ") === undefined]`, Want: `["US-Dollar","Cyrillic","UK","Gregorian Calendar","sem.",true]`},
		{Expr: `(() => { const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }; return [t(() => new Intl.DisplayNames("en")), t(() => new Intl.DisplayNames("en", { type: "region" }).of("USA")), t(() => Intl.DisplayNames("en", { type: "region" })), new Intl.DisplayNames("de-DE", { type: "language" }).resolvedOptions()] })()`, Want: `["TypeError: invalid_argument","RangeError: invalid_argument","TypeError: Constructor Intl.DisplayNames requires 'new'",{"locale":"de-DE","style":"long","type":"language","fallback":"code","languageDisplay":"dialect"}]`},
	})
}
