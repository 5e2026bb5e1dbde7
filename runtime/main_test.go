package runtime

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/goleak"
)

// ignoreRegexpClock ignores regexp2's clock goroutine, which the match
// timeout (RegexpTimeout) starts and which stops by itself once no match is
// pending; it belongs to the process, not to a run.
var ignoreRegexpClock = goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock")

// TestMain fails the package if any test leaves a goroutine behind: every
// run must stop its timers and wait for (or abandon and later release) its
// host work. Regular expressions time out after testRegexpTimeout here.
func TestMain(m *testing.M) {
	regexpTimeout = testRegexpTimeout
	goleak.VerifyTestMain(m, ignoreRegexpClock)
}

// testRegexpTimeout is the match timeout of these tests' regular
// expressions: a catastrophic pattern spins a CPU until it fires, and the
// tests check that it does, which the hostile suite checks at the
// product's RegexpTimeout.
const testRegexpTimeout = 100 * time.Millisecond

// testTimeout bounds every run in these tests that does not set its own, so
// that a runtime bug shows up as a failed test rather than a hung one: a
// liveness bound, generous, since the heavier runs (20,000 suspended async
// calls) took over 10 s under the race detector on a loaded machine.
const testTimeout = 2 * time.Minute

// spinTimeout is the timeout of runs that spin, from their first
// statements, until it fires: the tests check what ends them, not when,
// and each millisecond of it is a CPU spinning.
const spinTimeout = 100 * time.Millisecond

// runSnippet runs src with opts, defaulting the timeout to testTimeout.
func runSnippet(t *testing.T, src string, opts Options) *Result {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = testTimeout
	}
	res := Run(context.Background(), src, opts)
	if res == nil {
		t.Fatalf("Run returned nil for %q", src)
	}
	return res
}

// mustRun runs src and fails the test if the run failed.
func mustRun(t *testing.T, src string, opts Options) *Result {
	t.Helper()
	res := runSnippet(t, src, opts)
	if res.Error != nil {
		t.Fatalf("run of %q failed: %s\nreport:\n%s", src, res.Error, res.Error.Report())
	}
	return res
}

// mustFail runs src and fails the test if the run succeeded.
func mustFail(t *testing.T, src string, opts Options) *Error {
	t.Helper()
	res := runSnippet(t, src, opts)
	if res.Error == nil {
		t.Fatalf("run of %q succeeded (value %s, stdout %q), want an error", src, res.Value, res.Stdout)
	}
	return res.Error
}

// host installs test host functions through Options.Setup and records what
// the host work saw.
//
//	sleep(ms, value?)  resolves with value (default "slept <ms>") after ms
//	fail(msg)          rejects with an Error carrying msg after a moment
//	soft(msg)          resolves with msg but marks the call IsError
//	boom()             panics inside its work
//	block()            waits until its context is done, then rejects
//	hold()             waits until the test closes release (ignores ctx)
type host struct {
	running    atomic.Int32
	maxRunning atomic.Int32
	started    atomic.Int32
	finished   atomic.Int32

	mu        sync.Mutex
	causes    []error // context.Cause seen by block()
	blockedCh chan struct{}
	release   chan struct{}
	holdDone  chan struct{}
	env       *Env
}

func newHost() *host {
	return &host{
		blockedCh: make(chan struct{}, 100),
		release:   make(chan struct{}),
		holdDone:  make(chan struct{}, 100),
	}
}

func (h *host) enter() {
	h.started.Add(1)
	n := h.running.Add(1)
	for {
		m := h.maxRunning.Load()
		if n <= m || h.maxRunning.CompareAndSwap(m, n) {
			break
		}
	}
}

func (h *host) leave() {
	h.running.Add(-1)
	h.finished.Add(1)
}

func resolveWith(v any) Outcome {
	return Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) { return vm.ToValue(v), false }}
}

func rejectWithError(msg string) Outcome {
	return Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) { return NewError(vm, "Error", msg), true }}
}

func (h *host) setup(env *Env) error {
	h.mu.Lock()
	h.env = env
	h.mu.Unlock()
	vm := env.VM()
	def := func(name string, fn func(goja.FunctionCall) goja.Value) {
		if err := vm.Set(name, fn); err != nil {
			panic(err)
		}
	}
	def("sleep", func(c goja.FunctionCall) goja.Value {
		ms := c.Argument(0).ToInteger()
		var val any = fmt.Sprintf("slept %d", ms)
		if a := c.Argument(1); !goja.IsUndefined(a) {
			val = a.Export()
		}
		return env.Go(func(ctx context.Context) Outcome {
			h.enter()
			defer h.leave()
			t := time.NewTimer(time.Duration(ms) * time.Millisecond)
			defer t.Stop()
			select {
			case <-t.C:
				return resolveWith(val)
			case <-ctx.Done():
				return rejectWithError("sleep cancelled")
			}
		})
	})
	def("fail", func(c goja.FunctionCall) goja.Value {
		msg := c.Argument(0).String()
		return env.Go(func(ctx context.Context) Outcome {
			h.enter()
			defer h.leave()
			time.Sleep(time.Millisecond)
			return rejectWithError(msg)
		})
	})
	def("boom", func(c goja.FunctionCall) goja.Value {
		return env.Go(func(ctx context.Context) Outcome {
			panic("kaboom")
		})
	})
	def("block", func(c goja.FunctionCall) goja.Value {
		return env.Go(func(ctx context.Context) Outcome {
			h.enter()
			defer h.leave()
			h.blockedCh <- struct{}{}
			<-ctx.Done()
			h.mu.Lock()
			h.causes = append(h.causes, context.Cause(ctx))
			h.mu.Unlock()
			return rejectWithError("block cancelled")
		})
	})
	def("hold", func(c goja.FunctionCall) goja.Value {
		return env.Go(func(ctx context.Context) Outcome {
			h.enter()
			defer h.leave()
			defer func() { h.holdDone <- struct{}{} }()
			<-h.release
			return resolveWith("held")
		})
	})
	def("limit", func(c goja.FunctionCall) goja.Value {
		msg := c.Argument(0).String()
		return env.Go(func(ctx context.Context) Outcome {
			return Outcome{Fail: NewLimitError(msg, nil)}
		})
	})
	return nil
}

func (h *host) cancelCauses() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.causes...)
}

// isLimitTimeout reports whether err is a timeout cause.
func isLimitTimeout(err error) bool {
	var l *LimitError
	return errors.As(err, &l) && strings.Contains(l.Message, "timeout")
}

// checkLeaks fails t if goroutines are left behind when it ends. TestMain's
// check only runs when every test passed; this one runs regardless.
func checkLeaks(t *testing.T) {
	t.Helper()
	t.Cleanup(func() { goleak.VerifyNone(t, ignoreRegexpClock) })
}

// collectAfter collects the garbage when t ends, for a test that leaves
// much of it: the memory limit of a run counts from the heap the last
// collection found live, and a stale finding that counts this test's
// garbage would let a later test's run grow that much more before its
// limit fires.
func collectAfter(t *testing.T) {
	t.Cleanup(goruntime.GC)
}
