package runtime

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/runtime/transform"
)

// TestReturnValue checks Result.Value (exact JSON text, key order kept) and
// Result.ValueText (console.log's form) for the kinds of value a snippet
// returns.
func TestReturnValue(t *testing.T) {
	tests := []struct {
		name, src string
		value     string // exact JSON; "" means nil
		text      string
	}{
		{"object key order kept", `return { z: 1, a: 2, m: [1, "x", null] };`, `{"z":1,"a":2,"m":[1,"x",null]}`, `{ z: 1, a: 2, m: [ 1, 'x', null ] }`},
		{"integer keys first as in JS", `return { b: 1, a: 2, 10: "x", 2: "y" };`, `{"2":"y","10":"x","b":1,"a":2}`, `{ '2': 'y', '10': 'x', b: 1, a: 2 }`},
		{"map with string keys is an object", `return new Map([["b", 1], ["a", 2]]);`, `{"b":1,"a":2}`, `Map(2) { 'b' => 1, 'a' => 2 }`},
		{"map with other keys is pairs", `return new Map<any, any>([[1, "one"], ["k", true]]);`, `[[1,"one"],["k",true]]`, `Map(2) { 1 => 'one', 'k' => true }`},
		{"set is an array", `return new Set([3, 1, 3]);`, `[3,1]`, `Set(2) { 3, 1 }`},
		{"nested map and set", `return { m: new Map([["k", new Set([1, 2])]]) };`, `{"m":{"k":[1,2]}}`, `{ m: Map(1) { 'k' => Set(2) { 1, 2 } } }`},
		{"date is an ISO string", `return new Date(Date.UTC(2024, 0, 2, 3, 4, 5));`, `"2024-01-02T03:04:05.000Z"`, `2024-01-02T03:04:05.000Z`},
		{"date inside object", `return { d: new Date(0) };`, `{"d":"1970-01-01T00:00:00.000Z"}`, `{ d: 1970-01-01T00:00:00.000Z }`},
		{"undefined", `return undefined;`, ``, ``},
		{"void expression", `return void 0;`, ``, ``},
		{"null", `return null;`, `null`, `null`},
		{"NaN is null", `return NaN;`, `null`, `NaN`},
		{"non-JSON array members are null", `return [NaN, Infinity, -Infinity, undefined, () => 1, Symbol("s")];`, `[null,null,null,null,null,null]`, ``},
		{"undefined and functions left out of objects", `return { u: undefined, f() {}, n: null, s: Symbol("x") };`, `{"n":null}`, ``},
		{"bigint", `return 12345678901234567890n;`, `12345678901234567890`, `12345678901234567890n`},
		{"bigint in object", `return { big: -5n };`, `{"big":-5}`, `{ big: -5n }`},
		{"circular", `const o: any = { a: 1 }; o.self = o; return o;`, `{"a":1,"self":"[Circular]"}`, `<ref *1> { a: 1, self: [Circular *1] }`},
		{"circular array", `const a: any[] = [1]; a.push(a); return a;`, `[1,"[Circular]"]`, `<ref *1> [ 1, [Circular *1] ]`},
		{"shared but not circular", `const a = [1]; return { x: a, y: a };`, `{"x":[1],"y":[1]}`, `{ x: [ 1 ], y: [ 1 ] }`},
		{"top-level string is bare", `return "hello";`, `"hello"`, `hello`},
		{"string with escapes", "return \"a\\\"b\\n\\u00e9\";", `"a\"b\né"`, "a\"b\né"},
		{"string in object is quoted", `return { s: "q" };`, `{"s":"q"}`, `{ s: 'q' }`},
		{"promise is awaited", `return Promise.resolve(5);`, `5`, `5`},
		{"async value", `return (async () => ({ ok: true }))();`, `{"ok":true}`, `{ ok: true }`},
		{"toJSON is used", `return { toJSON() { return "custom" } };`, `"custom"`, ``},
		{"number forms", `return [1.5, -2, 1e21, 1e-6, 0.1 + 0.2, 2 ** 53, 123e-20];`, `[1.5,-2,1e+21,0.000001,0.30000000000000004,9007199254740992,1.23e-18]`, "[\n  1.5,\n  -2,\n  1e+21,\n  0.000001,\n  0.30000000000000004,\n  9007199254740992,\n  1.23e-18\n]"},
		{"boolean", `return true;`, `true`, `true`},
		{"class instance", `class Foo { x = 1; m() {} } return new Foo();`, `{"x":1}`, `Foo { x: 1 }`},
		{"getter is read", `return { get g() { return 5 } };`, `{"g":5}`, ``},
		{"error value", `return new TypeError("as value");`, `{"name":"TypeError","message":"as value"}`, ``},
		{"array with holes", `return [1, , 3];`, `[1,null,3]`, ``},
		{"empty containers", `return [[], {}, new Map(), new Set()];`, `[[],{},{},[]]`, `[ [], {}, Map(0) {}, Set(0) {} ]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRun(t, tt.src, Options{})
			if string(res.Value) != tt.value {
				t.Errorf("Value = %s, want %s", res.Value, tt.value)
			}
			if tt.value == "" && res.Value != nil {
				t.Errorf("Value = %#v, want nil", res.Value)
			}
			if res.Value != nil && !json.Valid(res.Value) {
				t.Errorf("Value %q is not valid JSON", res.Value)
			}
			if tt.text != "" || tt.value == "" {
				if res.ValueText != tt.text {
					t.Errorf("ValueText = %q, want %q", res.ValueText, tt.text)
				}
			}
		})
	}
}

// TestSmallNumberFormat checks the boundary of JavaScript's exponent form:
// String(1e-7) is "1e-7" and String(1e-6) is "0.000001".
func TestSmallNumberFormat(t *testing.T) {
	res := mustRun(t, `console.log(1e-7, [2.5e-7]); return [1e-7, 1e-6];`, Options{})
	if string(res.Value) != `[1e-7,0.000001]` || res.ValueText != `[ 1e-7, 0.000001 ]` || res.Stdout != "1e-7 [ 2.5e-7 ]\n" {
		t.Errorf("BUG: Value %s, ValueText %q, Stdout %q; want [1e-7,0.000001], \"[ 1e-7, 0.000001 ]\", \"1e-7 [ 2.5e-7 ]\"", res.Value, res.ValueText, res.Stdout)
	}
}

// TestReturnValueTooDeep checks that a value nested beyond the export's
// bound fails the run with a clear error instead of overflowing.
func TestReturnValueTooDeep(t *testing.T) {
	e := mustFail(t, `let o: any = 1; for (let i = 0; i < 200; i++) o = [o]; return o;`, Options{})
	if !strings.Contains(e.Message, "JSON") || !strings.Contains(e.Message, "100") {
		t.Errorf("error %s does not explain the nesting limit", e)
	}
}

// TestEmptyStringReturn checks that returning "" is shown as a return value,
// not as "(no output)".
func TestEmptyStringReturn(t *testing.T) {
	res := mustRun(t, `return "";`, Options{})
	if string(res.Value) != `""` {
		t.Errorf("Value = %s, want \"\"", res.Value)
	}
	if !strings.Contains(res.Text(), "Return value") {
		t.Errorf("BUG: Text() = %q for a snippet that returned \"\"; the model cannot tell it from returning nothing", res.Text())
	}
}

// TestConsoleStreams checks that log, info and debug go to stdout and warn
// and error to stderr, each in order, and that output printed before a
// failure is kept.
func TestConsoleStreams(t *testing.T) {
	res := mustRun(t, `console.log("a"); console.warn("w"); console.info("i", 1); console.error("e"); console.debug("d");
return 1;`, Options{})
	if res.Stdout != "a\ni 1\nd\n" || res.Stderr != "w\ne\n" {
		t.Errorf("Stdout %q Stderr %q", res.Stdout, res.Stderr)
	}
	res = runSnippet(t, `console.log("out"); console.error("err"); throw new Error("x")`, Options{})
	if res.Error == nil || res.Stdout != "out\n" || res.Stderr != "err\n" {
		t.Errorf("Stdout %q Stderr %q Error %v", res.Stdout, res.Stderr, res.Error)
	}
	res = mustRun(t, `console.log(); console.log(""); console.log("x")`, Options{})
	if res.Stdout != "\n\nx\n" {
		t.Errorf("empty lines: Stdout %q", res.Stdout)
	}
}

// TestText checks every form of Result.Text.
func TestText(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // exact; "re:" prefix for a regexp
	}{
		{"nothing", `const x = 1;`, "(no output)"},
		{"undefined return", `return undefined;`, "(no output)"},
		{"stdout only", `console.log("a"); console.log("b");`, "a\nb"},
		{"stderr only", `console.error("bad");`, "bad"},
		{"value only", `return { a: 1 };`, "Return value: { a: 1 }"},
		{"string value bare", `return "hi";`, "Return value: hi"},
		{"output then stderr then value", `console.log("out"); console.warn("warn"); return [1];`, "out\nwarn\nReturn value: [ 1 ]"},
		{"error with stack and caret", "console.log(\"before\");\nthrow new Error(\"boom\");",
			"before\nError: boom\n    at snippet.ts:2:7\n\nsnippet.ts:2\nthrow new Error(\"boom\");\n      ^"},
		{"compile error", "const y = ;", "snippet.ts:1:11: error: Unexpected \";\"\n\nsnippet.ts:1\nconst y = ;\n          ^"},
		{"error without position", `throw "oops";`, "re:^Error: .*'oops'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runSnippet(t, tt.src, Options{}).Text()
			if re, ok := strings.CutPrefix(tt.want, "re:"); ok {
				if !regexp.MustCompile(re).MatchString(got) {
					t.Errorf("Text() = %q, want a match for %q", got, re)
				}
				return
			}
			if got != tt.want {
				t.Errorf("Text() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}

	// Hand-built results.
	for _, c := range []struct {
		res  Result
		want string
	}{
		{Result{}, "(no output)"},
		{Result{Stdout: "\n\n"}, "(no output)"},
		{Result{Stdout: "x\n", Stderr: "y\n", Value: json.RawMessage("3"), ValueText: "3"}, "x\ny\nReturn value: 3"},
		{Result{Error: limitError("the run exceeded its timeout of 1s")}, "LimitError: the run exceeded its timeout of 1s"},
		{Result{Stdout: "partial\n", Error: &Error{Name: "CanceledError", Message: "the run was cancelled by its caller", Kind: KindCanceled}},
			"partial\nCanceledError: the run was cancelled by its caller"},
	} {
		if got := c.res.Text(); got != c.want {
			t.Errorf("Text() of %+v = %q, want %q", c.res, got, c.want)
		}
	}
}

// TestResultJSON checks the JSON form of a Result.
func TestResultJSON(t *testing.T) {
	res := runSnippet(t, `console.log("o"); throw new RangeError("r")`, Options{})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"value", "stdout", "stderr", "error", "truncated"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON %s has no %q", b, k)
		}
	}
	e, _ := m["error"].(map[string]any)
	if e["name"] != "RangeError" || e["message"] != "r" || e["kind"] != "exception" || e["line"] != 1.0 {
		t.Errorf("error JSON %v", e)
	}
	if m["value"] != nil || m["stdout"] != "o\n" {
		t.Errorf("JSON %s", b)
	}
	if res.OK() != (res.Error == nil) {
		t.Errorf("OK() disagrees with Error")
	}
}

// frameLineRE is a Node-style stack frame in the snippet.
var frameLineRE = regexp.MustCompile(`^    at (?:[^()]+ \()?[^()\s]+:\d+:\d+\)?$|^    at [^()]+ \(native\)$`)

// TestErrorFields checks Error's fields for the ways a snippet fails.
func TestErrorFields(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name       string
		src        string
		errName    string
		msg        string // substring of Message
		line, col  int    // 0 means no position expected
		sourceLine string
		frames     []string // substrings that must appear in Stack, in order
	}{
		{"throw at a known position", "const a = 1;\nconst b = 2;\nif (a < b) throw new Error(\"boom\");", "Error", "boom", 3, 18,
			`if (a < b) throw new Error("boom");`, []string{"Error: boom\n", "    at snippet.ts:3:18"}},
		{"throw on line 1", `throw new Error("first line");`, "Error", "first line", 1, 7, `throw new Error("first line");`, []string{"    at snippet.ts:1:7"}},
		{"throw on line 1 after code", `  const x = 1; throw new TypeError("bad");`, "TypeError", "bad", 1, 22, `  const x = 1; throw new TypeError("bad");`, nil},
		{"typescript types before the throw", "function f(a: number, b: Array<string>): void {\n  throw new Error(`n=${a}`);\n}\nf(1, []);", "Error", "n=1", 2, 9,
			"  throw new Error(`n=${a}`);", []string{"    at f (snippet.ts:2:9)", "    at snippet.ts:4:"}},
		{"typed throw on line 1", `const n: number = 1; throw new Error("t" + n);`, "Error", "t1", 1, 28, "", []string{"    at snippet.ts:1:28"}},
		{"typed nested calls", "function inner(): never {\n  throw new Error(\"deep\");\n}\nfunction outer(): void {\n  inner();\n}\nouter();", "Error", "deep", 2, 9,
			"", []string{"    at inner (snippet.ts:2:9)\n    at outer (snippet.ts:5:", "\n    at snippet.ts:7:"}},
		{"typed timer callback", "const d: number = 5;\nsetTimeout((): void => { throw new Error(\"in timer\") }, d);", "Error", "in timer", 2, 32, "", []string{"    at snippet.ts:2:32"}},
		{"typed property of null", "const o: { x: number } | null = null;\nconst v = o!.x;", "TypeError", "'x'", 2, 0, "", nil},
		{"property of null", "const o: any = null;\nconst v = o.x;", "TypeError", "'x'", 2, 13, `const v = o.x;`, nil},
		{"call of undefined", "const o: any = {};\no.missing();", "TypeError", "missing", 2, 0, `o.missing();`, nil},
		{"nested calls", "function inner() {\n  throw new Error(\"deep\");\n}\nfunction outer() {\n  return inner();\n}\nouter();", "Error", "deep", 2, 9,
			`  throw new Error("deep");`, []string{"Error: deep\n    at inner (snippet.ts:2:9)\n    at outer (snippet.ts:5:", "\n    at snippet.ts:7:"}},
		{"method of a class", "class Svc {\n  run(x: number) { if (x > 1) throw new RangeError(\"too big\"); return x }\n}\nnew Svc().run(5);", "RangeError", "too big", 2, 37, "", []string{"run (snippet.ts:2:37)", "\n    at snippet.ts:4:"}},
		{"custom error class", "class AppError extends Error { constructor(m: string) { super(m); this.name = \"AppError\" } }\nthrow new AppError(\"custom\");", "AppError", "custom", 0, 0, "", []string{"AppError: custom"}},
		{"renamed error", `const e = new Error("m"); e.name = "Custom"; throw e;`, "Custom", "m", 1, 11, "", []string{"Custom: m"}},
		{"thrown string", `throw "oops";`, "Error", "'oops'", 0, 0, "", nil},
		{"thrown object", `throw { code: 42 };`, "Error", "code: 42", 0, 0, "", nil},
		{"rejected await", "await Promise.reject(new Error(\"rej\"));", "Error", "rej", 1, 22, "", nil},
		{"rejected with a number", `await Promise.reject(42);`, "Error", "42", 0, 0, "", nil},
		{"throw after await", "await null;\nawait new Promise(r => setTimeout(r, 1));\nthrow new SyntaxError(\"late\");", "SyntaxError", "late", 3, 7, "", nil},
		{"timer callback throws", "console.log(\"x\");\nsetTimeout(() => { throw new Error(\"in timer\") }, 5);", "Error", "in timer", 2, 26, "", []string{"    at snippet.ts:2:26"}},
		{"callback of a native", "[1].forEach(() => {\n  throw new Error(\"cb\");\n});", "Error", "cb", 2, 9, "", []string{"    at snippet.ts:2:9"}},
		{"json parse", "JSON.parse(\"{bad\");", "SyntaxError", "", 1, 0, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustFail(t, tt.src, Options{})
			if e.Name != tt.errName || !strings.Contains(e.Message, tt.msg) || e.Kind != KindException {
				t.Errorf("got %s (kind %s), want %s containing %q, kind exception", e, e.Kind, tt.errName, tt.msg)
			}
			if tt.line != 0 {
				if e.File != DefaultFilename || e.Line != tt.line {
					t.Errorf("position %s:%d:%d, want line %d", e.File, e.Line, e.Column, tt.line)
				}
				if tt.col != 0 && e.Column != tt.col {
					t.Errorf("column %d, want %d", e.Column, tt.col)
				}
				want := tt.sourceLine
				if want == "" {
					want = transform.SplitLines(tt.src)[tt.line-1]
				}
				if e.SourceLine != want {
					t.Errorf("SourceLine %q, want %q", e.SourceLine, want)
				}
			}
			rest := e.Stack
			for _, f := range tt.frames {
				i := strings.Index(rest, f)
				if i < 0 {
					t.Errorf("Stack %q lacks %q (in order)", e.Stack, f)
					break
				}
				rest = rest[i+len(f):]
			}
			if !strings.HasPrefix(e.Stack, e.Name+": ") {
				t.Errorf("Stack %q does not start with %q", e.Stack, e.Name+": ")
			}
			checkStackForm(t, e, len(transform.SplitLines(tt.src)))
		})
	}
}

// checkStackForm checks that every frame line of e.Stack is in Node's form,
// without goja's program counters, tabs or the wrapper's frame.
func checkStackForm(t *testing.T, e *Error, nLines int) {
	t.Helper()
	for _, l := range strings.Split(e.Stack, "\n")[1:] {
		if !strings.HasPrefix(l, "    at ") {
			continue // a multi-line message
		}
		if !frameLineRE.MatchString(l) {
			t.Errorf("stack frame %q is not in Node's form", l)
		}
		if m := regexp.MustCompile(`snippet\.ts:(\d+):`).FindStringSubmatch(l); m != nil && atoi(m[1]) > nLines {
			t.Errorf("stack frame %q is past the end of the %d-line snippet (the wrapper)", l, nLines)
		}
	}
	if strings.Contains(e.Stack, "\t") || strings.Contains(e.Stack, "codeexec/") {
		t.Errorf("stack %q shows tabs or Go frames", e.Stack)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestErrorReportCaret checks Report's caret for lines with tabs and
// non-ASCII text before the error.
func TestErrorReportCaret(t *testing.T) {
	tests := []struct {
		name, src, at string // at: the text the caret must be under
	}{
		{"tab indent", "if (true) {\n\tthrow new Error(\"t\");\n}", "new"},
		{"non-ASCII before a runtime error", `const s = "héllo wörld"; throw new Error(s);`, "new"},
		{"non-ASCII before a compile error", `const s = "éé"; const y = ;`, ";"},
		{"astral character before a runtime error", "const s = \"😀\";\nconst t = \"😀\"; throw new Error(\"x\");", "new"},
		{"non-ASCII before a runtime error in typed code", `const s: string = "héllo wörld"; throw new Error(s);`, "new"},
		{"astral character before a runtime error in typed code", "const s: string = \"😀\";\nconst t: string = \"😀\"; throw new Error(\"x\");", "new"},
		{"non-ASCII before a compile error in typed code", `const s: string = "éé"; const y = ;`, ";"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustFail(t, tt.src, Options{})
			rep := e.Report()
			lines := strings.Split(rep, "\n")
			if len(lines) < 2 {
				t.Fatalf("Report() = %q", rep)
			}
			src, caret := lines[len(lines)-2], lines[len(lines)-1]
			if src != e.SourceLine || !strings.HasSuffix(caret, "^") {
				t.Fatalf("Report() does not end with the source line and a caret:\n%s", rep)
			}
			// The caret must sit under the first character of tt.at: one
			// pad character per character before it, tabs kept as tabs.
			before := []rune(src[:strings.LastIndex(src, tt.at)])
			pad := []rune(strings.TrimSuffix(caret, "^"))
			ok := len(pad) == len(before)
			for i := 0; ok && i < len(pad); i++ {
				want := ' '
				if before[i] == '\t' {
					want = '\t'
				}
				ok = pad[i] == want
			}
			if !ok {
				t.Errorf("BUG: caret not under %q (Column %d):\n%s", tt.at, e.Column, rep)
			}
		})
	}
}

// TestUnhandledRejection checks Node's default: a promise rejected with no
// handler once the microtasks have run fails the run, even if the snippet
// would have gone on.
func TestUnhandledRejection(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src, msg string
		line           int
	}{
		{"before a timer", "Promise.reject(new Error(\"nobody\"));\nawait new Promise(r => setTimeout(r, 10));\nconsole.log(\"after\");", "nobody", 1},
		{"only statement", `Promise.reject(new Error("nobody"));`, "nobody", 1},
		{"un-awaited async function", "async function f() {\n  throw new Error(\"async\");\n}\nf();\nawait new Promise(r => setTimeout(r, 10));\nconsole.log(\"after\");", "async", 2},
		{"in a timer", `setTimeout(() => Promise.reject(new Error("late reject")), 1);`, "late reject", 1},
		{"handled too late", "const p = Promise.reject(new Error(\"late\"));\nawait new Promise(r => setTimeout(r, 5));\np.catch(() => {});\nconsole.log(\"after\");", "late", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runSnippet(t, tt.src, Options{})
			e := res.Error
			if e == nil {
				t.Fatalf("run succeeded, want an unhandled rejection error")
			}
			if e.Kind != KindException || !strings.Contains(e.Message, tt.msg) || !strings.Contains(e.Message, "unhandled") {
				t.Errorf("error %s (kind %s), want an unhandled rejection of %q", e, e.Kind, tt.msg)
			}
			if e.Line != tt.line {
				t.Errorf("line %d, want %d", e.Line, tt.line)
			}
			if strings.Contains(res.Stdout, "after") {
				t.Errorf("the run went on after the unhandled rejection: %q", res.Stdout)
			}
		})
	}

	// Handled within the same turn of microtasks: no error, as in Node.
	for _, src := range []string{
		`const p = Promise.reject(new Error("x")); await null; p.catch(() => {}); return "ok";`,
		`const p = Promise.reject(new Error("x")); p.then(() => {}, () => {}); return "ok";`,
		`try { await Promise.reject(new Error("caught")) } catch { } return "ok";`,
		`const r = await Promise.allSettled([Promise.reject(new Error("a")), Promise.resolve(1)]); return "ok";`,
		`await Promise.all([Promise.reject(new Error("a")), Promise.reject(new Error("b"))]).catch(() => {}); return "ok";`,
	} {
		res := mustRun(t, src, Options{})
		if string(res.Value) != `"ok"` {
			t.Errorf("%q: Value %s", src, res.Value)
		}
	}
}

// TestNeverSettles checks that a top-level await nothing can resolve ends
// the run at once with a clear error instead of waiting for the timeout.
func TestNeverSettles(t *testing.T) {
	checkLeaks(t)
	for _, src := range []string{
		`await new Promise(() => {});`,
		"console.log(\"x\");\nawait new Promise(r => setTimeout(() => {}, 5));",
		`let resolve: any; const p = new Promise(r => { resolve = r }); await p;`,
	} {
		start := time.Now()
		res := runSnippet(t, src, Options{Limits: Limits{Timeout: 20 * time.Second}})
		if time.Since(start) > 10*time.Second {
			t.Errorf("%q: waited for the timeout", src)
		}
		e := res.Error
		if e == nil || e.Kind != KindException || !strings.Contains(e.Message, "waiting") || !strings.Contains(e.Message, "nothing will ever resolve") {
			t.Errorf("%q: error %v, want a clear never-settles error", src, e)
		}
	}
}

// TestOtherLineTerminators checks sources with line terminators other than
// \n (a lone \r, U+2028, U+2029, even inside a string literal): JavaScript
// counts them as line breaks, so positions follow Node's numbering and the
// error keeps its frames and source line.
func TestOtherLineTerminators(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
	}{
		{"U+2028 in a string", "const s = '\u2028';\nthrow new Error('x')", 3, 7},
		{"U+2029 in a string, typed", "const s: string = '\u2029';\nthrow new Error('x')", 3, 7},
		{"lone CR", "const a = 1;\rthrow new Error('x')", 2, 7},
		{"lone CR, typed", "const a: number = 1;\rthrow new Error('x')", 2, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustFail(t, tt.src, Options{})
			if e.Line != tt.line || e.Column != tt.col || e.SourceLine != "throw new Error('x')" || !strings.Contains(e.Stack, "\n    at ") {
				t.Errorf("BUG: error at %d:%d source line %q stack %q; want %d:%d (Node's numbering) with its frame", e.Line, e.Column, e.SourceLine, e.Stack, tt.line, tt.col)
			}
		})
	}
}

// TestAsyncArrowInValue checks that async arrow functions in a returned
// value are left out like every other function, as JSON.stringify does.
func TestAsyncArrowInValue(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`return { f: async () => 1, g: async function () {}, v: 1 };`, `{"v":1}`},
		{`return [async () => 1];`, `[null]`},
	} {
		res := mustRun(t, c.src, Options{})
		if string(res.Value) != c.want {
			t.Errorf("BUG: %s: Value %s, want %s", c.src, res.Value, c.want)
		}
	}
}

// TestExcerpt checks the window an error report shows of a long source
// line: about 160 bytes around the column, cut ends marked, the caret
// still under the column.
func TestExcerpt(t *testing.T) {
	long := strings.Repeat("a", 500) + "X" + strings.Repeat("b", 500)
	tests := []struct {
		line    string
		col     int
		want    string
		wantCol int
	}{
		{"short line", 3, "short line", 3},
		{long, 500, "..." + strings.Repeat("a", 80) + "X" + strings.Repeat("b", 79) + "...", 83},
		{long, 2, strings.Repeat("a", 160) + "...", 2},
		{long, 1000, "..." + strings.Repeat("b", 160), 162},
	}
	for _, tt := range tests {
		got, col := excerpt(tt.line, tt.col)
		if got != tt.want || col != tt.wantCol {
			t.Errorf("excerpt(%.20q..., %d) = %.30q... (%d bytes), %d; want %.30q... (%d bytes), %d", tt.line, tt.col, got, len(got), col, tt.want, len(tt.want), tt.wantCol)
		}
	}
	e := &Error{Name: "Error", Message: "m", File: "f.ts", Line: 1, Column: 501, SourceLine: long}
	if r := e.Report(); len(r) > 400 || !strings.Contains(r, "...") {
		t.Errorf("report of a 1001-byte line is %d bytes", len(r))
	}
}
