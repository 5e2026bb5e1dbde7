package isolation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/codeexec/codeexec/internal/workerproc"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Defaults for the zero values of Options.
const (
	// DefaultMemoryLimit is a worker's memory limit.
	DefaultMemoryLimit = runtime.DefaultMemory
	// DefaultStartTimeout bounds how long a worker may take to report ready.
	DefaultStartTimeout = 10 * time.Second
	// DefaultPoolSize is a good PoolSize for a long-lived host; the zero
	// PoolSize starts every worker on demand.
	DefaultPoolSize = 2
	// DefaultMaxRunsPerWorker is how many runs a worker serves before it
	// is replaced, unless a run retires it sooner. The start of a worker
	// costs some 13 ms of CPU, a hundred runs of a repeated snippet (which
	// the worker's compile cache serves in about 0.1 ms): at a thousand
	// runs it is a tenth of them. BenchmarkRunsPerWorker: back to back,
	// the mean run at 100 runs per worker is 1.1 to 1.25 times that at
	// 1000.
	DefaultMaxRunsPerWorker = 1000
	// DefaultWorkerHeapFraction is the fraction of the memory limit that
	// is the default MaxWorkerHeap: a worker that holds a quarter of its
	// limit after a run is replaced.
	DefaultWorkerHeapFraction = 4
)

// KillGrace is how long past a run's timeout the parent waits for the
// worker to stop by itself before it kills it. The worker's own timeout
// normally ends the run first; the kill is for native code that ignores
// the interrupt.
const KillGrace = time.Second

// minMemoryLimit is the smallest memory limit that leaves room for the
// engine itself.
const minMemoryLimit = 32 << 20

// closedMessage ends the runs that Close stops.
const closedMessage = "the run was cancelled: its pool was closed"

// ErrClosed is the error of a Run on a closed Pool.
var ErrClosed = errors.New("isolation: the pool is closed")

// Options configure a Pool.
type Options struct {
	// Executable is the worker program; it must call Main (or IsWorker and
	// ServeWorker) first thing in main. Empty means os.Executable(): the
	// host re-executes itself.
	Executable string
	// Env is the workers' environment, as "KEY=value" strings. nil gives a
	// minimal one: only TZ, when the host has it, so that dates read the
	// same as in process. The host's other variables (API keys, tokens)
	// are not passed; tools run in the host, so they keep them. The
	// variables that make the process a worker are added to Env.
	Env []string
	// MemoryLimit is each worker's memory limit in bytes (default 512 MiB):
	// the address space it may map beyond what the Go runtime reserved at
	// its start (and 64 MiB for the stacks of threads the runtime starts
	// later), enforced by the kernel (RLIMIT_AS). A run whose live heap
	// passes half of it (the rest is the collector's room), or that needs
	// more than the cap at once, ends with "the run exceeded its memory
	// limit of 512 MiB" (an error that unwraps to runtime.ErrMemoryLimit).
	MemoryLimit int64
	// PoolSize is how many started workers are kept waiting for a run,
	// fresh ones and ones that served runs: a run takes one, and unless it
	// gives it back a replacement starts in the background. Zero starts
	// each worker on demand (right for a one-shot CLI), and keeps at most
	// one that served a run; long-lived hosts want DefaultPoolSize, or as
	// many as the runs they expect at once (runs beyond the idle workers
	// start theirs on demand, and the pool keeps no more than PoolSize of
	// them afterwards).
	PoolSize int
	// StartTimeout bounds a worker's start, until it reports ready
	// (default 10 s).
	StartTimeout time.Duration
	// MaxRunsPerWorker is how many runs one worker serves, each in a
	// fresh VM, before it is replaced (default DefaultMaxRunsPerWorker).
	// 1 gives every run a worker of its own that is killed after it: the
	// choice when runs come from mutually untrusting tenants, since a
	// worker's Go-level state (the compile cache, locale data) outlives
	// its runs. Whatever the value, a worker is retired (killed, and
	// replaced in the background) after a run that did not end cleanly:
	// one that ended on a limit (an error of runtime.KindLimit), was
	// cancelled, failed internally, crashed the worker or broke the
	// protocol; and after a run that left it holding more than
	// MaxWorkerHeap. Only runs that succeeded, threw or did not compile
	// leave their worker for the next run. A Session's worker serves its
	// session instead, and is never counted here. Negative values are
	// refused.
	MaxRunsPerWorker int
	// MaxWorkerHeap retires a worker that holds more than this many bytes
	// after a run: the memory its Go runtime has not returned to the
	// system (the heap, free or not, stacks and runtime structures; about
	// its resident size), which the worker measures after each run. The
	// default is MemoryLimit / DefaultWorkerHeapFraction, so that a worker
	// reused after a big run still has most of its limit and an idle one
	// does not sit on the memory a run once needed. Negative values are
	// refused.
	MaxWorkerHeap int64
	// OnRetire, when set, is told each time a worker that served runs of
	// its own is retired (each one Stats.Retired counts), with why, one
	// of the Retired constants, from the goroutine that retired it: a
	// host's log and metrics. It must not block.
	OnRetire func(reason string)
}

// Why a worker was retired: the reason OnRetire is told.
const (
	// RetiredUnclean: its run ended on a limit or an internal failure,
	// the runtime wrote on its stderr, or a tool call of the run was
	// still running when the run ended.
	RetiredUnclean = "unclean"
	// RetiredStopped: its run was stopped (the run's timeout, the
	// caller's cancellation) and the worker killed.
	RetiredStopped = "stopped"
	// RetiredDied: the worker exited, or broke the protocol, on its own
	// (a crash, the kernel's memory limit).
	RetiredDied = "died"
	// RetiredMaxRuns: it served MaxRunsPerWorker runs.
	RetiredMaxRuns = "max_runs"
	// RetiredHeap: it held more than MaxWorkerHeap after a run.
	RetiredHeap = "heap"
	// RetiredSurplus: more workers were idle than the pool keeps.
	RetiredSurplus = "surplus"
	// RetiredClosed: the pool was closed as its run ended.
	RetiredClosed = "closed"
)

// Stats count what a Pool's workers did since the pool was made, for a
// host's metrics and for tests. Stats is a snapshot; the counts only grow.
type Stats struct {
	// Started counts the worker processes launched, ahead of time or on
	// demand, including those that then failed to report ready.
	Started int64
	// Runs counts the runs that got a worker, including the runs of
	// sessions.
	Runs int64
	// Reused counts the runs (not of a session) served by a worker that
	// had served an earlier one.
	Reused int64
	// Retired counts the workers that served runs of their own and were
	// then killed: after a run that did not end cleanly, at
	// MaxRunsPerWorker runs or MaxWorkerHeap bytes, or because more were
	// idle than the pool keeps. A session's worker is not counted.
	Retired int64
}

// Pool runs snippets in worker processes. A worker is started ahead of
// time (up to PoolSize) or on demand and serves runs one at a time, each
// in a fresh VM, up to Options.MaxRunsPerWorker, or a single run that did
// not end cleanly; then it is killed. A worker serves the runs of one
// tool set only (the tools a caller lists, compared as JSON): a run never
// gets a worker whose earlier runs had other tools. Run, Stats, Idle and
// Close are safe for concurrent use.
type Pool struct {
	opts Options
	exe  string
	env  []string // the workers' environment, worker variables included

	mu     sync.Mutex
	closed bool
	// idle are the workers waiting for a run, the least recently used
	// first: fresh ones (process.runs == 0) and ones that served runs of
	// the tool set process.tools. At most keepIdle of them.
	idle      []*process
	starting  int                   // background starts in progress that no run took
	waiting   int                   // runs waiting for one of them
	busy      int                   // workers in runs that will give them back
	changed   chan struct{}         // closed when a start launches or ends
	launching map[*process]struct{} // started, not yet ready
	active    map[*session]struct{} // runs in progress
	sessions  map[*Session]struct{} // open sessions, which may pin a worker
	wg        sync.WaitGroup        // background starts and runs
	lastErr   error                 // the last background start's failure
	execs     *executors            // run the tool calls of every run

	memoMu sync.Mutex
	memo   toolsMemo // see wire
	stats  Stats

	// onLaunch, for tests, is called with every worker started.
	onLaunch func(pid int)
	// onRun, for tests, is called with the pid of the worker a run (not
	// of a session) got, before the run is sent to it.
	onRun func(pid int)
}

// NewPool returns a pool of workers and starts PoolSize of them in the
// background. It fails when the options are invalid, on systems without
// process isolation (it needs Linux), and when called in a worker.
func NewPool(opts Options) (*Pool, error) {
	return newPool(opts, nil)
}

// newPool is NewPool with a hook, for tests, called with the pid of every
// worker started.
func newPool(opts Options, onLaunch func(pid int)) (*Pool, error) {
	if !supported {
		return nil, errors.New("isolation: process isolation is only supported on Linux")
	}
	if IsWorker() {
		return nil, errors.New("isolation: a worker cannot start workers (does main call isolation.Main first?)")
	}
	if opts.MemoryLimit == 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	switch {
	case opts.MemoryLimit < minMemoryLimit:
		return nil, fmt.Errorf("isolation: a memory limit of %s is too small for the engine (at least %s)", runtime.FormatBytes(opts.MemoryLimit), runtime.FormatBytes(minMemoryLimit))
	case opts.PoolSize < 0:
		return nil, fmt.Errorf("isolation: pool size %d is negative", opts.PoolSize)
	case opts.MaxRunsPerWorker < 0:
		return nil, fmt.Errorf("isolation: MaxRunsPerWorker %d is negative", opts.MaxRunsPerWorker)
	case opts.MaxWorkerHeap < 0:
		return nil, fmt.Errorf("isolation: MaxWorkerHeap %d is negative", opts.MaxWorkerHeap)
	}
	if opts.MaxRunsPerWorker == 0 {
		opts.MaxRunsPerWorker = DefaultMaxRunsPerWorker
	}
	if opts.MaxWorkerHeap == 0 {
		opts.MaxWorkerHeap = opts.MemoryLimit / DefaultWorkerHeapFraction
	}
	exe := opts.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("isolation: find the executable to re-execute: %w", err)
		}
	}
	if st, err := os.Stat(exe); err != nil {
		return nil, fmt.Errorf("isolation: worker executable: %w", err)
	} else if st.IsDir() || st.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("isolation: worker executable %s is not an executable file", exe)
	}
	env := workerproc.Env(opts.Env, opts.MemoryLimit)
	p := &Pool{
		opts: opts, exe: exe, env: env, onLaunch: onLaunch,
		launching: map[*process]struct{}{}, active: map[*session]struct{}{}, sessions: map[*Session]struct{}{},
		changed: make(chan struct{}), execs: newExecutors(),
	}
	p.mu.Lock()
	p.refillLocked()
	p.mu.Unlock()
	return p, nil
}

// Run runs source in a worker, in a fresh VM, with caller's tools (none
// when caller is nil) and returns what happened, as runtime.Run does: it
// never returns nil, and every failure is described by Result.Error. opts
// are the engine's options as for runtime.Run, applied in the worker; a
// Setup function cannot cross the process boundary, and a run given one
// fails at once with an internal error saying so. Tool calls run in this
// process, started through caller as toolcall.Start starts them (with
// caller's accounting when it is a toolcall.Starter, with the hooks
// otherwise), concurrently; console output reaches opts.Stdout and
// opts.Stderr as it is printed. The worker keeps no trace of the calls:
// Result.ToolCalls is empty, and a caller that accounts for calls has it.
// The worker is an idle one that served runs with the same tools (caller's
// Tools, as JSON), else a fresh one, else one started now; the run sees
// nothing of the runs it served before (see Options.MaxRunsPerWorker for
// what a worker keeps and when it is retired). A worker that dies is a run
// error naming the limit it hit (out of memory, stack overflow, killed at
// the deadline) or, for any other crash, its exit status and the one line
// of its dump that says why; Result.Stdout, Stderr and ToolCalls then hold
// what the parent saw before (a stream whose output the run was holding
// back, its head being full, ends with a notice that the rest was lost,
// and Result.Truncated is set). Result.Duration is the wall time of the
// whole Run; a Result.Error of a closed pool unwraps to ErrClosed, of a
// cancelled run to the context's error. When Run returns, the worker is
// idle in the pool for the next run, or has been killed (SIGKILL to its
// process group; after a normal end it is reaped in the background, and
// Close waits for that), and the caller's tools are not called again for
// this run (a tool that ignores its context is abandoned after
// CancelGrace, as in process).
func (p *Pool) Run(ctx context.Context, source string, caller toolcall.Caller, opts runtime.Options) *runtime.Result {
	start := time.Now()
	res := p.run(ctx, source, caller, opts)
	res.Duration = time.Since(start)
	return res
}

func (p *Pool) run(ctx context.Context, source string, caller toolcall.Caller, opts runtime.Options) *runtime.Result {
	s, refused := p.begin(ctx, caller, opts)
	if refused != nil {
		return refused
	}
	defer p.untrack(s)
	w, refused := p.takeFor(ctx, s.toolsKey, false)
	if refused != nil {
		return refused
	}
	if p.onRun != nil {
		p.onRun(w.pid)
	}
	return s.run(ctx, w, source)
}

// begin checks a run's request and tracks its session, or returns the
// result of a run refused before it starts: a done context, a Setup
// function, a closed pool, tools that cannot be sent. The caller untracks
// the session when the run is over.
func (p *Pool) begin(ctx context.Context, caller toolcall.Caller, opts runtime.Options) (*session, *runtime.Result) {
	if err := ctx.Err(); err != nil {
		return nil, &runtime.Result{Error: canceledError("the run was cancelled by its caller").WithCause(err)}
	}
	if opts.Setup != nil {
		return nil, &runtime.Result{Error: internalError("runtime.Options.Setup cannot run in an isolated worker: the worker binds the caller's tools itself")}
	}
	limits, err := opts.Limits.WithDefaults()
	if err != nil {
		return nil, &runtime.Result{Error: runtime.InvalidOptions(err)}
	}
	opts.Limits = limits
	if caller == nil {
		caller = noTools{}
	}
	tools, key, err := p.wire(caller.Tools())
	if err != nil {
		return nil, &runtime.Result{Error: internalError(fmt.Sprintf("the run cannot be sent to an isolated worker: its tools %v: %v", errEncode, err))}
	}
	s := newSession(p, caller, opts, tools, key)
	if !p.track(s) {
		return nil, &runtime.Result{Error: canceledError("the run was not started: its pool is closed").WithCause(ErrClosed)}
	}
	return s, nil
}

// wire returns what a worker gets of tools (see wireTools) and its JSON,
// the key of the tool set. The last list's are kept: the runs of a
// Runner share one list while its registry does not change, and it is
// encoded once. A list is recognized by its backing array, which the
// memo holds (so that no other list can be allocated there meanwhile),
// and its length; toolcall.Caller's contract forbids changing a list once
// returned.
func (p *Pool) wire(tools []registry.Info) ([]registry.Info, string, error) {
	p.memoMu.Lock()
	m := p.memo
	p.memoMu.Unlock()
	if len(tools) > 0 && len(m.list) == len(tools) && &m.list[0] == &tools[0] {
		return m.wire, m.key, nil
	}
	wire := wireTools(tools)
	b, err := json.Marshal(wire)
	if err != nil {
		return nil, "", err
	}
	p.memoMu.Lock()
	p.memo = toolsMemo{list: tools, wire: wire, key: string(b)}
	p.memoMu.Unlock()
	return wire, string(b), nil
}

// toolsMemo is the last tool list a run brought, with its wire form and
// key (see Pool.wire).
type toolsMemo struct {
	list, wire []registry.Info
	key        string
}

// takeFor takes a worker for a run with the tools toolsKey (a fresh one
// when fresh is set: a session's), or returns the result of a run that
// could not get one.
func (p *Pool) takeFor(ctx context.Context, toolsKey string, fresh bool) (*process, *runtime.Result) {
	w, err := p.take(ctx, toolsKey, fresh)
	if err != nil {
		return nil, startRefusal(ctx, err)
	}
	return w, nil
}

// startRefusal is the result of a run whose worker could not be had or
// did not start, for the reason err.
func startRefusal(ctx context.Context, err error) *runtime.Result {
	switch {
	case ctx.Err() != nil:
		return &runtime.Result{Error: canceledError("the run was cancelled by its caller").WithCause(ctx.Err())}
	case errors.Is(err, ErrClosed):
		return &runtime.Result{Error: canceledError(closedMessage).WithCause(ErrClosed)}
	}
	return &runtime.Result{Error: internalError(fmt.Sprintf("could not start an isolated worker: %v", err))}
}

// track registers a run so that Close can stop it; false when closed.
func (p *Pool) track(s *session) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.active[s] = struct{}{}
	p.wg.Add(1)
	return true
}

// untrack forgets a finished run and replaces its worker if it was not
// kept: the refill starts after the run, so that it does not take CPU
// from the run.
func (p *Pool) untrack(s *session) {
	p.mu.Lock()
	delete(p.active, s)
	p.refillLocked()
	p.mu.Unlock()
	p.wg.Done()
}

// take returns a worker for a run with the tools toolsKey: the most
// recently used idle one that served runs of those tools (unless fresh is
// set), else an idle fresh one, else one starting in the background that
// no other run took (waiting for its launch when no other run waits for
// it), else one launched now. The worker is the run's until the run gives
// it back (release) or retires it; one that is starting may not be ready
// yet (see process.ready): the run sends it its request at once, which
// waits in the pipe while the worker starts, and then waits for it to be
// ready. The replacement of a worker taken starts when the run ends (see
// untrack).
func (p *Pool) take(ctx context.Context, toolsKey string, fresh bool) (*process, error) {
	p.mu.Lock()
	for {
		if p.closed {
			p.mu.Unlock()
			return nil, ErrClosed
		}
		w := p.pickLocked(toolsKey, fresh)
		if w == nil {
			w = p.claimLocked()
		}
		if w != nil && w.exited() {
			// Killed while idle (by the OOM killer or an operator).
			p.mu.Unlock()
			w.discard()
			p.mu.Lock()
			continue
		}
		if w != nil {
			p.tookLocked(w, toolsKey, fresh)
			p.mu.Unlock()
			return w, nil
		}
		if p.waiting >= p.starting {
			break
		}
		p.waiting++
		changed := p.changed
		p.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
		}
		p.mu.Lock()
		p.waiting--
		if err := ctx.Err(); err != nil {
			p.mu.Unlock()
			return nil, err
		}
	}
	p.mu.Unlock()
	w, err := p.launch(false, true)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.tookLocked(w, toolsKey, fresh)
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.awaitReady(w)
	}()
	return w, nil
}

// claimLocked takes a worker launched by a background start that no run
// took, or returns nil; the start is then the run's, no longer counted as
// the pool's. Called with p.mu held.
func (p *Pool) claimLocked() *process {
	for w := range p.launching {
		if !w.claimed {
			w.claimed = true
			p.starting--
			return w
		}
	}
	return nil
}

// pickLocked removes from the idle list and returns the worker a run with
// the tools toolsKey should take (see take), or nil. Called with p.mu held.
func (p *Pool) pickLocked(toolsKey string, fresh bool) *process {
	pick := -1
	if !fresh {
		for i := len(p.idle) - 1; i >= 0; i-- {
			if w := p.idle[i]; w.runs > 0 && w.tools == toolsKey {
				pick = i
				break
			}
		}
	}
	for i := 0; pick < 0 && i < len(p.idle); i++ {
		if p.idle[i].runs == 0 {
			pick = i
		}
	}
	if pick < 0 {
		return nil
	}
	w := p.idle[pick]
	p.idle = slices.Delete(p.idle, pick, pick+1)
	return w
}

// tookLocked counts a run with the tools toolsKey that took w; session:
// a session's run, which pins w. Called with p.mu held.
func (p *Pool) tookLocked(w *process, toolsKey string, session bool) {
	p.stats.Runs++
	if session {
		return
	}
	if w.runs > 0 {
		p.stats.Reused++
	}
	w.runs++
	w.tools = toolsKey
	if p.mayReturn(w) {
		p.busy++
	}
}

// mayReturn reports whether the run that holds w (not a session's) may
// give it back to the pool: w has runs left.
func (p *Pool) mayReturn(w *process) bool { return w.runs < p.opts.MaxRunsPerWorker }

// reusable reports whether w, whose run (not a session's) ended with done
// and left it holding heap bytes, may serve another run: the run ended
// cleanly (a value, an exception or a compile error), the worker has runs
// left and holds no more than MaxWorkerHeap, and it wrote nothing on its
// stderr (where only the Go runtime writes, when something went wrong).
func (p *Pool) reusable(w *process, done *wireResult, heap uint64) bool {
	return p.unreusable(w, done, heap) == ""
}

// unreusable says why w may not serve another run (a Retired reason), or
// "" when it may (see reusable).
func (p *Pool) unreusable(w *process, done *wireResult, heap uint64) string {
	if done.Error != nil {
		switch done.Error.Kind {
		case runtime.KindException, runtime.KindCompile:
		default:
			return RetiredUnclean
		}
	}
	switch {
	case w.exited():
		return RetiredDied
	case w.proc.Stderr.Len() > 0:
		return RetiredUnclean
	case !p.mayReturn(w):
		return RetiredMaxRuns
	case heap > uint64(p.opts.MaxWorkerHeap):
		return RetiredHeap
	}
	return ""
}

// release ends a run's hold on its worker w: when why is "", w waits in
// the idle list for the next run, as the most recently used; otherwise,
// or when the pool is closed, it is retired, for why (a Retired reason).
// Idle workers beyond keepIdle are retired, the least recently used
// first. Not for a session's worker.
func (p *Pool) release(w *process, why string) {
	var (
		retired []*process
		reasons []string
	)
	p.mu.Lock()
	if p.mayReturn(w) {
		p.busy--
	}
	switch {
	case why == "" && !p.closed:
		p.idle = append(p.idle, w)
		for len(p.idle) > p.keepIdle() {
			retired, reasons = append(retired, p.idle[0]), append(reasons, RetiredSurplus)
			p.idle = slices.Delete(p.idle, 0, 1)
		}
		// A run waiting for a worker to start may take this one.
		p.changedLocked()
	case why == "":
		retired, reasons = append(retired, w), append(reasons, RetiredClosed)
	default:
		retired, reasons = append(retired, w), append(reasons, why)
	}
	p.stats.Retired += int64(len(retired))
	p.mu.Unlock()
	for i, w := range retired {
		p.retire(w)
		if p.opts.OnRetire != nil {
			p.opts.OnRetire(reasons[i])
		}
	}
}

// keepIdle is how many workers the idle list may hold: PoolSize, and at
// least the one a run left for the next when workers are reused.
func (p *Pool) keepIdle() int {
	if p.opts.MaxRunsPerWorker > 1 {
		return max(p.opts.PoolSize, 1)
	}
	return p.opts.PoolSize
}

// changedLocked wakes the runs waiting for a worker to launch, start or
// come back. Called with p.mu held.
func (p *Pool) changedLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// retire kills a worker that sent its last result (or was idle) and
// reaps it in the background: the run need not wait for the kernel to
// tear the process down. Close waits for it.
func (p *Pool) retire(w *process) {
	w.kill()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		w.discard()
	}()
}

// Prestart starts one worker for the next run, whatever PoolSize says,
// without warming it up, or takes the one the program launched early
// when it is the worker this pool would start (see workerproc.Launch). A
// one-shot program (a CLI, with PoolSize 0) calls it as early as it can,
// so that the worker starts while the program sets itself up; Run then
// takes it. The worker's process is
// launched before Prestart returns (a fork and exec, about half a
// millisecond): launched from a new goroutine, it waited for that
// goroutine to be scheduled while the caller went on, and the worker's
// start is what the caller's first run waits for. Its ready message is
// awaited in the background.
func (p *Pool) Prestart() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.starting++
	p.wg.Add(1)
	p.mu.Unlock()
	var (
		w   *process
		err error
	)
	if pr := workerproc.Take(p.exe, p.env); pr != nil {
		// The program launched it early (workerproc.Launch), the worker
		// this pool would have started.
		w, err = p.launched(adopt(pr), false)
	} else {
		w, err = p.launch(false, false)
	}
	go p.refill(w, err, true)
}

// refillLocked starts workers in the background until idle and starting
// ones, and the busy ones that will come back, make PoolSize. Called with
// p.mu held.
func (p *Pool) refillLocked() {
	for !p.closed && len(p.idle)+p.starting+p.busy < p.opts.PoolSize {
		p.starting++
		p.wg.Add(1)
		go func() {
			w, err := p.launch(true, false)
			p.refill(w, err, false)
		}()
	}
}

// refill waits until w, launched with launchErr, is ready and adds it to
// the idle list, unless a run took it meanwhile; unless extra is set, only
// while the list is short of PoolSize.
func (p *Pool) refill(w *process, launchErr error, extra bool) {
	defer p.wg.Done()
	if launchErr == nil {
		launchErr = p.awaitReady(w)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.changedLocked()
	// A worker a run took is the run's, and so is its start (see
	// claimLocked): the run sees how it ended.
	claimed := w != nil && w.claimed
	if !claimed {
		p.starting--
	}
	switch {
	case launchErr != nil:
		p.lastErr = launchErr
	case claimed:
	case p.closed || !extra && len(p.idle)+p.busy >= p.opts.PoolSize:
		p.mu.Unlock()
		w.discard()
		p.mu.Lock()
	default:
		p.idle = append(p.idle, w)
	}
}

// launch starts a worker's process and records it as launching, so that
// Close kills it; claimed: for the run that launches it, which no other
// run may take. A worker launched warm warms its engine up before it
// reports ready. Its ready message is for awaitReady to read.
func (p *Pool) launch(warm, claimed bool) (*process, error) {
	env := p.env
	if warm {
		env = append(env[:len(env):len(env)], envWarm+"=1")
	}
	w, err := launch(p.exe, env)
	if err != nil {
		return nil, fmt.Errorf("start worker %s: %w", p.exe, err)
	}
	return p.launched(w, claimed)
}

// launched records w, just launched, as the pool's (see launch).
func (p *Pool) launched(w *process, claimed bool) (*process, error) {
	p.mu.Lock()
	p.stats.Started++
	if p.closed {
		p.mu.Unlock()
		w.discard()
		return nil, ErrClosed
	}
	w.claimed = claimed
	p.launching[w] = struct{}{}
	// A run waiting for a start may take this worker.
	p.changedLocked()
	p.mu.Unlock()
	if p.onLaunch != nil {
		p.onLaunch(w.pid)
	}
	return w, nil
}

// awaitReady waits until w, launched, is ready or the pool is closed; a
// worker that is not ready is discarded. Either way it ends w's start
// (see process.ready). Each worker's ready is awaited once.
func (p *Pool) awaitReady(w *process) (err error) {
	defer func() {
		w.startErr = err
		close(w.started)
	}()
	err = w.awaitReady(p.opts.StartTimeout)
	p.mu.Lock()
	delete(p.launching, w)
	closed := p.closed
	p.mu.Unlock()
	if err == nil && !closed {
		return nil
	}
	w.discard() // reaps w, for state
	if closed {
		return ErrClosed
	}
	if d := firstCause(w.proc.Stderr.String()); d != "" {
		return fmt.Errorf("%w (%s; stderr: %s)", err, w.state(), d)
	}
	if w.proc.Cmd.ProcessState != nil {
		return fmt.Errorf("%w (%s)", err, w.state())
	}
	return err
}

// Close kills the idle workers and those still starting, stops the runs in
// progress (they end with a CanceledError), and waits until every worker
// is reaped and every run has returned (a run whose tool ignores
// cancellation returns after its CancelGrace). Run after Close fails with
// ErrClosed. Close is idempotent and always returns nil.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.changedLocked()
	idle := p.idle
	p.idle = nil
	for w := range p.launching {
		w.kill()
	}
	for s := range p.active {
		s.stop(stopClosed)
	}
	sessions := p.sessions
	p.sessions = map[*Session]struct{}{}
	p.mu.Unlock()
	for _, w := range idle {
		w.discard()
	}
	for s := range sessions {
		s.release()
	}
	p.wg.Wait()
	p.execs.stop()
	return nil
}

// lastStartErr is the last background start's failure, for diagnostics.
func (p *Pool) lastStartErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastErr
}

// livePids returns the pids of the idle workers and of those starting,
// for tests.
func (p *Pool) livePids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for _, w := range p.idle {
		out = append(out, w.pid)
	}
	for w := range p.launching {
		out = append(out, w.pid)
	}
	return out
}

// Stats returns what the pool's workers did so far.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// Idle reports how many started workers wait for a run, fresh or reused:
// a gauge for a host's metrics, and what a benchmark waits on to find the
// pool refilled.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// noTools is the caller of a run given none.
type noTools struct{}

func (noTools) Tools() []registry.Info { return nil }

func (noTools) CallTool(_ context.Context, name string, _ map[string]any, _ registry.CallOptions) (registry.Result, error) {
	return registry.Result{}, &registry.NotFoundError{Name: name}
}
