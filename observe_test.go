package codeexec_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// obsRecorder is an Observer that writes down what it is told; its context
// key marks the contexts it returned, so that a tool can see it got the
// call's context.
type obsRecorder struct {
	mu    sync.Mutex
	lines []string
	ends  []*codeexec.Result
}

type obsKey struct{}

func (o *obsRecorder) add(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lines = append(o.lines, line)
}

func (o *obsRecorder) StartRun(ctx context.Context, run codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	o.add("run " + run.Source)
	return context.WithValue(ctx, obsKey{}, "run"), (*runObs)(o)
}

type runObs obsRecorder

func (o *runObs) StartCall(ctx context.Context, call codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	if ctx.Value(obsKey{}) != "run" {
		(*obsRecorder)(o).add("call without the run's context")
	}
	return ctx, func(e codeexec.CallEnd) {
		reg := "registered"
		if !call.Registered {
			reg = "unregistered"
		}
		(*obsRecorder)(o).add("call " + call.Tool + " " + reg + " " + e.ErrorType())
	}
}

func (o *runObs) EndRun(res *codeexec.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ends = append(o.ends, res)
	o.lines = append(o.lines, "end "+string(res.Outcome())+" "+res.LimitKind())
}

// TestObserver checks what an Observer is told of a run with parallel
// calls, a failing call, an unknown tool and a limit, in both modes, and
// that a Result's Outcome and LimitKind classify runs.
func TestObserver(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			o := &obsRecorder{}
			r := newRunner(t, reg, codeexec.Options{Observer: codeexec.Observers(nil, o), Limits: codeexec.Limits{MaxCalls: 5}}, m)
			ctx := context.Background()
			r.Run(ctx, `await Promise.all([echo("a"), echo("b")]); try { await fail() } catch {}; try { await callTool("nope", {}) } catch {}`, codeexec.RunOptions{})
			r.Run(ctx, `for (let i = 0; i < 9; i++) await echo("x")`, codeexec.RunOptions{})
			r.Run(ctx, `throw new Error("no")`, codeexec.RunOptions{})
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			r.Run(cctx, `1`, codeexec.RunOptions{})
			o.mu.Lock()
			defer o.mu.Unlock()
			got := strings.Join(o.lines, "\n")
			// The parallel echoes end in either order, as the same line.
			want := strings.Join([]string{
				`run await Promise.all([echo("a"), echo("b")]); try { await fail() } catch {}; try { await callTool("nope", {}) } catch {}`,
				"call echo registered ",
				"call echo registered ",
				"call fail registered tool_error",
				"call nope unregistered tool_not_found",
				"end ok ",
				`run for (let i = 0; i < 9; i++) await echo("x")`,
				"call echo registered ", "call echo registered ", "call echo registered ", "call echo registered ", "call echo registered ",
				"end limit other",
				`run throw new Error("no")`,
				"end error ",
				"run 1",
				"end cancelled ",
			}, "\n")
			if got != want {
				t.Errorf("observer was told:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestOutcomeTimeout checks the limit kind of a timeout and that a run's
// end reaches the observer before Run returns.
func TestOutcomeTimeout(t *testing.T) {
	t.Parallel()
	o := &obsRecorder{}
	r := newRunner(t, nil, codeexec.Options{Observer: o, Limits: codeexec.Limits{Timeout: 50 * time.Millisecond}}, codeexec.InProcess)
	res := r.Run(context.Background(), `while (true) {}`, codeexec.RunOptions{})
	o.mu.Lock()
	defer o.mu.Unlock()
	if res.Outcome() != codeexec.OutcomeLimit || res.LimitKind() != "timeout" || !slices.Contains(o.lines, "end limit timeout") {
		t.Errorf("outcome %q, limit %q, observer %q", res.Outcome(), res.LimitKind(), o.lines)
	}
}

// TestObserverSeesRefusedSessionRuns checks that a session run refused
// before it starts (its session is closed) reaches the observer too.
func TestObserverSeesRefusedSessionRuns(t *testing.T) {
	t.Parallel()
	o := &obsRecorder{}
	r := newRunner(t, nil, codeexec.Options{Observer: o}, codeexec.InProcess)
	s := r.NewSession()
	_ = s.Close()
	res := s.Run(context.Background(), `return 1`, codeexec.RunOptions{})
	o.mu.Lock()
	defer o.mu.Unlock()
	if res.Outcome() != codeexec.OutcomeCancelled || !slices.Contains(o.lines, "end cancelled ") {
		t.Errorf("outcome %q, observer %q", res.Outcome(), o.lines)
	}
}

// retireRecorder is a WorkerObserver that notes why workers were retired.
type retireRecorder struct {
	mu      sync.Mutex
	reasons []string
}

func (o *retireRecorder) StartRun(ctx context.Context, _ codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	return ctx, nil
}

func (o *retireRecorder) WorkerRetired(reason string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reasons = append(o.reasons, reason)
}

// TestWorkerRetired checks that a WorkerObserver is told why each worker
// PoolStats counts as retired was: after its last run, a limit, and a
// stop.
func TestWorkerRetired(t *testing.T) {
	t.Parallel()
	if len(modes(t)) < 2 {
		t.Skip("process isolation is Linux only")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := registry.New()
	if err := reg.Register(registry.Tool{
		Name: "cancel_run", Description: "Cancels the run's context.",
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{}}`),
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			cancel()
			return registry.TextResult("cancelled"), nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	o := &retireRecorder{}
	r := newRunner(t, reg, codeexec.Options{
		Observer: codeexec.Observers(o, &obsRecorder{}),
		Pool:     codeexec.PoolOptions{MaxRunsPerWorker: 2},
		Limits:   codeexec.Limits{MaxCalls: 1},
	}, codeexec.Process)
	bg := context.Background()
	for _, src := range []string{`return 1`, `return 2`, `await callTool("a", {}).catch(() => 0); await callTool("b", {})`} {
		r.Run(bg, src, codeexec.RunOptions{})
	}
	if res := r.Run(ctx, `await cancel_run({}); while (true) {}`, codeexec.RunOptions{}); res.Outcome() != codeexec.OutcomeCancelled {
		t.Fatalf("the cancelled run: %v", res.Error)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	want := []string{codeexec.RetiredMaxRuns, codeexec.RetiredUnclean, codeexec.RetiredStopped}
	if !slices.Equal(o.reasons, want) || r.PoolStats().Retired != int64(len(want)) {
		t.Errorf("retired for %q (PoolStats %+v), want %q", o.reasons, r.PoolStats(), want)
	}
}
