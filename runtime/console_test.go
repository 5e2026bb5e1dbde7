package runtime

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestConsoleHostileValues checks that formatting is bounded: values whose
// getters, traps or toString never return, huge and deep structures, and
// huge strings neither hang a run past its timeout nor crash the host; and
// that a timeout while formatting ends the run as the timeout (the VM's
// interrupt is not swallowed).
func TestConsoleHostileValues(t *testing.T) {
	checkLeaks(t)
	const timeout = 400 * time.Millisecond
	tests := []struct {
		name, src string
		stdout    string // exact when set; "re:" prefix for a regexp
		limit     bool   // the run must end with the timeout
		fails     string // the run must fail with this message
		timeout   time.Duration
	}{
		{"looping getter is not called", `console.log({ get x() { for (;;) {} } })`, "{ x: [Getter] }\n", false, "", 0},
		{"throwing getter is not called", `console.log({ get x() { throw new Error("g") }, set x(v) {} })`, "{ x: [Getter/Setter] }\n", false, "", 0},
		{"looping toString through %s", `console.log("%s", { toString() { for (;;) {} } }); console.log("after")`, "", true, "", 0},
		{"looping toString caught is still the timeout", `try { console.log("%s", { toString() { for (;;) {} } }) } catch { console.log("caught") }`, "", true, "", 0},
		{"throwing proxy shows its target", `console.log(new Proxy({ t: 1 }, { get() { throw new Error("trap") }, ownKeys() { throw new Error("trap") }, getOwnPropertyDescriptor() { throw new Error("trap") }, getPrototypeOf() { throw new Error("trap") } }))`, "{ t: 1 }\n", false, "", 0},
		{"looping proxy shows its target", `console.log([new Proxy([1], { get() { for (;;) {} }, ownKeys() { for (;;) {} } })])`, "[ [ 1 ] ]\n", false, "", 0},
		{"revoked proxy", `const p = Proxy.revocable({}, {}); p.revoke(); console.log(p.proxy, [p.proxy])`, "<Revoked Proxy> [ <Revoked Proxy> ]\n", false, "", 0},
		// Building the array takes goja a while; printing it must not.
		{"million-element array", `const a = new Array(1e6).fill(7); const t = Date.now(); console.log(a); if (Date.now() - t > 100) throw new Error("slow: " + (Date.now() - t) + "ms")`, `re:^\[\n  7, 7, (.|\n)*  \.\.\. 999900 more items\n\]\n$`, false, "", 10 * time.Second},
		{"billion-length sparse array", `console.log(new Array(1e9), [, , 1])`, "[ <1000000000 empty items> ] [ <2 empty items>, 1 ]\n", false, "", 0},
		{"deep object, default depth", `let o = {}; for (let i = 0; i < 1e4; i++) o = { o }; console.log(o)`, "{ o: { o: { o: [Object] } } }\n", false, "", 0},
		{"deep object, infinite depth", `let o = {}; for (let i = 0; i < 1e4; i++) o = { o }; console.dir(o, { depth: null }); console.log("done")`, `re:\[Object\](.|\n)*done\n$`, false, "", 0},
		{"deep array, infinite depth", `let o = []; for (let i = 0; i < 1e4; i++) o = [o]; console.dir(o, { depth: Infinity }); console.log("done")`, `re:\[Array\](.|\n)*done\n$`, false, "", 0},
		{"huge string in a container is cut", `console.log(["x".repeat(1e6)])`, "[\n  '" + strings.Repeat("x", 10000) + "'... 990000 more characters\n]\n", false, "", 0},
		{"looping stack getter of an error", `const e = new Error("x"); Object.defineProperty(e, "stack", { get() { for (;;) {} } }); console.log(e)`, "", true, "", 0},
		{"looping custom inspect", `console.log({ [Symbol.for("nodejs.util.inspect.custom")]() { for (;;) {} } })`, "", true, "", 0},
		{"throwing toStringTag getter throws from console.log", `console.log({ get [Symbol.toStringTag]() { throw new Error("tag getter") } })`, "", false, "tag getter", 0},
		{"huge map shows 100 entries", `const m = new Map(); for (let i = 0; i < 1e5; i++) m.set(i, i); const t = Date.now(); console.log(m); if (Date.now() - t > 100) throw new Error("slow: " + (Date.now() - t) + "ms")`, `re:^Map\(100000\) \{\n  0 => 0,(.|\n)*  99 => 99,\n  \.\.\. 99900 more items\n\}\n$`, false, "", 10 * time.Second},
		// Shared (not circular) children: cheap to build, 40**8 entries to print.
		{"wide and deep with infinite depth stops at the timeout", `let o = 1; for (let d = 0; d < 8; d++) { const c = o; o = Object.fromEntries(Array.from({ length: 40 }, (_, i) => ["k" + i, c])) } console.dir(o, { depth: null })`, "", true, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := timeout
			if tt.timeout != 0 {
				timeout = tt.timeout
			}
			start := time.Now()
			res := runSnippet(t, tt.src, Options{Timeout: timeout, Filename: "snippet.js"})
			if d := time.Since(start); d > timeout+2*time.Second {
				t.Errorf("took %s, the timeout is %s", d, timeout)
			}
			switch {
			case tt.limit:
				if res.Error == nil || res.Error.Kind != KindLimit {
					t.Fatalf("Error %+v, want the timeout", res.Error)
				}
			case tt.fails != "":
				if res.Error == nil || res.Error.Kind != KindException || !strings.Contains(res.Error.Message, tt.fails) {
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
	checkNextRunWorks(t)
}

// TestConsoleOutputLimit checks that a huge top-level string prints whole
// into the run's output, whose limit keeps its tail.
func TestConsoleOutputLimit(t *testing.T) {
	res := mustRun(t, `console.log("x".repeat(5e6) + "END")`, Options{MaxOutputBytes: 1000})
	if !res.Truncated || !strings.HasSuffix(res.Stdout, "xxxEND\n") {
		t.Errorf("Truncated %v, stdout ends %q", res.Truncated, res.Stdout[max(0, len(res.Stdout)-20):])
	}
}

// TestConsoleMethods checks the console methods beyond log (node v20's
// output, except for durations and stack frames).
func TestConsoleMethods(t *testing.T) {
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
			res := mustRun(t, tt.src, Options{})
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

// TestFormatHelpers checks the formatter's building blocks against
// JavaScript's (node v20's) results.
func TestFormatHelpers(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {1e-7, "1e-7"}, {1e-6, "0.000001"}, {1.5e-10, "1.5e-10"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {-0.0000005, "-5e-7"}, {123456789.123, "123456789.123"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {0.1 + 0.2, "0.30000000000000004"},
		{math.NaN(), "NaN"}, {math.Inf(-1), "-Infinity"}, {2.5e-7, "2.5e-7"}, {123e-20, "1.23e-18"},
	} {
		if c.want == "0.30000000000000004" {
			a, b := 0.1, 0.2
			c.f = a + b // not folded into an exact constant
		}
		if got := formatNumber(c.f); got != c.want {
			t.Errorf("formatNumber(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"plain", "'plain'"}, {"it's", `"it's"`}, {`it's "x"`, "`it's \"x\"`"}, {"it's \"x\" ${y}", `'it\'s "x" ${y}'`},
		{"a\x00\x0b\x7f\u0085b", `'a\x00\x0B\x7F\x85b'`}, {"\b\t\n\f\r", `'\b\t\n\f\r'`}, {"é😀", "'é😀'"},
	} {
		if got := quote(c.in); got != c.want {
			t.Errorf("quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"42.9px", 42}, {"  -12.7", -12}, {"0x1F", 31}, {"1e21", 1}, {"", math.NaN()}, {"abc", math.NaN()}, {"+7", 7}} {
		if got := parseIntPrefix(c.in); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("parseInt(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"3.14abc", 3.14}, {".5e1", 5}, {"-Infinityx", math.Inf(-1)}, {"1e", 1}, {"e5", math.NaN()}, {" \n2", 2}, {"1e400", math.Inf(1)}} {
		if got := parseFloatPrefix(c.in); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("parseFloat(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		ms   float64
		want string
	}{{1.23456, "1.235ms"}, {0.0004, "0ms"}, {999.9999, "1000ms"}, {1500, "1.500s"}, {61234.5, "1:01.234 (m:ss.mmm)"}, {3723000, "1:02:03.000 (h:mm:ss.mmm)"}} {
		if got := formatTime(c.ms); got != c.want {
			t.Errorf("formatTime(%v) = %q, want %q", c.ms, got, c.want)
		}
	}
	for _, c := range []struct {
		s            string
		length, cols int
	}{{"abc", 3, 3}, {"é", 1, 1}, {"日本", 2, 4}, {"😀", 2, 2}, {"a\u0301", 2, 1}, {"\x1b[31mred\x1b[39m", 13, 3}} {
		if got := jsLen(c.s); got != c.length {
			t.Errorf("jsLen(%q) = %d, want %d", c.s, got, c.length)
		}
		if got := getStringWidth(c.s); got != c.cols {
			t.Errorf("getStringWidth(%q) = %d, want %d", c.s, got, c.cols)
		}
	}
}

// TestES2024Additions checks Object.groupBy, Map.groupBy and
// Promise.withResolvers (ES2024, which node v20 lacks: expectations are
// the specification's), and that they exist only when mentioned.
func TestES2024Additions(t *testing.T) {
	runValueCases(t, []valueCase{
		{`Object.groupBy([1, 2, 3, 4, 5], (n) => n % 2 ? "odd" : "even")`, `{"odd":[1,3,5],"even":[2,4]}`},
		{`Object.getPrototypeOf(Object.groupBy([], (x) => x)) === null`, `true`},
		{`Object.groupBy("abca", (c, i) => c + i % 2)`, `{"a0":["a"],"b1":["b"],"c0":["c"],"a1":["a"]}`},
		{`[...Map.groupBy([1.5, 2.5, -0, 0], (n) => Math.floor(n))].map(([k, v]) => [Object.is(k, -0) ? "-0" : k, v])`, `[[1,[1.5]],[2,[2.5]],[0,[0,0]]]`},
		{`(() => { try { Object.groupBy([1], 5) } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(async () => { const { promise, resolve } = Promise.withResolvers(); setTimeout(() => resolve("done"), 1); return await promise })()`, `"done"`},
		{`(async () => { const { promise, reject } = Promise.withResolvers(); reject(new Error("r")); return await promise.catch((e) => e.message) })()`, `"r"`},
		{`Object.keys(Promise.withResolvers()).join()`, `"promise,resolve,reject"`},
	})
	res := mustRun(t, `return [typeof Object["group" + "By"], typeof Promise["with" + "Resolvers"]]`, Options{})
	if string(res.Value) != `["undefined","undefined"]` {
		t.Errorf("without a mention: %s", res.Value)
	}
}

// TestLazyGlobals checks that the lazily installed globals behave as
// ordinary ones: typeof, assignment, deletion, no enumeration, and a fresh
// set in every run.
func TestLazyGlobals(t *testing.T) {
	checkLeaks(t)
	runValueCases(t, []valueCase{
		{`["structuredClone", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "atob", "btoa", "crypto", "performance", "DOMException", "Intl", "global"].map((n) => typeof globalThis[n])`,
			`["function","function","function","function","function","function","function","object","object","function","object","object"]`},
		{`typeof URL === "function" && URL === globalThis.URL && "URL" in globalThis`, `true`},
		{`Object.keys(globalThis).filter((k) => ["URL", "crypto", "Intl"].includes(k))`, `[]`},
		{`(() => { URL = 5; return URL })()`, `5`},
		{`(() => { globalThis.atob = () => "mine"; return atob("x") })()`, `"mine"`},
		{`(() => { const u = URL; delete globalThis.URL; return [typeof u, typeof globalThis.URL] })()`, `["function","function"]`},
		{`Object.prototype.toString.call(crypto) + Object.prototype.toString.call(performance) + Object.prototype.toString.call(Intl)`, `"[object Crypto][object Performance][object Intl]"`},
	})
	mustRun(t, `(URL as any).prototype.extra = 1; (globalThis as any).URL = null; (Intl as any).NumberFormat = null;`, Options{})
	res := mustRun(t, `return [typeof URL, (URL as any).prototype.extra, typeof Intl.NumberFormat];`, Options{})
	if string(res.Value) != `["function",null,"function"]` {
		t.Errorf("a second run saw the first's changes: %s", res.Value)
	}
}

// TestUninspectableThrownValues checks that a thrown value whose
// inspection throws or never ends is reported as the snippet's error, not
// as an internal error.
func TestUninspectableThrownValues(t *testing.T) {
	for _, src := range []string{
		`throw { get [Symbol.toStringTag]() { throw new Error("x") } }`,
		`throw { get [Symbol.toStringTag]() { for (;;) {} } }`,
		`const o = Object.create(Error.prototype); Object.defineProperty(o, "stack", { get() { for (;;) {} } }); throw o`,
	} {
		e := mustFail(t, src, Options{Timeout: 300 * time.Millisecond})
		if e.Kind == KindInternal {
			t.Errorf("%s: internal error %s", src, e)
		}
	}
}
