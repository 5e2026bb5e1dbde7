package runtime

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCodeGenerationRefused(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"eval", `eval("1")`, "EvalError: eval is disabled in snippets"},
		{"indirect eval", `(0, globalThis.eval)("1")`, "EvalError: eval is disabled in snippets"},
		{"Function call", `Function("return 1")()`, "EvalError: new Function() is disabled in snippets"},
		{"new Function", `new Function("return 1")`, "EvalError: new Function() is disabled in snippets"},
		{"constructor of a function", `(function () {}).constructor("return 1")`, "new Function() is disabled"},
		{"async function constructor", `(async () => {}).constructor("return 1")`, "new AsyncFunction() is disabled"},
		{"generator function constructor", `Object.getPrototypeOf(function* () {}).constructor("yield 1")`, "new GeneratorFunction() is disabled"},
		{"Reflect.construct", `Reflect.construct(Function, ["return 1"])`, "new Function() is disabled"},
		// No generator syntax: the sandbox's own functions must not lead
		// to the generator constructor, which is not restricted then.
		{"constructor of a URLSearchParams iterator's method", `URLSearchParams.prototype.keys.constructor("return 1")`, "new Function() is disabled"},
		{"constructor of a URLSearchParams iterator", `Object.getPrototypeOf(Object.getPrototypeOf(new URLSearchParams("a=1").entries())).constructor.constructor("return 1")`, "new Function() is disabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustFail(t, tt.src, Options{})
			if !strings.Contains(e.Report(), tt.want) {
				t.Fatalf("report %q does not contain %q", e.Report(), tt.want)
			}
		})
	}
}

func TestFunctionsStillWork(t *testing.T) {
	src := `return [(() => 1) instanceof Function, typeof Function.prototype.call,
	  Function.prototype.constructor === Function, (function f() {}).name, [1, 2].map(String)]`
	res := runSnippet(t, src, Options{})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if got, want := string(res.Value), `[true,"function",true,"f",["1","2"]]`; got != want {
		t.Fatalf("value %s, want %s", got, want)
	}
}

func TestAllowEval(t *testing.T) {
	res := runSnippet(t, `return [eval("1 + 1"), new Function("a", "return a * 3")(2), Function("return 4")()]`, Options{AllowEval: true})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if got := string(res.Value); got != `[2,6,4]` {
		t.Fatalf("value %s", got)
	}
	// Even allowed, code nested past the limit is refused before goja's
	// parser could overflow the Go stack.
	for _, src := range []string{
		`eval("[".repeat(300000) + "]".repeat(300000))`,
		`new Function("return " + "(".repeat(300000) + ")".repeat(300000))`,
	} {
		e := mustFail(t, src, Options{AllowEval: true})
		if !strings.Contains(e.Message, "nest more than 1000 levels") {
			t.Errorf("%s: %s", src, e.Report())
		}
	}
}

func TestNestingLimit(t *testing.T) {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	tests := []struct {
		name, src string
		line, col int
	}{
		{"array literal", "const a = 1;\nconst x = " + deep + ";", 2, 1011},
		{"parentheses", strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000), 1, 1001},
		{"huge nesting", strings.Repeat("{", 300000), 1, 1001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustFail(t, tt.src, Options{})
			if e.Kind != KindCompile || e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Message, "brackets nest more than 1000 levels deep") {
				t.Fatalf("got %s at %d:%d, kind %s", e.Message, e.Line, e.Column, e.Kind)
			}
		})
	}
	// Nesting at the limit is fine.
	ok := "return " + strings.Repeat("[", 999) + strings.Repeat("]", 999) + ".length"
	if res := runSnippet(t, ok, Options{}); res.Error != nil {
		t.Fatal(res.Error.Report())
	}
}

func TestMemoryLimitWatchdog(t *testing.T) {
	checkLeaks(t)
	start := time.Now()
	// Each string kept is a concatenation, a chunk made once: goja's
	// repeat appends its copies one at a time.
	src := `const chunk = "x".repeat(1024), keep = []; for (;;) keep.push(chunk + keep.length);`
	res := Run(context.Background(), src, Options{Limits: Limits{Memory: 64 << 20, Timeout: 20 * time.Second}})
	if res.Error == nil || res.Error.Kind != KindLimit || res.Error.Message != "the run exceeded its memory limit of 64 MiB" {
		t.Fatalf("want the memory limit error, got %+v", res.Error)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the watchdog took %s", d)
	}
	// The next run is unaffected.
	if res := runSnippet(t, "return 1", Options{Limits: Limits{Memory: 64 << 20}}); res.Error != nil {
		t.Fatal(res.Error.Report())
	}
}

// TestMemoryRunaway checks that OnRunaway is called, once, when native
// code that the memory limit's interrupt cannot stop, and whose size is
// not known before it allocates (a split into millions of strings), keeps
// allocating after it, and that the run still ends with the memory-limit
// error.
func TestMemoryRunaway(t *testing.T) {
	var calls atomic.Int32
	res := Run(context.Background(), `"x".repeat(2e6).split("")`, Options{Limits: Limits{Memory: 4 << 20}, OnRunaway: func() { calls.Add(1) }})
	if res.Error == nil || res.Error.Kind != KindLimit || res.Error.Message != "the run exceeded its memory limit of 4 MiB" {
		t.Fatalf("want the memory limit error, got %+v", res.Error)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("OnRunaway was called %d times, want once", n)
	}
}

func TestCatastrophicRegexp(t *testing.T) {
	t.Parallel()
	// A backreference makes goja use its backtracking engine, on which this
	// pattern never finishes; the match timeout turns that into an error.
	src := `const s = "a".repeat(40) + "!"; return /^(a+)+\1$/.test(s);`
	start := time.Now()
	e := mustFail(t, src, Options{Limits: Limits{Timeout: 20 * time.Second}})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
	if e.Name != "RangeError" || !strings.Contains(e.Message, "was stopped after "+testRegexpTimeout.String()+" without finishing") {
		t.Fatalf("got %s", e.Report())
	}
	// The error is catchable, and ordinary regular expressions still work
	// through every entry point.
	res := runSnippet(t, `
let caught = "";
try { ("a".repeat(40) + "!").replace(/^(a+)+\1$/, "x") } catch (e) { caught = e.name }
return [caught, "a-b-c".split(/-/), "abc".replace(/(b)/, "[$1]"), /(\w)\1/.test("xx"), "x1y2".match(/\d/g), [..."a1b2".matchAll(/\d/g)].length, "abc".search(/c/)]`, Options{Limits: Limits{Timeout: 20 * time.Second}})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if got, want := string(res.Value), `["RangeError",["a","b","c"],"a[b]c",true,["1","2"],2,2]`; got != want {
		t.Fatalf("value %s, want %s", got, want)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{512 << 20: "512 MiB", 64 << 10: "64 KiB", 1536 << 10: "1536 KiB", 1000: "1000 bytes", 0: "0 bytes", (1 << 20) + 1: "1048577 bytes"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// nativeAllocationCases are single native allocations far past any memory
// limit: each was made at once, before the watchdog could see it, and in
// process killed the host (Go's out-of-memory error is fatal) or, under
// the limit, succeeded (3 GB under 256 MiB).
var nativeAllocationCases = []struct{ name, src string }{
	{"string repeat", `"ab".repeat(2 ** 40);`},
	{"padStart", `"x".padStart(2 ** 31);`},
	{"padEnd", `"x".padEnd(2 ** 31, "é");`},
	{"Uint8Array", `new Uint8Array(3e9);`},
	{"Float64Array", `new Float64Array(2 ** 31);`},
	{"ArrayBuffer", `new ArrayBuffer(3e9);`},
	{"Buffer.alloc", `Buffer.alloc(3e9);`},
	{"Array(n).fill", `new Array(1e9).fill(0);`},
	{"join", `Array(1e9).join("ab");`},
	// The big strings these start from are repeats of a repeat: goja's
	// repeat appends its copies one at a time, a second for 4e7 of "x".
	{"string concatenation", `const s = "x".repeat(1e4).repeat(2e3); const t = s + s + s + s; t + t;`},
	{"template literal", "const s = 'x'.repeat(1e4).repeat(4e3); `${s}${s}${s}${s}`;"},
	{"String.prototype.concat", `const s = "x".repeat(1e4).repeat(4e3); s.concat(s, s, s);`},
	{"JSON.stringify", `const s = "x".repeat(1e4).repeat(1e3); JSON.stringify(Array(30).fill(s));`},
}

// TestNativeAllocationLimit checks that each of nativeAllocationCases ends
// the run with the memory-limit error before it allocates, that the
// snippet cannot catch it, and that the host and the next run are fine.
func TestNativeAllocationLimit(t *testing.T) {
	checkLeaks(t)
	collectAfter(t)
	for _, tt := range nativeAllocationCases {
		t.Run(tt.name, func(t *testing.T) {
			src := "try {\n" + tt.src + "\n} catch (e: any) { return 'caught ' + e }\nreturn 'allocated';"
			res := runSnippet(t, src, Options{Limits: Limits{Memory: 64 << 20}})
			if res.Error == nil {
				t.Fatalf("value %s, want the memory-limit error", res.Value)
			}
			if res.Error.Kind != KindLimit || res.Error.Message != "the run exceeded its memory limit of 64 MiB" || !errors.Is(res.Error, ErrMemoryLimit) {
				t.Fatalf("error %s (kind %s), want the memory-limit error", res.Error.Report(), res.Error.Kind)
			}
		})
	}
	checkNextRunWorks(t)
}

// TestNativeAllocationWithinLimit checks that big allocations within the
// budget are made, and that a session's run without a memory limit does
// not inherit the check of the run before it.
func TestNativeAllocationWithinLimit(t *testing.T) {
	collectAfter(t)
	const src = `const s = "ab".repeat(1e6); return [s.length, (s + s).length, new Uint8Array(4e6).length, Array(1e6).fill(1).length, [s, s].join("").length, JSON.stringify([s]).length];`
	if res := mustRun(t, src, Options{Limits: Limits{Memory: 256 << 20}}); string(res.Value) != "[2000000,4000000,4000000,1000000,4000000,2000004]" {
		t.Errorf("value %s", res.Value)
	}
	s := NewSession()
	defer s.Close()
	const big = `return new Uint8Array(48 << 20).length;`
	res := s.Run(context.Background(), big, Options{Limits: Limits{Memory: 32 << 20, Timeout: testTimeout}})
	if res.Error == nil || !errors.Is(res.Error, ErrMemoryLimit) {
		t.Fatalf("session run with a 32 MiB limit: value %s, error %v; want the memory-limit error", res.Value, res.Error)
	}
	res = s.Run(context.Background(), big, Options{Limits: Limits{Timeout: testTimeout}})
	if res.Error != nil || string(res.Value) != "50331648" {
		t.Errorf("session run without a limit: value %s, error %v", res.Value, res.Error)
	}
}
