package console_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// grows defines grows(small, big), which prints each value five times
// and fails when printing the big one takes over twenty times as long as
// the small one (best of five, plus 2 ms): printing a huge container must
// cost what it shows, not what it holds. Both are timed in the same run,
// so a slow machine slows both; the sizes differ a thousandfold.
const grows = `const best = (v) => { let b = Infinity; for (let i = 0; i < 5; i++) { const t = performance.now(); console.log(v); b = Math.min(b, performance.now() - t) } return b };
const grows = (small, big) => { const s = best(small), g = best(big); if (g > 20 * s + 2) throw new Error("printing grows with the size: " + s + " ms, then " + g + " ms") };
`

// TestConsoleHostileValues checks that formatting is bounded: values whose
// getters, traps or toString never return, huge and deep structures, and
// huge strings neither hang a run past its timeout nor crash the host; and
// that a timeout while formatting ends the run as the timeout (the VM's
// interrupt is not swallowed).
func TestConsoleHostileValues(t *testing.T) {
	runtest.CheckLeaks(t)
	// The cases that must end with the timeout get a short one (they spin
	// from their first statement, and spin until it fires: its length is
	// not what they test); the others a long one, which a loaded machine
	// under the race detector does not reach (the deep cases took over
	// 400 ms so).
	const limitTimeout, timeout = 100 * time.Millisecond, 10 * time.Second
	tests := []struct {
		name, src string
		stdout    string // exact when set; "re:" prefix for a regexp
		limit     bool   // the run must end with the timeout
		fails     string // the run must fail with this message
	}{
		{"looping getter is not called", `console.log({ get x() { for (;;) {} } })`, "{ x: [Getter] }\n", false, ""},
		{"throwing getter is not called", `console.log({ get x() { throw new Error("g") }, set x(v) {} })`, "{ x: [Getter/Setter] }\n", false, ""},
		{"looping toString through %s", `console.log("%s", { toString() { for (;;) {} } }); console.log("after")`, "", true, ""},
		{"looping toString caught is still the timeout", `try { console.log("%s", { toString() { for (;;) {} } }) } catch { console.log("caught") }`, "", true, ""},
		{"throwing proxy shows its target", `console.log(new Proxy({ t: 1 }, { get() { throw new Error("trap") }, ownKeys() { throw new Error("trap") }, getOwnPropertyDescriptor() { throw new Error("trap") }, getPrototypeOf() { throw new Error("trap") } }))`, "{ t: 1 }\n", false, ""},
		{"looping proxy shows its target", `console.log([new Proxy([1], { get() { for (;;) {} }, ownKeys() { for (;;) {} } })])`, "[ [ 1 ] ]\n", false, ""},
		{"revoked proxy", `const p = Proxy.revocable({}, {}); p.revoke(); console.log(p.proxy, [p.proxy])`, "<Revoked Proxy> [ <Revoked Proxy> ]\n", false, ""},
		// Building the array takes goja a while; printing it must not.
		{"million-element array", grows + `grows(new Array(1e3).fill(7), new Array(1e6).fill(7))`, `re:^\[\n  7, 7, (.|\n)*  \.\.\. 999900 more items\n\]\n$`, false, ""},
		{"billion-length sparse array", `console.log(new Array(1e9), [, , 1])`, "[ <1000000000 empty items> ] [ <2 empty items>, 1 ]\n", false, ""},
		{"deep object, default depth", `let o = {}; for (let i = 0; i < 1e4; i++) o = { o }; console.log(o)`, "{ o: { o: { o: [Object] } } }\n", false, ""},
		{"deep object, infinite depth", `let o = {}; for (let i = 0; i < 1e4; i++) o = { o }; console.dir(o, { depth: null }); console.log("done")`, `re:\[Object\](.|\n)*done\n$`, false, ""},
		{"deep array, infinite depth", `let o = []; for (let i = 0; i < 1e4; i++) o = [o]; console.dir(o, { depth: Infinity }); console.log("done")`, `re:\[Array\](.|\n)*done\n$`, false, ""},
		{"huge string in a container is cut", `console.log(["x".repeat(1e6)])`, "[\n  '" + strings.Repeat("x", 10000) + "'... 990000 more characters\n]\n", false, ""},
		{"looping stack getter of an error", `const e = new Error("x"); Object.defineProperty(e, "stack", { get() { for (;;) {} } }); console.log(e)`, "", true, ""},
		{"looping custom inspect", `console.log({ [Symbol.for("nodejs.util.inspect.custom")]() { for (;;) {} } })`, "", true, ""},
		{"throwing toStringTag getter throws from console.log", `console.log({ get [Symbol.toStringTag]() { throw new Error("tag getter") } })`, "", false, "tag getter"},
		{"huge map shows 100 entries", grows + `const m = (n) => { const m = new Map(); for (let i = 0; i < n; i++) m.set(i, i); return m }; grows(m(1e3), m(1e5))`, `re:^Map\(1000\) \{\n  0 => 0,(.|\n)*  99 => 99,\n  \.\.\. 99900 more items\n\}\n$`, false, ""},
		// Shared (not circular) children: cheap to build, 40**8 entries to print.
		{"wide and deep with infinite depth stops at the timeout", `let o = 1; for (let d = 0; d < 8; d++) { const c = o; o = Object.fromEntries(Array.from({ length: 40 }, (_, i) => ["k" + i, c])) } console.dir(o, { depth: null })`, "", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := timeout
			if tt.limit {
				timeout = limitTimeout
			}
			start := time.Now()
			res := runtest.Run(t, tt.src, runtime.Options{Limits: runtime.Limits{Timeout: timeout}, Filename: "snippet.js"})
			if d := time.Since(start); d > timeout+2*time.Second {
				t.Errorf("took %s, the timeout is %s", d, timeout)
			}
			switch {
			case tt.limit:
				if res.Error == nil || res.Error.Kind != runtime.KindLimit {
					t.Fatalf("Error %+v, want the timeout", res.Error)
				}
			case tt.fails != "":
				if res.Error == nil || res.Error.Kind != runtime.KindException || !strings.Contains(res.Error.Message, tt.fails) {
					t.Fatalf("Error %+v, want an exception %q", res.Error, tt.fails)
				}
			case res.Error != nil:
				t.Fatalf("run failed: %s", res.Error.Report())
			}
			if tt.stdout == "" {
				return
			}
			if re, ok := strings.CutPrefix(tt.stdout, "re:"); ok {
				if !regexp.MustCompile(re).MatchString(res.Stdout) {
					t.Errorf("stdout %.500q does not match %s", res.Stdout, re)
				}
			} else if res.Stdout != tt.stdout {
				t.Errorf("stdout %.500q, want %.500q", res.Stdout, tt.stdout)
			}
		})
	}
	runtest.CheckNextRunWorks(t)
}

// TestConsoleOutputLimit checks that a huge top-level string prints whole
// into the run's output, whose limit keeps its tail.
func TestConsoleOutputLimit(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `console.log("x".repeat(5e6) + "END")`, runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1000}})
	if !res.Truncated || !strings.HasSuffix(res.Stdout, "xxxEND\n") {
		t.Errorf("Truncated %v, stdout ends %q", res.Truncated, res.Stdout[max(0, len(res.Stdout)-20):])
	}
}

// TestConsoleMethods checks the console methods beyond log (node v20's
// output, except for durations and stack frames).
func TestConsoleMethods(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src      string
		stdout, stderr string // "re:" prefix for a regexp
	}{
		{"group indents everything", `console.group("G"); console.log("a\nb"); console.error("e"); console.group(); console.info({ x: 1 }); console.groupEnd(); console.groupEnd(); console.log("out")`,
			"G\n  a\n  b\n    { x: 1 }\nout\n", "  e\n"},
		{"count and countReset", `console.count(); console.count("x"); console.count(); console.countReset(); console.count(); console.countReset("nope")`,
			"default: 1\nx: 1\ndefault: 2\ndefault: 1\n", "Warning: Count for 'nope' does not exist\n"},
		{"time", `console.time("t"); console.timeLog("t", { n: 1 }); console.timeEnd("t"); console.timeEnd("t")`,
			`re:^t: \d+(\.\d+)?ms \{ n: 1 \}\nt: \d+(\.\d+)?ms\n$`, "Warning: No such label 't' for console.timeEnd()\n"},
		{"time twice", `console.time(); console.time()`, "", "Warning: Label 'default' already exists for console.time()\n"},
		{"assert", `console.assert(1 === 1, "no"); console.assert(false, "x is %d", 5); console.assert(false); console.assert(0, { a: 1 })`,
			"", "Assertion failed: x is 5\nAssertion failed\nAssertion failed: [object Object]\n"},
		{"trace", "function f() {\n  console.trace(\"here %s\", \"now\");\n}\nf();",
			"", `re:^Trace: here now\n    at f \(snippet\.ts:2:\d+\)\n    at snippet\.ts:4:\d+\n$`},
		{"trace without message", `console.trace()`, "", `re:^Trace\n    at snippet\.ts:1:\d+\n$`},
		{"dir ignores custom inspect", `console.dir({ [Symbol.for("nodejs.util.inspect.custom")]() { return "custom" }, a: 1 })`,
			"{\n  a: 1,\n  [Symbol(nodejs.util.inspect.custom)]: [Function: [nodejs.util.inspect.custom]]\n}\n", ""},
		{"table", `console.table([{ a: 1 }, { b: "x" }])`,
			"┌─────────┬───┬─────┐\n│ (index) │ a │ b   │\n├─────────┼───┼─────┤\n│ 0       │ 1 │     │\n│ 1       │   │ 'x' │\n└─────────┴───┴─────┘\n", ""},
		{"methods are plain functions", `const { log, error } = console; log(typeof console.log, console.log.name); error([1])`, "function log\n", "[ 1 ]\n"},
		{"console can be changed", `console.log = (...a) => console.error("patched", ...a); console.log(1); delete console.error; console.info(typeof console.error)`, "undefined\n", "patched 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{})
			check := func(what, got, want string) {
				if re, ok := strings.CutPrefix(want, "re:"); ok {
					if !regexp.MustCompile(re).MatchString(got) {
						t.Errorf("%s %q does not match %s", what, got, re)
					}
				} else if got != want {
					t.Errorf("%s %q, want %q", what, got, want)
				}
			}
			check("stdout", res.Stdout, tt.stdout)
			check("stderr", res.Stderr, tt.stderr)
		})
	}
}
