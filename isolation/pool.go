package isolation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// Defaults for the zero values of Options.
const (
	// DefaultMemoryLimit is a worker's memory limit.
	DefaultMemoryLimit = 512 << 20
	// DefaultStartTimeout bounds how long a worker may take to report ready.
	DefaultStartTimeout = 10 * time.Second
	// DefaultPoolSize is a good PoolSize for a long-lived host; the zero
	// PoolSize starts every worker on demand.
	DefaultPoolSize = 2
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
	// its start, enforced by the kernel (RLIMIT_AS). A run that needs more
	// ends with "the run exceeded its memory limit of 512 MiB".
	MemoryLimit int64
	// PoolSize is how many started workers are kept waiting for a run; a
	// run takes one and a replacement starts in the background. Zero
	// starts each worker on demand (right for a one-shot CLI); long-lived
	// hosts want DefaultPoolSize.
	PoolSize int
	// StartTimeout bounds a worker's start, until it reports ready
	// (default 10 s).
	StartTimeout time.Duration
}

// Pool runs snippets in worker processes, one worker per run: each worker
// is started (ahead of time, up to PoolSize), serves one run and is
// discarded. Run and Close are safe for concurrent use.
type Pool struct {
	opts Options
	exe  string
	env  []string // the workers' environment, worker variables included

	mu        sync.Mutex
	closed    bool
	idle      []*process
	starting  int                   // background starts in progress
	waiting   int                   // runs waiting for one of them
	changed   chan struct{}         // closed when a start ends
	launching map[*process]struct{} // started, not yet ready
	active    map[*session]struct{} // runs in progress
	sessions  map[*Session]struct{} // open sessions, which may pin a worker
	wg        sync.WaitGroup        // background starts and runs
	lastErr   error                 // the last background start's failure
	execs     *executors            // run the tool calls of every run

	// onLaunch, for tests, is called with every worker started.
	onLaunch func(pid int)
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
	env := opts.Env
	if env == nil {
		env = []string{}
		if tz, ok := os.LookupEnv("TZ"); ok {
			env = append(env, "TZ="+tz)
		}
	}
	env = append(env[:len(env):len(env)], EnvWorker+"=1", envMemory+"="+strconv.FormatInt(opts.MemoryLimit, 10))
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

// Run runs source in a fresh worker with caller's tools (none when caller
// is nil) and returns what happened, as runtime.Run does: it never returns
// nil, and every failure is described by Result.Error. opts are the
// engine's options as for runtime.Run, applied in the worker; a Setup
// function cannot cross the process boundary, and a run given one fails
// at once with an internal error saying so. Tool calls run in this
// process, started through caller as bindings.Start starts them (with
// caller's accounting when it is a bindings.Starter, with the hooks
// otherwise), concurrently; console output reaches opts.Stdout and
// opts.Stderr as it is printed. The worker keeps no trace of the calls:
// Result.ToolCalls is empty, and a caller that accounts for calls has it. A worker that dies is a run error naming
// the limit it hit (out of memory, stack overflow, killed at the deadline)
// or, for any other crash, its exit status and the one line of its dump
// that says why; Result.Stdout, Stderr and ToolCalls then hold what the
// parent saw before.
// Result.Duration is the wall time of the whole Run; a Result.Error of a
// closed pool unwraps to ErrClosed, of a cancelled run to the context's
// error. When Run returns, the
// worker has been killed (SIGKILL to its process group; after a normal end
// it is reaped in the background, and Close waits for that), and the
// caller's tools are not called again for this run (a tool that ignores
// its context is abandoned after CancelGrace, as in process).
func (p *Pool) Run(ctx context.Context, source string, caller bindings.Caller, opts runtime.Options) *runtime.Result {
	start := time.Now()
	res := p.run(ctx, source, caller, opts)
	res.Duration = time.Since(start)
	return res
}

func (p *Pool) run(ctx context.Context, source string, caller bindings.Caller, opts runtime.Options) *runtime.Result {
	s, refused := p.begin(ctx, caller, opts)
	if refused != nil {
		return refused
	}
	defer p.untrack(s)
	w, refused := p.takeFor(ctx)
	if refused != nil {
		return refused
	}
	return s.run(ctx, w, source)
}

// begin checks a run's request and tracks its session, or returns the
// result of a run refused before it starts: a done context, a Setup
// function, a closed pool. The caller untracks the session when the run
// is over.
func (p *Pool) begin(ctx context.Context, caller bindings.Caller, opts runtime.Options) (*session, *runtime.Result) {
	if err := ctx.Err(); err != nil {
		return nil, &runtime.Result{Error: canceledError("the run was cancelled by its caller").WithCause(err)}
	}
	if opts.Setup != nil {
		return nil, &runtime.Result{Error: internalError("runtime.Options.Setup cannot run in an isolated worker: the worker binds the caller's tools itself")}
	}
	if caller == nil {
		caller = noTools{}
	}
	s := newSession(p, caller, opts)
	if !p.track(s) {
		return nil, &runtime.Result{Error: canceledError("the run was not started: its pool is closed").WithCause(ErrClosed)}
	}
	return s, nil
}

// takeFor takes a worker for a run, or returns the result of a run that
// could not get one.
func (p *Pool) takeFor(ctx context.Context) (*process, *runtime.Result) {
	w, err := p.take(ctx)
	switch {
	case err == nil:
		return w, nil
	case ctx.Err() != nil:
		return nil, &runtime.Result{Error: canceledError("the run was cancelled by its caller").WithCause(ctx.Err())}
	case errors.Is(err, ErrClosed):
		return nil, &runtime.Result{Error: canceledError(closedMessage).WithCause(ErrClosed)}
	}
	return nil, &runtime.Result{Error: internalError(fmt.Sprintf("could not start an isolated worker: %v", err))}
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

// untrack forgets a finished run and replaces its worker: the refill
// starts after the run, so that it does not take CPU from the run.
func (p *Pool) untrack(s *session) {
	p.mu.Lock()
	delete(p.active, s)
	p.refillLocked()
	p.mu.Unlock()
	p.wg.Done()
}

// take returns a ready worker: an idle one, one that is starting (when no
// other run waits for it), or one started now. The replacement of an idle
// worker starts when the run ends (see untrack).
func (p *Pool) take(ctx context.Context) (*process, error) {
	p.mu.Lock()
	for {
		if p.closed {
			p.mu.Unlock()
			return nil, ErrClosed
		}
		if len(p.idle) > 0 {
			w := p.idle[0]
			p.idle = p.idle[1:]
			if w.exited() {
				// Killed while idle (by the OOM killer or an operator).
				p.mu.Unlock()
				w.discard()
				p.mu.Lock()
				continue
			}
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
	return p.start(ctx, false)
}

// changedLocked wakes the runs waiting for a worker to finish starting.
// Called with p.mu held.
func (p *Pool) changedLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// retire kills the worker of a run that ended normally and reaps it in the
// background: the run need not wait for the kernel to tear the process
// down. Close waits for it.
func (p *Pool) retire(w *process) {
	w.kill()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		w.discard()
	}()
}

// refillLocked starts workers in the background until idle and starting
// ones make PoolSize. Called with p.mu held.
func (p *Pool) refillLocked() {
	for !p.closed && len(p.idle)+p.starting < p.opts.PoolSize {
		p.starting++
		p.wg.Add(1)
		go p.refill(true, false)
	}
}

// Prestart starts one worker in the background for the next run, whatever
// PoolSize says, without warming it up. A one-shot program (a CLI, with
// PoolSize 0) calls it as early as it can, so that the worker starts while
// the program sets itself up; Run then takes it.
func (p *Pool) Prestart() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.starting++
	p.wg.Add(1)
	go p.refill(false, true)
}

// refill starts one worker and adds it to the idle list; unless extra is
// set, only while the list is short of PoolSize.
func (p *Pool) refill(warm, extra bool) {
	defer p.wg.Done()
	w, err := p.start(context.Background(), warm)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
	defer p.changedLocked()
	if err != nil {
		p.lastErr = err
		return
	}
	if p.closed || !extra && len(p.idle) >= p.opts.PoolSize {
		p.mu.Unlock()
		w.discard()
		p.mu.Lock()
		return
	}
	p.idle = append(p.idle, w)
}

// start launches a worker and waits until it is ready, ctx is done or the
// pool is closed. A worker started for the pool (warm) warms its engine up
// before it reports ready.
func (p *Pool) start(ctx context.Context, warm bool) (*process, error) {
	env := p.env
	if warm {
		env = append(env[:len(env):len(env)], envWarm+"=1")
	}
	w, err := launch(p.exe, env)
	if err != nil {
		return nil, fmt.Errorf("start worker %s: %w", p.exe, err)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.discard()
		return nil, ErrClosed
	}
	p.launching[w] = struct{}{}
	p.mu.Unlock()
	if p.onLaunch != nil {
		p.onLaunch(w.pid)
	}
	stop := context.AfterFunc(ctx, w.kill)
	err = w.awaitReady(p.opts.StartTimeout)
	stop()
	p.mu.Lock()
	delete(p.launching, w)
	closed := p.closed
	p.mu.Unlock()
	switch {
	case err == nil && ctx.Err() == nil && !closed:
		return w, nil
	case ctx.Err() != nil:
		err = ctx.Err()
	case closed:
		err = ErrClosed
	default:
		w.discard()
		if d := firstCause(w.stderr.String()); d != "" {
			err = fmt.Errorf("%w (%s; stderr: %s)", err, w.state(), d)
		} else if w.cmd.ProcessState != nil {
			err = fmt.Errorf("%w (%s)", err, w.state())
		}
		return nil, err
	}
	w.discard()
	return nil, err
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

// Idle reports how many started workers wait for a run: a gauge for a
// host's metrics, and what a benchmark waits on to find the pool refilled.
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
