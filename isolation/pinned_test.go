//go:build linux

package isolation

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/runtime"
)

// sessionStep is one run of a Session and what it must give.
type sessionStep struct {
	src      string
	value    string // JSON of the return value, when errorHas is empty
	errorHas string // a substring of the error's "Name: Message"
	opts     runtime.Options
}

func runSessionSteps(t *testing.T, s *Session, tt *testTools, steps []sessionStep) {
	t.Helper()
	for i, st := range steps {
		res := s.Run(context.Background(), st.src, tt.reg, runOpts(st.opts))
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
	}
}

// TestSessionPinsOneWorker checks that a session's runs share one worker
// and its globals, with the tools bound in every run, and that a failed
// run inside the worker leaves the session as the runtime documents.
func TestSessionPinsOneWorker(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	s := p.NewSession()
	defer s.Close()
	runSessionSteps(t, s, tt, []sessionStep{
		{src: `const greeting = await echo("hi"); function twice(x) { return x + x }`},
		{src: `return twice(greeting) + await echo("!")`, value: `"hihi!"`},
		{src: "let n = 1\nthrow new Error('boom')\nconst never = 1", errorHas: "Error: boom"},
		{src: `return [n, typeof never]`, value: `[1,"undefined"]`},
		{src: "const spun = 1\nfor (;;) {}", errorHas: "timeout of 100ms", opts: runtime.Options{Limits: runtime.Limits{Timeout: 100 * time.Millisecond}}},
		{src: `return [spun, await echo("still")]`, value: `[1,"still"]`},
	})
	if n := len(ps.all()); n != 1 {
		t.Errorf("%d workers started for one session, want 1", n)
	}
	if st := p.Stats(); st.Runs != 6 || st.Reused != 0 {
		t.Errorf("Stats %+v after the session's 6 runs, want Runs 6 (a session's runs count) and Reused 0", st)
	}
}

// TestSessionCloseDuringRun checks that a session closed while a run is
// in progress has its worker killed and reaped once that run returns.
func TestSessionCloseDuringRun(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	s := p.NewSession()
	runSessionSteps(t, s, tt, []sessionStep{{src: `const a = 1`}})
	done := make(chan *runtime.Result, 1)
	go func() {
		done <- s.Run(context.Background(), `return await stuck()`, tt.reg, runOpts(runtime.Options{}))
	}()
	<-tt.stuckStarted
	s.Close()
	close(tt.release)
	if res := <-done; res.Error != nil || string(res.Value) != `"released"` {
		t.Fatalf("the run in progress at Close: %s, %v", res.Value, res.Error)
	}
	ps.checkGone(t)
}

// TestSessionWorkerDeath checks that a run that kills the worker (its
// memory limit) ends the session with an error saying so, and that the
// session refuses later runs.
func TestSessionWorkerDeath(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{MemoryLimit: 128 << 20})
	s := p.NewSession()
	defer s.Close()
	runSessionSteps(t, s, tt, []sessionStep{
		{src: `const kept = 1`},
		{src: `const c = "x".repeat(1 << 20), a = []; for (;;) a.push(c + a.length)`, errorHas: "the session's state is lost"},
	})
	if s.Ended() == nil {
		t.Fatal("Ended is nil after the worker died")
	}
	res := s.Run(context.Background(), `return kept`, tt.reg, runOpts(runtime.Options{}))
	if res.Error == nil || !errors.Is(res.Error, runtime.ErrSessionEnded) {
		t.Fatalf("run after the worker died: %v", res.Error)
	}
}

// TestSessionsIsolated checks that two sessions of one pool run in two
// workers that do not see each other's globals.
func TestSessionsIsolated(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	s1, s2 := p.NewSession(), p.NewSession()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runSessionSteps(t, s1, tt, []sessionStep{{src: `const who = "one"`}, {src: `return who`, value: `"one"`}})
	}()
	runSessionSteps(t, s2, tt, []sessionStep{{src: `return typeof who`, value: `"undefined"`}, {src: `const who = "two"`}})
	<-done
	runSessionSteps(t, s1, tt, []sessionStep{{src: `return who`, value: `"one"`}})
	s1.Close()
	s2.Close()
	// Close reaps the workers at once: nothing is left of either.
	ps.checkGone(t)
	if n := len(ps.all()); n != 2 {
		t.Errorf("%d workers for two sessions, want 2", n)
	}
	res := s1.Run(context.Background(), `return 1`, tt.reg, runOpts(runtime.Options{}))
	if res.Error == nil || !errors.Is(res.Error, runtime.ErrSessionEnded) {
		t.Fatalf("run on a closed session: %v", res.Error)
	}
}

// TestSessionPoolClose checks that closing the pool kills a session's
// idle pinned worker.
func TestSessionPoolClose(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	s := p.NewSession()
	runSessionSteps(t, s, tt, []sessionStep{{src: `const a = 1`}})
	p.Close()
	ps.checkGone(t)
	res := s.Run(context.Background(), `return 1`, tt.reg, runOpts(runtime.Options{}))
	if res.Error == nil {
		t.Fatal("a run after the pool closed succeeded")
	}
}
