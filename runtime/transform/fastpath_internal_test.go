package transform

import (
	"strconv"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/bench/benchdata"
)

// needsTransformCases are sources and whether they must go through
// esbuild (see TestNeedsTransform).
var needsTransformCases = []struct {
	name string
	src  string
	want bool
}{
	// Plain JavaScript: the fast path.
	{"loop and arrow", `for (let i = 0; i < n; i++) out.push(xs.map(x => (x * 2)))`, false},
	{"condition and arrow", `if (a < b) return list.filter((x) => (x.ok))`, false},
	{"conditional templates", "const s = a < b ? `${a}` : `${b}`", false},
	{"arrow to template", "if (a < 1) f(); const t = x => `v${x}`", false},
	{"no parenthesis", `return a < b && c > d`, false},
	{"tight", `return a<b`, false},
	{"and, then a parenthesis", `return a < b && c > (d)`, false},
	{"or, then a template", "if (x < 0 || y > `${z}`.length) return", false},
	{"in a comment", "// returns <0 if a>b (descending)\nreturn cmp(a, b)", false},
	{"in a block comment", "/* <T>(x) */ f(1)", false},
	{"in strings", `const h = "<b>" + (x) + '</b>(' + "<i>" + "(y)"`, false},
	{"in a template", "const h = `<li>${x}</li>(${y})`", false},
	{"in a regular expression", `const ok = /<a>(b)/.test(s) && /x > (y)/.test(t)`, false},
	{"assignment between", `if (i < n) total = sum > (limit)`, false},
	{"statements between", "const small = n < max;\nconst f = () => (1)", false},
	{"semicolon-free statements", "const small = n < max\nconst f = () => (1) > (0)", false},
	{"a number after", `return a < b > .5`, false},
	{"an identifier after", `return a < b > c`, false},
	{"a unary after", `return a < b > -c`, false},
	{"shift closes", `return a < b >> (c)`, false},
	{"greater or equal", `return a < b >= (c)`, false},
	{"division after a parenthesis", `const m = (a + b) / 2 < c ? 1 : 0; f(m > (0))`, false},
	{"JSON-like", `const o = {ok: n < 3, list: [1, 2], f: (x) => (x)}`, false},
	{"HTML-ish report", "lines.push(`<tr><td>${n < 10 ? '0' + n : n}</td></tr>`)", false},
	{"sort comparator", `rows.sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))`, false},

	// What TypeScript reads as type arguments.
	{"generic constructor", `const m = new Map<string, number>()`, true},
	{"generic call", `return id<string>("a")`, true},
	{"nested", `return f<Array<number>>(xs)`, true},
	{"spaced", `return a < b > (c)`, true},
	{"two type arguments", "console.log(a < b, c > (d))", true},
	{"tagged template", "return tag<T>`x`", true},
	{"tagged template with a substitution", "return tag<T>`x${1}`", true},
	{"object type", `return f<{ a: string; b?: number }>(x)`, true},
	{"function type", `return f<(x: number) => void>(g)`, true},
	{"literal types", `return f<"a" | 1e+3 | -1>(x)`, true},
	{"generic function type", `return f<<T>(x: T) => T>(g)`, true},
	{"instantiation across a line", "const g = f < T >\n(x)", true},
	{"instantiation before a line break", "const g = a < b >\nc", true},
	{"instantiation before an operator", `const g = a < b > / c /d`, true},
	{"instantiation at the end", `x = a < b >`, true},
	{"in a substitution", "const s = `${f<T>(x)}`", true},
	{"unicode property escape", `return /\p{L}/u.test(s)`, true},
}

// TestNeedsTransform checks which source skips esbuild: plain JavaScript
// with comparisons, arrows and templates does, wherever its "<" and ">"
// are (comments, strings, regular expressions, conditions); a generic
// call or tagged template with type arguments, an instantiation
// expression, or a \p{...} regular expression does not; nor does what the
// check cannot lex with certainty.
func TestNeedsTransform(t *testing.T) {
	t.Parallel()
	tests := needsTransformCases
	// What the lexer cannot tell goes through esbuild, which decides (not
	// checked against esbuild: either reading may be the right one).
	undecided := []struct{ name, src string }{
		{"a regular expression or a division", `if (ok) /<T>(x)/.test(s)`},
		{"HTML comment", "x <!-- y\n f<T>(z)"},
		{"unterminated string", `f("a < b > (c)`},
		{"unterminated comment", `a < b /* > (c)`},
	}
	for _, tt := range undecided {
		if !needsTransform(tt.src) {
			t.Errorf("%s: needsTransform(%q) = false, want true", tt.name, tt.src)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := needsTransform(tt.src); got != tt.want {
				t.Errorf("needsTransform(%q) = %v, want %v", tt.src, got, tt.want)
			}
			// The corpus is right by esbuild's reading: the fast path's
			// sources mean the same in TypeScript and JavaScript, the
			// type-argument ones mean something else (or are not
			// JavaScript).
			if strings.Contains(tt.src, `\p{`) {
				return
			}
			ts, tsErr := transform(tt.src, "f.ts")
			js, jsErr := transform(tt.src, "f.js")
			if len(tsErr) > 0 {
				t.Fatalf("not TypeScript: %v", tsErr)
			}
			same := len(jsErr) == 0 && ts.code == js.code
			if same == tt.want {
				t.Errorf("esbuild reads %q the same in TypeScript and JavaScript: %v, want %v\nTypeScript: %s\nJavaScript: %v %v", tt.src, same, !tt.want, ts.code, js, jsErr)
			}
		})
	}
}

// FuzzNeedsTransform checks the fast path's decision the other way: a
// source that skips esbuild is run as JavaScript, so it must mean the same
// in TypeScript: esbuild's output for it as TypeScript and as JavaScript
// must be the same (a generic call read as JavaScript is comparisons).
// Sources that esbuild refuses in either language are left out: goja,
// which accepts some that JavaScript does not, decides those.
func FuzzNeedsTransform(f *testing.F) {
	for _, s := range []string{"i < n; xs.map(x => (x))", "a < b > (c)", "f<T>(x)", "a<b>c", "x => `${y}`", "a < (b) > (c)", "a < b\n> (c)"} {
		f.Add(s)
	}
	for _, tt := range needsTransformCases {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 200 || needsTransform(src) {
			return
		}
		ts, tsErr := transform(src, "f.ts")
		js, jsErr := transform(src, "f.js")
		if len(tsErr) > 0 || len(jsErr) > 0 {
			return
		}
		if ts.code != js.code {
			t.Fatalf("%q skips esbuild, but means something else in TypeScript:\nTypeScript: %s\nJavaScript: %s", src, ts.code, js.code)
		}
	})
}

// plainJS is the benchmark snippet as a model writes it in JavaScript,
// with comparisons, arrows returning parenthesized objects and templates;
// `words < 3 || words > (limit * 2)` is what the check's old pattern took
// for type arguments.
const plainJS = `class Tally {
  #items = [];
  add(f) { this.#items.push(f); }
  get summary() {
    let words = 0;
    let longest;
    for (const f of this.#items) {
      words += f.words;
      if (!longest || f.words > longest.words) longest = f;
    }
    return { files: this.#items.length, words, longest: longest?.path };
  }
}
const paths = ["README.md", "main.go"], limit = 1000;
const tally = new Tally();
const texts = await Promise.all(paths.map((p) => read(p)));
texts.forEach((text, i) => {
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words < 3 || words > (limit * 2)) return; // 3 <= words <= 2*limit
  tally.add({ path: paths[i], words });
});
const rows = paths.map((p, i) => ({ p, n: i < 1 ? 0 : i }));
rows.sort((a, b) => (a.n < b.n ? -1 : 1));
const s = tally.summary;
if (s.words === 0) {
  console.log("no words found");
}
console.log(` + "`${s.files} files, ${s.words} words`" + `);
return s;`

// BenchmarkCompilePlainJS measures compiling plainJS, uncached (a new
// comment each time), and the check alone.
func BenchmarkCompilePlainJS(b *testing.B) {
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, d := compile(plainJS+"\n// "+strconv.Itoa(i), "s.ts", false); d != nil {
				b.Fatal(d)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			needsTransform(plainJS)
		}
	})
}

// TestCorpusFastPath checks that every case of the CPU-bound corpus is
// plain JavaScript that skips esbuild, so that the benchmarks comparing
// codeexec with plain goja on it (package runtime's BenchmarkCorpus)
// compare the engine's work on the same code.
func TestCorpusFastPath(t *testing.T) {
	for _, c := range benchdata.Corpus {
		p, d := Compile(c.JS, "corpus.js")
		if d != nil {
			t.Fatalf("%s: %s", c.Name, d)
		}
		if p.transformed != nil {
			t.Errorf("%s went through esbuild", c.Name)
		}
	}
}
