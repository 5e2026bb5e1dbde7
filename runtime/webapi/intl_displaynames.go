package webapi

import (
	"regexp"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// Intl.DisplayNames: the names of regions, languages and scripts come
// from golang.org/x/text/language/display (CLDR 32, in every locale it
// has), currency, calendar and date field names and the short region and
// language names from intl_displaydata.go (generated from node v20, for
// en, fr, de, ja and es; other locales have these in English). A language tag with a
// script or a region is named by its dialect name where x/text has one
// ("American English") and is otherwise composed as "language (script,
// region)".
//
// Not covered: where x/text's older CLDR differs from
// node's ICU the name differs too: the Hans and Hant scripts ("Simplified
// Han" where node says "Simplified"), a few dialect names that newer CLDR
// dropped (German "Amerikanisches Englisch" where node says "Englisch
// (Vereinigte Staaten)"), and the scripts of composed names in Japanese;
// short and narrow styles differ from long only by the short region and
// language names of the five locales.

// displayWellFormed are the syntaxes of the codes of each type; a code
// that does not match is a RangeError.
var displayWellFormed = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"region":        regexp.MustCompile(`^([a-zA-Z]{2}|[0-9]{3})$`),
		"script":        regexp.MustCompile(`^[a-zA-Z]{4}$`),
		"currency":      regexp.MustCompile(`^[a-zA-Z]{3}$`),
		"calendar":      regexp.MustCompile(`^[a-zA-Z0-9]{3,8}(-[a-zA-Z0-9]{3,8})*$`),
		"dateTimeField": regexp.MustCompile(`^(era|year|quarter|month|weekOfYear|weekday|day|dayPeriod|hour|minute|second|timeZoneName)$`),
		"language":      regexp.MustCompile(`^([a-zA-Z]{2,3}|[a-zA-Z]{5,8})(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?(-([a-zA-Z0-9]{5,8}|[0-9][a-zA-Z0-9]{3}))*$`),
	}
})

// displayNames is one Intl.DisplayNames's resolved options.
type displayNames struct {
	tag                language.Tag
	key                string // the locale's language, for the generated tables
	style, typ         string
	dialect            bool
	regions, languages display.Namer
}

// newDisplayNames resolves a locale for names: key is its language when
// the generated tables have it, else "en".
func newDisplayNames(locale, typ, style string, dialect bool) *displayNames {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.AmericanEnglish
	}
	base, _ := tag.Base()
	key := base.String()
	if _, ok := displayCurrencies()[key]; !ok {
		key = "en"
	}
	return &displayNames{tag: tag, key: key, style: style, typ: typ, dialect: dialect, regions: display.Regions(tag), languages: display.Languages(tag)}
}

// of returns the name of code, or ok false when there is none (the
// caller then falls back to the code or undefined); err is set for a code
// that is not well-formed.
func (d *displayNames) of(code string) (name string, ok bool, err bool) {
	if !displayWellFormed()[d.typ].MatchString(code) {
		return "", false, true
	}
	switch d.typ {
	case "region":
		name = d.region(code)
	case "script":
		name = d.script(code)
	case "currency":
		name = displayCurrencies()[d.key][strings.ToUpper(code)]
	case "calendar":
		name = displayCalendars()[d.key][code]
	case "dateTimeField":
		name = displayFields()[d.key+"/"+d.style][code]
	case "language":
		name = d.language(code)
	}
	return name, name != "", false
}

// region names a region code written as CLDR writes it (upper case, or
// three digits that are a region of their own).
func (d *displayNames) region(code string) string {
	if code != strings.ToUpper(code) {
		return ""
	}
	r, err := language.ParseRegion(code)
	if err != nil || r.String() != code {
		return ""
	}
	if d.style != "long" {
		if s, ok := displayRegionsShort()[d.key][code]; ok {
			return s
		}
	}
	return d.regions.Name(r)
}

// script names a script code written in title case.
func (d *displayNames) script(code string) string {
	if code != strings.ToUpper(code[:1])+strings.ToLower(code[1:]) {
		return ""
	}
	s, err := language.ParseScript(code)
	if err != nil {
		return ""
	}
	return display.Scripts(d.tag).Name(s)
}

// language names a language tag: its dialect name, or the language's
// name with its script and region in parentheses.
func (d *displayNames) language(code string) string {
	parts := strings.Split(code, "-")
	lang, script, region := strings.ToLower(parts[0]), "", ""
	for _, p := range parts[1:] {
		switch {
		case len(p) == 4 && script == "" && region == "":
			script = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		case (len(p) == 2 || len(p) == 3 && p[0] >= '0' && p[0] <= '9') && region == "":
			region = strings.ToUpper(p)
		}
	}
	canonical := lang
	for _, p := range []string{script, region} {
		if p != "" {
			canonical += "-" + p
		}
	}
	if d.style != "long" {
		if s, ok := displayLanguagesShort()[d.key][canonical]; ok {
			return s
		}
	}
	baseTag, err := language.Parse(lang)
	if err != nil {
		return ""
	}
	baseName := d.languages.Name(baseTag)
	if baseName == "" {
		return ""
	}
	if script == "" && region == "" {
		return baseName
	}
	// A dialect name for a language with a script or a region (not
	// both: x/text would match a looser tag); one for a script must
	// still name the language, since x/text names sr-Latn "Serbo-Croatian".
	if d.dialect && (script == "") != (region == "") {
		if t, err := language.Parse(canonical); err == nil {
			if n := d.languages.Name(t); n != "" && n != baseName && (script == "" || strings.Contains(n, baseName)) {
				return n
			}
		}
	}
	var qualifiers []string
	if script != "" {
		if n := d.script(script); n != "" {
			qualifiers = append(qualifiers, n)
		} else {
			qualifiers = append(qualifiers, script)
		}
	}
	if region != "" {
		if n := d.region(region); n != "" {
			qualifiers = append(qualifiers, n)
		} else {
			qualifiers = append(qualifiers, region)
		}
	}
	sep := ", "
	if d.key == "ja" {
		sep = "、"
	}
	return baseName + " (" + strings.Join(qualifiers, sep) + ")"
}

// displayNames is native.displayNames(locale, type, style,
// languageDisplay): a function of a code that returns its name, or
// undefined when there is none, and throws the RangeError V8 throws for
// a code that is not well-formed.
func (n *intlNatives) displayNames(c goja.FunctionCall) goja.Value {
	vm := n.w.vm
	d := newDisplayNames(c.Argument(0).String(), c.Argument(1).String(), c.Argument(2).String(), c.Argument(3).String() != "standard")
	return vm.ToValue(func(call goja.FunctionCall) goja.Value {
		name, ok, bad := d.of(call.Argument(0).String())
		if bad {
			panic(js.NewError(vm, "RangeError", "invalid_argument"))
		}
		if !ok {
			return goja.Undefined()
		}
		return vm.ToValue(name)
	})
}
