package webapi

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/unicode/rangetable"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// goja reads \p{...} in a u-flag pattern as the letter p, silently. (Its
// d flag comes from codeexec's patch to goja.) The RegExp that regexp.js installs rewrites each \p{...} and
// \P{...} of a u-flag pattern into the character class it stands for,
// from Go's Unicode tables, before goja sees the pattern; a property it
// does not know is a SyntaxError, never a different match.

// syntaxError is the message of a SyntaxError, worded as V8 words it. It
// is a type, not errors.New, because V8's messages are capitalised, which
// staticcheck (ST1005) forbids in error strings.
type syntaxError string

func (e syntaxError) Error() string { return string(e) }

// rewritePattern returns pattern with its Unicode property escapes
// replaced by classes when flags has u; other patterns are returned as
// they are. err is a SyntaxError message.
func rewritePattern(pattern, flags string) (string, error) {
	if !strings.Contains(flags, "u") || !strings.Contains(pattern, `\p`) && !strings.Contains(pattern, `\P`) {
		return pattern, nil
	}
	var b strings.Builder
	inClass := false
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\' && i+1 < len(rs):
			n := rs[i+1]
			if (n == 'p' || n == 'P') && i+2 < len(rs) && rs[i+2] == '{' {
				end := slices.Index(rs[i+3:], '}')
				if end < 0 {
					return "", syntaxError(fmt.Sprintf("Invalid regular expression: /%s/%s: Invalid property name", pattern, flags))
				}
				name := string(rs[i+3 : i+3+end])
				negate := n == 'P'
				members, err := propertyMembers(name, inClass && negate)
				if err != nil {
					return "", syntaxError(fmt.Sprintf("Invalid regular expression: /%s/%s: %v", pattern, flags, err))
				}
				switch {
				case inClass:
					b.WriteString(members)
				case negate:
					b.WriteString("[^")
					b.WriteString(members)
					b.WriteString("]")
				default:
					b.WriteString("[")
					b.WriteString(members)
					b.WriteString("]")
				}
				i += 3 + end
				continue
			}
			b.WriteRune(c)
			b.WriteRune(n)
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteRune(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String(), nil
}

// membersKey names the class members of a property (see propertyMembers).
type membersKey struct {
	name         string
	complemented bool
}

// membersCache holds what propertyMembers rendered, by membersKey: a
// property's members are rendered once per process, not for each new
// RegExp. Only properties that resolve are stored, so it stays small.
var membersCache sync.Map // membersKey -> string

// propertyMembers returns the class members (see writeRanges) of the code
// points that have the property name, or, with complement, of those that
// do not. err is what propertyTable reports.
func propertyMembers(name string, complemented bool) (string, error) {
	key := membersKey{name, complemented}
	if s, ok := membersCache.Load(key); ok {
		return s.(string), nil
	}
	tab, err := propertyTable(name)
	if err != nil {
		return "", err
	}
	if complemented {
		tab = complement(tab)
	}
	var b strings.Builder
	writeRanges(&b, tab)
	s, _ := membersCache.LoadOrStore(key, b.String())
	return s.(string), nil
}

// writeRanges writes the ranges of t as class members in \u{...} form.
func writeRanges(b *strings.Builder, t *unicode.RangeTable) {
	each(t, func(lo, hi rune) {
		fmt.Fprintf(b, `\u{%X}`, lo)
		if hi > lo {
			fmt.Fprintf(b, `-\u{%X}`, hi)
		}
	})
}

// each calls f with each range of t, in order, merged with its neighbours.
func each(t *unicode.RangeTable, f func(lo, hi rune)) {
	var ranges [][2]rune
	add := func(lo, hi rune) {
		if n := len(ranges); n > 0 && ranges[n-1][1]+1 >= lo {
			ranges[n-1][1] = max(ranges[n-1][1], hi)
			return
		}
		ranges = append(ranges, [2]rune{lo, hi})
	}
	addStrided := func(lo, hi, stride rune) {
		if stride == 1 {
			add(lo, hi)
			return
		}
		for c := lo; c <= hi; c += stride {
			add(c, c)
		}
	}
	for _, r := range t.R16 {
		addStrided(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		addStrided(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range ranges {
		f(r[0], r[1])
	}
}

// table builds a range table from sorted, merged ranges.
func table(ranges [][2]rune) *unicode.RangeTable {
	t := &unicode.RangeTable{}
	for _, r := range ranges {
		if r[1] <= 0xFFFF {
			t.R16 = append(t.R16, unicode.Range16{Lo: uint16(r[0]), Hi: uint16(r[1]), Stride: 1})
			continue
		}
		lo := r[0]
		if lo <= 0xFFFF {
			t.R16 = append(t.R16, unicode.Range16{Lo: uint16(lo), Hi: 0xFFFF, Stride: 1})
			lo = 0x10000
		}
		t.R32 = append(t.R32, unicode.Range32{Lo: uint32(lo), Hi: uint32(r[1]), Stride: 1})
	}
	return t
}

// complement returns the code points 0..10FFFF not in t.
func complement(t *unicode.RangeTable) *unicode.RangeTable {
	var out [][2]rune
	next := rune(0)
	each(t, func(lo, hi rune) {
		if lo > next {
			out = append(out, [2]rune{next, lo - 1})
		}
		next = hi + 1
	})
	if next <= unicode.MaxRune {
		out = append(out, [2]rune{next, unicode.MaxRune})
	}
	return table(out)
}

// gcAliases are ECMAScript's General_Category value aliases (long names).
var gcAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
		"Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn",
		"Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
		"Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
		"Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
		"Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc",
		"Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl",
		"Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
		"Private_Use": "Co", "Unassigned": "Cn",
	}
})

// scriptAliases maps ECMAScript's short script names to Go's long ones
// (the common ones; the long names themselves are accepted too).
var scriptAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Adlm": "Adlam", "Arab": "Arabic", "Armn": "Armenian", "Beng": "Bengali", "Bopo": "Bopomofo", "Cyrl": "Cyrillic",
		"Deva": "Devanagari", "Ethi": "Ethiopic", "Geor": "Georgian", "Grek": "Greek", "Gujr": "Gujarati", "Guru": "Gurmukhi",
		"Hang": "Hangul", "Hani": "Han", "Hebr": "Hebrew", "Hira": "Hiragana", "Kana": "Katakana", "Khmr": "Khmer",
		"Knda": "Kannada", "Laoo": "Lao", "Latn": "Latin", "Mlym": "Malayalam", "Mong": "Mongolian", "Mymr": "Myanmar",
		"Orya": "Oriya", "Sinh": "Sinhala", "Taml": "Tamil", "Telu": "Telugu", "Thaa": "Thaana", "Thai": "Thai",
		"Tibt": "Tibetan", "Zyyy": "Common", "Zinh": "Inherited", "Qaai": "Inherited", "Copt": "Coptic", "Qaac": "Coptic",
	}
})

var (
	tableCache sync.Map // name -> *unicode.RangeTable
	assigned   = sync.OnceValue(func() *unicode.RangeTable {
		// The two-letter categories but Cn (unassigned), which recent Go
		// versions list, as they do C, which includes it.
		var ts []*unicode.RangeTable
		for name, t := range unicode.Categories {
			if len(name) == 2 && name != "Cn" {
				ts = append(ts, t)
			}
		}
		return rangetable.Merge(ts...)
	})
)

// propertyTable resolves the inside of \p{...} as ECMAScript does:
// General_Category values (with gc= or General_Category=), Script values
// (sc= or Script=) and the binary properties Go's tables cover.
func propertyTable(name string) (*unicode.RangeTable, error) {
	if t, ok := tableCache.Load(name); ok {
		return t.(*unicode.RangeTable), nil
	}
	t, err := resolveProperty(name)
	if err != nil {
		return nil, err
	}
	tableCache.Store(name, t)
	return t, nil
}

//go:generate go run ./internal/genemoji

// resolveProperty returns the table of a property escape's name ("L",
// "Script=Greek", "Extended_Pictographic"...). The emoji properties,
// which Go's unicode package lacks, come from emoji_tables.go.
func resolveProperty(name string) (*unicode.RangeTable, error) {
	key, value, hasValue := strings.Cut(name, "=")
	if hasValue {
		switch key {
		case "General_Category", "gc":
			if t := generalCategory(value); t != nil {
				return t, nil
			}
			return nil, syntaxError("Invalid property name")
		case "Script", "sc":
			if long, ok := scriptAliases()[value]; ok {
				value = long
			}
			if t, ok := unicode.Scripts[value]; ok {
				return t, nil
			}
			return nil, syntaxError("Invalid property name")
		case "Script_Extensions", "scx":
			return nil, fmt.Errorf("the property %s is not supported in this sandbox (no Script_Extensions data); use Script=%s", key, value)
		}
		return nil, syntaxError("Invalid property name")
	}
	if t := generalCategory(name); t != nil {
		return t, nil
	}
	switch name {
	case "Any":
		return table([][2]rune{{0, unicode.MaxRune}}), nil
	case "ASCII":
		return table([][2]rune{{0, 0x7F}}), nil
	case "Assigned":
		return assigned(), nil
	case "Alphabetic", "Alpha":
		return rangetable.Merge(unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_Alphabetic), nil
	case "Lowercase", "Lower":
		return rangetable.Merge(unicode.Ll, unicode.Other_Lowercase), nil
	case "Uppercase", "Upper":
		return rangetable.Merge(unicode.Lu, unicode.Other_Uppercase), nil
	case "Math":
		return rangetable.Merge(unicode.Sm, unicode.Other_Math), nil
	case "White_Space", "space":
		return unicode.White_Space, nil
	}
	if t, ok := unicode.Properties[name]; ok && !strings.HasPrefix(name, "Other_") {
		return t, nil
	}
	if r, ok := emojiRanges()[name]; ok {
		return table(r), nil
	}
	switch name {
	case "RGI_Emoji", "ID_Start", "ID_Continue", "XID_Start", "XID_Continue", "Case_Ignorable", "Cased", "Changes_When_Lowercased",
		"Changes_When_Uppercased", "Changes_When_Titlecased", "Changes_When_Casefolded", "Changes_When_Casemapped",
		"Changes_When_NFKC_Casefolded", "Default_Ignorable_Code_Point", "Grapheme_Base", "Grapheme_Extend", "Bidi_Mirrored":
		return nil, fmt.Errorf("the property %s is not supported in this sandbox (Go's Unicode tables lack it)", name)
	}
	// A bare script name is an error too: ECMAScript needs Script=.
	return nil, syntaxError("Invalid property name")
}

// generalCategory returns the table of a General_Category value, or nil.
func generalCategory(v string) *unicode.RangeTable {
	if long, ok := gcAliases()[v]; ok {
		v = long
	}
	switch v {
	case "Cn":
		return complement(assigned())
	case "C":
		return rangetable.Merge(unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, complement(assigned()))
	case "LC":
		return rangetable.Merge(unicode.Lu, unicode.Ll, unicode.Lt)
	}
	if t, ok := unicode.Categories[v]; ok {
		return t
	}
	return nil
}

// regexpNatives returns the natives regexp.js takes.
func (w *webGlobals) regexpNatives() *goja.Object {
	return w.natives(map[string]func(goja.FunctionCall) goja.Value{
		// rewrite(pattern, flags) -> the pattern to give goja; throws a
		// SyntaxError for a property it cannot represent.
		"rewrite": func(c goja.FunctionCall) goja.Value {
			p, err := rewritePattern(c.Argument(0).String(), c.Argument(1).String())
			if err != nil {
				panic(js.NewError(w.vm, "SyntaxError", err.Error()))
			}
			return w.vm.ToValue(p)
		},
	})
}
