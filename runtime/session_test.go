package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// step is one run of a session and what it must give.
type step struct {
	src string
	// value is the JSON of the return value; when errorHas is set, a
	// substring of the error's "Name: Message" instead.
	value, errorHas string
	stdout          string
	opts            Options
}

// runSteps runs steps in one session, in order.
func runSteps(t *testing.T, s *Session, steps []step) {
	t.Helper()
	for i, st := range steps {
		opts := st.opts
		if opts.Timeout == 0 {
			opts.Timeout = testTimeout
		}
		if opts.Setup == nil {
			opts.Setup = newHost().setup
		}
		res := s.Run(context.Background(), st.src, opts)
		switch {
		case st.errorHas != "":
			if res.Error == nil || !strings.Contains(res.Error.Error(), st.errorHas) {
				t.Fatalf("step %d %q: error %v, want one with %q", i, st.src, res.Error, st.errorHas)
			}
		case res.Error != nil:
			t.Fatalf("step %d %q failed: %s", i, st.src, res.Error.Report())
		case string(res.Value) != st.value:
			t.Fatalf("step %d %q: value %s, want %s", i, st.src, res.Value, st.value)
		}
		if st.stdout != "" && res.Stdout != st.stdout {
			t.Fatalf("step %d %q: stdout %q, want %q", i, st.src, res.Stdout, st.stdout)
		}
	}
}

// sessionCase is a named sequence of steps, run in a session of its own.
type sessionCase struct {
	name  string
	steps []step
}

// runSessionCases runs each case as a parallel subtest, in a new session.
func runSessionCases(t *testing.T, cases []sessionCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession()
			defer s.Close()
			runSteps(t, s, tt.steps)
		})
	}
}

// TestSessionCarries checks which top-level declarations carry to the
// next run of a session, and how.
func TestSessionCarries(t *testing.T) {
	t.Parallel()
	tests := []sessionCase{
		{"const, let, var", []step{
			{src: `const a = 1; let b = 2; var c = 3;`, value: ""},
			{src: `return [a, b, c]`, value: `[1,2,3]`},
		}},
		{"destructuring and lists", []step{
			{src: "const {x, y: [z, ...rest]} = {x: 1, y: [2, 3, 4]}, w = 5\nlet u", value: ""},
			{src: `return [x, z, rest, w, u === undefined, "u" in globalThis]`, value: `[1,2,[3,4],5,true,true]`},
		}},
		{"functions and classes", []step{
			{src: `function f(n) { return n * 2 } async function g() { return 7 } class A { v() { return A.name } }`, value: ""},
			{src: `return [f(2), await g(), new A().v()]`, value: `[4,7,"A"]`},
		}},
		{"a function is a global before the snippet's other code", []step{
			{src: `const r = typeof globalThis.h; function h() {} return r`, value: `"function"`},
		}},
		{"a use strict directive stays first", []step{
			{src: "'use strict';\nfunction strict() { return this === undefined }", value: ""},
			{src: `return strict()`, value: `true`},
		}},
		{"closures see the global, not a copy", []step{
			{src: `let count = 0; function inc() { return ++count }`, value: ""},
			{src: `inc(); inc(); return count`, value: `2`},
			{src: `count = 10; return inc()`, value: `11`},
		}},
		{"initializers whose end the parser misplaces", []step{
			{src: "const enc = new TextEncoder(), m = new Map\nlet d = new Date(0), n = (1 + 2), s = `t${n}`, arr = [1, 2][0], o = {k: 1}, neg = -n, inc = n++, f = (a, b) => a + b, g = x => x * 2, c = n ? 1 : 2, t = typeof n, r = /x/g, opt = o?.k", value: ""},
			{src: `return [enc.encode("x").length, m.size, d.getTime(), n, s, arr, o.k, neg, inc, f(1, 2), g(2), c, t, r.flags, opt]`, value: `[1,0,0,4,"t3",1,1,-3,3,3,4,1,"number","g",1]`},
		}},
		{"await in an initializer", []step{
			{src: `const v = await new Promise(r => setTimeout(() => r(42), 1))`, value: ""},
			{src: `return v`, value: `42`},
		}},
		{"a declaration can be repeated", []step{
			{src: `const k = 1`, value: ""},
			{src: `const k = 2; return k`, value: `2`},
			{src: `let k = 3; return k`, value: `3`},
		}},
		{"globalThis and prototypes carry", []step{
			{src: `globalThis.cfg = {a: 1}; Array.prototype.second = function () { return this[1] }`, value: ""},
			{src: `return [cfg.a, [1, 2].second()]`, value: `[1,2]`},
		}},
		{"nested declarations stay local", []step{
			{src: `{ const inner = 1 } for (const loop of [1]) {} if (true) { function nested() {} }`, value: ""},
			{src: `return [typeof inner, typeof loop]`, value: `["undefined","undefined"]`},
		}},
		{"TypeScript", []step{
			{src: "const typed: number = 5\nenum Color { Red, Green }\ninterface I { a: string }\nfunction id<T>(x: T): T { return x }", value: ""},
			{src: "return [typed, Color.Green, id<string>(\"s\")]", value: `[5,1,"s"]`},
		}},
		{"top-level return keeps the declarations before it", []step{
			{src: "const before = 1\nif (before) return 'early'\nconst after = 2", value: `"early"`},
			{src: `return [before, typeof after]`, value: `[1,"undefined"]`},
		}},
		{"a name read before its declaration is in its dead zone", []step{
			{src: "console.log(late)\nconst late = 1", errorHas: "ReferenceError: Cannot access 'late' before initialization"},
			{src: `return typeof late`, value: `"undefined"`},
		}},
		{"console and timers are the new run's", []step{
			{src: `function say(m) { console.log(m); setTimeout(() => console.log("later " + m), 1) }`, value: ""},
			{src: `say("two")`, value: "", stdout: "two\nlater two\n"},
		}},
		{"a replaced sandbox global comes back", []step{
			{src: `console = {log() {}}; setTimeout = null`, value: ""},
			{src: `console.log("back"); await new Promise(r => setTimeout(r, 1))`, value: "", stdout: "back\n"},
		}},
		{"Symbol.dispose is defined once and kept", []step{
			{src: `const first = Symbol.dispose; { using a = { [Symbol.dispose]() {} } }`, value: ""},
			{src: `const log = []; { using b = { [Symbol.dispose]() { log.push("b") } } } return [first === Symbol.dispose, log]`, value: `[true,["b"]]`},
		}},
		{"Symbol replaced before a run that uses it", []step{
			{src: `globalThis.Symbol = undefined`, value: ""},
			{src: `{ using a = null }`, errorHas: "TypeError"},
		}},
		{"an async generator of an earlier run iterates after Symbol.asyncIterator is defined", []step{
			{src: `async function* g() { yield 1; yield 2 } var it = g()`, value: ""},
			{src: `const out = []; for await (const x of { [Symbol.asyncIterator]: () => it[Symbol.asyncIterator]() }) out.push(x); return out`, value: `[1,2]`},
		}},
		{"WeakRef is defined once", []step{
			{src: `var w = new WeakRef({ a: 1 })`, value: ""},
			{src: `return [w instanceof WeakRef, w.deref().a]`, value: `[true,1]`},
		}},
		{"Error.captureStackTrace serves a class of an earlier run", []step{
			{src: `class MyErr extends Error { constructor(m) { super(m); this.name = "MyErr"; Error.captureStackTrace(this, MyErr) } }`, value: ""},
			{src: `const s = new MyErr("x").stack; return s`, value: `"MyErr: x\n    at snippet.ts:1:11"`},
		}},
		{"custom inspect methods of an earlier run's values", []step{
			{src: `class P { [util.inspect.custom]() { return "P!" } }; var p = new P(); console.log(p)`, stdout: "P!\n"},
			{src: `console.log(p)`, stdout: "P!\n"},
		}},
		{"Promise.any is wrapped once", []step{
			{src: `var first = Promise.any; await Promise.any([1])`, value: ""},
			{src: `return [first === Promise.any, await Promise.any([Promise.reject(1)]).catch((e) => e.message)]`, value: `[true,"All promises were rejected"]`},
		}},
		{"eval stays disabled", []step{
			{src: `const e = eval`, value: ""},
			{src: `e("1")`, errorHas: "EvalError"},
			{src: `(() => {}).constructor("return 1")`, errorHas: "EvalError"},
		}},
		{"the generator constructor is disabled in the first run that makes a generator", []step{
			{src: `return 1`, value: "1"},
			{src: `function* g() {} return g.constructor("yield 1")`, errorHas: "EvalError: new GeneratorFunction() is disabled"},
			{src: `return (function* () {}).constructor("yield 1")`, errorHas: "EvalError: new GeneratorFunction() is disabled"},
		}},
		{"eval allowed by the first run holds for a later run's generator constructor", []step{
			{src: `return eval("1")`, value: "1", opts: Options{AllowEval: true}},
			{src: `return [(function* () {}).constructor("yield 2")().next().value, typeof eval]`, value: `[2,"function"]`},
			{src: `(function* () {}).constructor("[".repeat(2000) + "]".repeat(2000))`, errorHas: "nest more than 1000 levels"},
		}},
	}
	runSessionCases(t, tests)
}

// TestSessionAfterFailure checks what a failed run leaves in its session:
// the globals it assigned before it stopped, its function declarations,
// and not the declarations it did not reach.
func TestSessionAfterFailure(t *testing.T) {
	t.Parallel()
	// The await checks that the VM still runs promise callbacks: a limit
	// that interrupts an async function unbalances goja's VM (see
	// repairVM).
	probe := `return [typeof a, typeof b, typeof f, typeof g.x, await sleep(1, "s")]`
	tests := []struct {
		name     string
		src      string
		opts     Options
		errorHas string
	}{
		{"exception", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nthrow new Error('boom')\nconst b = 2", Options{}, "Error: boom"},
		{"rejection", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nawait Promise.reject(new Error('no'))\nconst b = 2", Options{}, "Error: no"},
		{"timeout", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nfor (;;) {}\nconst b = 2", Options{Limits: Limits{Timeout: 100 * time.Millisecond}}, "timeout of 100ms"},
		{"stack depth", "const a = 1; globalThis.g = {x: 1}\nfunction f() { return f() }\nf()\nconst b = 2", Options{}, "RangeError"},
		{"timeout after an await", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nawait null; for (;;) {}\nconst b = 2", Options{Limits: Limits{Timeout: 100 * time.Millisecond}}, "timeout of 100ms"},
		{"timeout in a timer", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nsetTimeout(() => { for (;;) {} }, 1)\nawait new Promise(() => {})\nconst b = 2", Options{Limits: Limits{Timeout: 100 * time.Millisecond}}, "timeout of 100ms"},
		{"cancelled tool call", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nawait sleep(10000, 'x')\nconst b = 2", Options{Limits: Limits{Timeout: 100 * time.Millisecond}}, "timeout of 100ms"},
		{"timeout with Promise replaced", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nconst P = Promise; Promise.resolve = null; P.prototype.then = null; for (;;) {}\nconst b = 2", Options{Limits: Limits{Timeout: 100 * time.Millisecond}}, "timeout of 100ms"},
		{"memory", "const a = 1; globalThis.g = {x: 1}\nfunction f() {}\nconst chunk = 'x'.repeat(1000), keep = []; for (;;) keep.push(chunk + keep.length)\nconst b = 2", Options{Limits: Limits{Memory: 32 << 20}}, "memory limit of 32 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession()
			defer s.Close()
			runSteps(t, s, []step{
				{src: tt.src, errorHas: tt.errorHas, opts: tt.opts},
				{src: probe, value: `["number","undefined","function","number","s"]`},
			})
		})
	}
	t.Run("compile error changes nothing", func(t *testing.T) {
		t.Parallel()
		s := NewSession()
		defer s.Close()
		runSteps(t, s, []step{
			{src: `const a = 1`},
			{src: "const a = 2; const b = (", errorHas: "SyntaxError"},
			{src: `return [a, typeof b]`, value: `[1,"undefined"]`},
		})
	})
}

// TestSessionStackOverflow checks the call-stack limit across the runs of
// a session: a function declared by an earlier run (instrumented by that
// run's compile) still hits a catchable RangeError, even after the snippet
// replaced RangeError; uncaught, it ends the run as the limit; the next
// run works.
func TestSessionStackOverflow(t *testing.T) {
	t.Parallel()
	s := NewSession()
	defer s.Close()
	runSteps(t, s, []step{
		{src: `function f(): any { return f() }`, value: ``},
		{src: `globalThis.RangeError = class {} as any; await null; try { f() } catch (e: any) { return e.message }`, value: `"Maximum call stack size exceeded (the call-stack limit is 10000 frames)"`},
		{src: `f()`, errorHas: "RangeError: Maximum call stack size exceeded"},
		{src: `return typeof f`, value: `"function"`},
	})
}

// TestSessionSetupFailureEnds checks that a snippet that makes every later
// run's set-up fail ends its session, which says so.
func TestSessionSetupFailureEnds(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src string }{
		{"a sandbox global made read-only", `Object.defineProperty(globalThis, "console", {value: 1, writable: false, configurable: false})`},
		{"globalThis frozen", `Object.freeze(globalThis)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession()
			defer s.Close()
			runSteps(t, s, []step{
				{src: tt.src},
				{src: `return 1`, errorHas: "the session has ended: a run could not be set up in it"},
				{src: `return 1`, errorHas: "SessionError: the session has ended"},
			})
			if s.Ended() == nil {
				t.Error("Ended is nil")
			}
		})
	}
}

// TestSessionIsolated checks that sessions do not see each other's globals,
// and that a plain Run does not see a session's.
func TestSessionIsolated(t *testing.T) {
	t.Parallel()
	s1, s2 := NewSession(), NewSession()
	defer s1.Close()
	defer s2.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runSteps(t, s1, []step{{src: `const mine = "one"`}, {src: `return mine`, value: `"one"`}})
	}()
	runSteps(t, s2, []step{{src: `const mine = "two"`}, {src: `return mine`, value: `"two"`}})
	<-done
	runSteps(t, s1, []step{{src: `return mine`, value: `"one"`}})
	res := mustRun(t, `return typeof mine`, Options{})
	if string(res.Value) != `"undefined"` {
		t.Errorf("a plain run sees a session's global: %s", res.Value)
	}
}

// TestSessionClosed checks that a closed session refuses runs.
func TestSessionClosed(t *testing.T) {
	t.Parallel()
	s := NewSession()
	runSteps(t, s, []step{{src: `const a = 1`}})
	s.Close()
	s.Close()
	res := s.Run(context.Background(), `return 1`, Options{})
	if res.Error == nil || !errors.Is(res.Error, ErrSessionEnded) || !strings.Contains(res.Error.Message, "closed") {
		t.Fatalf("run on a closed session: %v", res.Error)
	}
}

// TestSessionPositions checks that errors point into the snippet, columns
// included, although the rewrite inserted text on the same lines.
func TestSessionPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		line, col int
	}{
		{"after a const on line 1", `const a = 1; null.x`, 1, 19},
		{"after a function copy", `function f() {} null.x`, 1, 22},
		{"after a class", "let q\nclass C {}; null.x", 2, 18},
		{"TypeScript", "const t: number = 1; null.x", 1, 27},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession()
			defer s.Close()
			res := s.Run(context.Background(), tt.src, Options{})
			if res.Error == nil {
				t.Fatal("no error")
			}
			if res.Error.Line != tt.line || res.Error.Column != tt.col {
				t.Errorf("error at %d:%d, want %d:%d\n%s", res.Error.Line, res.Error.Column, tt.line, tt.col, res.Error.Report())
			}
			plain := runSnippet(t, tt.src, Options{})
			if plain.Error == nil || plain.Error.Stack != res.Error.Stack {
				t.Errorf("stack in a session:\n%s\nwithout:\n%v", res.Error.Stack, plain.Error)
			}
		})
	}
}

// TestSessionLeaks checks that a session leaves no goroutine behind after
// runs that ended every way, and none between runs.
func TestSessionLeaks(t *testing.T) {
	checkLeaks(t)
	s := NewSession()
	runSteps(t, s, []step{
		{src: `const h = setInterval(() => {}, 1); setTimeout(() => {}, 1e9)`, errorHas: "timeout", opts: Options{Limits: Limits{Timeout: 50 * time.Millisecond}}},
		{src: `await sleep(1, "x"); const v = 1`},
		{src: `throw new Error("x")`, errorHas: "Error: x"},
	})
	s.Close()
}

// TestSessionLateHostWork checks that host work abandoned by one run of a
// session (it ignored its context past CancelGrace) cannot interrupt the
// next run when it finally returns a failure that would end a run.
func TestSessionLateHostWork(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	returned := make(chan struct{})
	setup := func(env *Env) error {
		return env.VM().Set("late", func(goja.FunctionCall) goja.Value {
			return env.Go(func(context.Context) Outcome {
				defer close(returned)
				<-release
				return Outcome{Fail: NewLimitError("a late limit", nil)}
			})
		})
	}
	s := NewSession()
	defer s.Close()
	runSteps(t, s, []step{{src: `late(); const first = 1`, errorHas: "timeout", opts: Options{Limits: Limits{Timeout: 50 * time.Millisecond, CancelGrace: 10 * time.Millisecond}, Setup: setup}}})
	done := make(chan *Result)
	go func() {
		done <- s.Run(context.Background(), `const t = Date.now(); while (Date.now() - t < 300) {} return first`, Options{Limits: Limits{Timeout: testTimeout}})
	}()
	time.Sleep(50 * time.Millisecond)
	close(release)
	<-returned
	res := <-done
	if res.Error != nil || string(res.Value) != "1" {
		t.Fatalf("the run after abandoned host work: value %s, error %v", res.Value, res.Error)
	}
}

// TestSessionStaleConsole checks that a console function kept from an
// earlier run of a session prints nothing, anywhere, in a later run.
func TestSessionStaleConsole(t *testing.T) {
	t.Parallel()
	s := NewSession()
	defer s.Close()
	var first, second strings.Builder
	res := s.Run(context.Background(), `const log = console.log; log("one")`, Options{Stdout: &first})
	if res.Error != nil || res.Stdout != "one\n" {
		t.Fatalf("first run: %q %v", res.Stdout, res.Error)
	}
	res = s.Run(context.Background(), `log("stale"); console.log("two")`, Options{Stdout: &second})
	if res.Error != nil || res.Stdout != "two\n" || second.String() != "two\n" || first.String() != "one\n" {
		t.Fatalf("second run: stdout %q, live %q, the first run's live writer %q, error %v", res.Stdout, second.String(), first.String(), res.Error)
	}
}

// FuzzSessionRun runs arbitrary source twice in one session: neither run
// may fail inside the engine (a Go panic), and the first run, whose set-up
// nothing earlier can have spoiled, may not fail internally at all.
func FuzzSessionRun(f *testing.F) {
	for _, seed := range []string{
		"const a = 1; return a", "let b\nvar c = 2, d; return [b, c, d]", "const {x, y: [z]} = {x: 1, y: [2]}",
		"function f() { return f } class K {} return new K()", "for(;;){}", "await null; for(;;){}",
		"const e = new TextEncoder(), m = new Map; return m.size", "throw 1", "const x: number = ;",
		"Object.freeze(globalThis)", "globalThis.g = 1; delete globalThis.g",
		"const later = 1; console.log(later)", "console.log(notYet); const notYet = 1",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := NewSession()
		defer s.Close()
		for i := range 2 {
			res := s.Run(context.Background(), src, Options{Limits: Limits{Timeout: fuzzTimeout, MaxOutputBytes: 1 << 12}})
			if res.Error == nil {
				continue
			}
			if res.Error.Name == "InternalError" || i == 0 && res.Error.Kind == KindInternal {
				t.Fatalf("run %d of %q: %s", i, src, res.Error.Report())
			}
		}
	})
}

// TestSessionEcho checks Options.Echo: a snippet that ends with an
// expression statement has its value as the run's, whatever comes before
// it, and keeps its declarations; positions in errors stay the snippet's.
func TestSessionEcho(t *testing.T) {
	t.Parallel()
	s := NewSession()
	defer s.Close()
	echo := Options{Echo: true}
	runSteps(t, s, []step{
		{src: "const a = [1, 2]\na.length", value: "2", opts: echo},
		{src: "let z = 3; /* c */ ;\n// d\n(z,\n a[1] + z)", value: "5", opts: echo},
		{src: "z * 2", value: "", opts: Options{}}, // without Echo, no value
		{src: "function f(n: number) { return n + 1 }\nf(z)", value: "4", opts: echo},
		{src: "if (z) { 1 }", value: "", opts: echo},
		{src: "return 7; z", value: "7", opts: echo},
		{src: "Promise.resolve(z)", value: "3", opts: echo},
	})
	res := s.Run(context.Background(), "const o: any = {}\no.x.y", echo)
	if res.Error == nil || res.Error.Line != 2 || res.Error.Column != 5 {
		t.Errorf("error %+v, want one at 2:5", res.Error)
	}
}
