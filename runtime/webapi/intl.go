package webapi

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file formats numbers and dates for Intl.NumberFormat,
// Intl.DateTimeFormat and the toLocaleString family. en-US is complete for
// what snippets use (grouping, fraction and significant digits, percent,
// currency, compact and scientific notation, units; dates in the en-US
// patterns with dateStyle/timeStyle or field options and time zones). A
// few common locales get their separators and affix positions; any other
// locale formats as en-US, never throwing, as Node would for a locale it
// lacks.

// numberLocale describes how a locale writes numbers.
type numberLocale struct {
	tag                string
	group, decimal     string
	minus              string
	minGrouping        int    // leading digits needed before grouping starts (2: no "1.234")
	indian             bool   // groups of two after the first three digits
	percent            string // pattern: "#%" or "# %"
	currencyAfter      bool   // "1.234,50 €"
	currencySpace      string // between the number and the symbol
	currencySymbolsNat map[string]string
	// compact are the short compact forms of thousands, millions,
	// billions and trillions: the power of ten to divide by (0: the number
	// is written whole) and the suffix; nil is en-US's K, M, B, T.
	compact []compactForm
	// compactSteps, when set, replace compact: the short compact forms of
	// a locale that counts in other units than thousands (万, 億, लाख),
	// by the number's exponent. compactLong says its long forms are the
	// same.
	compactSteps []compactStep
	compactLong  bool
	// unitSpace separates a number from a short unit; "" is a space.
	unitSpace string
	// accountingParens says that currencySign "accounting" writes a
	// negative amount in parentheses (CLDR's accounting pattern); without
	// it the accounting pattern is the standard one.
	accountingParens bool
}

// compactStep is one compact form of compactSteps: numbers from 10^from
// (up to the next step's from) are divided by 10^div and written with
// suffix. Below the first step a number is written whole.
type compactStep struct {
	from, div int
	suffix    string
}

// compactForm is one short compact notation step of a locale.
type compactForm struct {
	exp    int
	suffix string
}

const nbsp, nnbsp = "\u00a0", "\u202f"

var numberLocales = sync.OnceValue(func() map[string]*numberLocale {
	return map[string]*numberLocale{
		"en": {accountingParens: true, tag: "en-US", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%"},
		"en-GB": {accountingParens: true, tag: "en-GB", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", currencySymbolsNat: map[string]string{"USD": "US$", "JPY": "JP¥"},
			compact: []compactForm{{3, "k"}, {6, "m"}, {9, "bn"}, {12, "tn"}}},
		"hi": {compactSteps: []compactStep{{3, 3, nbsp + "हज़ार"}, {5, 5, nbsp + "लाख"}, {7, 7, nbsp + "क॰"}, {9, 9, nbsp + "अ॰"}, {11, 11, nbsp + "ख॰"}, {13, 13, nbsp + "नील"}},
			tag: "hi-IN", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", indian: true, currencySymbolsNat: map[string]string{"JPY": "JP¥"}},
		"en-IN": {compactSteps: []compactStep{{3, 3, "K"}, {5, 5, "L"}, {7, 7, "Cr"}, {10, 10, "KCr"}, {12, 12, "LCr"}},
			accountingParens: true, tag: "en-IN", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", indian: true, currencySymbolsNat: map[string]string{"JPY": "JP¥", "INR": "₹"}},
		"de": {tag: "de-DE", group: ".", decimal: ",", minus: "-", minGrouping: 1, percent: "#" + nbsp + "%", currencyAfter: true, currencySpace: nbsp,
			compact: []compactForm{{0, ""}, {6, nbsp + "Mio."}, {9, nbsp + "Mrd."}, {12, nbsp + "Bio."}}},
		"fr": {accountingParens: true, tag: "fr-FR", group: nnbsp, decimal: ",", minus: "-", minGrouping: 1, percent: "#" + nbsp + "%", currencyAfter: true, currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "$US", "GBP": "£GB", "JPY": "JPY"},
			compact: []compactForm{{3, nbsp + "k"}, {6, nbsp + "M"}, {9, nbsp + "Md"}, {12, nbsp + "Bn"}}, unitSpace: nnbsp},
		"es": {tag: "es-ES", group: ".", decimal: ",", minus: "-", minGrouping: 2, percent: "#" + nbsp + "%", currencyAfter: true, currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "US$", "GBP": "GBP", "JPY": "JPY"},
			compact: []compactForm{{3, nbsp + "mil"}, {6, nbsp + "M"}, {6, nbsp + "M"}, {12, nbsp + "B"}}},
		"it": {tag: "it-IT", group: ".", decimal: ",", minus: "-", minGrouping: 2, percent: "#%", currencyAfter: true, currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "USD", "JPY": "JPY"}},
		"pt": {tag: "pt-BR", group: ".", decimal: ",", minus: "-", minGrouping: 1, percent: "#%", currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "US$", "JPY": "JP¥"},
			compact: []compactForm{{3, nbsp + "mil"}, {6, nbsp + "mi"}, {9, nbsp + "bi"}, {12, nbsp + "tri"}}},
		"nl": {accountingParens: true, tag: "nl-NL", group: ".", decimal: ",", minus: "-", minGrouping: 1, percent: "#%", currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "US$", "JPY": "JP¥"}},
		"ru": {tag: "ru-RU", group: nbsp, decimal: ",", minus: "-", minGrouping: 1, percent: "#" + nbsp + "%", currencyAfter: true, currencySpace: nbsp},
		"sv": {tag: "sv-SE", group: nbsp, decimal: ",", minus: "\u2212", minGrouping: 1, percent: "#" + nbsp + "%", currencyAfter: true, currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "US$", "GBP": "GBP", "JPY": "JPY"}},
		"pl": {accountingParens: true, tag: "pl-PL", group: nbsp, decimal: ",", minus: "-", minGrouping: 2, percent: "#%", currencyAfter: true, currencySpace: nbsp, currencySymbolsNat: map[string]string{"USD": "USD", "GBP": "GBP", "JPY": "JPY"}},
		"ja": {compactSteps: []compactStep{{4, 4, "万"}, {8, 8, "億"}, {12, 12, "兆"}, {16, 16, "京"}}, compactLong: true,
			accountingParens: true, tag: "ja-JP", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", currencySymbolsNat: map[string]string{"JPY": "￥"}},
		"zh": {compactSteps: []compactStep{{4, 4, "万"}, {8, 8, "亿"}, {12, 12, "万亿"}}, compactLong: true,
			accountingParens: true, tag: "zh-CN", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", currencySymbolsNat: map[string]string{"USD": "US$", "CNY": "¥", "JPY": "JP¥"}},
		"zh-TW": {compactSteps: []compactStep{{4, 4, "萬"}, {8, 8, "億"}, {12, 12, "兆"}}, compactLong: true,
			accountingParens: true, tag: "zh-TW", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", currencySymbolsNat: map[string]string{"USD": "US$", "JPY": "¥"}},
		"ko": {compactSteps: []compactStep{{3, 3, "천"}, {4, 4, "만"}, {8, 8, "억"}, {12, 12, "조"}}, compactLong: true,
			accountingParens: true, tag: "ko-KR", group: ",", decimal: ".", minus: "-", minGrouping: 1, percent: "#%", currencySymbolsNat: map[string]string{"USD": "US$", "KRW": "₩", "JPY": "JP¥"}},
	}
})

// resolveNumberLocale picks the locale data for a requested tag, falling
// back to en-US.
func resolveNumberLocale(tag string) *numberLocale {
	tag = strings.ReplaceAll(tag, "_", "-")
	lower := strings.ToLower(tag)
	for _, exact := range []string{"en-GB", "en-IN", "zh-TW"} {
		if strings.EqualFold(tag, exact) {
			return numberLocales()[exact]
		}
	}
	lang, _, _ := strings.Cut(lower, "-")
	if l, ok := numberLocales()[lang]; ok {
		if tag != "" && canonicalTag(tag) != l.tag {
			l2 := *l
			l2.tag = canonicalTag(tag)
			return &l2
		}
		return l
	}
	return numberLocales()["en"]
}

// canonicalTag writes a BCP 47 tag with a lowercase language and an
// uppercase region.
func canonicalTag(tag string) string {
	parts := strings.Split(tag, "-")
	parts[0] = strings.ToLower(parts[0])
	for i := 1; i < len(parts); i++ {
		if len(parts[i]) == 2 {
			parts[i] = strings.ToUpper(parts[i])
		}
	}
	return strings.Join(parts, "-")
}

// currencySymbols are the en-US symbols; other currencies print their code.
var currencySymbols = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "CNY": "CN¥", "KRW": "₩",
		"CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "MXN": "MX$", "BRL": "R$", "HKD": "HK$",
		"ILS": "₪", "VND": "₫", "TWD": "NT$", "XAF": "FCFA", "XOF": "F\u202fCFA", "PHP": "₱",
	}
})

var currencyNames = sync.OnceValue(func() map[string][2]string {
	return map[string][2]string{
		"USD": {"US dollar", "US dollars"}, "EUR": {"euro", "euros"}, "GBP": {"British pound", "British pounds"},
		"JPY": {"Japanese yen", "Japanese yen"}, "INR": {"Indian rupee", "Indian rupees"}, "CNY": {"Chinese yuan", "Chinese yuan"},
		"CAD": {"Canadian dollar", "Canadian dollars"}, "AUD": {"Australian dollar", "Australian dollars"},
		"CHF": {"Swiss franc", "Swiss francs"}, "MXN": {"Mexican peso", "Mexican pesos"}, "BRL": {"Brazilian real", "Brazilian reals"},
	}
})

// currencyDigits is the number of minor-unit digits of a currency.
func currencyDigits(code string) int {
	switch code {
	case "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "XAF", "XOF", "PYG", "RWF", "KMF", "GNF", "DJF", "VUV", "XPF", "BIF":
		return 0
	case "BHD", "JOD", "KWD", "OMR", "TND", "IQD", "LYD":
		return 3
	}
	return 2
}

// unitNames maps simple units to their short and long English forms.
var unitNames = sync.OnceValue(func() map[string][3]string {
	return map[string][3]string{ // short, long singular, long plural
		"percent": {"%", "percent", "percent"}, "second": {"sec", "second", "seconds"}, "minute": {"min", "minute", "minutes"},
		"hour": {"hr", "hour", "hours"}, "day": {"day", "day", "days"}, "week": {"wk", "week", "weeks"},
		"month": {"mth", "month", "months"}, "year": {"yr", "year", "years"}, "millisecond": {"ms", "millisecond", "milliseconds"},
		"byte": {"byte", "byte", "bytes"}, "kilobyte": {"kB", "kilobyte", "kilobytes"}, "megabyte": {"MB", "megabyte", "megabytes"},
		"gigabyte": {"GB", "gigabyte", "gigabytes"}, "terabyte": {"TB", "terabyte", "terabytes"}, "bit": {"bit", "bit", "bits"},
		"meter": {"m", "meter", "meters"}, "kilometer": {"km", "kilometer", "kilometers"}, "centimeter": {"cm", "centimeter", "centimeters"},
		"millimeter": {"mm", "millimeter", "millimeters"}, "mile": {"mi", "mile", "miles"}, "foot": {"ft", "foot", "feet"},
		"inch": {"in", "inch", "inches"}, "kilogram": {"kg", "kilogram", "kilograms"}, "gram": {"g", "gram", "grams"},
		"pound": {"lb", "pound", "pounds"}, "liter": {"L", "liter", "liters"}, "celsius": {"°C", "degree Celsius", "degrees Celsius"},
		"fahrenheit": {"°F", "degree Fahrenheit", "degrees Fahrenheit"}, "kilometer-per-hour": {"km/h", "kilometer per hour", "kilometers per hour"},
		"mile-per-hour": {"mph", "mile per hour", "miles per hour"}, "meter-per-second": {"m/s", "meter per second", "meters per second"},
	}
})

// numberFormat holds resolved Intl.NumberFormat options.
type numberFormat struct {
	loc                      *numberLocale
	style                    string
	currency, currencyDisp   string
	unit, unitDisplay        string
	minInt, minFrac, maxFrac int
	minSig, maxSig           int // 0 when significant digits are not used
	useGrouping              string
	notation, compactDisplay string
	signDisplay              string
	currencySign             string // "standard" or "accounting"
}

// decimal is a non-negative decimal number: digits with the decimal point
// after point digits (point may be negative or beyond len(digits)).
type decimal struct {
	digits string
	point  int
}

func toDecimal(x float64) decimal {
	if x == 0 {
		return decimal{digits: "0", point: 1}
	}
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	return decimal{digits: strings.Replace(mant, ".", "", 1), point: e + 1}
}

// roundAt rounds half away from zero, keeping n digits after the point.
func (d decimal) roundAt(n int) decimal {
	keep := d.point + n
	if keep >= len(d.digits) {
		return d
	}
	if keep < 0 {
		return decimal{digits: "0", point: 1}
	}
	digits := []byte(d.digits[:keep])
	if d.digits[keep] >= '5' {
		i := len(digits) - 1
		for ; i >= 0; i-- {
			if digits[i] < '9' {
				digits[i]++
				break
			}
			digits[i] = '0'
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
			d.point++
		}
	}
	if len(digits) == 0 {
		return decimal{digits: "0", point: 1}
	}
	return decimal{digits: string(digits), point: d.point}
}

func (d decimal) isZero() bool { return strings.Trim(d.digits, "0") == "" }

// intAndFrac returns the integer digits (at least "0") and the fraction
// digits of d.
func (d decimal) intAndFrac() (string, string) {
	var in, frac string
	switch {
	case d.point <= 0:
		in, frac = "0", strings.Repeat("0", -d.point)+d.digits
	case d.point >= len(d.digits):
		in = d.digits + strings.Repeat("0", d.point-len(d.digits))
	default:
		in, frac = d.digits[:d.point], d.digits[d.point:]
	}
	in = strings.TrimLeft(in, "0")
	if in == "" {
		in = "0"
	}
	return in, strings.TrimRight(frac, "0")
}

// formatDigits rounds d by the fraction or significant digit options and
// renders it with the locale's separators.
func (f *numberFormat) formatDigits(d decimal, minFrac, maxFrac, minSig, maxSig int, grouping bool) string {
	var in, frac string
	if maxSig > 0 {
		// Significant digits count from the first non-zero digit.
		first := d.point
		if t := strings.TrimLeft(d.digits, "0"); t != "" {
			first = d.point - (len(d.digits) - len(t))
		}
		d = d.roundAt(maxSig - first)
		in, frac = d.intAndFrac()
		sig := len(strings.TrimLeft(in+frac, "0"))
		if in == "0" {
			sig = len(strings.TrimLeft(frac, "0"))
		}
		for sig < minSig {
			frac += "0"
			sig++
		}
	} else {
		d = d.roundAt(maxFrac)
		in, frac = d.intAndFrac()
		for len(frac) < minFrac {
			frac += "0"
		}
	}
	for len(in) < f.minInt {
		in = "0" + in
	}
	if grouping {
		in = f.group(in)
	}
	if frac != "" {
		return in + f.loc.decimal + frac
	}
	return in
}

func (f *numberFormat) group(in string) string {
	minGrouping := f.loc.minGrouping
	if f.useGrouping == "min2" {
		minGrouping = 2
	}
	if len(in) < 4 || len(in) < 3+minGrouping {
		return in
	}
	var parts []string
	rest := in
	first := true
	for {
		size := 3
		if f.loc.indian && !first {
			size = 2
		}
		if len(rest) <= size {
			break
		}
		parts = append([]string{rest[len(rest)-size:]}, parts...)
		rest = rest[:len(rest)-size]
		first = false
	}
	parts = append([]string{rest}, parts...)
	return strings.Join(parts, f.loc.group)
}

var compactSuffixes = []struct{ short, long string }{
	{"", ""}, {"K", " thousand"}, {"M", " million"}, {"B", " billion"}, {"T", " trillion"},
}

// format renders x.
func (f *numberFormat) format(x float64) string {
	negative := x < 0 || (x == 0 && math.Signbit(x))
	var body string
	switch {
	case math.IsNaN(x):
		body, negative = "NaN", false
	case math.IsInf(x, 0):
		body = "∞"
	default:
		d := toDecimal(x)
		if f.style == "percent" {
			d.point += 2
		}
		body = f.formatDecimal(d)
		if strings.Trim(body, "0.,"+nbsp+nnbsp) == "" && negative && f.signDisplay != "negative" {
			// -0 keeps its sign in "auto" (as ICU does), except "negative".
		} else if isAllZero(body) && f.signDisplay == "negative" {
			negative = false
		}
	}
	return f.affix(body, negative, x)
}

func isAllZero(s string) bool {
	for _, r := range s {
		if r >= '1' && r <= '9' {
			return false
		}
	}
	return true
}

// formatBigInt renders a BigInt's decimal digits (with a leading '-').
func (f *numberFormat) formatBigInt(s string) string {
	negative := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	d := decimal{digits: s, point: len(s)}
	if f.style == "percent" {
		d.point += 2
	}
	return f.affix(f.formatDecimal(d), negative, 1)
}

func (f *numberFormat) formatDecimal(d decimal) string {
	grouping := f.useGrouping != "false"
	switch f.notation {
	case "scientific", "engineering":
		if d.isZero() {
			return f.formatDigits(d, f.minFrac, f.maxFrac, f.minSig, f.maxSig, false) + "E0"
		}
		t := strings.TrimLeft(d.digits, "0")
		exp := d.point - (len(d.digits) - len(t)) - 1
		shift := exp
		if f.notation == "engineering" {
			shift = exp - ((exp%3)+3)%3
		}
		m := decimal{digits: t, point: 1 + (exp - shift)}
		s := f.formatDigits(m, f.minFrac, f.maxFrac, f.minSig, f.maxSig, false)
		return s + "E" + strconv.Itoa(shift)
	case "compact":
		in, _ := d.intAndFrac()
		exp := len(in) - 1
		if in == "0" {
			exp = 0
		}
		if f.loc.compactSteps != nil && (f.compactDisplay != "long" || f.loc.compactLong) {
			return f.compactBySteps(d, exp)
		}
		i := min(exp/3, len(compactSuffixes)-1)
		for {
			scaled := decimal{digits: d.digits, point: d.point - 3*i}
			s := f.compactDigits(scaled)
			whole, _, _ := strings.Cut(s, f.loc.decimal)
			if len(strings.ReplaceAll(whole, f.loc.group, "")) >= 4 && i+1 < len(compactSuffixes) {
				i++ // 999.9K rounds to 1000K: say 1M
				continue
			}
			suffix := compactSuffixes[i].short
			if f.compactDisplay == "long" {
				suffix = compactSuffixes[i].long
			} else if i > 0 && f.loc.compact != nil {
				form := f.loc.compact[i-1]
				if form.exp == 0 {
					// Written whole, grouped from five digits.
					g := *f
					g.useGrouping = "min2"
					return g.formatDigits(d.roundAt(0), 0, 0, 0, 0, true)
				}
				if form.exp != 3*i {
					s = f.compactDigits(decimal{digits: d.digits, point: d.point - form.exp})
					if f.loc.group != "" {
						whole, frac, hasFrac := strings.Cut(s, f.loc.decimal)
						s = f.group(whole)
						if hasFrac {
							s += f.loc.decimal + frac
						}
					}
				}
				suffix = form.suffix
			}
			return s + suffix
		}
	}
	return f.formatDigits(d, f.minFrac, f.maxFrac, f.minSig, f.maxSig, grouping)
}

// compactBySteps writes d, whose integer part has exp+1 digits, in the
// locale's compactSteps: the mantissa rounded as compactDigits does and
// grouped from five digits, and the step's suffix; a mantissa that
// rounds up into the next step's range moves to that step.
func (f *numberFormat) compactBySteps(d decimal, exp int) string {
	steps := f.loc.compactSteps
	g := *f
	g.useGrouping = "min2"
	if f.useGrouping == "false" {
		g.useGrouping = "false"
	}
	for {
		i := len(steps) - 1
		for i >= 0 && steps[i].from > exp {
			i--
		}
		if i < 0 {
			if exp < 3 {
				return g.compactDigits(d)
			}
			// Written whole, grouped from five digits.
			return g.formatDigits(d.roundAt(0), 0, 0, 0, 0, g.useGrouping != "false")
		}
		st := steps[i]
		s := g.compactDigits(decimal{digits: d.digits, point: d.point - st.div})
		whole, _, _ := strings.Cut(s, f.loc.decimal)
		digits := len(strings.ReplaceAll(whole, f.loc.group, ""))
		if i+1 < len(steps) && st.div+digits > steps[i+1].from {
			exp = steps[i+1].from // 9999.9万 rounds to 10000万: say 1億
			continue
		}
		return s + st.suffix
	}
}

// compactDigits rounds a compact mantissa: two significant digits below
// 100, whole numbers above, unless digits were requested.
func (f *numberFormat) compactDigits(d decimal) string {
	if d.isZero() {
		return f.formatDigits(d, 0, 0, 0, 0, false)
	}
	if f.maxSig > 0 || f.maxFrac != 0 || f.minFrac != 0 {
		if f.explicitDigits() {
			return f.formatDigits(d, f.minFrac, f.maxFrac, f.minSig, f.maxSig, f.useGrouping != "false")
		}
	}
	in, _ := d.intAndFrac()
	if len(in) >= 2 {
		return f.formatDigits(d, 0, 0, 0, 0, f.useGrouping != "false")
	}
	return f.formatDigits(d, 0, 0, 1, 2, false)
}

func (f *numberFormat) explicitDigits() bool { return f.maxSig > 0 || f.maxFrac != 0 }

// affix adds the sign and the style's symbols around body.
func (f *numberFormat) affix(body string, negative bool, x float64) string {
	sign := ""
	switch f.signDisplay {
	case "never":
	case "always":
		sign = "+"
		if negative {
			sign = f.loc.minus
		}
	case "exceptZero":
		if isAllZero(body) && body != "NaN" {
			sign = ""
		} else if negative {
			sign = f.loc.minus
		} else {
			sign = "+"
		}
	case "negative":
		if negative && !isAllZero(body) {
			sign = f.loc.minus
		}
	default:
		if negative {
			sign = f.loc.minus
		}
	}
	switch f.style {
	case "percent":
		return sign + strings.Replace(f.loc.percent, "#", body, 1)
	case "currency":
		if f.currencySign == "accounting" && f.loc.accountingParens && f.currencyDisp != "name" && sign == f.loc.minus {
			g := *f
			g.currencySign, g.signDisplay = "standard", "never"
			return "(" + g.affix(body, false, x) + ")"
		}
		sym := f.currency
		switch f.currencyDisp {
		case "code":
			if f.loc.currencyAfter {
				return sign + body + f.loc.currencySpace + f.currency
			}
			return sign + f.currency + nbsp + body
		case "name":
			names, ok := currencyNames()[f.currency]
			name := f.currency
			if ok {
				name = names[1]
				if body == "1.00" || body == "1" {
					name = names[0]
				}
			}
			return sign + body + " " + name
		}
		if s, ok := f.loc.currencySymbolsNat[f.currency]; ok {
			sym = s
		} else if s, ok := currencySymbols()[f.currency]; ok {
			sym = s
		}
		if f.currencyDisp == "narrowSymbol" {
			if s, ok := currencySymbols()[f.currency]; ok {
				sym = strings.TrimLeft(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
			}
		}
		if f.loc.currencyAfter {
			return sign + body + f.loc.currencySpace + sym
		}
		if f.loc.currencySpace != "" {
			return sign + sym + f.loc.currencySpace + body
		}
		return sign + sym + body
	case "unit":
		names, ok := unitNames()[f.unit]
		if !ok {
			return sign + body + " " + f.unit
		}
		switch f.unitDisplay {
		case "long":
			if body == "1" {
				return sign + body + " " + names[1]
			}
			return sign + body + " " + names[2]
		case "narrow":
			if f.unit == "percent" || f.unit == "celsius" || f.unit == "fahrenheit" {
				return sign + body + names[0]
			}
			return sign + body + names[0]
		}
		if f.unit == "percent" {
			return sign + body + "%"
		}
		if f.loc.unitSpace != "" {
			return sign + body + f.loc.unitSpace + names[0]
		}
		return sign + body + " " + names[0]
	}
	return sign + body
}

// --- dates ----------------------------------------------------------------------------

var (
	monthsLong  = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	weekdayLong = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// dateFormat holds resolved Intl.DateTimeFormat options (en-US patterns).
type dateFormat struct {
	loc                            *time.Location
	tzName                         string
	weekday, era, year, month, day string
	hour, minute, second           string
	fractionalSecondDigits         int
	hour12                         bool
	timeZoneName                   string
	dateStyle, timeStyle           string
	// dl is the locale's date data (intl_dates.go), nil for a locale
	// without it; hour12Set says the hour12 option was given.
	dl        *dateLocale
	locale    string
	hour12Set bool
}

// validTime reports whether ms is a time value a Date can hold.
func validTime(ms float64) bool {
	return !math.IsNaN(ms) && !math.IsInf(ms, 0) && math.Abs(ms) <= 8.64e15
}

// time returns the instant ms milliseconds after the epoch in f's zone.
func (f *dateFormat) time(ms float64) time.Time {
	sec := math.Floor(ms / 1000)
	return time.Unix(int64(sec), int64((ms-sec*1000)*1e6)).In(f.loc)
}

// format formats t: with the locale's patterns, for a locale other than
// en-US that has them and options they cover, else with formatEnglish.
func (f *dateFormat) format(t time.Time) string {
	if f.dl != nil && f.locale != "en-US" {
		if parts, ok := f.localeParts(t); ok {
			var b strings.Builder
			for _, p := range parts {
				b.WriteString(p.value)
			}
			return b.String()
		}
	}
	return f.formatEnglish(t)
}

// formatEnglish formats t by en-US's rules.
func (f *dateFormat) formatEnglish(t time.Time) string {
	if f.dateStyle != "" || f.timeStyle != "" {
		return f.formatStyles(t)
	}
	date := f.datePart(t)
	tm := f.timePart(t)
	switch {
	case date != "" && tm != "":
		return date + ", " + tm
	case date != "":
		return date
	}
	return tm
}

func (f *dateFormat) formatStyles(t time.Time) string {
	var date, tm string
	switch f.dateStyle {
	case "full":
		date = weekdayLong[t.Weekday()] + ", " + monthsLong[t.Month()-1] + " " + strconv.Itoa(t.Day()) + ", " + strconv.Itoa(t.Year())
	case "long":
		date = monthsLong[t.Month()-1] + " " + strconv.Itoa(t.Day()) + ", " + strconv.Itoa(t.Year())
	case "medium":
		date = monthsLong[t.Month()-1][:3] + " " + strconv.Itoa(t.Day()) + ", " + strconv.Itoa(t.Year())
	case "short":
		date = strconv.Itoa(int(t.Month())) + "/" + strconv.Itoa(t.Day()) + "/" + twoDigits(t.Year()%100)
	}
	switch f.timeStyle {
	case "full", "long", "medium":
		g := &dateFormat{hour: "numeric", minute: "2-digit", second: "2-digit", hour12: f.hour12}
		tm = g.timePart(t)
		switch f.timeStyle {
		case "full":
			tm += " " + f.zoneName(t, true)
		case "long":
			tm += " " + f.zoneName(t, false)
		}
	case "short":
		g := &dateFormat{hour: "numeric", minute: "2-digit", hour12: f.hour12}
		tm = g.timePart(t)
	}
	switch {
	case date != "" && tm != "":
		if f.dateStyle == "full" || f.dateStyle == "long" {
			return date + " at " + tm
		}
		return date + ", " + tm
	case date != "":
		return date
	}
	return tm
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func numeric(n int, style string) string {
	if style == "2-digit" {
		return twoDigits(n % 100)
	}
	return strconv.Itoa(n)
}

func (f *dateFormat) datePart(t time.Time) string {
	year := ""
	if f.year != "" {
		year = numeric(t.Year(), f.year)
	}
	day := ""
	if f.day != "" {
		day = numeric(t.Day(), f.day)
	}
	weekday := ""
	switch f.weekday {
	case "long":
		weekday = weekdayLong[t.Weekday()]
	case "short":
		weekday = weekdayLong[t.Weekday()][:3]
	case "narrow":
		weekday = weekdayLong[t.Weekday()][:1]
	}
	var s string
	switch f.month {
	case "long", "short", "narrow":
		m := monthsLong[t.Month()-1]
		if f.month == "short" {
			m = m[:3]
		} else if f.month == "narrow" {
			m = m[:1]
		}
		s = m
		if day != "" {
			s += " " + day
		}
		if year != "" {
			if day != "" {
				s += ","
			}
			s += " " + year
		}
	case "numeric", "2-digit":
		parts := []string{numeric(int(t.Month()), f.month)}
		if day != "" {
			parts = append(parts, day)
		}
		if year != "" {
			parts = append(parts, year)
		}
		s = strings.Join(parts, "/")
	default:
		switch {
		case day != "" && year != "":
			s = day + ", " + year
		case day != "":
			s = day
		default:
			s = year
		}
	}
	if weekday != "" {
		if s == "" {
			return weekday
		}
		return weekday + ", " + s
	}
	if f.era != "" && s != "" {
		s += " AD"
	}
	return s
}

func (f *dateFormat) timePart(t time.Time) string {
	if f.hour == "" && f.minute == "" && f.second == "" {
		if f.timeZoneName != "" && f.year == "" && f.month == "" && f.day == "" && f.weekday == "" {
			return f.zoneName(t, f.timeZoneName == "long")
		}
		if f.timeZoneName != "" {
			return ""
		}
		return ""
	}
	var parts []string
	suffix := ""
	if f.hour != "" {
		h := t.Hour()
		if f.hour12 {
			suffix = " AM"
			if h >= 12 {
				suffix = " PM"
			}
			h %= 12
			if h == 0 {
				h = 12
			}
			parts = append(parts, numeric(h, f.hour))
		} else {
			parts = append(parts, twoDigits(h))
		}
	}
	if f.minute != "" {
		if f.hour != "" || f.minute == "2-digit" {
			parts = append(parts, twoDigits(t.Minute()))
		} else {
			parts = append(parts, strconv.Itoa(t.Minute()))
		}
	}
	if f.second != "" {
		s := strconv.Itoa(t.Second())
		if f.minute != "" || f.second == "2-digit" {
			s = twoDigits(t.Second())
		}
		if f.fractionalSecondDigits > 0 {
			frac := strconv.Itoa(t.Nanosecond()/1e6 + 1000)[1:]
			s += "." + frac[:f.fractionalSecondDigits]
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, ":") + suffix
	if f.timeZoneName != "" {
		out += " " + f.zoneName(t, f.timeZoneName == "long")
	}
	return out
}

// usZones are the abbreviations en-US uses; other zones print as offsets.
var usZones = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"EST": true, "EDT": true, "CST": true, "CDT": true, "MST": true, "MDT": true,
		"PST": true, "PDT": true, "AKST": true, "AKDT": true, "HST": true,
	}
})

// zoneName names t's zone as en-US does: "UTC", "Coordinated Universal
// Time", or the abbreviation/offset.
func (f *dateFormat) zoneName(t time.Time, long bool) string {
	if isUTC(t) {
		if long {
			return "Coordinated Universal Time"
		}
		return "UTC"
	}
	name, offset := t.Zone()
	if usZones()[name] && !long {
		return name
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	s := "GMT" + sign + strconv.Itoa(offset/3600)
	if m := offset % 3600 / 60; m != 0 {
		s += ":" + twoDigits(m)
	}
	return s
}
