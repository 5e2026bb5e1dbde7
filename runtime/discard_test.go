package runtime

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestOutcomeDiscard checks that exactly one of an Outcome's Settle and
// Discard is called, whatever ends the run: Settle when the loop settles
// the promise, Discard when the outcome is a Fail or the run ends first.
func TestOutcomeDiscard(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		timeout   time.Duration
		// wantSettled and wantDiscarded count the calls of txn.
		wantSettled, wantDiscarded int32
	}{
		{name: "settled", src: `return await txn("now")`, wantSettled: 1},
		{name: "two settled", src: `return await Promise.all([txn("now"), txn("now")])`, wantSettled: 2},
		// As in Node, work the snippet did not await still finishes.
		{name: "an exception at the top level", src: `txn("now"); throw new Error("x")`, wantSettled: 1},
		{name: "process.exit", src: `txn("now"); process.exit(0)`, wantDiscarded: 1},
		{name: "the timeout while the work waits", src: `txn("late"); for (;;) {}`, timeout: 100 * time.Millisecond, wantDiscarded: 1},
		{name: "the timeout with the work done", src: `txn("now"); for (;;) {}`, timeout: 100 * time.Millisecond, wantDiscarded: 1},
		{name: "cancelled while the work waits", src: `await txn("cancel")`, wantDiscarded: 1},
		{name: "a Fail outcome", src: `await txn("fail")`, wantDiscarded: 1},
		{name: "one settled, one pending at the timeout", src: `await txn("now"); txn("late"); throw new Error("x")`, timeout: 100 * time.Millisecond, wantSettled: 1, wantDiscarded: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var settled, discarded atomic.Int32
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := Options{
				Limits: Limits{Timeout: tt.timeout},
				Setup: func(e *Env) error {
					return e.VM().Set("txn", func(c goja.FunctionCall) goja.Value {
						mode := c.Argument(0).String()
						return e.Go(func(wctx context.Context) Outcome {
							out := Outcome{
								Settle: func(vm *goja.Runtime) (goja.Value, bool) {
									settled.Add(1)
									return vm.ToValue("ok"), false
								},
								Discard: func() { discarded.Add(1) },
							}
							switch mode {
							case "late":
								<-wctx.Done()
							case "cancel":
								cancel()
								<-wctx.Done()
							case "fail":
								out.Fail = errors.New("the work failed the run")
							}
							return out
						})
					})
				},
			}
			Run(ctx, tt.src, opts)
			if s, d := settled.Load(), discarded.Load(); s != tt.wantSettled || d != tt.wantDiscarded {
				t.Fatalf("settled %d times and discarded %d, want %d and %d", s, d, tt.wantSettled, tt.wantDiscarded)
			}
		})
	}
}

// TestInterruptAfterAwait checks that an interrupt (the memory watchdog's)
// that stops the code a host call's result resumed ends the run as
// itself: settling the promise returns it, and it is not dropped (the run
// then ended as a top-level await that never settles).
func TestInterruptAfterAwait(t *testing.T) {
	opts := Options{Setup: tickStop(func(e *Env) {
		e.r.interrupt(NewLimitError("the run exceeded a limit the test set", nil))
	})}
	for _, src := range []string{`await tick(); stop(); for (;;) {}`, `try { await tick() } finally { stop(); for (;;) {} }`} {
		e := mustFail(t, src, opts)
		if e.Kind != KindLimit || e.Message != "the run exceeded a limit the test set" {
			t.Errorf("%s: error %s (kind %s), want the limit", src, e, e.Kind)
		}
	}
}

// TestCancelledWithACause checks that a run whose caller cancels its
// context with a cause ends as cancelled, unwrapping to that cause,
// wherever the interrupt lands: in a busy loop, or in the code a host
// call's result resumed.
func TestCancelledWithACause(t *testing.T) {
	closed := errors.New("closed by its owner")
	for _, src := range []string{`stop(); for (;;) {}`, `await tick(); stop(); for (;;) {}`} {
		ctx, cancel := context.WithCancelCause(context.Background())
		opts := Options{Setup: tickStop(func(*Env) { cancel(closed) })}
		res := Run(ctx, src, opts)
		switch e := res.Error; {
		case e == nil:
			t.Errorf("%s: the run succeeded, want a cancellation unwrapping to its cause", src)
		case e.Kind != KindCanceled || !errors.Is(e, closed):
			t.Errorf("%s: error %v (kind %v), want a cancellation unwrapping to its cause", src, e, e.Kind)
		}
	}
}

// tickStop is a Setup that defines tick(), whose promise a host call
// resolves, and stop(), which calls stop.
func tickStop(stop func(*Env)) func(*Env) error {
	return func(e *Env) error {
		vm := e.VM()
		if err := vm.Set("tick", func(goja.FunctionCall) goja.Value {
			return e.Go(func(context.Context) Outcome { return Outcome{} })
		}); err != nil {
			return err
		}
		return vm.Set("stop", func(goja.FunctionCall) goja.Value {
			stop(e)
			return goja.Undefined()
		})
	}
}
