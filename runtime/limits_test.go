package runtime

import (
	"bytes"
	"context"
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
			res := runSnippet(t, tt.src, Options{Timeout: 300 * time.Millisecond})
			d := time.Since(start)
			e := res.Error
			if e == nil || e.Kind != KindLimit {
				t.Fatalf("Error %v, want a limit error", e)
			}
			if !strings.Contains(e.Message, "timeout") || !strings.Contains(e.Message, "300ms") {
				t.Errorf("message %q does not name the 300ms timeout", e.Message)
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
			res := runSnippet(t, src, Options{Setup: h.setup, Timeout: 300 * time.Millisecond})
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
			for _, c := range res.ToolCalls {
				if c.Name == "block" && !c.IsError {
					t.Errorf("cancelled call %s not marked IsError", c.ID)
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
	res := runSnippet(t, `console.log("x"); await hold();`, Options{Setup: h.setup, Timeout: 200 * time.Millisecond, CancelGrace: 100 * time.Millisecond})
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
			res := Run(ctx, tt.src, Options{Setup: h.setup, Timeout: 20 * time.Second})
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
	res := Run(ctx, `for (;;) {}`, Options{Timeout: 20 * time.Second})
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
		{"caught is still a limit", "function r(n) { return r(n + 1) + 1 }\ntry { r(0) } catch (e) { console.log('caught') }", 300},
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
			start := time.Now()
			e := mustFail(t, tt.src, opts)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
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

// TestStackLimitErrorStack checks that the Stack of a stack-limit error
// starts with its own name, like every other error.
func TestStackLimitErrorStack(t *testing.T) {
	e := mustFail(t, "function r(): number { return r() }\nr();", Options{MaxStackDepth: 100})
	if !strings.HasPrefix(e.Stack, e.Name+": ") {
		t.Errorf("BUG: Stack %q does not start with %q (Name and Stack disagree)", e.Stack, e.Name+": ")
	}
}

// TestSourceLimit checks MaxSourceBytes, which is checked before the
// transform.
func TestSourceLimit(t *testing.T) {
	src := "return 1;" + strings.Repeat(" ", 92) // 101 bytes
	e := mustFail(t, src, Options{MaxSourceBytes: 100})
	if e.Kind != KindLimit || !strings.Contains(e.Message, "100") || !strings.Contains(e.Message, "101") {
		t.Errorf("error %s kind %s", e, e.Kind)
	}
	// Before the transform: a syntax error over the limit is a limit error.
	e = mustFail(t, "const = ;"+strings.Repeat(" ", 200), Options{MaxSourceBytes: 100})
	if e.Kind != KindLimit {
		t.Errorf("over-limit syntax error: kind %s, want limit", e.Kind)
	}
	// At the limit it runs.
	res := mustRun(t, src[:100], Options{MaxSourceBytes: 100})
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

var noticeRE = regexp.MustCompile(`^\[output truncated: the first (\d+) bytes were dropped[^\n]*\]\n`)

// TestOutputLimit checks MaxOutputBytes: the tail is kept whole-line, a
// notice first says how much was dropped, and Truncated is set; a live
// writer gets the head and one notice line.
func TestOutputLimit(t *testing.T) {
	checkLeaks(t)
	var live, liveErr bytes.Buffer
	res := mustRun(t, `for (let i = 0; i < 50; i++) { console.log("line " + String(i).padStart(2, "0")); console.error("err " + String(i).padStart(2, "0")) }
return "done";`, Options{MaxOutputBytes: 100, Stdout: &live, Stderr: &liveErr})
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
		m := noticeRE.FindStringSubmatch(c.got)
		if m == nil {
			t.Errorf("%s %q does not start with a truncation notice", c.name, c.got)
			continue
		}
		kept := c.got[len(m[0]):]
		dropped, _ := strconv.Atoi(m[1])
		if dropped+len(kept) != c.total {
			t.Errorf("%s: notice says %d dropped, %d kept, of %d printed", c.name, dropped, len(kept), c.total)
		}
		if len(kept) > 100 || !strings.HasPrefix(kept, c.prefix) || !strings.HasSuffix(kept, fmt.Sprintf("%s49\n", c.prefix)) {
			t.Errorf("%s kept %q, want whole last lines within 100 bytes", c.name, kept)
		}
		if len(kept) < 100-len(c.prefix)-3 {
			t.Errorf("%s kept only %d bytes of 100", c.name, len(kept))
		}
		// Live: the head, whole lines within the limit, then one notice.
		lines := strings.Split(strings.TrimSuffix(c.live, "\n"), "\n")
		notice := lines[len(lines)-1]
		head := strings.Join(lines[:len(lines)-1], "\n") + "\n"
		if !strings.HasPrefix(notice, "[") || !strings.Contains(notice, "100 bytes") || strings.Count(c.live, "[") != 1 {
			t.Errorf("%s live output %q does not end with one notice line", c.name, c.live)
		}
		if !strings.HasPrefix(head, c.prefix+"00\n") || len(head) > 100 || len(head) < 100-len(c.prefix)-3 {
			t.Errorf("%s live head %q", c.name, head)
		}
	}

	// Under the limit nothing is truncated and live output is complete.
	live.Reset()
	res = mustRun(t, `console.log("short")`, Options{MaxOutputBytes: 100, Stdout: &live})
	if res.Truncated || res.Stdout != "short\n" || live.String() != "short\n" {
		t.Errorf("Truncated %v Stdout %q live %q", res.Truncated, res.Stdout, live.String())
	}

	// One line longer than the limit keeps its tail.
	res = mustRun(t, `console.log("y" + "x".repeat(1000))`, Options{MaxOutputBytes: 100})
	m := noticeRE.FindStringSubmatch(res.Stdout)
	if m == nil || res.Stdout[len(m[0]):] != strings.Repeat("x", 99)+"\n" || m[1] != "902" {
		t.Errorf("long line: Stdout %q", res.Stdout)
	}
	checkNextRunWorks(t)
}

// TestOutputLimitKeepsWholeTail checks that when the kept tail already
// starts at a line boundary, no whole line is thrown away.
func TestOutputLimitKeepsWholeTail(t *testing.T) {
	res := mustRun(t, `console.log("aaaa"); console.log("bbbb"); console.log("cccc");`, Options{MaxOutputBytes: 10})
	m := noticeRE.FindStringSubmatch(res.Stdout)
	if m == nil {
		t.Fatalf("Stdout %q has no notice", res.Stdout)
	}
	if kept := res.Stdout[len(m[0]):]; kept != "bbbb\ncccc\n" || m[1] != "5" {
		t.Errorf("BUG: kept %q (notice: %s dropped), want \"bbbb\\ncccc\\n\" (5 dropped): the last 10 bytes are two whole lines", kept, m[1])
	}
}

// TestOutputLimitLiveExactFit checks that a live writer is told about
// dropped output even when the head filled the limit exactly.
func TestOutputLimitLiveExactFit(t *testing.T) {
	var live bytes.Buffer
	res := mustRun(t, `console.log("1234567"); console.log("more"); console.log("and more");`, Options{MaxOutputBytes: 8, Stdout: &live})
	if !res.Truncated {
		t.Errorf("Truncated not set")
	}
	if !strings.HasPrefix(live.String(), "1234567\n") || !strings.Contains(live.String(), "[output limit") {
		t.Errorf("BUG: live output %q has no notice after the head filled the 8-byte limit exactly; the reader cannot tell output was dropped", live.String())
	}
}

// TestOutputUnit checks the output buffer directly: totals stay exact over
// many compactions.
func TestOutputUnit(t *testing.T) {
	o := newOutput(nil, 50)
	total := 0
	for i := 0; i < 1000; i++ {
		s := fmt.Sprintf("%d\n", i)
		o.write(s)
		total += len(s)
	}
	got := o.finish()
	m := noticeRE.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no notice: %q", got)
	}
	kept := got[len(m[0]):]
	dropped, _ := strconv.Atoi(m[1])
	if dropped+len(kept) != total || len(kept) > 50 || !strings.HasSuffix(kept, "999\n") {
		t.Errorf("dropped %d + kept %d != %d, or kept %q", dropped, len(kept), total, kept)
	}
	if len(o.buf) > 100 {
		t.Errorf("buffer grew to %d bytes for a 50-byte limit", len(o.buf))
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
			res := runSnippet(t, src, Options{Timeout: 300 * time.Millisecond})
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
			if res.Error == nil || res.Error.Kind != KindLimit || !strings.Contains(res.Error.Message, "300ms") {
				t.Errorf("BUG: Error %+v, want the timeout as a limit error", res.Error)
			}
		})
	}
	checkNextRunWorks(t)
}
