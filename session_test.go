package codeexec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/runtime"
)

// sessionRun is one run of a session test and what it must give.
type sessionRun struct {
	src       string
	value     string // JSON of the return value, when errorHas is empty
	errorHas  string // a substring of the error's "Name: Message"
	stderrHas string // a substring of stderr; "" checks stderr is empty
	calls     int    // tool calls in the run's trace
}

func runInSession(t *testing.T, s *codeexec.Session, runs []sessionRun) {
	t.Helper()
	for i, sr := range runs {
		res := s.Run(context.Background(), sr.src, codeexec.RunOptions{})
		switch {
		case sr.errorHas != "":
			if res.Error == nil || !strings.Contains(res.Error.Error(), sr.errorHas) {
				t.Fatalf("run %d %q: error %v, want one with %q", i, sr.src, res.Error, sr.errorHas)
			}
		case res.Error != nil:
			t.Fatalf("run %d %q failed: %s", i, sr.src, res.Error.Report())
		case string(res.Value) != sr.value:
			t.Fatalf("run %d %q: value %s, want %s", i, sr.src, res.Value, sr.value)
		}
		if sr.stderrHas == "" && res.Stderr != "" || !strings.Contains(res.Stderr, sr.stderrHas) {
			t.Fatalf("run %d %q: stderr %q, want %q", i, sr.src, res.Stderr, sr.stderrHas)
		}
		if len(res.ToolCalls) != sr.calls {
			t.Fatalf("run %d %q: %d tool calls in the trace, want %d", i, sr.src, len(res.ToolCalls), sr.calls)
		}
	}
}

// TestSessionState checks, in both modes, that declarations carry across
// the runs of a session, each run with its own trace, and what a failed
// and a limit-hit run leave.
func TestSessionState(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	opts := codeexec.Options{Limits: codeexec.Limits{MaxCalls: 3}}
	forEachMode(t, reg, opts, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		runInSession(t, s, []sessionRun{
			{src: `const cfg = JSON.parse(await echo('{"port": 8080}')); let hits = 0; function hit() { return ++hits }`, calls: 1},
			{src: `hit(); return [cfg.port, hits, await echo("x")]`, value: `[8080,1,"x"]`, calls: 1},
			// An exception: what ran before it stays.
			{src: "const before = hit()\nthrow new Error('boom')\nconst after = 1", errorHas: "Error: boom"},
			{src: `return [before, hits, typeof after]`, value: `[2,2,"undefined"]`},
			// The tool-call limit: the same, and the next run counts its
			// own calls.
			{src: "const partial = 'kept'\nfor (;;) await echo('x')\nconst never = 1", errorHas: "LimitError", calls: 3},
			{src: `return [partial, typeof never, await echo("again")]`, value: `["kept","undefined","again"]`, calls: 1},
		})
	})
}

// TestSessionTimeout checks, in both modes, that a run that hits the
// timeout leaves the session usable, awaits included.
func TestSessionTimeout(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{Limits: codeexec.Limits{Timeout: 300 * time.Millisecond}}, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		runInSession(t, s, []sessionRun{
			{src: "globalThis.spun = true\nawait sleep(1)\nfor (;;) {}", errorHas: "timeout of 300ms", calls: 1},
			{src: `await sleep(1); return spun`, value: `true`, calls: 1},
		})
	})
}

// TestSessionsIsolated checks, in both modes, that concurrent sessions do
// not see each other's globals, nor does a plain run.
func TestSessionsIsolated(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Go(func() {
				s := r.NewSession()
				defer s.Close()
				runInSession(t, s, []sessionRun{
					{src: `return typeof who`, value: `"undefined"`},
					{src: fmt.Sprintf(`const who = %d; await echo("x")`, i), calls: 1},
					{src: `return who`, value: fmt.Sprint(i)},
				})
			})
		}
		wg.Wait()
		if res := r.Run(context.Background(), `return typeof who`, codeexec.RunOptions{}); string(res.Value) != `"undefined"` {
			t.Errorf("a plain run sees a session's global: %s %v", res.Value, res.Error)
		}
	})
}

// TestSessionExpiry checks, in both modes, that an idle session expires,
// and that its next run says so and starts afresh.
func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	opts := codeexec.Options{Sessions: codeexec.SessionLimits{Idle: 250 * time.Millisecond}}
	forEachMode(t, reg, opts, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		runInSession(t, s, []sessionRun{{src: `const kept = 1`}, {src: `return kept`, value: `1`}})
		time.Sleep(600 * time.Millisecond)
		runInSession(t, s, []sessionRun{
			{src: `return typeof kept`, value: `"undefined"`, stderrHas: "[codeexec session] the session expired (idle for more than 250ms); this run starts a new session"},
			{src: `const again = 2`},
			{src: `return again`, value: `2`},
		})
	})
}

// TestSessionLifetime checks, in both modes, that a session used again
// and again, never idle, still ends at its lifetime, and that the next run
// says why.
func TestSessionLifetime(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	opts := codeexec.Options{Sessions: codeexec.SessionLimits{Idle: 5 * time.Second, Lifetime: 300 * time.Millisecond}}
	forEachMode(t, reg, opts, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		start := time.Now()
		runInSession(t, s, []sessionRun{{src: `const kept = 1`}})
		for {
			res := s.Run(context.Background(), `return typeof kept`, codeexec.RunOptions{})
			if res.Error != nil {
				t.Fatal(res.Error.Report())
			}
			if res.Stderr == "" {
				if string(res.Value) != `"number"` {
					t.Fatalf("the state is gone without a notice: %s", res.Value)
				}
				if time.Since(start) > 10*time.Second {
					t.Fatal("the session never reached its lifetime")
				}
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if !strings.Contains(res.Stderr, "[codeexec session] the session expired (older than its lifetime of 300ms)") || string(res.Value) != `"undefined"` {
				t.Fatalf("after the lifetime: value %s, stderr %q", res.Value, res.Stderr)
			}
			if d := time.Since(start); d < 300*time.Millisecond {
				t.Fatalf("the session ended after %s, before its lifetime", d)
			}
			return
		}
	})
}

// TestSessionReset checks, in both modes, that Reset starts the next run
// afresh without a notice, and frees the session's place under the cap.
func TestSessionReset(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{Sessions: codeexec.SessionLimits{Max: 1}}, func(t *testing.T, r *codeexec.Runner) {
		s, other := r.NewSession(), r.NewSession()
		defer s.Close()
		defer other.Close()
		runInSession(t, s, []sessionRun{{src: `const a = 1`}})
		s.Reset()
		runInSession(t, other, []sessionRun{{src: `return 2`, value: `2`}})
		other.Reset()
		runInSession(t, s, []sessionRun{{src: `return typeof a`, value: `"undefined"`}})
	})
}

// TestSessionMax checks, in both modes, the cap on live sessions.
func TestSessionMax(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{Sessions: codeexec.SessionLimits{Max: 1}}, func(t *testing.T, r *codeexec.Runner) {
		s1, s2 := r.NewSession(), r.NewSession()
		defer s2.Close()
		runInSession(t, s1, []sessionRun{{src: `const a = 1`}})
		res := s2.Run(context.Background(), `return 1`, codeexec.RunOptions{})
		var limit *runtime.LimitError
		if res.Error == nil || res.Error.Kind != runtime.KindLimit || !errors.As(res.Error, &limit) || !strings.Contains(res.Error.Message, "1 live sessions") {
			t.Fatalf("a second live session: %v, want a LimitError", res.Error)
		}
		s1.Close()
		runInSession(t, s2, []sessionRun{{src: `return 2`, value: `2`}})
		res = s1.Run(context.Background(), `return 1`, codeexec.RunOptions{})
		if !errors.Is(res.Error, codeexec.ErrSessionClosed) {
			t.Fatalf("a run on a closed session: %v", res.Error)
		}
	})
}

// TestSessionWorkerKilled checks that a run that kills the session's
// worker ends the session with an error saying so, and that the next run
// starts a fresh one and says so.
func TestSessionWorkerKilled(t *testing.T) {
	t.Parallel()
	if goruntime.GOOS != "linux" {
		t.Skip("process isolation needs Linux")
	}
	reg, _ := testTools(t)
	r := newRunner(t, reg, codeexec.Options{Limits: codeexec.Limits{Memory: 128 << 20}}, codeexec.Process)
	s := r.NewSession()
	defer s.Close()
	runInSession(t, s, []sessionRun{
		{src: `const kept = 1`},
		{src: `const c = "x".repeat(1 << 20), a = []; for (;;) a.push(c + a.length)`, errorHas: "memory limit of 128 MiB; the session's worker ended with it, and the session's state is lost"},
		{src: `return typeof kept`, value: `"undefined"`, stderrHas: "[codeexec session] the previous session ended: its worker is gone"},
		{src: `const fresh = 1`},
		{src: `return fresh`, value: `1`},
	})
}

// TestSessionSetupFailure checks, in both modes, that a snippet that
// would make every later run fail to set up (a tool's name made a
// read-only global) ends its session, and that the next run starts a
// fresh one, with its tools, and says so.
func TestSessionSetupFailure(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		runInSession(t, s, []sessionRun{
			{src: `const kept = 1; Object.defineProperty(globalThis, "echo", {value: 1, writable: false, configurable: false})`},
			{src: `return kept`, errorHas: "the session has ended: a run could not be set up in it"},
			{src: `return [typeof kept, await echo("back")]`, value: `["undefined","back"]`, calls: 1, stderrHas: "[codeexec session] the previous session ended: a run could not be set up in it"},
		})
	})
}

// TestSessionLeaks checks that sessions leave nothing once closed: no
// worker process (the goroutines are checked by TestMain), and no memory
// held by the state of closed sessions in process.
func TestSessionLeaks(t *testing.T) {
	reg, _ := testTools(t)
	if proctest.Supported() {
		r := newRunner(t, reg, codeexec.Options{}, codeexec.Process)
		children := func() int {
			return len(proctest.Where(func(p proctest.Proc) bool { return p.PPID == os.Getpid() && p.Live() }))
		}
		before := children()
		var all []*codeexec.Session
		for range 3 {
			s := r.NewSession()
			runInSession(t, s, []sessionRun{{src: `const big = "x".repeat(1 << 20)`}})
			all = append(all, s)
		}
		if n := children(); n != before+3 {
			t.Fatalf("%d workers for 3 sessions, want 3", n-before)
		}
		for _, s := range all {
			_ = s.Close()
		}
		if n := children(); n != before {
			t.Errorf("%d workers left after the sessions closed", n-before)
		}
	}
	r := newRunner(t, reg, codeexec.Options{}, codeexec.InProcess)
	heap := func() uint64 {
		goruntime.GC()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for range 10 {
		s := r.NewSession()
		// 32 MiB, made by repeating a repeat: goja's repeat appends its
		// copies one at a time.
		runInSession(t, s, []sessionRun{{src: `const big = "x".repeat(1 << 12).repeat(1 << 13)`}})
		_ = s.Close()
	}
	if grew := int64(heap()) - int64(before); grew > 16<<20 {
		t.Errorf("the heap grew %d bytes over 10 closed sessions holding over 16 MiB each", grew)
	}
}

// TestSessionStaleTool checks, in both modes, that a tool function kept
// from an earlier run of a session refuses to run the tool, while the
// global works, so that no call escapes a run's accounting.
func TestSessionStaleTool(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		s := r.NewSession()
		defer s.Close()
		runInSession(t, s, []sessionRun{
			{src: `const keep = echo; const keepCall = callTool; await keep("now")`, calls: 1},
			{src: `await keep("later")`, errorHas: "this echo function belongs to an earlier run of the session"},
			{src: `await keepCall("echo", {text: "later"})`, errorHas: "belongs to an earlier run of the session"},
			{src: `return await echo("global")`, value: `"global"`, calls: 1},
		})
	})
}
