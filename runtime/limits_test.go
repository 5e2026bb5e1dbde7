package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// checkNextRunWorks runs a normal snippet, as the next run after a limit.
func checkNextRunWorks(t *testing.T) {
	t.Helper()
	h := newHost()
	res := mustRun(t, `console.log("next"); return [1 + 1, await sleep(1, "s")];`, Options{Setup: h.setup})
	if string(res.Value) != `[2,"s"]` || res.Stdout != "next\n" {
		t.Errorf("the run after a limit: Value %s Stdout %q", res.Value, res.Stdout)
	}
}

// TestTimeout checks that the wall-clock timeout stops busy, idle and
// promise-spinning snippets with a limit error naming the timeout.
func TestTimeout(t *testing.T) {
	checkLeaks(t)
	tests := []struct{ name, src string }{
		{"busy loop", `console.log("before"); for (;;) {}`},
		{"await loop", `console.log("before"); for (;;) await null;`},
		{"microtask loop", `console.log("before"); const spin = (): any => Promise.resolve().then(spin); spin(); await new Promise(() => {});`},
		{"far timer", `console.log("before"); setTimeout(() => {}, 1e9);`},
		{"interval and a pending await", `console.log("before"); setInterval(() => {}, 5); await new Promise(() => {});`},
		{"busy loop in a timer", `console.log("before"); setTimeout(() => { for (;;) {} }, 1);`},
		{"busy loop in catch and finally", `console.log("before"); for (;;) { try { throw 1 } catch { } finally { } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := runSnippet(t, tt.src, Options{Limits: Limits{Timeout: spinTimeout}})
			d := time.Since(start)
			e := res.Error
			if e == nil || e.Kind != KindLimit {
				t.Fatalf("Error %v, want a limit error", e)
			}
			if !strings.Contains(e.Message, "timeout") || !strings.Contains(e.Message, spinTimeout.String()) {
				t.Errorf("message %q does not name the %s timeout", e.Message, spinTimeout)
			}
			if res.Stdout != "before\n" {
				t.Errorf("Stdout %q, want the output printed before the timeout", res.Stdout)
			}
			if d > 5*time.Second {
				t.Errorf("the run took %s to stop", d)
			}
			if !strings.HasPrefix(e.Report(), e.Name+": ") {
				t.Errorf("Report %q", e.Report())
			}
		})
	}
	checkNextRunWorks(t)
}

// TestTimeoutCancelsHostCalls checks that a host call waiting on its
// context is cancelled by the timeout, sees a cause, and is gone when Run
// returns.
func TestTimeoutCancelsHostCalls(t *testing.T) {
	for _, src := range []string{`await block();`, `block(); return 1;`, `await Promise.all([block(), block(), sleep(100000)]);`} {
		t.Run(src, func(t *testing.T) {
			h := newHost()
			start := time.Now()
			res := runSnippet(t, src, Options{Limits: Limits{Timeout: 300 * time.Millisecond}, Setup: h.setup})
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the run took %s", d)
			}
			if res.Error == nil || res.Error.Kind != KindLimit || !strings.Contains(res.Error.Message, "300ms") {
				t.Fatalf("Error %v, want the timeout", res.Error)
			}
			causes := h.cancelCauses()
			if len(causes) == 0 || int(h.started.Load()) != int(h.finished.Load()) {
				t.Fatalf("host calls: %d started, %d finished, causes %v", h.started.Load(), h.finished.Load(), causes)
			}
			for _, c := range causes {
				if !isLimitTimeout(c) {
					t.Errorf("host call saw cause %v, want the timeout", c)
				}
			}
			goleak.VerifyNone(t, ignoreRegexpClock)
		})
	}
	checkNextRunWorks(t)
}

// TestCancelGrace checks that host work ignoring its context is abandoned
// after CancelGrace, so Run still returns.
func TestCancelGrace(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	start := time.Now()
	res := runSnippet(t, `console.log("x"); await hold();`, Options{Limits: Limits{Timeout: 200 * time.Millisecond, CancelGrace: 100 * time.Millisecond}, Setup: h.setup})
	d := time.Since(start)
	if res.Error == nil || res.Error.Kind != KindLimit {
		t.Errorf("Error %v, want the timeout", res.Error)
	}
	if d > 3*time.Second {
		t.Errorf("Run took %s; it should give up on the call after CancelGrace", d)
	}
	if h.finished.Load() != 0 {
		t.Errorf("the held call finished early")
	}
	// Let the abandoned work end; its late result must be dropped quietly.
	close(h.release)
	select {
	case <-h.holdDone:
	case <-time.After(5 * time.Second):
		t.Fatal("held work did not finish after release")
	}
	time.Sleep(10 * time.Millisecond)
	if res.Stdout != "x\n" {
		t.Errorf("Stdout %q", res.Stdout)
	}
	checkNextRunWorks(t)
}

// TestParentCancel checks that cancelling the caller's context ends the run
// with KindCanceled, whether the snippet is busy or waiting.
func TestParentCancel(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		after     time.Duration // cancel after; 0: before Run
	}{
		{"busy", `for (;;) {}`, 100 * time.Millisecond},
		{"waiting on a host call", `await block();`, 100 * time.Millisecond},
		{"waiting on a timer", `await new Promise(r => setTimeout(r, 100000));`, 100 * time.Millisecond},
		{"cancelled before the run", `for (;;) {}`, 0},
		{"cancelled before a quick run", `return 1;`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHost()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.after == 0 {
				cancel()
			} else {
				tm := time.AfterFunc(tt.after, cancel)
				defer tm.Stop()
			}
			start := time.Now()
			res := Run(ctx, tt.src, Options{Limits: Limits{Timeout: 20 * time.Second}, Setup: h.setup})
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the run took %s after cancel", d)
			}
			if res.Error == nil || res.Error.Kind != KindCanceled {
				t.Fatalf("Error %+v, want KindCanceled", res.Error)
			}
			if !strings.Contains(res.Error.Message, "cancel") {
				t.Errorf("message %q", res.Error.Message)
			}
			for _, c := range h.cancelCauses() {
				if c == nil {
					t.Errorf("host call saw no cause")
				}
			}
		})
	}

	// A parent deadline shorter than Timeout is the caller's, not ours.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res := Run(ctx, `for (;;) {}`, Options{Limits: Limits{Timeout: 20 * time.Second}})
	if res.Error == nil || res.Error.Kind != KindCanceled {
		t.Errorf("parent deadline: Error %+v, want KindCanceled", res.Error)
	}
	checkNextRunWorks(t)
}

// TestStackLimit checks that deep recursion is a RangeError limit naming
// the stack limit, found quickly, and that the host survives.
func TestStackLimit(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		depth     int
	}{
		{"default", "function r(n: number): number { return r(n + 1) + 1 }\nr(0);", DefaultMaxStackDepth},
		{"custom", "function r(n: number): number { return r(n + 1) + 1 }\nr(0);", 200},
		{"self-recursive getter", "const o = { get x(): any { return this.x } };\no.x;", DefaultMaxStackDepth},
		{"through a native", "function f(): void { [1].forEach(f) }\nf();", DefaultMaxStackDepth},
		{"async recursion", "async function f(n: number): Promise<number> { return 1 + await f(n + 1) }\nawait f(0);", DefaultMaxStackDepth},
		{"class constructor", "class A { constructor() { new A() } }\nnew A();", 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{}
			if tt.depth != DefaultMaxStackDepth {
				opts.MaxStackDepth = tt.depth
			}
			e := mustFail(t, tt.src, opts)
			if e.Kind != KindLimit || e.Name != "RangeError" {
				t.Errorf("error %s kind %s, want a RangeError limit", e, e.Kind)
			}
			if !strings.Contains(e.Message, "Maximum call stack size exceeded") || !strings.Contains(e.Message, strconv.Itoa(tt.depth)) {
				t.Errorf("message %q does not name the limit %d", e.Message, tt.depth)
			}
			if e.Line < 1 || e.Line > 2 || e.File != DefaultFilename {
				t.Errorf("position %s:%d", e.File, e.Line)
			}
		})
	}
	checkNextRunWorks(t)
}

// TestStackOverflowCatchable checks that a stack deeper than the limit is
// a RangeError the snippet catches wherever the recursion runs: before and
// after an await, in async functions, promise executors, callbacks of
// natives and timers, getters, constructors, class fields, generators;
// that the error looks like Node's (name, message, at most ten frames, the
// first the recursive call); that recursion just below the limit works;
// and that many suspended async calls are not mistaken for a deep stack
// (the depth is measured, not counted).
func TestStackOverflowCatchable(t *testing.T) {
	checkLeaks(t)
	const catchIt = "\nconst caught = (f: () => unknown) => { try { f(); return 'no error' } catch (e: any) { return e.name + ': ' + e.message } };\n"
	const overflow = `RangeError: Maximum call stack size exceeded (the call-stack limit is 10000 frames)`
	tests := []struct{ name, src, want string }{
		{"before any await", `function f(): any { return f() }` + catchIt + `return caught(f);`, overflow},
		{"after an await", `function f(): any { return f() }` + catchIt + `await null; return caught(f);`, overflow},
		{"in an async function", `async function f(): Promise<any> { return f() }` + catchIt + `try { await f() } catch (e: any) { return e.name + ': ' + e.message }`, overflow},
		{"awaiting recursion", `async function f(n: number): Promise<number> { return 1 + await f(n + 1) }` + catchIt + `try { await f(0) } catch (e: any) { return e.name + ': ' + e.message }`, overflow},
		{"in a promise executor", `function f(): any { return f() }` + catchIt + `try { await new Promise(() => f()) } catch (e: any) { return e.name + ': ' + e.message }`, overflow},
		{"in a native's callback", `function f(): any { return [1].map(f) }` + catchIt + `return caught(f);`, overflow},
		{"in a timer", `function f(): any { return f() }` + catchIt + `return await new Promise((res) => setTimeout(() => res(caught(f)), 1));`, overflow},
		{"in a then callback", `function f(): any { return f() }` + catchIt + `return await Promise.resolve().then(() => caught(f));`, overflow},
		{"getter", `const o = { get x(): any { return (this as any).x } };` + catchIt + `return caught(() => o.x);`, overflow},
		{"constructor", `class A { constructor() { new A() } }` + catchIt + `return caught(() => new A());`, overflow},
		{"class field", `class A { x: any = new A() }` + catchIt + `return caught(() => new A());`, overflow},
		{"generator", `function* g(): any { yield* g() }` + catchIt + `return caught(() => [...g()]);`, overflow},
		{"expression arrow", `const f = (n: number): number => f(n + 1);` + catchIt + `return caught(() => f(0));`, overflow},
		{"strict function", `function f(): any { "use strict"; return f() }` + catchIt + `return caught(f);`, overflow},
		{"the engine's RangeError, whatever the global", `const R = RangeError; function f(): any { return f() }` + catchIt + `(globalThis as any).RangeError = class {}; try { f() } catch (e: any) { return [e instanceof R, e.constructor === R, Object.keys(e).length, e.name + ': ' + e.message].join(" / ") }`,
			"true / true / 0 / " + overflow},
		{"9,000 frames deep", `function d(n: number): number { return n === 0 ? 0 : 1 + d(n - 1) }` + catchIt + `return caught(() => { if (d(9000) !== 9000) throw new Error("wrong") });`, "no error"},
		{"20,000 suspended async calls", `await Promise.all(Array.from({ length: 20000 }, async () => { await null }));` + catchIt + `return caught(() => 0);`, "no error"},
		{"the stack", `function f(): any { return f() }` + "\n" + `try { f() } catch (e: any) { const lines = e.stack.split("\n"); return [lines.length, lines[0], lines[1]].join(" / ") }`,
			"11 / " + overflow + " / " + "    at f (snippet.ts:1:28)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := mustRun(t, tt.src, Options{})
			var got string
			if err := json.Unmarshal(res.Value, &got); err != nil || got != tt.want {
				t.Errorf("value %s, want %q", res.Value, tt.want)
			}
		})
	}
}

// TestStackLimitErrorStack checks that the Stack of a stack-limit error
// starts with its own name, like every other error.
func TestStackLimitErrorStack(t *testing.T) {
	e := mustFail(t, "function r(): number { return r() }\nr();", Options{Limits: Limits{MaxStackDepth: 100}})
	if !strings.HasPrefix(e.Stack, e.Name+": ") {
		t.Errorf("BUG: Stack %q does not start with %q (Name and Stack disagree)", e.Stack, e.Name+": ")
	}
}

// TestSourceLimit checks MaxSourceBytes, which is checked before the
// transform.
func TestSourceLimit(t *testing.T) {
	src := "return 1;" + strings.Repeat(" ", 92) // 101 bytes
	e := mustFail(t, src, Options{Limits: Limits{MaxSourceBytes: 100}})
	if e.Kind != KindLimit || !strings.Contains(e.Message, "100") || !strings.Contains(e.Message, "101") {
		t.Errorf("error %s kind %s", e, e.Kind)
	}
	// Before the transform: a syntax error over the limit is a limit error.
	e = mustFail(t, "const = ;"+strings.Repeat(" ", 200), Options{Limits: Limits{MaxSourceBytes: 100}})
	if e.Kind != KindLimit {
		t.Errorf("over-limit syntax error: kind %s, want limit", e.Kind)
	}
	// At the limit it runs.
	res := mustRun(t, src[:100], Options{Limits: Limits{MaxSourceBytes: 100}})
	if string(res.Value) != "1" {
		t.Errorf("Value %s", res.Value)
	}
	// The default limit.
	e = mustFail(t, "//"+strings.Repeat("x", DefaultMaxSourceBytes), Options{})
	if e.Kind != KindLimit || !strings.Contains(e.Message, strconv.Itoa(DefaultMaxSourceBytes)) {
		t.Errorf("default limit: %s", e)
	}
	checkNextRunWorks(t)
}

var noticeRE = regexp.MustCompile(`\[output truncated: (\d+) bytes cut here; the first (\d+) and the last (\d+) bytes are shown\]\n`)

// cutParts splits bounded text at its notice: the head, the bytes cut, the
// tail; ok is false when it has no notice.
func cutParts(t *testing.T, s string) (head string, cut int, tail string, ok bool) {
	t.Helper()
	loc := noticeRE.FindStringSubmatchIndex(s)
	if loc == nil {
		return "", 0, "", false
	}
	m := noticeRE.FindStringSubmatch(s)
	h, _ := strconv.Atoi(m[2])
	// The notice starts a line: after a head that ends inside a line comes
	// one newline that is not part of the text.
	if h > loc[0] || (s[h:loc[0]] != "" && s[h:loc[0]] != "\n") {
		t.Errorf("the notice says the head is %d bytes; %d come before it", h, loc[0])
		return "", 0, "", false
	}
	head, tail = s[:h], s[loc[1]:]
	cut, _ = strconv.Atoi(m[1])
	if n, _ := strconv.Atoi(m[3]); n != len(tail) {
		t.Errorf("the notice says the tail is %s bytes, it is %d", m[3], len(tail))
	}
	return head, cut, tail, true
}

// TestOutputLimit checks MaxOutputBytes: over the limit, the head (whole
// lines, half the limit) and the tail (whole lines, the other half) are
// kept with one notice between that says how many bytes were cut, and
// Truncated is set; a live writer gets exactly the same text.
func TestOutputLimit(t *testing.T) {
	checkLeaks(t)
	var live, liveErr bytes.Buffer
	res := mustRun(t, `for (let i = 0; i < 50; i++) { console.log("line " + String(i).padStart(2, "0")); console.error("err " + String(i).padStart(2, "0")) }
return "done";`, Options{Limits: Limits{MaxOutputBytes: 100}, Stdout: &live, Stderr: &liveErr})
	if !res.Truncated {
		t.Errorf("Truncated not set")
	}
	if string(res.Value) != `"done"` {
		t.Errorf("Value %s", res.Value)
	}
	for _, c := range []struct {
		name, got, live, prefix string
		total                   int
	}{
		{"stdout", res.Stdout, live.String(), "line ", 50 * 8},
		{"stderr", res.Stderr, liveErr.String(), "err ", 50 * 7},
	} {
		if c.live != c.got {
			t.Errorf("%s: live output\n%q\ndiffers from the result's\n%q", c.name, c.live, c.got)
		}
		head, cut, tail, ok := cutParts(t, c.got)
		if !ok {
			t.Errorf("%s %q has no truncation notice", c.name, c.got)
			continue
		}
		if len(head)+cut+len(tail) != c.total {
			t.Errorf("%s: %d head + %d cut + %d tail != %d printed", c.name, len(head), cut, len(tail), c.total)
		}
		if len(head) > 50 || len(head)+len(tail) > 100 || !strings.HasPrefix(head, c.prefix+"00\n") || !strings.HasSuffix(tail, c.prefix+"49\n") ||
			!strings.HasSuffix(head, "\n") || !strings.HasPrefix(tail, c.prefix) {
			t.Errorf("%s: head %q, tail %q; want whole lines, at most 50 bytes each", c.name, head, tail)
		}
		if len(head) < 50-len(c.prefix)-3 || len(tail) < 50-len(c.prefix)-3 {
			t.Errorf("%s kept only %d + %d bytes of 100", c.name, len(head), len(tail))
		}
	}

	// Under the limit nothing is truncated and live output is complete,
	// even past half the limit (the part past the head comes at the end).
	live.Reset()
	res = mustRun(t, `console.log("short"); console.log("x".repeat(60))`, Options{Limits: Limits{MaxOutputBytes: 100}, Stdout: &live})
	want := "short\n" + strings.Repeat("x", 60) + "\n"
	if res.Truncated || res.Stdout != want || live.String() != want {
		t.Errorf("Truncated %v Stdout %q live %q", res.Truncated, res.Stdout, live.String())
	}

	// One line longer than the limit keeps its start and its end.
	res = mustRun(t, `console.log("y" + "x".repeat(1000) + "z")`, Options{Limits: Limits{MaxOutputBytes: 100}})
	head, cut, tail, ok := cutParts(t, res.Stdout)
	if !ok || head != "y"+strings.Repeat("x", 49) || tail != strings.Repeat("x", 48)+"z\n" || cut != 903 {
		t.Errorf("long line: Stdout %q", res.Stdout)
	}
	checkNextRunWorks(t)
}

// TestOutputLimitKeepsWholeTail checks that when the kept tail already
// starts at a line boundary, no whole line is thrown away.
func TestOutputLimitKeepsWholeTail(t *testing.T) {
	res := mustRun(t, `console.log("aaaa"); console.log("bbbb"); console.log("cccc");`, Options{Limits: Limits{MaxOutputBytes: 10}})
	head, cut, tail, ok := cutParts(t, res.Stdout)
	if !ok || head != "aaaa\n" || tail != "cccc\n" || cut != 5 {
		t.Errorf("Stdout %q: want head aaaa, tail cccc, 5 bytes cut (the kept tail starts a line)", res.Stdout)
	}
}

// TestOutputUnit checks the output buffer directly: the counts stay exact
// over many compactions, and the buffer stays small.
func TestOutputUnit(t *testing.T) {
	o := newOutput(nil, 50)
	total := 0
	for i := 0; i < 1000; i++ {
		s := fmt.Sprintf("%d\n", i)
		o.write(s)
		total += len(s)
	}
	got := o.finish()
	head, cut, tail, ok := cutParts(t, got)
	if !ok || len(head)+cut+len(tail) != total || !strings.HasPrefix(head, "0\n1\n") || !strings.HasSuffix(tail, "999\n") {
		t.Errorf("head %q + %d cut + tail %q != %d", head, cut, tail, total)
	}
	if len(o.rest) > 50 {
		t.Errorf("the tail buffer holds %d bytes for a 50-byte limit", len(o.rest))
	}
}

// TestBound checks what the result prints besides the console: a huge
// return value (printed and as JSON) and a huge error message are bounded
// by the output limit, head and tail, and Truncated is set.
func TestBound(t *testing.T) {
	res := mustRun(t, `return "a" + "x".repeat(5e5) + "b"`, Options{Limits: Limits{MaxOutputBytes: 1000}})
	if !res.Truncated || len(res.ValueText) > 1100 || !strings.HasPrefix(res.ValueText, "a") || !strings.HasSuffix(res.ValueText, "b") {
		t.Errorf("value: Truncated %v, %d bytes printed", res.Truncated, len(res.ValueText))
	}
	var v string
	if err := json.Unmarshal(res.Value, &v); err != nil || v != res.ValueText {
		t.Errorf("Value is not the JSON of the bounded text: %.80s", res.Value)
	}
	res = runSnippet(t, `throw new Error("a" + "x".repeat(5e5) + "b")`, Options{Limits: Limits{MaxOutputBytes: 1000}})
	if e := res.Error; e == nil || len(e.Message) > 1100 || len(e.Stack) > 1100 || !strings.Contains(e.Message, "bytes cut here") || !res.Truncated {
		t.Errorf("error: %d bytes of message, %d of stack", len(res.Error.Message), len(res.Error.Stack))
	}
}

// TestTimeoutWhileExportingValue checks that a return value whose toJSON or
// getter never returns is stopped by the timeout and reported as the
// timeout, like any other code of the snippet.
func TestTimeoutWhileExportingValue(t *testing.T) {
	checkLeaks(t)
	for _, src := range []string{
		`return { toJSON() { for (;;) {} } };`,
		`return { get x() { for (;;) {} } };`,
	} {
		t.Run(src, func(t *testing.T) {
			start := time.Now()
			res := runSnippet(t, src, Options{Limits: Limits{Timeout: spinTimeout}})
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
			if res.Error == nil || res.Error.Kind != KindLimit || !strings.Contains(res.Error.Message, spinTimeout.String()) {
				t.Errorf("BUG: Error %+v, want the timeout as a limit error", res.Error)
			}
		})
	}
	checkNextRunWorks(t)
}

// holder is a live writer that records what it was sent before Held.
type holder struct {
	strings.Builder
	held   int    // calls of Held
	before string // what was written when Held was first called
}

func (h *holder) Held() {
	if h.held == 0 {
		h.before = h.String()
	}
	h.held++
}

// TestOutputHolder checks that a live writer with a Held method is told,
// once, when the head of the output is full, after the head was written,
// and not when the output fits.
func TestOutputHolder(t *testing.T) {
	line := strings.Repeat("x", 79) + "\n"
	for _, tc := range []struct {
		lines, held int
	}{{10, 1}, {3, 0}} {
		var h holder
		mustRun(t, fmt.Sprintf("for (let i = 0; i < %d; i++) console.log(%q.trimEnd())", tc.lines, line), Options{Limits: Limits{MaxOutputBytes: 1000}, Stdout: &h})
		if h.held != tc.held {
			t.Errorf("%d lines: Held called %d times, want %d", tc.lines, h.held, tc.held)
		}
		if tc.held > 0 && h.before != strings.Repeat(line, 6) {
			t.Errorf("%d lines: %q written before Held, want the head, 6 lines", tc.lines, h.before)
		}
	}
}

// nativeRecursionCases are snippets whose recursion runs in the engine's
// Go code without a snippet frame between its levels. Before the patched
// goja's native recursion limit each of them overflowed the goroutine's
// stack (a fatal error that killed the host) or looped forever.
var nativeRecursionCases = []struct{ name, src string }{
	{"get through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a.missing;`},
	{"has through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); "missing" in a;`},
	{"set through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a.missing = 1;`},
	{"toString through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); String(a);`},
	{"for-in through a Proxy in a prototype cycle", `const a: any = { x: 1 }; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); for (const k in a) {}`},
	{"instanceof through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a instanceof Array;`},
	{"isPrototypeOf through a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); Array.prototype.isPrototypeOf(a);`},
	{"a chain of proxies called", `let f: any = () => 1; for (let i = 0; i < 20000; i++) f = new Proxy(f, {}); f();`},
	// Each bound function's name would be "bound " and its target's name:
	// a chain of 20,000 would hold 1.2 GB of names, built in time and
	// memory quadratic in its length. The names are reset: the recursion
	// under test is the calls.
	{"a chain of bound functions", `let f: any = () => 1; for (let i = 0; i < 20000; i++) { f = f.bind(null); Object.defineProperty(f, "name", { value: "" }) } f();`},
	{"a native getter of itself", `const o = {}; Object.defineProperty(o, Symbol.toStringTag, { get: Object.prototype.toString }); String(o);`},
	{"a bound native getter of itself", `const o = {}; Object.defineProperty(o, "x", { get: Reflect.get.bind(null, o, "x") }); (o as any).x;`},
	{"a bound native setter of itself", `const o: any = {}; Object.defineProperty(o, "y", { set: Reflect.set.bind(null, o, "y", 1) }); o.y = 1;`},
	{"a bound native toString", `const o: any = {}; o.toString = String.bind(null, o); String(o);`},
	{"JSON.stringify of endless getters", `const mk = (): any => ({ get a() { return mk() } }); JSON.stringify(mk());`},
	{"JSON.stringify of endless proxies", `const mk = (): any => new Proxy({}, { ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: (t, k) => k === "a" ? mk() : undefined }); JSON.stringify(mk());`},
	{"JSON.parse's reviver walk of endless getters", `JSON.parse('{"a":1,"b":2}', function (this: any, k, v) { if (k === "a") { const mk = (): any => ({ get b() { return mk() } }); Object.defineProperty(this, "b", { get: mk, enumerable: true }) } return v });`},
	{"flat of endless arrays", `const mk = (): any => { const a = [0]; Object.defineProperty(a, 0, { get: mk }); return a }; mk().flat(Infinity);`},
	{"join of endless arrays", `const mk = (): any => { const a = [0]; Object.defineProperty(a, 0, { get: mk }); return a }; mk().join();`},
	{"structuredClone of a Proxy in a prototype cycle", `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); structuredClone(a);`},
}

// TestNativeRecursionLimit checks each of nativeRecursionCases: caught, it
// is Node's RangeError, and the snippet goes on (the engine's count is
// back to zero: a Proxy lookup works); uncaught, the run ends with the
// call-stack limit, naming its value; and the host lives on.
func TestNativeRecursionLimit(t *testing.T) {
	checkLeaks(t)
	collectAfter(t)
	for _, tt := range nativeRecursionCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			caught := "let caught = 'no error'; try {\n" + tt.src + "\n} catch (e: any) { caught = e.name + ': ' + e.message }\n" +
				"const q: any = new Proxy({ x: 1 }, {}); return [caught, q.x];"
			// Caught, it recurses to the default depth.
			res := mustRun(t, caught, Options{})
			if want := `["RangeError: Maximum call stack size exceeded",1]`; string(res.Value) != want {
				t.Errorf("caught: value %s, want %s", res.Value, want)
			}
			e := mustFail(t, tt.src, Options{Limits: Limits{MaxStackDepth: 500}})
			if e.Kind != KindLimit || e.Name != "RangeError" || e.Message != overflowMessage(500) {
				t.Errorf("uncaught: %s: %s (kind %s), want the RangeError limit %q", e.Name, e.Message, e.Kind, overflowMessage(500))
			}
			var le *LimitError
			if !errors.As(e, &le) || !strings.HasPrefix(e.Stack, "RangeError: "+overflowMessage(500)) {
				t.Errorf("uncaught: %v is not a *LimitError, or its stack %q does not start with the limit's message", e, e.Stack)
			}
		})
	}
	checkNextRunWorks(t)
}

// TestNativeRecursionRoom checks that nesting below the limit works
// through the same paths: a chain of proxies, nested arrays stringified
// and flattened, in a run and in a session's runs.
func TestNativeRecursionRoom(t *testing.T) {
	t.Parallel()
	const src = `let deep: any = []; for (let i = 0; i < 5000; i++) deep = [deep];
let f: any = () => 7; for (let i = 0; i < 5000; i++) f = new Proxy(f, {});
return JSON.stringify(deep).length + deep.flat(Infinity).length + f();`
	if res := mustRun(t, src, Options{}); string(res.Value) != "10009" {
		t.Errorf("value %s, want 10009", res.Value)
	}
	s := NewSession()
	defer s.Close()
	for i := range 2 {
		res := s.Run(context.Background(), "{"+src+"}", Options{Limits: Limits{Timeout: testTimeout}})
		if res.Error != nil || string(res.Value) != "10009" {
			t.Errorf("session run %d: value %s, error %v", i+1, res.Value, res.Error)
		}
	}
}

// TestLimitsWithDefaults checks that every zero limit takes its default,
// that a set one stays, and that negative ones are refused, each named.
func TestLimitsWithDefaults(t *testing.T) {
	full := Limits{
		Timeout: DefaultTimeout, Memory: DefaultMemory, MaxStackDepth: DefaultMaxStackDepth,
		MaxOutputBytes: DefaultMaxOutputBytes, MaxSourceBytes: DefaultMaxSourceBytes, MaxNesting: DefaultMaxNesting,
		MaxCalls: DefaultMaxCalls, MaxConcurrentCalls: DefaultMaxConcurrentCalls, MaxResultBytes: DefaultMaxResultBytes,
		CancelGrace: DefaultCancelGrace,
	}
	set := full
	set.Timeout, set.MaxCalls = time.Second, 3
	tests := []struct {
		name    string
		in      Limits
		want    Limits
		wantErr string
	}{
		{"zero", Limits{}, full, ""},
		{"set", Limits{Timeout: time.Second, MaxCalls: 3}, set, ""},
		{"negative", Limits{Timeout: -time.Second, Memory: -1, MaxResultBytes: -2}, Limits{}, "negative limits: [Timeout is -1s Memory is -1 MaxResultBytes is -2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.WithDefaults()
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	res := Run(context.Background(), "return 1", Options{Limits: Limits{MaxCalls: -1}})
	if res.Error == nil || res.Error.Message != "runtime: invalid options: negative limits: [MaxCalls is -1]" {
		t.Errorf("Run with a negative limit: error %v, want the options refused", res.Error)
	}
}
