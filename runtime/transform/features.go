package transform

import (
	"regexp"
	"strings"
	"sync"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/unistring"
)

// Features.
//
// A run installs some of what it offers only for the snippets that may
// use it, since installing it costs every other run: webapi's additions
// to built-ins, the restriction of the generator constructor, the nextTick queue's macrotask, custom inspect
// functions, Error.captureStackTrace. Which ones a program may use is
// found once per compile, in the walk that instruments it (see walk.go),
// over the code goja runs inside the wrapper: every name (identifiers,
// property names and keys, function, class and label names) and the raw
// text of every literal (strings, template parts, regular expressions)
// is matched against the hints below, and a few shapes of the syntax
// tree (a generator function, a `.any` member, an `inspect.custom`
// member) count as well. The Program keeps the result (Features), so a
// cached compile does not look again.
//
// A hint that is missing breaks a snippet, while one found in vain only
// costs installing something, so the hints err on the side of finding:
// a word counts anywhere inside a name or a literal (`myDate` names
// Date; the string "nextTick" counts, so that `process["nextTick"]`
// works). Comments and TypeScript types do not count: they never run.
// What the code reaches by a computed name ("next" + "Tick") escapes the
// hints, as it always did; each feature's comment says what that costs.

// Features is a set of the on-demand additions a program may use, as
// bits; the zero value is none.
type Features uint32

const (
	// Generators: the code declares a generator function, or a literal
	// holds "*" (code for eval). Without one it cannot reach the
	// GeneratorFunction constructor through its own functions, so the
	// runtime need not restrict it; setting up goja's generator machinery
	// is most of the restriction's cost.
	Generators Features = 1 << iota
	// RegExps: the code names RegExp or a literal holds a Unicode
	// property escape (\p{…}, \P{…}, which esbuild turns into new
	// RegExp calls): webapi replaces RegExp with its own.
	RegExps
	// Dates: the code names Date (getDate, toDateString... included):
	// webapi replaces Date with its own, which prints and parses as Node.
	Dates
	// Locale: toLocale… or localeCompare, which webapi routes through Intl.
	Locale
	// Disposal: "dispose" (Symbol.dispose, asyncDispose), or a using or
	// await using declaration, whose lowering by esbuild reads them:
	// webapi defines Symbol.dispose and Symbol.asyncDispose.
	Disposal
	// AsyncIterator: Symbol.asyncIterator, which webapi defines.
	AsyncIterator
	// NextTick: process.nextTick, whose queue the runtime then drains
	// after each macrotask.
	NextTick
	// CustomInspect: util.inspect.custom (or the symbol's key), whose
	// methods console then looks up on the values it prints.
	CustomInspect
	// CaptureStackTrace: Error.captureStackTrace, which the runtime
	// defines.
	CaptureStackTrace
	// GroupBy: Object.groupBy and Map.groupBy (webapi's es2024.js).
	GroupBy
	// WithResolvers: Promise.withResolvers (es2024.js).
	WithResolvers
	// WellFormed: String.prototype.isWellFormed and toWellFormed
	// (es2024.js).
	WellFormed
	// WeakRefs: WeakRef and FinalizationRegistry (es2024.js).
	WeakRefs
	// PromiseAny: a `.any` member (Promise.any), whose AggregateError
	// es2024.js gives Node's message.
	PromiseAny

	// featureCount is how many features there are.
	featureCount = iota
	// AllFeatures is every feature.
	AllFeatures Features = 1<<featureCount - 1
)

// featureNames are the features' names, in bit order, for String.
var featureNames = [featureCount]string{
	"Generators", "RegExps", "Dates", "Locale", "Disposal",
	"AsyncIterator", "NextTick", "CustomInspect", "CaptureStackTrace",
	"GroupBy", "WithResolvers", "WellFormed", "WeakRefs", "PromiseAny",
}

// Has reports whether f includes every feature of g.
func (f Features) Has(g Features) bool { return f&g == g }

// String names the features of f, joined by "|"; "none" for none.
func (f Features) String() string {
	if f&AllFeatures == 0 {
		return "none"
	}
	var names []string
	for i, name := range featureNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "|")
}

// Features returns what the program may use of the on-demand additions
// (see Features), found when it was compiled.
func (p *Program) Features() Features { return p.features }

// hint is a word that, found in a name or a literal's text, means the
// code may use feature.
type hint struct {
	word    string
	feature Features
}

// mayUse is a pseudo-feature of the hint "using" in a literal: the text
// is then matched against usingRE.
const mayUse Features = 1 << 31

// hints are the words the features are found by. Those with punctuation
// only ever match a literal's text, since no name holds it.
var hints = []hint{
	{"*", Generators},
	{"RegExp", RegExps}, {`\p{`, RegExps}, {`\P{`, RegExps},
	{"Date", Dates},
	{"toLocale", Locale}, {"localeCompare", Locale},
	{"ispose", Disposal},
	// esbuild's lowering of a using declaration calls __using (and
	// __callDispose, which "ispose" finds).
	{"__using", Disposal},
	{"using", mayUse},
	{"asyncIterator", AsyncIterator},
	{"nextTick", NextTick},
	{"inspect.custom", CustomInspect},
	{"captureStackTrace", CaptureStackTrace},
	{"groupBy", GroupBy},
	{"withResolvers", WithResolvers},
	{"WellFormed", WellFormed},
	{"WeakRef", WeakRefs}, {"FinalizationRegistry", WeakRefs},
	{".any(", PromiseAny},
}

// hintsByByte are the hints by their first byte.
var hintsByByte = func() (by [256][]hint) {
	for _, h := range hints {
		by[h.word[0]] = append(by[h.word[0]], h)
	}
	return by
}()

// usingRE finds what may be a using or await using declaration in a
// literal's text (code for eval), whose lowering needs Symbol.dispose or
// Symbol.asyncDispose.
var usingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\busing\s+[\p{L}_$\[{]`) })

// match returns the features whose hints s holds.
func match(s string) (f Features) {
	for i := 0; i < len(s); i++ {
		for _, h := range hintsByByte[s[i]] {
			if strings.HasPrefix(s[i:], h.word) {
				f |= h.feature
			}
		}
	}
	return f
}

// name notes the features a name may use.
func (w *walker) name(s unistring.String) {
	if w.seen != nil {
		w.seen(s.String())
	}
	// A name with characters beyond ASCII is kept in UTF-16: decode it.
	if s.AsUtf16() != nil {
		w.features |= match(s.String()) &^ mayUse
		return
	}
	w.features |= match(string(s)) &^ mayUse
}

// text notes the features a literal may use, from its raw text as the
// code spells it.
func (w *walker) text(s string) {
	if w.seen != nil {
		w.seen(s)
	}
	f := match(s)
	if f&mayUse != 0 {
		f &^= mayUse
		if usingRE().MatchString(s) {
			f |= Disposal
		}
	}
	w.features |= f
}

// member notes the features of a member access by name: a `.any`
// member may be Promise.any, and `inspect.custom` the custom inspect
// symbol, whatever lies between the two names.
func (w *walker) member(left ast.Expression, prop unistring.String) {
	w.name(prop)
	if prop == "any" {
		w.features |= PromiseAny
	}
	if !strings.HasPrefix(string(prop), "custom") {
		return
	}
	if o, ok := left.(*ast.Optional); ok {
		left = o.Expression
	}
	var object unistring.String
	switch l := left.(type) {
	case *ast.Identifier:
		object = l.Name
	case *ast.DotExpression:
		object = l.Identifier.Name
	case *ast.PrivateDotExpression:
		object = l.Identifier.Name
	}
	if strings.HasSuffix(string(object), "inspect") {
		w.features |= CustomInspect
	}
}
