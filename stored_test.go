package codeexec_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/store"
)

// newStore returns a memory store closed when t ends, on the clock now
// (time.Now when nil).
func newStore(t *testing.T, now func() time.Time) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), "memory:", store.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// storedRunner returns a Runner of tools in mode whose sessions live in
// st, closed when t ends.
func storedRunner(t *testing.T, tools codeexec.Tools, mode codeexec.Isolation, st store.Store, limits codeexec.Limits) *codeexec.Runner {
	t.Helper()
	if limits.Timeout == 0 {
		limits.Timeout = time.Minute
	}
	r, err := codeexec.New(tools, codeexec.Options{Isolation: mode, StateKey: stateKey, Store: st, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// open opens session id of r.
func open(t *testing.T, r *codeexec.Runner, id, owner string) *codeexec.Session {
	t.Helper()
	s, err := r.OpenSession(codeexec.SessionOptions{ID: id, Owner: owner})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs src in s and checks its value (JSON) and that stderr has
// stderrHas ("" checks that it is empty).
func run(t *testing.T, s *codeexec.Session, src, value, stderrHas string) *codeexec.Result {
	t.Helper()
	res := s.Run(context.Background(), src, codeexec.RunOptions{Echo: true})
	if res.Error != nil || res.Pause != nil || string(res.Value) != value {
		t.Fatalf("%q: value %s, error %v, pause %v; want %s", src, res.Value, res.Error, res.Pause != nil, value)
	}
	if stderrHas == "" && res.Stderr != "" || !strings.Contains(res.Stderr, stderrHas) {
		t.Fatalf("%q: stderr %q, want %q", src, res.Stderr, stderrHas)
	}
	return res
}

// TestStoredSessionAcrossRunners checks, in both isolation modes, that a
// stored session goes on in another Runner (another process, as far as
// the session knows) with what earlier runs declared, the clock and
// randomness they read, and without calling a tool again; that a run of
// the session pauses for an approval, is resumed by the other Runner and
// recorded; and that the first Runner then rebuilds the session.
func TestStoredSessionAcrossRunners(t *testing.T) {
	t.Parallel()
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t, true)
			st := newStore(t, nil)
			a, b := storedRunner(t, nb.reg, mode, st, codeexec.Limits{}), storedRunner(t, nb.reg, mode, st, codeexec.Limits{})
			sa := a.NewSession()
			if sa.ID() == "" {
				t.Fatal("a session of a Runner with a store has no id")
			}
			run(t, sa, `const n = await peek(); const r = Math.random(); const at = Date.now(); let seen = [r]; n`, "0", "")
			sb := open(t, b, sa.ID(), "")
			run(t, sb, `seen.push(at); [n, seen.length, seen[0] === r]`, "[0,2,true]", "")
			run(t, sa, `seen.length`, "2", "")
			res := sb.Run(context.Background(), `globalThis.after = await note({text: "hi"}); after`, codeexec.RunOptions{Echo: true})
			p := mustPause(t, res, `note approval note: hi`)
			if got := nb.written(); len(got) != 0 {
				t.Fatalf("writes before the approval: %q", got)
			}
			res = a.Resume(context.Background(), p.State, map[string]codeexec.Response{"call_1": {Approved: true}}, codeexec.RunOptions{})
			if res.Error != nil || string(res.Value) != `"noted hi"` {
				t.Fatalf("resume: value %s, error %v", res.Value, res.Error)
			}
			run(t, sb, `[after, seen.length]`, `["noted hi",2]`, "")
			if w := nb.written(); len(w) != 1 {
				t.Errorf("writes %q, want the approved one once", w)
			}
			nb.mu.Lock()
			reads := nb.reads
			nb.mu.Unlock()
			if reads != 1 {
				t.Errorf("peek ran %d times, want once: a rebuild calls no tool", reads)
			}
			// The paused state resumes once: the session has moved on.
			res = b.Resume(context.Background(), p.State, map[string]codeexec.Response{"call_1": {Approved: true}}, codeexec.RunOptions{})
			if res.Error == nil || !strings.Contains(res.Error.Message, "the session moved on since the run paused") {
				t.Errorf("second resume: %v, want a refusal", res.Error)
			}
		})
	}
}

// TestStoredSessionGone checks what a run of a stored session says when
// the session cannot be gone on with: its owner is another, its tools
// changed, it expired, a run that hit a limit is left out of a rebuild.
func TestStoredSessionGone(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	st := newStore(t, clock)
	nb := newNotebook(t, true)
	a := storedRunner(t, nb.reg, codeexec.InProcess, st, codeexec.Limits{MaxCalls: 2})
	b := storedRunner(t, nb.reg, codeexec.InProcess, st, codeexec.Limits{MaxCalls: 2})

	owned, err := a.OpenSession(codeexec.SessionOptions{ID: "owned-by-alice", Owner: "alice", New: true})
	if err != nil {
		t.Fatal(err)
	}
	run(t, owned, `const x = 1; x`, "1", "")
	if res := open(t, b, "owned-by-alice", "bob").Run(context.Background(), `x`, codeexec.RunOptions{}); res.Error == nil || !strings.Contains(res.Error.Message, "belongs to another client") {
		t.Errorf("another owner's run: %v", res.Error)
	}

	s := a.NewSession()
	run(t, s, `globalThis.kept = 1; 1`, "1", "")
	if res := s.Run(context.Background(), `globalThis.partial = 1; for (;;) await peek()`, codeexec.RunOptions{}); res.Error == nil || res.Error.Kind != codeexec.KindLimit {
		t.Fatalf("limit run: %v", res.Error)
	}
	run(t, open(t, b, s.ID(), ""), `[typeof kept, typeof partial]`, `["number","undefined"]`, "the session was rebuilt from the store without run 2 (stopped: LimitError")

	other := newNotebook(t, true).reg
	extra, err := registry.NewTool("extra", "One more tool.", func(context.Context, struct{}) (int, error) { return 1, nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Register(extra); err != nil {
		t.Fatal(err)
	}
	c := storedRunner(t, other, codeexec.InProcess, st, codeexec.Limits{})
	run(t, open(t, c, s.ID(), ""), `typeof kept`, `"undefined"`, "the session was made with other tools than this runner has")

	e := a.NewSession()
	run(t, e, `const y = 1; y`, "1", "")
	mu.Lock()
	now = now.Add(codeexec.DefaultSessionIdle + time.Second)
	mu.Unlock()
	run(t, open(t, b, e.ID(), ""), `typeof y`, `"undefined"`, "the session is not in the store: it expired")
}

// TestStoredSessionConflict checks that of two runs of one session made
// at once in two Runners, the one recorded second fails with a
// SessionError, keeps its output, and leaves the session as the store
// has it.
func TestStoredSessionConflict(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	entered, release := make(chan struct{}), make(chan struct{})
	gate, err := registry.NewTool("gate", "Wait for the test.", func(context.Context, struct{}) (string, error) {
		close(entered)
		<-release
		return "open", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(gate); err != nil {
		t.Fatal(err)
	}
	st := newStore(t, nil)
	a, b := storedRunner(t, reg, codeexec.InProcess, st, codeexec.Limits{}), storedRunner(t, reg, codeexec.InProcess, st, codeexec.Limits{})
	sa := a.NewSession()
	run(t, sa, `const base = 1; base`, "1", "")
	done := make(chan *codeexec.Result)
	go func() {
		done <- sa.Run(context.Background(), `console.log("late"); globalThis.g = await gate(); g`, codeexec.RunOptions{Echo: true})
	}()
	<-entered
	run(t, open(t, b, sa.ID(), ""), `const y = base + 1; y`, "2", "")
	close(release)
	res := <-done
	if res.Error == nil || res.Error.Name != "SessionError" || !strings.Contains(res.Error.Message, "another run of this session was recorded first") || res.Stdout != "late\n" {
		t.Fatalf("the conflicting run: error %v, stdout %q", res.Error, res.Stdout)
	}
	run(t, sa, `[y, typeof g]`, `[2,"undefined"]`, "")
}

// TestStoredSessionEviction checks that at SessionLimits.Max live
// sessions a stored session takes the place of the least recently used
// one, which its next run rebuilds from the store.
func TestStoredSessionEviction(t *testing.T) {
	t.Parallel()
	st := newStore(t, nil)
	r, err := codeexec.New(nil, codeexec.Options{Store: st, Sessions: codeexec.SessionLimits{Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	s1, s2 := r.NewSession(), r.NewSession()
	run(t, s1, `const a = 1; a`, "1", "")
	run(t, s2, `const b = 2; b`, "2", "")
	run(t, s1, `[a, typeof b]`, `[1,"undefined"]`, "")
	run(t, s2, `[b, typeof a]`, `[2,"undefined"]`, "")
}
