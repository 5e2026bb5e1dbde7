package codeexec

import (
	"context"
	"errors"
	"time"

	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/toolcall"
)

// Observer watches a Runner's runs and their tool calls, for a host's
// metrics and traces (Options.Observer). It is the library's one hook for
// them, so that an embedder who wants neither links neither: the
// Prometheus metrics (package metrics) and the OpenTelemetry traces
// (package tracing) implement it, and so can an embedder's own code.
// Several are combined with Observers.
//
// Its methods, and those of the RunObservers it returns, are called
// concurrently (for different runs, and for the parallel calls of one
// run) and must not block: the run waits for them.
type Observer interface {
	// StartRun is called as a run starts (a Run, or a Run of a Session),
	// before anything of it runs, with the run's context. The context it
	// returns is the run's from then on, the one its tool calls' contexts
	// derive from (a tracer returns ctx with the run's span in it); the
	// RunObserver, when not nil, is told the run's calls and its end.
	StartRun(ctx context.Context, run RunInfo) (context.Context, RunObserver)
}

// WorkerObserver is an Observer that is also told each time a worker
// process is retired (Process isolation): Options.Observer may implement
// it. WorkerRetired is called with why, one of the Retired constants,
// from the goroutine that retired the worker, for each worker
// PoolStats.Retired counts; it must not block.
type WorkerObserver interface {
	Observer
	WorkerRetired(reason string)
}

// SessionObserver is an Observer that is also told each rebuild of a
// stored session (see Options.Store): Options.Observer may implement it.
// SessionRebuilt is called once a run's session was rebuilt from the
// store, with the number of stored runs it read, how long the rebuild
// took and whether it succeeded (a rebuild that fails starts a new
// session); it must not block.
type SessionObserver interface {
	Observer
	SessionRebuilt(runs int, d time.Duration, ok bool)
}

// Why a worker process was retired (WorkerObserver).
const (
	// RetiredUnclean: its run ended on a limit or an internal failure,
	// or left a tool call running.
	RetiredUnclean = isolation.RetiredUnclean
	// RetiredStopped: its run was stopped (a timeout, a cancellation)
	// and the worker killed.
	RetiredStopped = isolation.RetiredStopped
	// RetiredDied: the worker exited or broke the protocol on its own
	// (a crash, the kernel's memory limit).
	RetiredDied = isolation.RetiredDied
	// RetiredMaxRuns: it served PoolOptions.MaxRunsPerWorker runs.
	RetiredMaxRuns = isolation.RetiredMaxRuns
	// RetiredHeap: it held more than PoolOptions.MaxWorkerHeap.
	RetiredHeap = isolation.RetiredHeap
	// RetiredSurplus: more workers were idle than the pool keeps.
	RetiredSurplus = isolation.RetiredSurplus
	// RetiredClosed: the Runner was closed as its run ended.
	RetiredClosed = isolation.RetiredClosed
)

// onRetire is the pool's OnRetire of a Runner observed by o: its
// WorkerRetired, when it has one.
func onRetire(o Observer) func(string) {
	if wo, ok := o.(WorkerObserver); ok {
		return wo.WorkerRetired
	}
	return nil
}

// RunInfo describes a run as it starts.
type RunInfo struct {
	// Source is the snippet as it was given. It may hold anything a model
	// wrote, secrets included: an observer records it only by choice.
	Source string
	// Filename names the snippet (RunOptions.Filename; empty for the
	// default).
	Filename string
}

// RunObserver watches one run, for an Observer.
type RunObserver interface {
	// StartCall is called as a tool call of the run begins to run (once it
	// has a concurrency slot: a call refused before it ran is only in the
	// trace), on the goroutine that performs it, with the call's context.
	// The context it returns is the one the tool runs with (a tracer
	// returns ctx with the call's span, which an MCP tool source passes
	// on to its server); end, when not nil, is called once the tool
	// returned.
	StartCall(ctx context.Context, call CallInfo) (context.Context, func(CallEnd))
	// EndRun is called once, when the run ended, with its result (before
	// the run's end event).
	EndRun(res *Result)
}

// CallInfo describes a tool call as it begins to run.
type CallInfo struct {
	// ID is the call's id in the run's trace ("call_N").
	ID string
	// Tool is the name the snippet called: a registered tool's, or, when
	// Registered is false, a name the snippet made up (which a metric
	// must not take as a label value).
	Tool       string
	Registered bool
	// Params are the params as the tool receives them (which an observer
	// records only by choice, as RunInfo.Source).
	Params map[string]any
}

// CallEnd is how a tool call ended.
type CallEnd struct {
	// IsError is set when the call failed: an error result, or Err.
	IsError bool
	// Err is the Go error of a call that produced no result: an unknown
	// tool (a *registry.NotFoundError), the context's end, a panic.
	Err error
	// Result is what the tool returned (its content and details; an
	// error result's text says why it failed).
	Result registry.Result
	// Duration is how long the tool ran.
	Duration time.Duration
}

// ErrorType classifies a failed call in a few fixed words (the
// OpenTelemetry attribute error.type, a metric's label): "" when it
// succeeded, "cancelled" or "timeout" when its context ended,
// "tool_not_found", "tool_error" for an error result, "error" otherwise.
func (e CallEnd) ErrorType() string {
	switch {
	case !e.IsError:
		return ""
	case e.Err == nil:
		return "tool_error"
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(e.Err, context.Canceled):
		return "cancelled"
	}
	// Declared here, not above: its address escapes to errors.As, so it
	// is allocated where it is declared, and a call that succeeded should
	// not pay for it.
	var nf *registry.NotFoundError
	if errors.As(e.Err, &nf) {
		return "tool_not_found"
	}
	return "error"
}

// Outcome says how a run ended, in one of a few fixed words: what a
// metric counts runs by and a log line says.
type Outcome string

// The outcomes of a run.
const (
	// OutcomeOK: the run succeeded.
	OutcomeOK Outcome = "ok"
	// OutcomeError: the snippet did not compile or threw, or codeexec
	// failed (KindCompile, KindException, KindInternal).
	OutcomeError Outcome = "error"
	// OutcomeLimit: the run hit a limit (KindLimit; see Result.LimitKind).
	OutcomeLimit Outcome = "limit"
	// OutcomeCancelled: the caller's context ended the run, or the Runner
	// closed (KindCanceled).
	OutcomeCancelled Outcome = "cancelled"
	// OutcomePaused: the run stopped to wait for input, to be resumed.
	OutcomePaused Outcome = "paused"
)

// Outcome says how the run ended.
func (r *Result) Outcome() Outcome {
	switch {
	case r.Pause != nil:
		return OutcomePaused
	case r.Error == nil:
		return OutcomeOK
	}
	switch r.Error.Kind {
	case KindLimit:
		return OutcomeLimit
	case KindCanceled:
		return OutcomeCancelled
	}
	return OutcomeError
}

// LimitKind names the limit a run hit, in one of a few fixed words:
// "timeout", "memory", or "other" (the other limits: calls, output,
// stack, nesting, result size, sessions), and "" when it hit none.
func (r *Result) LimitKind() string {
	switch {
	case r.Error == nil || r.Error.Kind != KindLimit:
		return ""
	case errors.Is(r.Error, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(r.Error, ErrMemoryLimit):
		return "memory"
	}
	return "other"
}

// Observers combines observers into one that tells each of them, in
// order: the context one returns is the next one's. nil observers are
// skipped; Observers of none is nil.
func Observers(obs ...Observer) Observer {
	var all multiObserver
	for _, o := range obs {
		if o != nil {
			all = append(all, o)
		}
	}
	switch len(all) {
	case 0:
		return nil
	case 1:
		return all[0]
	}
	return all
}

type multiObserver []Observer

// WorkerRetired tells the observers that are WorkerObservers.
func (m multiObserver) WorkerRetired(reason string) {
	for _, o := range m {
		if wo, ok := o.(WorkerObserver); ok {
			wo.WorkerRetired(reason)
		}
	}
}

// SessionRebuilt tells the observers that are SessionObservers.
func (m multiObserver) SessionRebuilt(runs int, d time.Duration, ok bool) {
	for _, o := range m {
		if so, isSO := o.(SessionObserver); isSO {
			so.SessionRebuilt(runs, d, ok)
		}
	}
}

func (m multiObserver) StartRun(ctx context.Context, run RunInfo) (context.Context, RunObserver) {
	var runs multiRun
	for _, o := range m {
		var ro RunObserver
		if ctx, ro = o.StartRun(ctx, run); ro != nil {
			runs = append(runs, ro)
		}
	}
	if len(runs) == 0 {
		return ctx, nil
	}
	return ctx, runs
}

type multiRun []RunObserver

func (m multiRun) StartCall(ctx context.Context, call CallInfo) (context.Context, func(CallEnd)) {
	var ends []func(CallEnd)
	for _, ro := range m {
		var end func(CallEnd)
		if ctx, end = ro.StartCall(ctx, call); end != nil {
			ends = append(ends, end)
		}
	}
	return ctx, func(e CallEnd) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](e)
		}
	}
}

func (m multiRun) EndRun(res *Result) {
	for i := len(m) - 1; i >= 0; i-- {
		m[i].EndRun(res)
	}
}

// observeCalls adds ro's StartCall to hooks, for a run whose tools are
// infos.
func observeCalls(hooks toolcall.Hooks, ro RunObserver, infos []registry.Info) toolcall.Hooks {
	hooks.Around = func(ctx context.Context, id, name string, params map[string]any) (context.Context, func(registry.Result, error, time.Duration)) {
		registered := false
		for i := range infos {
			if infos[i].Name == name {
				registered = true
				break
			}
		}
		ctx, end := ro.StartCall(ctx, CallInfo{ID: id, Tool: name, Registered: registered, Params: params})
		if end == nil {
			return ctx, nil
		}
		return ctx, func(res registry.Result, err error, d time.Duration) {
			end(CallEnd{IsError: err != nil || res.IsError, Err: err, Result: res, Duration: d})
		}
	}
	return hooks
}

// IdleWorkers reports how many started worker processes wait for a run
// (Process isolation; 0 in process): a gauge for a host's metrics, beside
// PoolStats. Safe for concurrent use.
func (r *Runner) IdleWorkers() int {
	if r.pool == nil {
		return 0
	}
	return r.pool.Idle()
}
