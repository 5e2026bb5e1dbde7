package transform

import "testing"

// TestNeedsTransform checks which source skips esbuild: plain JavaScript
// with comparisons and arrows does (it went through esbuild when a "<"
// and "=> (" were anywhere in it), a generic call or tagged template with
// type arguments, or a \p{...} regular expression, does not.
func TestNeedsTransform(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want bool
	}{
		{`for (let i = 0; i < n; i++) out.push(xs.map(x => (x * 2)))`, false},
		{`if (a < b) return list.filter((x) => (x.ok))`, false},
		{"const s = a < b ? `${a}` : `${b}`", false},
		{"if (a < 1) f(); const t = x => `v${x}`", false},
		{`return a < b && c > d`, false},
		{`return a<b`, false},
		{`const m = new Map<string, number>()`, true},
		{`return id<string>("a")`, true},
		{`return f<Array<number>>(xs)`, true},
		{`return a < b > (c)`, true},
		{"return tag<T>`x`", true},
		{`return a < b && c > (d)`, true}, // not a generic call, but it may look like one: esbuild decides
		{`return /\p{L}/u.test(s)`, true},
	}
	for _, tt := range tests {
		if got := needsTransform(tt.src); got != tt.want {
			t.Errorf("needsTransform(%q) = %v, want %v", tt.src, got, tt.want)
		}
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
