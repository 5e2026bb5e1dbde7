package webapi

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// Collation (Intl.Collator, String.prototype.localeCompare) and plural
// rules (Intl.PluralRules) from golang.org/x/text's CLDR data.

// collator is a resolved Intl.Collator.
type collator struct {
	locale       string
	sensitivity  string
	numeric      bool
	caseFirst    string
	ignorePunct  bool
	usage        string
	full, noCase *collate.Collator
}

// resolveTag returns the tag to use for a requested locale and the locale
// resolvedOptions reports: the requested language when x/text knows it
// (node reports the language alone, as its ICU data has no regional
// variants for these services; keepRegion keeps zh's region, as node does
// for collation), and en-US otherwise, as node does for a locale it lacks.
func resolveTag(requested string, supported []language.Tag, keepRegion bool) (language.Tag, string) {
	if requested == "" {
		return language.AmericanEnglish, "en-US"
	}
	t, err := language.Parse(requested)
	if err != nil {
		return language.AmericanEnglish, "en-US"
	}
	base, _ := t.Base()
	for _, s := range supported {
		if b, _ := s.Base(); b == base {
			full, _ := language.Compose(base)
			reported := full.String()
			if r, conf := t.Region(); conf == language.Exact {
				full, _ = language.Compose(base, r)
				if keepRegion && base.String() == "zh" {
					reported = full.String()
				}
			}
			return full, reported
		}
	}
	return language.AmericanEnglish, "en-US"
}

func (n *intlNatives) newCollator(c goja.FunctionCall) goja.Value {
	vm := n.w.vm
	tag, locale := resolveTag(n.requestedLocale(c.Argument(0)), collate.Supported(), true)
	o := n.optionsOf(c.Argument(1))
	col := &collator{locale: locale}
	col.usage = o.str("usage", []string{"sort", "search"}, "sort")
	col.sensitivity = o.str("sensitivity", []string{"base", "accent", "case", "variant"}, "variant")
	col.caseFirst = o.str("caseFirst", []string{"upper", "lower", "false"}, "false")
	if o.defined("numeric") {
		col.numeric = o.obj.Get("numeric").ToBoolean()
	}
	if o.defined("ignorePunctuation") {
		col.ignorePunct = o.obj.Get("ignorePunctuation").ToBoolean()
	}
	var opts []collate.Option
	if col.numeric {
		opts = append(opts, collate.Numeric)
	}
	switch col.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	case "case":
		opts = append(opts, collate.IgnoreDiacritics)
	}
	if col.ignorePunct {
		t, err := language.Parse(tag.String() + "-u-ka-shifted")
		if err == nil {
			tag = t
		}
	}
	col.full = collate.New(tag, opts...)
	if col.caseFirst != "false" {
		col.noCase = collate.New(tag, append(opts, collate.IgnoreCase)...)
	}
	return vm.ToValue(col)
}

func (n *intlNatives) collator(v goja.Value) *collator {
	return unwrap[*collator](n.w.vm, v, "Method Intl.Collator.prototype.compare called on incompatible receiver")
}

func (n *intlNatives) collatorCompare(c goja.FunctionCall) goja.Value {
	col := n.collator(c.Argument(0))
	a := norm.NFD.String(c.Argument(1).String())
	b := norm.NFD.String(c.Argument(2).String())
	r := col.full.CompareString(a, b)
	if col.noCase != nil && r != 0 && col.noCase.CompareString(a, b) == 0 && col.caseFirst == "upper" {
		r = -r
	}
	return n.w.vm.ToValue(r)
}

func (n *intlNatives) collatorResolved(c goja.FunctionCall) goja.Value {
	col := n.collator(c.Argument(0))
	o := n.w.vm.NewObject()
	_ = o.Set("locale", col.locale)
	_ = o.Set("usage", col.usage)
	_ = o.Set("sensitivity", col.sensitivity)
	_ = o.Set("ignorePunctuation", col.ignorePunct)
	_ = o.Set("collation", "default")
	_ = o.Set("numeric", col.numeric)
	_ = o.Set("caseFirst", col.caseFirst)
	return o
}

// pluralRules is a resolved Intl.PluralRules.
type pluralRules struct {
	locale  string
	tag     language.Tag
	ordinal bool
	minFrac int
	maxFrac int
}

// pluralLocales are the languages x/text has plural rules for (a probe:
// the package has no list), made on first use.
var pluralLocales = sync.OnceValue(func() []language.Tag {
	var tags []language.Tag
	for _, s := range strings.Fields("af am ar as az be bg bn bs ca cs cy da de el en es et eu fa fi fil fr ga gd gl gu he hi hr hu hy id is it ja ka kk km kn ko ky lo lt lv mk ml mn mr ms my nb ne nl or pa pl ps pt ro ru si sk sl sq sr sv sw ta te th tr uk ur uz vi zh zu") {
		tags = append(tags, language.Make(s))
	}
	return tags
})

func (n *intlNatives) newPluralRules(c goja.FunctionCall) goja.Value {
	vm := n.w.vm
	tag, locale := resolveTag(n.requestedLocale(c.Argument(0)), pluralLocales(), false)
	o := n.optionsOf(c.Argument(1))
	p := &pluralRules{locale: locale, tag: tag}
	p.ordinal = o.str("type", []string{"cardinal", "ordinal"}, "cardinal") == "ordinal"
	p.minFrac = max(o.num("minimumFractionDigits", 0, 100), 0)
	p.maxFrac = o.num("maximumFractionDigits", 0, 100)
	if p.maxFrac < 0 {
		p.maxFrac = max(3, p.minFrac)
	}
	if p.maxFrac < p.minFrac {
		panic(js.NewError(vm, "RangeError", "maximumFractionDigits value is out of range."))
	}
	return vm.ToValue(p)
}

func (n *intlNatives) plural(v goja.Value) *pluralRules {
	return unwrap[*pluralRules](n.w.vm, v, "Method Intl.PluralRules.prototype.select called on incompatible receiver")
}

var formNames = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// selectPlural returns the plural category of x.
func (p *pluralRules) selectPlural(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "other"
	}
	s := strconv.FormatFloat(math.Abs(x), 'f', p.maxFrac, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	for len(frac) < p.minFrac {
		frac += "0"
	}
	i, _ := strconv.Atoi(intPart)
	if len(intPart) > 9 {
		i = 1000000000 + i%1000000 // only the low digits matter to any rule
	}
	v := len(frac)
	f, _ := strconv.Atoi(frac)
	t := strings.TrimRight(frac, "0")
	w := len(t)
	tv, _ := strconv.Atoi(t)
	rules := plural.Cardinal
	if p.ordinal {
		rules = plural.Ordinal
	} else if v == 0 && i != 0 && i%1000000 == 0 && millionsAreMany(p.tag) {
		return "many"
	}
	return formNames[rules.MatchPlural(p.tag, i, v, w, f, tv)]
}

// millionsAreMany reports whether tag's language puts whole millions in
// the cardinal category "many" ("un million de", CLDR 38 and later: the
// rule "e = 0 and i != 0 and i % 1000000 = 0 and v = 0", node v20's
// ICU), which x/text's older plural data lacks.
func millionsAreMany(tag language.Tag) bool {
	base, _ := tag.Base()
	switch base.String() {
	case "fr", "es", "it", "pt", "ca":
		return true
	}
	return false
}

func (n *intlNatives) pluralSelect(c goja.FunctionCall) goja.Value {
	return n.w.vm.ToValue(n.plural(c.Argument(0)).selectPlural(c.Argument(1).ToFloat()))
}

// pluralKey names the plural categories of a locale and type.
type pluralKey struct {
	tag     string
	ordinal bool
}

// pluralCategoriesCache holds what pluralCategories found, by pluralKey.
// Its tags are those resolveTag gives: a language of pluralLocales (or
// the default), with the region a snippet asked for, so it is bounded by
// those languages times the regions BCP 47 knows, each entry a few words.
var pluralCategoriesCache sync.Map // pluralKey -> []string

// pluralCategories returns the plural categories of p's locale and type,
// sorted, with "other" last: those that select returns for some number,
// probed once per process with the default fraction digits. As in node,
// they do not depend on p's digit options. The slice is shared: read
// only.
func pluralCategories(p *pluralRules) []string {
	key := pluralKey{p.tag.String(), p.ordinal}
	if cats, ok := pluralCategoriesCache.Load(key); ok {
		return cats.([]string)
	}
	probe := &pluralRules{tag: p.tag, ordinal: p.ordinal, maxFrac: 3}
	seen := map[string]bool{}
	for i := 0; i <= 1000; i++ {
		seen[probe.selectPlural(float64(i))] = true
		seen[probe.selectPlural(float64(i)+0.5)] = true
		seen[probe.selectPlural(float64(i)+0.25)] = true
	}
	seen[probe.selectPlural(1e6)] = true
	var cats []string
	for k := range seen {
		if k != "other" {
			cats = append(cats, k)
		}
	}
	slices.Sort(cats)
	cats = append(cats, "other")
	stored, _ := pluralCategoriesCache.LoadOrStore(key, cats)
	return stored.([]string)
}

func (n *intlNatives) pluralResolved(c goja.FunctionCall) goja.Value {
	p := n.plural(c.Argument(0))
	vm := n.w.vm
	cats := pluralCategories(p)
	vals := make([]any, len(cats))
	for i, s := range cats {
		vals[i] = s
	}
	o := vm.NewObject()
	_ = o.Set("locale", p.locale)
	_ = o.Set("type", map[bool]string{true: "ordinal", false: "cardinal"}[p.ordinal])
	_ = o.Set("minimumIntegerDigits", 1)
	_ = o.Set("minimumFractionDigits", p.minFrac)
	_ = o.Set("maximumFractionDigits", p.maxFrac)
	_ = o.Set("pluralCategories", vm.NewArray(vals...))
	_ = o.Set("roundingIncrement", 1)
	_ = o.Set("roundingMode", "halfExpand")
	_ = o.Set("roundingPriority", "auto")
	_ = o.Set("trailingZeroDisplay", "auto")
	return o
}
