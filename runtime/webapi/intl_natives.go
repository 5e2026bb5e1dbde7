package webapi

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// This file connects webapi/intl.js and webapi/locale.js to the formatters
// of intl.go: it resolves Intl.NumberFormat and Intl.DateTimeFormat
// options as ECMA-402 does and keeps the resolved formats on the Go side.

// --- Intl -----------------------------------------------------------------------------------

// intlNatives are the native helpers of intl.js and locale.js. A format is
// a Go value that intl.js keeps as an opaque token (the value wrapped by
// vm.ToValue, in a private field), so that it is freed with the JavaScript
// object that holds it (toLocaleString and localeCompare with locales or
// options make one per call).
type intlNatives struct {
	w   *webGlobals
	obj *goja.Object
}

// unwrap returns the format a token holds, or throws a TypeError with msg.
func unwrap[T any](vm *goja.Runtime, token goja.Value, msg string) T {
	if o, ok := token.(*goja.Object); ok {
		if f, ok := o.Export().(T); ok {
			return f
		}
	}
	panic(js.NewError(vm, "TypeError", msg))
}

func (w *webGlobals) intlNatives() *goja.Object {
	if w.intl != nil {
		return w.intl.obj
	}
	n := &intlNatives{w: w}
	n.obj = w.natives(map[string]func(goja.FunctionCall) goja.Value{
		"numberFormat":          n.numberFormat,
		"formatNumber":          n.formatNumber,
		"formatNumberToParts":   n.formatNumberToParts,
		"numberResolvedOptions": n.numberResolvedOptions,
		"dateFormat":            n.dateFormat,
		"formatDate":            n.formatDate,
		"formatDateToParts":     n.formatDateToParts,
		"dateResolvedOptions":   n.dateResolvedOptions,
		"supportedLocales":      n.supportedLocales,
		"collator":              n.newCollator,
		"collatorCompare":       n.collatorCompare,
		"collatorResolved":      n.collatorResolved,
		"pluralRules":           n.newPluralRules,
		"pluralSelect":          n.pluralSelect,
		"pluralResolved":        n.pluralResolved,
		"segment":               n.segment,
		"displayNames":          n.displayNames,
	})
	w.intl = n
	return n.obj
}

var localeTagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z]{2,8}(-[a-zA-Z0-9]{1,8})*$`) })

// requestedLocale returns the first requested locale tag ("" for the
// default), throwing Node's RangeError for a malformed one.
func (n *intlNatives) requestedLocale(v goja.Value) string {
	var tags []string
	switch {
	case !js.Defined(v):
		return ""
	case goja.IsString(v):
		tags = []string{v.String()}
	default:
		o := v.ToObject(n.w.vm)
		l := js.ToInt(o.Get("length"))
		for i := 0; i < l && i < 100; i++ {
			tags = append(tags, o.Get(fmt.Sprint(i)).String())
		}
	}
	for _, t := range tags {
		if !localeTagRE().MatchString(t) {
			panic(js.NewError(n.w.vm, "RangeError", "Incorrect locale information provided"))
		}
	}
	if len(tags) == 0 {
		return ""
	}
	return tags[0]
}

func (n *intlNatives) supportedLocales(c goja.FunctionCall) goja.Value {
	tag := n.requestedLocale(c.Argument(0))
	if tag == "" {
		return n.w.vm.NewArray()
	}
	if c.Argument(1).ToBoolean() {
		return n.w.vm.NewArray(canonicalTag(tag))
	}
	return n.w.vm.NewArray(resolveNumberLocale(tag).tag)
}

// options reads an options argument: undefined means none.
type intlOptions struct {
	vm  *goja.Runtime
	obj *goja.Object
}

func (o intlOptions) str(name string, allowed []string, def string) string {
	if o.obj == nil {
		return def
	}
	v := o.obj.Get(name)
	if !js.Defined(v) {
		return def
	}
	s := v.String()
	if allowed != nil {
		for _, a := range allowed {
			if a == s {
				return s
			}
		}
		panic(js.NewError(o.vm, "RangeError", fmt.Sprintf("Value %s out of range for Intl.NumberFormat options property %s", s, name)))
	}
	return s
}

// num reads an integer option in [lo, hi]; -1 when absent.
func (o intlOptions) num(name string, lo, hi int) int {
	if o.obj == nil {
		return -1
	}
	v := o.obj.Get(name)
	if !js.Defined(v) {
		return -1
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		panic(js.NewError(o.vm, "RangeError", name+" value is out of range."))
	}
	return int(math.Floor(f))
}

func (o intlOptions) defined(name string) bool {
	if o.obj == nil {
		return false
	}
	return js.Defined(o.obj.Get(name))
}

func (n *intlNatives) optionsOf(v goja.Value) intlOptions {
	if !js.Defined(v) {
		return intlOptions{vm: n.w.vm}
	}
	return intlOptions{vm: n.w.vm, obj: v.ToObject(n.w.vm)}
}

func (n *intlNatives) numberFormat(c goja.FunctionCall) goja.Value {
	vm := n.w.vm
	f := &numberFormat{loc: resolveNumberLocale(n.requestedLocale(c.Argument(0)))}
	o := n.optionsOf(c.Argument(1))
	f.style = o.str("style", []string{"decimal", "percent", "currency", "unit"}, "decimal")
	if cur := o.str("currency", nil, ""); cur != "" {
		if !isCurrencyCode(cur) {
			panic(js.NewError(vm, "RangeError", "Invalid currency code : "+cur))
		}
		f.currency = strings.ToUpper(cur)
	}
	f.currencyDisp = o.str("currencyDisplay", []string{"symbol", "narrowSymbol", "code", "name"}, "symbol")
	f.currencySign = o.str("currencySign", []string{"standard", "accounting"}, "standard")
	f.unit = o.str("unit", nil, "")
	f.unitDisplay = o.str("unitDisplay", []string{"short", "narrow", "long"}, "short")
	if f.style == "currency" && f.currency == "" {
		panic(js.NewError(vm, "TypeError", "Currency code is required with currency style."))
	}
	if f.style == "unit" && f.unit == "" {
		panic(js.NewError(vm, "TypeError", "Unit is required with unit style."))
	}
	f.notation = o.str("notation", []string{"standard", "scientific", "engineering", "compact"}, "standard")
	f.minInt = max(1, o.num("minimumIntegerDigits", 1, 21))
	minFracDefault, maxFracDefault := 0, 3
	switch {
	case f.style == "currency" && f.notation == "standard":
		cd := currencyDigits(f.currency)
		minFracDefault, maxFracDefault = cd, cd
	case f.style == "percent":
		maxFracDefault = 0
	case f.notation == "compact":
		maxFracDefault = 0
	}
	mnsd, mxsd := o.num("minimumSignificantDigits", 1, 21), o.num("maximumSignificantDigits", 1, 21)
	mnfd, mxfd := o.num("minimumFractionDigits", 0, 100), o.num("maximumFractionDigits", 0, 100)
	if mnsd >= 0 || mxsd >= 0 {
		f.minSig, f.maxSig = max(1, mnsd), mxsd
		if mxsd < 0 {
			f.maxSig = 21
		}
		if f.minSig > f.maxSig {
			panic(js.NewError(vm, "RangeError", "maximumSignificantDigits value is out of range."))
		}
	}
	switch {
	case mnfd < 0 && mxfd < 0:
		f.minFrac, f.maxFrac = minFracDefault, maxFracDefault
	case mnfd < 0:
		f.minFrac, f.maxFrac = min(minFracDefault, mxfd), mxfd
	case mxfd < 0:
		f.minFrac, f.maxFrac = mnfd, max(maxFracDefault, mnfd)
	default:
		if mnfd > mxfd {
			panic(js.NewError(vm, "RangeError", "maximumFractionDigits value is out of range."))
		}
		f.minFrac, f.maxFrac = mnfd, mxfd
	}
	f.useGrouping = "auto"
	if f.notation == "compact" {
		f.useGrouping = "min2"
	}
	if o.defined("useGrouping") {
		g := o.obj.Get("useGrouping")
		switch {
		case g.ExportType() != nil && g.ExportType().Kind().String() == "bool":
			if g.ToBoolean() {
				f.useGrouping = "always"
			} else {
				f.useGrouping = "false"
			}
		default:
			f.useGrouping = o.str("useGrouping", []string{"min2", "auto", "always", "true", "false"}, "auto")
			if f.useGrouping == "true" {
				f.useGrouping = "always"
			}
		}
	}
	f.compactDisplay = o.str("compactDisplay", []string{"short", "long"}, "short")
	f.signDisplay = o.str("signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto")
	return vm.ToValue(f)
}

func (n *intlNatives) number(v goja.Value) *numberFormat {
	return unwrap[*numberFormat](n.w.vm, v, "not an Intl.NumberFormat")
}

func (n *intlNatives) formatValue(f *numberFormat, x goja.Value) string {
	if goja.IsBigInt(x) {
		return f.formatBigInt(x.String())
	}
	return f.format(x.ToFloat())
}

func (n *intlNatives) formatNumber(c goja.FunctionCall) goja.Value {
	return n.w.vm.ToValue(n.formatValue(n.number(c.Argument(0)), c.Argument(1)))
}

func (n *intlNatives) formatNumberToParts(c goja.FunctionCall) goja.Value {
	f := n.number(c.Argument(0))
	s := n.formatValue(f, c.Argument(1))
	var parts []any
	add := func(typ, val string) {
		if len(parts) > 0 {
			if last := parts[len(parts)-1].(*goja.Object); last.Get("type").String() == typ && typ != "group" && typ != "integer" {
				_ = last.Set("value", last.Get("value").String()+val)
				return
			}
		}
		o := n.w.vm.NewObject()
		_ = o.Set("type", typ)
		_ = o.Set("value", val)
		parts = append(parts, o)
	}
	afterDecimal, inExponent := false, false
	for len(s) > 0 {
		switch {
		case s[0] >= '0' && s[0] <= '9':
			j := 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			typ := "integer"
			if inExponent {
				typ = "exponentInteger"
			} else if afterDecimal {
				typ = "fraction"
			}
			add(typ, s[:j])
			s = s[j:]
			continue
		case strings.HasPrefix(s, f.loc.decimal) && !afterDecimal && len(s) > len(f.loc.decimal) && s[len(f.loc.decimal)] >= '0' && s[len(f.loc.decimal)] <= '9':
			add("decimal", f.loc.decimal)
			afterDecimal = true
			s = s[len(f.loc.decimal):]
			continue
		case strings.HasPrefix(s, f.loc.group) && !afterDecimal:
			add("group", f.loc.group)
			s = s[len(f.loc.group):]
			continue
		case strings.HasPrefix(s, f.loc.minus):
			add("minusSign", f.loc.minus)
			s = s[len(f.loc.minus):]
			continue
		case s[0] == '+':
			add("plusSign", "+")
		case s[0] == '%':
			add("percentSign", "%")
		case s[0] == 'E' && f.notation != "standard" && f.notation != "compact":
			add("exponentSeparator", "E")
			inExponent = true
		case strings.HasPrefix(s, "∞"):
			add("infinity", "∞")
			s = s[len("∞"):]
			continue
		case strings.HasPrefix(s, "NaN"):
			add("nan", "NaN")
			s = s[3:]
			continue
		default:
			r, size := utf8.DecodeRuneInString(s)
			typ := "literal"
			switch {
			case r == '(' || r == ')':
			case f.style == "currency" && r != ' ' && r != 0xa0:
				typ = "currency"
			case f.notation == "compact" && r != ' ':
				typ = "compact"
			case f.style == "unit" && r != ' ':
				typ = "unit"
			}
			add(typ, s[:size])
			s = s[size:]
			continue
		}
		s = s[1:]
	}
	return n.w.vm.NewArray(parts...)
}

func (n *intlNatives) numberResolvedOptions(c goja.FunctionCall) goja.Value {
	f := n.number(c.Argument(0))
	vm := n.w.vm
	o := vm.NewObject()
	set := func(k string, v any) { _ = o.Set(k, v) }
	set("locale", f.loc.tag)
	set("numberingSystem", "latn")
	set("style", f.style)
	if f.style == "currency" {
		set("currency", f.currency)
		set("currencyDisplay", f.currencyDisp)
		set("currencySign", f.currencySign)
	}
	if f.style == "unit" {
		set("unit", f.unit)
		set("unitDisplay", f.unitDisplay)
	}
	set("minimumIntegerDigits", f.minInt)
	set("minimumFractionDigits", f.minFrac)
	set("maximumFractionDigits", f.maxFrac)
	if f.maxSig > 0 {
		set("minimumSignificantDigits", f.minSig)
		set("maximumSignificantDigits", f.maxSig)
	}
	switch f.useGrouping {
	case "false":
		set("useGrouping", false)
	default:
		set("useGrouping", f.useGrouping)
	}
	set("notation", f.notation)
	if f.notation == "compact" {
		set("compactDisplay", f.compactDisplay)
	}
	set("signDisplay", f.signDisplay)
	set("roundingMode", "halfExpand")
	set("roundingIncrement", 1)
	set("trailingZeroDisplay", "auto")
	set("roundingPriority", "auto")
	return o
}

func (n *intlNatives) dateFormat(c goja.FunctionCall) goja.Value {
	vm := n.w.vm
	tag := n.requestedLocale(c.Argument(0))
	o := n.optionsOf(c.Argument(1))
	required, defaults := c.Argument(2).String(), c.Argument(3).String()
	f := &dateFormat{hour12: true}
	f.dl, f.locale = lookupDateLocale(tag)
	str := func(name string, allowed ...string) string {
		if !o.defined(name) {
			return ""
		}
		s := o.obj.Get(name).String()
		for _, a := range allowed {
			if a == s {
				return s
			}
		}
		panic(js.NewError(vm, "RangeError", fmt.Sprintf("Value %s out of range for Intl.DateTimeFormat options property %s", s, name)))
	}
	text := []string{"long", "short", "narrow"}
	num := []string{"numeric", "2-digit"}
	f.weekday = str("weekday", text...)
	f.era = str("era", text...)
	f.year = str("year", num...)
	f.month = str("month", append(num, text...)...)
	f.day = str("day", num...)
	f.hour = str("hour", num...)
	f.minute = str("minute", num...)
	f.second = str("second", num...)
	if o.defined("fractionalSecondDigits") {
		f.fractionalSecondDigits = o.num("fractionalSecondDigits", 1, 3)
	}
	f.timeZoneName = str("timeZoneName", "short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")
	f.dateStyle = str("dateStyle", "full", "long", "medium", "short")
	f.timeStyle = str("timeStyle", "full", "long", "medium", "short")
	if o.defined("hour12") {
		f.hour12 = o.obj.Get("hour12").ToBoolean()
		f.hour12Set = true
	} else if hc := str("hourCycle", "h11", "h12", "h23", "h24"); hc == "h23" || hc == "h24" {
		f.hour12 = false
	}
	if required == "date" && f.timeStyle != "" {
		panic(js.NewError(vm, "TypeError", "Invalid option : timeStyle"))
	}
	if required == "time" && f.dateStyle != "" {
		panic(js.NewError(vm, "TypeError", "Invalid option : dateStyle"))
	}
	needDefaults := f.dateStyle == "" && f.timeStyle == ""
	if required == "date" || required == "any" {
		if f.weekday != "" || f.year != "" || f.month != "" || f.day != "" {
			needDefaults = false
		}
	}
	if required == "time" || required == "any" {
		if f.hour != "" || f.minute != "" || f.second != "" || f.fractionalSecondDigits > 0 {
			needDefaults = false
		}
	}
	if needDefaults && (defaults == "date" || defaults == "all") {
		f.year, f.month, f.day = "numeric", "numeric", "numeric"
	}
	if needDefaults && (defaults == "time" || defaults == "all") {
		f.hour, f.minute, f.second = "numeric", "numeric", "numeric"
	}
	f.loc = time.Local
	f.tzName = localZoneName()
	if o.defined("timeZone") {
		name := o.obj.Get("timeZone").String()
		loc, canonical, ok := loadZone(name)
		if !ok {
			panic(js.NewError(vm, "RangeError", "Invalid time zone specified: "+name))
		}
		f.loc, f.tzName = loc, canonical
	}
	return vm.ToValue(f)
}

// localZoneName names the process's time zone as Intl reports it.
func localZoneName() string {
	if n := time.Local.String(); n != "Local" && n != "" {
		return n
	}
	if _, off := time.Now().Zone(); off == 0 {
		return "UTC"
	}
	return "Etc/Unknown"
}

// loadZone finds a time zone by IANA name, case-insensitively for the
// common spellings of UTC.
func loadZone(name string) (*time.Location, string, bool) {
	switch strings.ToUpper(name) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "Z", "ZULU", "UNIVERSAL", "ETC/UNIVERSAL":
		return time.UTC, "UTC", true
	}
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, "", false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, "", false
	}
	return loc, name, true
}

func (n *intlNatives) date(v goja.Value) *dateFormat {
	return unwrap[*dateFormat](n.w.vm, v, "not an Intl.DateTimeFormat")
}

// dateArgs returns the format and the time of a call's first two
// arguments; a time value no Date can hold is a RangeError.
func (n *intlNatives) dateArgs(c goja.FunctionCall) (*dateFormat, time.Time) {
	f := n.date(c.Argument(0))
	ms := c.Argument(1).ToFloat()
	if !validTime(ms) {
		panic(js.NewError(n.w.vm, "RangeError", "Invalid time value"))
	}
	return f, f.time(ms)
}

func (n *intlNatives) formatDate(c goja.FunctionCall) goja.Value {
	f, t := n.dateArgs(c)
	return n.w.vm.ToValue(f.format(t))
}

// formatDateToParts returns the parts of a date: the locale's pattern
// parts, or, for options no pattern covers, the formatted text as one
// literal part.
func (n *intlNatives) formatDateToParts(c goja.FunctionCall) goja.Value {
	f, t := n.dateArgs(c)
	parts, ok := f.localeParts(t)
	if !ok {
		parts = []datePart{{"literal", f.formatEnglish(t)}}
	}
	if f.dl == dateLocales()["en-US"] {
		// node's ICU puts a narrow no-break space before AM/PM; node
		// replaces it with a space in format's result but not in parts.
		for i := 1; i < len(parts); i++ {
			if parts[i].typ == "dayPeriod" && parts[i-1].value == " " {
				parts[i-1].value = "\u202f"
			}
		}
	}
	vm := n.w.vm
	vals := make([]any, len(parts))
	for i, p := range parts {
		o := vm.NewObject()
		_ = o.Set("type", p.typ)
		_ = o.Set("value", p.value)
		vals[i] = o
	}
	return vm.NewArray(vals...)
}

func (n *intlNatives) dateResolvedOptions(c goja.FunctionCall) goja.Value {
	f := n.date(c.Argument(0))
	o := n.w.vm.NewObject()
	set := func(k string, v any) {
		if s, ok := v.(string); ok && s == "" {
			return
		}
		_ = o.Set(k, v)
	}
	locale := f.locale
	if locale == "" {
		locale = "en-US"
	}
	set("locale", locale)
	set("calendar", "gregory")
	set("numberingSystem", "latn")
	set("timeZone", f.tzName)
	if f.hour != "" || f.timeStyle != "" {
		set("hourCycle", map[bool]string{true: "h12", false: "h23"}[f.hour12])
		set("hour12", f.hour12)
	}
	set("weekday", f.weekday)
	set("era", f.era)
	set("year", f.year)
	set("month", f.month)
	set("day", f.day)
	set("hour", f.hour)
	set("minute", f.minute)
	set("second", f.second)
	set("timeZoneName", f.timeZoneName)
	set("dateStyle", f.dateStyle)
	set("timeStyle", f.timeStyle)
	return o
}

// isCurrencyCode reports whether s is a well-formed ISO 4217 code: three
// ASCII letters, in either case (ECMA-402's IsWellFormedCurrencyCode).
func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range 3 {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
