package codeexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/store"
	"github.com/codeexec/codeexec/toolcall"
)

// Defaults for the zero fields of Limits.
const (
	DefaultTimeout            = runtime.DefaultTimeout
	DefaultMemory             = runtime.DefaultMemory
	DefaultMaxStackDepth      = runtime.DefaultMaxStackDepth
	DefaultMaxOutputBytes     = runtime.DefaultMaxOutputBytes
	DefaultMaxSourceBytes     = runtime.DefaultMaxSourceBytes
	DefaultMaxNesting         = runtime.DefaultMaxNesting
	DefaultMaxCalls           = runtime.DefaultMaxCalls
	DefaultMaxConcurrentCalls = runtime.DefaultMaxConcurrentCalls
	DefaultMaxResultBytes     = runtime.DefaultMaxResultBytes
	DefaultCancelGrace        = runtime.DefaultCancelGrace
)

// ErrClosed is what the error of a Run on a closed Runner, or of a run
// that Close stopped, unwraps to (errors.Is). It is isolation.ErrClosed.
var ErrClosed = isolation.ErrClosed

// Isolation says where a Runner runs snippets.
type Isolation int

const (
	// InProcess runs each snippet in a fresh VM in this process: the
	// fastest, and as safe as the hardening of package runtime (the memory
	// limit is a watchdog on the heap, not a hard bound).
	InProcess Isolation = iota
	// Process runs each snippet in a worker process with a hard memory
	// limit (Linux only; the program must call Main first thing in main).
	// Tools still run in this process.
	Process
)

// String returns "none" or "process", the CLI's names for the modes.
func (i Isolation) String() string {
	switch i {
	case InProcess:
		return "none"
	case Process:
		return "process"
	}
	return fmt.Sprintf("Isolation(%d)", int(i))
}

// Limits bound one run, in both isolation modes: the engine's limits
// (time, memory, stack, output, source, nesting) and the tool calls'
// (count, concurrency, result size), which the Runner enforces itself. A
// zero field takes its default (the Default constants); a negative one is
// refused by New. It is declared once, in package runtime, and crosses to
// a worker as it is.
type Limits = runtime.Limits

// Defaults of PoolOptions.
const (
	// DefaultPoolSize is the PoolOptions.Size a long-lived host wants.
	DefaultPoolSize = isolation.DefaultPoolSize
	// DefaultMaxRunsPerWorker is the zero PoolOptions.MaxRunsPerWorker.
	DefaultMaxRunsPerWorker = isolation.DefaultMaxRunsPerWorker
)

// PoolOptions configure the worker processes of Process isolation.
type PoolOptions struct {
	// Size is how many started workers wait for a run (a long-lived host
	// wants DefaultPoolSize); zero starts each on demand.
	Size int
	// Executable is the worker program (it must call Main);
	// empty means this program.
	Executable string
	// Env is the workers' environment, as "KEY=value" strings; nil gives
	// a minimal one: only TZ, when the host has it, so that dates read the
	// same as in process. The host's other variables (API keys, tokens)
	// are not passed; tools run in the host, so they keep them.
	Env []string
	// StartTimeout bounds a worker's start (default 10 s).
	StartTimeout time.Duration
	// MaxRunsPerWorker is how many runs one worker serves, each in a
	// fresh VM, before it is replaced (default
	// DefaultMaxRunsPerWorker, 1000). A worker is retired sooner
	// after any run that hit a limit, was cancelled or crashed it. 1 gives
	// every run a worker of its own: the choice when runs come from
	// mutually untrusting tenants, since a worker's Go-level state (the
	// compile cache, locale data) outlives its runs. A session's worker
	// serves that session instead.
	MaxRunsPerWorker int
	// MaxWorkerHeap retires a worker that holds more than this many bytes
	// after a run (default Limits.Memory / 4), so that a worker whose
	// Go-level caches grew does not carry them into the next runs.
	MaxWorkerHeap int64
}

// Options configure a Runner.
type Options struct {
	// Isolation chooses where snippets run (default InProcess).
	Isolation Isolation
	// Limits bound every run.
	Limits Limits
	// AllowEval keeps eval and the Function constructors, which are
	// otherwise disabled.
	AllowEval bool
	// Process is what a snippet's process global shows: process.env holds
	// only Process.Env (never the host's environment), process.cwd()
	// returns Process.Cwd (give it the root the tools work in), and
	// process.argv is Process.Argv. The same in both isolation modes.
	Process runtime.ProcessOptions
	// Pool configures the workers of Process isolation; New refuses a
	// non-zero Pool with InProcess, where it would mean nothing.
	Pool PoolOptions
	// Sessions bound the Runner's sessions (see NewSession).
	Sessions SessionLimits
	// StateKey is the HMAC key that seals the state of a paused run (see
	// Pause): a Runner resumes only the states sealed with its key. Empty
	// uses a random key of this process, so that its states resume only
	// in this process; give processes that resume each other's runs one
	// key (at least 32 random bytes), kept secret.
	StateKey []byte
	// StateTTL is how long a paused run's state stays valid (default
	// DefaultStateTTL).
	StateTTL time.Duration
	// MaxStateBytes bounds a paused run's sealed state (default
	// DefaultMaxStateBytes): a run whose state would be larger ends with a
	// LimitError instead of pausing, and Resume refuses a larger one.
	MaxStateBytes int
	// Observer, when set, watches every run and tool call (metrics,
	// traces; see Observer).
	Observer Observer
	// Store, when set, keeps the Runner's sessions, so that they outlive
	// the process and any process with the same tools and store goes on
	// with them (see Session, OpenSession). The Runner does not close it.
	Store store.Store
}

// RunOptions configure one run.
type RunOptions struct {
	// Filename names the snippet in errors and stacks; its extension picks
	// the loader (.js, .mjs, .cjs: JavaScript; anything else, and the
	// default "snippet.ts": TypeScript).
	Filename string
	// Stdout and Stderr, when set, receive console output as it is
	// printed, bounded by Limits.MaxOutputBytes. It is in the Result
	// either way.
	Stdout, Stderr io.Writer
	// OnEvent, when set, receives the run's events as they happen (see
	// Event).
	OnEvent func(Event)
	// Echo, for a run of a Session, makes the value of the snippet's last
	// statement, when it is an expression statement, the run's value, as
	// a REPL echoes it (`1 + 1` gives 2). Run ignores it.
	Echo bool
}

// Runner runs snippets with a set of tools, in process or in worker
// processes, by one option. Run and Close are safe for concurrent use; a
// Runner serves any number of runs at once.
type Runner struct {
	tools Tools
	opts  Options
	pool  *isolation.Pool // Process isolation only

	mu     sync.Mutex
	closed bool
	active map[*context.CancelCauseFunc]struct{} // in-process runs
	wg     sync.WaitGroup

	sessions     map[*Session]struct{} // open sessions
	byID         map[string]*Session   // open sessions that have an id
	liveSessions int                   // sessions whose state exists

	// infos is the tools' description at version infosAt of a versioned
	// Caller, shared by the runs while the version stays (see toolInfos).
	infosMu sync.Mutex
	infos   []registry.Info
	infosAt uint64
	// digest is the digestOf of the list digestList (see toolsDigest).
	digestList []registry.Info
	digest     string
}

// versioned is a Caller whose Tools change only with its Version, as a
// *registry.Registry's do.
type versioned interface{ Version() uint64 }

// toolInfos describes the tools for a run. From a versioned Caller the
// list is taken once per version and shared by the runs, which only read
// it: a run would otherwise deep-copy every tool's schema and examples,
// which no run reads. It is the Runner's own copy, so sharing it exposes
// nothing of the registry's state. Version and the list are read under
// infosMu, so that runs starting at once after a change copy the tools
// once and the kept list never goes back to an older version.
func (r *Runner) toolInfos() []registry.Info {
	v, ok := r.tools.(versioned)
	if !ok {
		return r.tools.Tools()
	}
	r.infosMu.Lock()
	defer r.infosMu.Unlock()
	at := v.Version() // before Tools: the list is then at least this new
	if r.infos == nil || r.infosAt != at {
		r.infos, r.infosAt = r.tools.Tools(), at
		if r.infos == nil {
			r.infos = []registry.Info{} // nil means none taken yet
		}
	}
	return r.infos
}

// New returns a Runner for tools (a *registry.Registry, or nil, untyped
// or a nil *registry.Registry, for none).
// Snippet calls go through the registry's tool_call and tool_result hooks,
// so a permission gate registered there applies to code. New fails on a
// negative limit, on Pool options without Process isolation, and where
// Process isolation cannot run (not Linux, or called in a worker).
func New(tools Tools, opts Options) (*Runner, error) {
	limits, err := opts.Limits.WithDefaults()
	if err != nil {
		return nil, fmt.Errorf("codeexec: %w", err)
	}
	opts.Limits = limits
	if opts.Sessions, err = opts.Sessions.withDefaults(); err != nil {
		return nil, err
	}
	switch {
	case opts.StateTTL < 0 || opts.MaxStateBytes < 0:
		return nil, fmt.Errorf("codeexec: negative StateTTL (%s) or MaxStateBytes (%d)", opts.StateTTL, opts.MaxStateBytes)
	case opts.StateTTL == 0:
		opts.StateTTL = DefaultStateTTL
	}
	if opts.MaxStateBytes == 0 {
		opts.MaxStateBytes = DefaultMaxStateBytes
	}
	if reg, ok := tools.(*registry.Registry); tools == nil || ok && reg == nil {
		// A nil *registry.Registry in the interface is "none" too.
		tools = registry.New()
	}
	r := &Runner{tools: tools, opts: opts, active: map[*context.CancelCauseFunc]struct{}{}}
	switch opts.Isolation {
	case InProcess:
		if !reflect.ValueOf(opts.Pool).IsZero() {
			return nil, errors.New("codeexec: Pool options apply only to Process isolation")
		}
	case Process:
		r.pool, err = isolation.NewPool(isolation.Options{
			Executable: opts.Pool.Executable, Env: opts.Pool.Env, PoolSize: opts.Pool.Size,
			StartTimeout: opts.Pool.StartTimeout, MemoryLimit: limits.Memory,
			MaxRunsPerWorker: opts.Pool.MaxRunsPerWorker, MaxWorkerHeap: opts.Pool.MaxWorkerHeap,
			OnRetire: onRetire(opts.Observer),
		})
		if err != nil {
			return nil, fmt.Errorf("codeexec: %w", err)
		}
	default:
		return nil, fmt.Errorf("codeexec: unknown isolation %d", int(opts.Isolation))
	}
	return r, nil
}

// Prestart starts a worker for the next run, so that a one-shot
// program's worker starts while it sets itself up (Process isolation; in
// process there is nothing to start). It returns once the worker's
// process is launched (a fork and exec); the worker starts in the
// background, and the next run sends it its request without waiting for
// it to be ready.
func (r *Runner) Prestart() {
	if r.pool != nil {
		r.pool.Prestart()
	}
}

// PoolStats returns what the Runner's worker processes did so far
// (workers started, runs, runs on a reused worker, workers retired): a
// host's metrics. It is the zero Stats in process. Safe for concurrent
// use.
func (r *Runner) PoolStats() PoolStats {
	if r.pool == nil {
		return PoolStats{}
	}
	return r.pool.Stats()
}

// Run runs source and reports what happened. It never returns nil: compile
// errors, exceptions, limits and cancellation of ctx are described by
// Result.Error, whose Unwrap gives the Go cause where there is one
// (context.Canceled, ErrClosed, a *runtime.LimitError). Tool calls are
// accounted for here in both modes: the call and concurrency limits, the
// trace in Result.ToolCalls (in the order the snippet made the calls) and
// the tool events. When Run returns, no tool call of the run is still
// running (one that ignores its context is abandoned after CancelGrace)
// and every event has been delivered, the end event last.
//
// Every result a tool returned with a finalizer (registry.Result.
// OnDelivered) has been finalized exactly once when Run returns: with
// true if the snippet got it (before the snippet's next statement ran,
// and so before any later call), with false if anything kept it from the
// snippet (a hook, the result limit, the worker protocol, a conversion,
// the run's end); an abandoned call's result is finalized with false
// when the call returns. So a stateful tool that commits in its finalizer
// changes nothing on a call that failed, in both modes.
func (r *Runner) Run(ctx context.Context, source string, opts RunOptions) *Result {
	return r.execute(ctx, source, opts, nil, nil)
}

// execute is Run, or Resume of st with responses when st is not nil.
func (r *Runner) execute(ctx context.Context, source string, opts RunOptions, st *runState, responses map[string]Response) *Result {
	plan := runPlan{pausable: true, resume: st, responses: responses}
	return r.run(ctx, source, opts, plan, func(ctx context.Context, c *toolcall.Dispatcher, eng runtime.Options) *runtime.Result {
		if r.pool != nil {
			return r.pool.Run(ctx, source, c, eng)
		}
		return r.runInProcess(ctx, func(ctx context.Context) *runtime.Result { return runtime.Run(ctx, source, eng) })
	})
}

// runPlan is what a run is besides its source and options.
type runPlan struct {
	// notice, when set, is printed to the run's stderr first, as a line
	// of its own.
	notice string
	// pausable: a call that needs input pauses the run (see Pause).
	pausable bool
	// resume is the state of the paused run this one resumes, answered by
	// responses.
	resume    *runState
	responses map[string]Response
	// session is the stored session the run is of, for its pause's state.
	session *sessionRef
	// after, when set, sees the run's calls and engine result once it
	// ended, and may change its Result, before the end is reported.
	after func(c *toolcall.Dispatcher, out *runtime.Result, res *Result)
}

// run is Run with the engine's part given by exec, which gets the run's
// call accounting and engine options (the tool bindings set for in
// process), as plan says.
func (r *Runner) run(ctx context.Context, source string, opts RunOptions, plan runPlan, exec func(ctx context.Context, c *toolcall.Dispatcher, eng runtime.Options) *runtime.Result) *Result {
	start := time.Now()
	ev := newEmitter(opts.OnEvent)
	infos, hooks := r.toolInfos(), ev.callHooks()
	var ro RunObserver
	if r.opts.Observer != nil {
		ctx, ro = r.opts.Observer.StartRun(ctx, RunInfo{Source: source, Filename: opts.Filename})
		if ro != nil {
			hooks = observeCalls(hooks, ro, infos)
		}
	}
	cfg := toolcall.Config{
		Tools: r.tools, Infos: infos, Limits: r.callLimits(), Hooks: hooks,
		Pausable: plan.pausable,
	}
	var skip [2]int64
	eng := runtime.Options{
		Limits:    r.opts.Limits,
		Filename:  opts.Filename,
		AllowEval: r.opts.AllowEval,
		Process:   r.opts.Process,
		Echo:      opts.Echo,
	}
	if st := plan.resume; st != nil {
		cfg.Log, cfg.Answers, eng.Sources, skip = st.Log, plan.responses, st.Sources, st.Printed
	}
	c := toolcall.NewDispatcher(cfg)
	printed := [2]*countingWriter{}
	for i, w := range []*io.Writer{&eng.Stdout, &eng.Stderr} {
		live := ev.writer([]Stream{Stdout, Stderr}[i], []io.Writer{opts.Stdout, opts.Stderr}[i])
		if live == nil {
			continue
		}
		printed[i] = &countingWriter{w: &skipWriter{w: live, skip: skip[i]}}
		*w = printed[i]
	}
	if plan.notice != "" && eng.Stderr != nil {
		_, _ = io.WriteString(eng.Stderr, plan.notice+"\n")
	}
	if r.pool == nil {
		eng.Setup = bindings.New(c).Setup
	}
	out := exec(ctx, c, eng)
	res := newResult(out, c.Trace())
	switch {
	case c.Paused():
		var counts [2]int64
		for i, p := range printed {
			if p != nil {
				counts[i] = p.n
			}
		}
		res.Error = nil
		pause, err := r.pauseOf(source, opts, plan.session, infos, c, out, counts)
		if err != nil {
			var limit *runtime.LimitError
			if errors.As(err, &limit) {
				res.Error = (&runtime.Error{Name: "LimitError", Message: limit.Message, Stack: "LimitError: " + limit.Message, Kind: runtime.KindLimit}).WithCause(limit)
			} else {
				res.Error = (&runtime.Error{Name: "InternalError", Message: err.Error(), Kind: runtime.KindInternal}).WithCause(err)
			}
		}
		res.Pause = pause
	case c.Diverged() != nil:
		d := c.Diverged()
		res.Error = (&runtime.Error{Name: "ReplayError", Message: d.Error(), Stack: "ReplayError: " + d.Error(), Kind: runtime.KindInternal}).WithCause(d)
	}
	if plan.after != nil {
		plan.after(c, out, res)
	}
	if plan.notice != "" {
		res.Stderr = plan.notice + "\n" + res.Stderr
	}
	res.Duration = time.Since(start)
	if ro != nil {
		ro.EndRun(res)
	}
	ev.emit(Event{Kind: EventEnd, Result: res})
	return res
}

// refused is the Result of a run refused before it started, with error
// e: still a run to the observer (a metric of refused runs) and to the
// events.
func (r *Runner) refused(ctx context.Context, source string, opts RunOptions, e *runtime.Error) *Result {
	res := &Result{Error: e}
	if o := r.opts.Observer; o != nil {
		if _, ro := o.StartRun(ctx, RunInfo{Source: source, Filename: opts.Filename}); ro != nil {
			ro.EndRun(res)
		}
	}
	if opts.OnEvent != nil {
		opts.OnEvent(Event{Kind: EventEnd, Result: res})
	}
	return res
}

// frameResultBytes is the most a tool result may take as JSON to fit one
// frame to an isolated worker, less room for the message around it. A
// run's result limit is the smaller of it and Limits.MaxResultBytes, in
// both isolation modes, so that a result is refused the same way in
// process as in a worker: by the registry (registry.CallOptions.
// MaxResultBytes), and by a stateful tool before it changes anything, so
// that a result too large to deliver is a failed call that changed
// nothing.
const frameResultBytes = isolation.MaxFrameSize - 64<<10

// callLimits are the limits of a run's tool calls: the Runner's, with a
// result limit no larger than frameResultBytes.
func (r *Runner) callLimits() runtime.Limits {
	l := r.opts.Limits
	l.MaxResultBytes = min(l.MaxResultBytes, frameResultBytes)
	return l
}

// runInProcess runs exec in this process, as a run that Close can stop.
func (r *Runner) runInProcess(ctx context.Context, exec func(ctx context.Context) *runtime.Result) *runtime.Result {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return &runtime.Result{Error: runnerClosed()}
	}
	r.active[&cancel] = struct{}{}
	r.wg.Add(1)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.active, &cancel)
		r.mu.Unlock()
		r.wg.Done()
	}()
	return exec(ctx)
}

// Limits returns the limits every run of r has, defaults filled in: what a
// prompt should state (promptgen.Options.Limits).
func (r *Runner) Limits() Limits { return r.opts.Limits }

// SessionLimits returns the limits of r's sessions, defaults filled in.
func (r *Runner) SessionLimits() SessionLimits { return r.opts.Sessions }

// Close stops the runs in progress (they end with a CanceledError that
// unwraps to ErrClosed), waits until they have returned, closes the
// sessions and releases the workers. Run after Close fails the same way.
// Close is idempotent and always returns nil.
func (r *Runner) Close() error {
	r.mu.Lock()
	r.closed = true
	for cancel := range r.active {
		(*cancel)(ErrClosed)
	}
	r.mu.Unlock()
	r.wg.Wait()
	if r.pool != nil {
		_ = r.pool.Close()
	}
	r.closeSessions()
	return nil
}

// runnerClosed is the error of a run refused because its Runner is closed.
func runnerClosed() *runtime.Error {
	return (&runtime.Error{Name: "CanceledError", Message: "the run was not started: its runner is closed", Kind: runtime.KindCanceled}).WithCause(ErrClosed)
}

// Main turns the process into an isolated worker when a Runner with
// Process isolation started it as one: it serves the runs its Runner sends
// and exits, never returning. In any other process it returns at once.
// A program that uses Process isolation calls it first thing in main,
// before flags are parsed or anything is printed:
//
//	func main() {
//		codeexec.Main()
//		// the program as usual
//	}
func Main() { isolation.Main() }

// PoolStats is what a Runner's worker processes did so far: workers
// started, runs, runs on a reused worker, workers retired.
type PoolStats = isolation.Stats
