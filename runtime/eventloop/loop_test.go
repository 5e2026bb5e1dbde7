package eventloop

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// funcCompletion is a Completion that calls its functions.
type funcCompletion struct {
	onSettle func() error
	onDrop   func()
}

func (c funcCompletion) Settle() error { return c.onSettle() }
func (c funcCompletion) Drop()         { c.onDrop() }

// settled and noFatal are Run's arguments for a run whose top level is
// done and that nothing ends early.
func settled() bool               { return true }
func noFatal() error              { return nil }
func pending() bool               { return false }
func background() context.Context { return context.Background() }

// TestLoopDropsTheRestOfABatch checks that work queued behind work that
// fails the loop is dropped, not lost, and that work enqueued after the
// loop closed is dropped at once.
func TestLoopDropsTheRestOfABatch(t *testing.T) {
	t.Parallel()
	l := New(nil)
	var ran, dropped []string
	enqueue := func(name string, err error) {
		l.Register()
		l.Enqueue(funcCompletion{func() error { ran = append(ran, name); return err }, func() { dropped = append(dropped, name) }})
	}
	enqueue("first", errors.New("fails the loop"))
	enqueue("second", nil)
	err := l.Run(background(), settled, noFatal)
	if err == nil || len(ran) != 1 || ran[0] != "first" || len(dropped) != 1 || dropped[0] != "second" {
		t.Fatalf("run = %v; ran %v, dropped %v", err, ran, dropped)
	}
	enqueue("late", nil)
	if len(ran) != 1 || len(dropped) != 2 || dropped[1] != "late" {
		t.Fatalf("after close: ran %v, dropped %v", ran, dropped)
	}
}

// TestPhases checks Node's order within a turn: the hook before each
// turn, due timers (by due time, then creation), completed host work,
// then immediates; an immediate queued by an immediate waits for the
// next turn, after the timers then due.
func TestPhases(t *testing.T) {
	t.Parallel()
	var got []string
	note := func(s string) func() error { return func() error { got = append(got, s); return nil } }
	ticks := 0
	l := New(func() (bool, error) {
		if ticks < 1 {
			ticks++
			got = append(got, "tick")
			return true, nil
		}
		return false, nil
	})
	l.AddImmediate(func() error {
		got = append(got, "immediate 1")
		l.AddImmediate(note("immediate 3"))
		l.AddTimer(0, false, note("timeout 3"))
		return nil
	})
	l.AddImmediate(note("immediate 2"))
	l.AddTimer(2*time.Millisecond, false, note("timeout 2"))
	l.AddTimer(0, false, note("timeout 1"))
	l.Register()
	l.Enqueue(funcCompletion{note("host work"), func() { t.Error("dropped") }})
	time.Sleep(3 * time.Millisecond) // both timeouts due at the first turn
	if err := l.Run(background(), settled, noFatal); err != nil {
		t.Fatal(err)
	}
	want := []string{"tick", "timeout 1", "timeout 2", "host work", "immediate 1", "immediate 2", "timeout 3", "immediate 3"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestWhatKeepsTheLoopAlive checks when Run returns: a ref'd timeout
// keeps a settled loop running, an unref'd one or an interval does not;
// a cleared timer and a cleared immediate never run; and a loop whose top
// level is not settled, with nothing left to settle it, ends with
// ErrNeverSettled.
func TestWhatKeepsTheLoopAlive(t *testing.T) {
	t.Parallel()
	fired := map[string]int{}
	count := func(s string) func() error { return func() error { fired[s]++; return nil } }
	l := New(nil)
	l.AddTimer(time.Millisecond, false, count("ref'd"))
	unref := l.AddTimer(time.Hour, false, count("unref'd"))
	l.SetRef(unref, false)
	if l.HasRef(unref) {
		t.Errorf("HasRef of an unref'd timeout is true")
	}
	l.AddTimer(time.Hour, true, count("interval"))
	l.ClearTimer(l.AddTimer(0, false, count("cleared")))
	l.ClearImmediate(l.AddImmediate(count("cleared immediate")))
	if err := l.Run(background(), settled, noFatal); err != nil {
		t.Fatal(err)
	}
	if fired["ref'd"] != 1 || len(fired) != 1 {
		t.Errorf("fired %v, want the ref'd timeout once", fired)
	}
	if err := New(nil).Run(background(), pending, noFatal); !errors.Is(err, ErrNeverSettled) {
		t.Errorf("an unsettled loop with nothing pending ended with %v, want ErrNeverSettled", err)
	}
}

// TestRunEnds checks that Run returns the first error of a callback, of
// fatal, or of the context.
func TestRunEnds(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	l := New(nil)
	l.AddTimer(0, false, func() error { return boom })
	if err := l.Run(background(), settled, noFatal); err != boom {
		t.Errorf("a failing timer: %v", err)
	}
	if err := New(nil).Run(background(), pending, func() error { return boom }); err != boom {
		t.Errorf("fatal: %v", err)
	}
	ctx, cancel := context.WithCancel(background())
	cancel()
	l = New(nil)
	l.AddTimer(time.Hour, false, noFatal)
	if err := l.Run(ctx, pending, noFatal); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}
