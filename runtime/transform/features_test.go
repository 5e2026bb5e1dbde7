package transform_test

import (
	"strconv"
	"testing"

	"github.com/codeexec/codeexec/runtime/transform"
)

// TestFeatures checks which features a snippet's program has: for each
// feature a snippet that needs it and one that does not, then the tricky
// cases. Decided: a hint in a comment or only in a TypeScript type does
// not count (neither runs); one in a string, a template or a regular
// expression literal does, so that computed access with a literal name
// (process["nextTick"]) and code given to eval are found as before.
func TestFeatures(t *testing.T) {
	t.Parallel()
	const none transform.Features = 0
	tests := []struct {
		name string
		src  string
		want transform.Features // exactly
	}{
		{"nothing", `const n = 1; return n + 2`, none},
		{"nothing typed", `const n: number = 1; return n + 2`, none},

		{"generator function", `function* g() { yield 1 } return [...g()]`, transform.Generators},
		{"generator method", `const o = { *g() { yield 1 } }; return [...o.g()]`, transform.Generators},
		{"async generator (lowered by esbuild)", `async function* g() { yield 1 } return g`, transform.Generators},
		{"star in a string (code for eval)", `return eval("function*(){}")`, transform.Generators},
		{"multiplication", `return 2 * 3 ** 2`, none},
		{"star in a comment", "/* a * b */ return 1", none},

		{"plain regular expression", `return /a+b/.test("ab")`, none},
		{"lookahead in a comment", "// /a(?=b)/\nreturn 1", none},

		{"RegExp", `return new RegExp("a").test("a")`, transform.RegExps},
		{"unicode property (through esbuild)", `return /\p{L}/u.test("a")`, transform.RegExps},
		{"negated unicode property", `return /\P{L}/u.test("1")`, transform.RegExps},
		{"property escape in a string", `return "\\p{L}"`, transform.RegExps},

		{"Date", `return Date.now()`, transform.Dates},
		{"Date inside a name", `const o = { toDateString: 1 }; return o.toDateString`, transform.Dates},
		{"Date as a type only", `let d: Date | undefined; return d`, none},
		{"Date in a comment", "// Date\nreturn 1", none},

		{"toLocaleString", `return (1234).toLocaleString()`, transform.Locale},
		{"localeCompare", `return "a".localeCompare("b")`, transform.Locale},

		{"Symbol.dispose", `return typeof Symbol.dispose`, transform.Disposal},
		{"Symbol.asyncDispose", `return typeof Symbol.asyncDispose`, transform.Disposal},
		{"using (lowered by esbuild)", `{ using x = null; } return 1`, transform.Disposal},
		{"await using (lowered by esbuild)", `{ await using x = null; } return 1`, transform.Disposal},
		{"using in a string", `return "using x = f()"`, transform.Disposal},
		{"the word using", `return "by using 1"`, none},

		{"asyncIterator", `return typeof Symbol.asyncIterator`, transform.AsyncIterator},
		{"for await (lowered by esbuild)", `for await (const x of [1]) {} return 1`, none},

		{"nextTick", `process.nextTick(() => {}); return 1`, transform.NextTick},
		{"nextTick computed with a literal", `globalThis.process["nextTick"](() => {}); return 1`, transform.NextTick},
		{"nextTick in a template", "const k = `nextTick`; return process[k]", transform.NextTick},
		{"nextTick in a comment", "// process.nextTick\nreturn 1", none},

		{"util.inspect.custom", `return { [util.inspect.custom]() { return "x" } }`, transform.CustomInspect},
		{"inspect.custom", `const inspect = util.inspect; return inspect.custom`, transform.CustomInspect},
		{"inspect?.custom", `return util.inspect?.custom`, transform.CustomInspect},
		{"the symbol's key", `return Symbol.for("nodejs.util.inspect.custom")`, transform.CustomInspect},
		{"custom alone", `const o = { custom: 1, inspect: 2 }; return o.custom + o.inspect`, none},

		{"captureStackTrace", `const e = {}; Error.captureStackTrace(e); return e`, transform.CaptureStackTrace},
		{"captureStackTrace guarded", `if (Error.captureStackTrace) {} return 1`, transform.CaptureStackTrace},

		{"Object.groupBy", `return Object.groupBy([1], (x) => x)`, transform.GroupBy},
		{"Map.groupBy", `return Map.groupBy([1], (x) => x)`, transform.GroupBy},
		{"withResolvers", `return Promise.withResolvers()`, transform.WithResolvers},
		{"isWellFormed", `return "a".isWellFormed()`, transform.WellFormed},
		{"toWellFormed", `return "a".toWellFormed()`, transform.WellFormed},
		{"WeakRef", `return new WeakRef({})`, transform.WeakRefs},
		{"FinalizationRegistry", `return new FinalizationRegistry(() => {})`, transform.WeakRefs},
		{"Promise.any", `return Promise.any([1])`, transform.PromiseAny},
		{"Promise.any not called", `const any = Promise.any; return any`, transform.PromiseAny},
		{".any( in a string", `return "Promise.any(["`, transform.PromiseAny},
		{"a name any", `const any = 1; return any`, none},

		{"several", "function* g() {}\nreturn [Date.now(), Object.groupBy([], (x) => x), g]", transform.Generators | transform.Dates | transform.GroupBy},
		{"names everywhere", `class Date2 { #nextTick = 1; captureStackTrace() {} } function groupBy() {} const { WeakRef: w } = {}; lbl: for (;;) break lbl; return { asyncIterator, toLocale }`,
			transform.Dates | transform.NextTick | transform.CaptureStackTrace | transform.GroupBy | transform.WeakRefs | transform.AsyncIterator | transform.Locale},
		{"a name beyond ASCII", `const héDate = 1; return héDate`, transform.Dates},
		{"an escaped name", `const n\u0065xtTick = 1; return nextTick`, transform.NextTick},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, d := transform.Compile(tt.src, "f.ts")
			if d != nil {
				t.Fatal(d)
			}
			if got := p.Features(); got != tt.want {
				t.Errorf("Features() = %v, want %v", got, tt.want)
			}
			// A session's compile finds the same in the hoisted code.
			s, d := transform.CompileSessionNamed(tt.src, "f.ts", "f.ts#1")
			if d != nil {
				t.Fatal(d)
			}
			if got := s.Features(); got != tt.want {
				t.Errorf("in a session, Features() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFeaturesCached checks that a cached compile gives the features the
// first compile found, for a snippet that went through esbuild (whose
// output a session's compiles share) and one that did not.
func TestFeaturesCached(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"const d: number = Date.now(); return d // features cached",
		"return Date.now() // features cached",
	} {
		a, d := transform.Compile(src, "c.ts")
		if d != nil {
			t.Fatal(d)
		}
		b, _ := transform.Compile(src, "c.ts")
		if b != a || b.Features() != transform.Dates {
			t.Errorf("%q: the cached compile has %v, want %v", src, b.Features(), transform.Dates)
		}
		for i := range 2 {
			p, d := transform.CompileSessionNamed(src, "c.ts", "c.ts#"+strconv.Itoa(i))
			if d != nil {
				t.Fatal(d)
			}
			if p.Features() != transform.Dates {
				t.Errorf("%q: session compile %d has %v, want %v", src, i, p.Features(), transform.Dates)
			}
		}
	}
}

// TestFeaturesString checks how a set of features prints.
func TestFeaturesString(t *testing.T) {
	t.Parallel()
	for f, want := range map[transform.Features]string{
		0:               "none",
		transform.Dates: "Dates",
		transform.Generators | transform.NextTick: "Generators|NextTick",
	} {
		if got := f.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", uint32(f), got, want)
		}
	}
	if !transform.AllFeatures.Has(transform.PromiseAny | transform.Generators) {
		t.Errorf("AllFeatures lacks a feature")
	}
	if transform.Dates.Has(transform.Dates | transform.Locale) {
		t.Errorf("Has reports a feature the set lacks")
	}
}
