package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/codeexec/codeexec/runtime/console"
	"github.com/codeexec/codeexec/runtime/eventloop"
	"github.com/codeexec/codeexec/runtime/transform"
	"github.com/codeexec/codeexec/runtime/webapi"
)

// DefaultFilename names a snippet whose Options.Filename is empty.
const DefaultFilename = "snippet.ts"

// Options configure one run. Zero limits take their defaults (see
// Limits); an empty Filename is DefaultFilename.
//
// Options cross to an isolated worker as JSON, as they are: the fields
// tagged "-" are the host's own, which the worker sets itself.
type Options struct {
	// Filename names the snippet in errors and stacks; its extension picks
	// the loader (.js, .mjs, .cjs: JavaScript; anything else: TypeScript).
	Filename string `json:"filename,omitempty"`
	// Stdout and Stderr, when set, receive console output (log, info,
	// debug to Stdout; warn, error to Stderr) as the Result keeps it: the
	// head as it is printed, and, when the output went over MaxOutputBytes,
	// the notice and the tail when the run ends. Output is captured in the
	// Result either way. A writer with a Held method (see OutputHolder) is
	// told when the head is full and the rest waits for the run's end.
	Stdout, Stderr io.Writer `json:"-"`
	// Limits bound the run (see Limits); Options embeds them, so that
	// opts.Timeout is opts.Limits.Timeout.
	Limits `json:"limits"`
	// HeapCeiling, when positive, replaces the growth rule of
	// Limits.Memory: the run ends with the memory limit's error once the process's live
	// heap passes HeapCeiling bytes, whatever it held at the start. For a
	// process whose whole memory is the run's, as a worker's is.
	HeapCeiling int64 `json:"-"`
	// OnRunaway, when set, is called once, from the memory watchdog's
	// goroutine, when the heap grows by another quarter of Limits.Memory
	// after the limit interrupted the run: native code that an interrupt
	// cannot stop (new Array(1e9).fill(0)) is still allocating. A process
	// whose whole memory is the run's (a worker) ends itself there; in
	// process nothing can stop such code.
	OnRunaway func() `json:"-"`
	// AllowEval keeps eval and the Function constructors, which are
	// otherwise replaced by functions that throw an EvalError.
	AllowEval bool `json:"allowEval,omitempty"`
	// Echo, in a session, makes the value of the snippet's last statement,
	// when it is an expression statement, the run's value, as a REPL
	// echoes it (see transform.CompileSessionCached). A run of its own
	// ignores it.
	Echo bool `json:"echo,omitempty"`
	// Process configures the process global (env, argv, cwd).
	Process ProcessOptions `json:"process"`
	// Sources, when set, are those of an earlier run of the same source,
	// which this run reads again (see Sources); nil gives the run fresh
	// ones. Either way the run records its own in Result.Sources.
	Sources *Sources `json:"sources,omitempty"`
	// Setup installs globals (for example tool bindings) before the snippet
	// runs. It is called on the loop goroutine with the run's Env.
	Setup func(env *Env) error `json:"-"`
}

// withDefaults fills the zero limits and the filename; it fails on a
// negative limit.
func (o Options) withDefaults() (Options, error) {
	var err error
	if o.Limits, err = o.Limits.WithDefaults(); err != nil {
		return o, err
	}
	if o.Filename == "" {
		o.Filename = DefaultFilename
	}
	return o, nil
}

// Run executes source and reports what happened. It never panics and never
// returns nil: compile errors, exceptions, limits and cancellation of ctx
// are all described by Result.Error. When Run returns, every timer is gone
// and every host call has returned or been abandoned after CancelGrace (its
// context is cancelled either way).
func Run(ctx context.Context, source string, opts Options) *Result {
	return runIn(ctx, source, opts, nil)
}

// InvalidOptions is the error of a run refused for its options (a negative
// limit, say) before it started, in process and by a worker pool alike; it
// unwraps to err.
func InvalidOptions(err error) *Error {
	msg := "runtime: invalid options: " + err.Error()
	return &Error{Name: "InternalError", Message: msg, Stack: "InternalError: " + msg, Kind: KindInternal, cause: err}
}

// runIn is Run, in sess's VM when sess is not nil.
func runIn(ctx context.Context, source string, opts Options, sess *Session) *Result {
	setRegexpTimeout()
	opts, err := opts.withDefaults()
	if err != nil {
		return &Result{Error: InvalidOptions(err)}
	}
	start := time.Now()
	r := &run{opts: opts, sess: sess, src: newSources(opts.Sources)}
	r.stdout = newOutput(opts.Stdout, opts.MaxOutputBytes)
	r.stderr = newOutput(opts.Stderr, opts.MaxOutputBytes)
	res := r.execute(ctx, source)
	res.Stdout, res.Stderr = r.stdout.finish(), r.stderr.finish()
	res.Truncated = r.stdout.cut() || r.stderr.cut()
	if res.boundValue(opts.MaxOutputBytes) {
		res.Truncated = true
	}
	res.Duration = time.Since(start)
	res.Sources = r.src.recorded()
	if r.heapFired.Load() {
		// Give back the memory the snippet held before the next run, whose
		// memory limit counts from the heap the last collection found
		// live: r, and with it the VM, is unreachable from here on (a
		// session's VM still holds what its globals keep).
		goruntime.GC()
	}
	return res
}

// run is the state of one Run.
type run struct {
	opts   Options
	src    *sources // the clock and randomness
	known  []string // names Setup suggested (see Env.Suggest)
	sess   *Session // nil for a run of its own
	reused bool     // the session's VM served an earlier run
	// gate keeps host goroutines from interrupting the VM once the run
	// is over, when a session's VM may already serve its next run.
	gate   sync.Mutex
	closed bool // under gate: the run no longer owns the VM
	vm     *goja.Runtime
	loop   *eventloop.Loop
	ctx    context.Context // cancelled when the run ends; host calls get it
	cancel context.CancelCauseFunc
	stdout *output
	stderr *output
	// code is the compiled snippet, which maps positions back to it; nil
	// until compile succeeds.
	code *transform.Program
	// features are what the snippet may use of the additions installed
	// on demand, its Program's (see transform.Features).
	features transform.Features

	wg       sync.WaitGroup // host work started by Env.Go
	inFlight atomic.Int64   // the work wg counts: waitCalls's fast path
	// workers are the goroutines that ran host work and wait for more
	// (see Env.Go): ownWorkers, or in a session the session's, whose
	// goroutines keep the stacks earlier runs' calls grew.
	workers    *workers
	ownWorkers workers

	rejections []*goja.Promise // rejected with no handler yet
	top        *goja.Promise
	fatal      error // a limit hit inside a host function; ends the run
	con        *console.Console
	web        *webapi.Globals // what webapi.Install made; gives require's modules
	// exitCode is the last value assigned to process.exitCode.
	exitCode       int
	drainTicks     goja.Callable // set while process.nextTick callbacks wait
	immediateProto *goja.Object
	timeoutProto   *goja.Object
	// heapFired: the memory watchdog ended the run, or the allocation
	// check refused an allocation (see watchHeap, allocationCheck).
	heapFired atomic.Bool
	// ticksFirst: macrotasks drain process.nextTick's queue before their
	// promise jobs (see macrotask); macro and macroTicks are its function
	// and drain, made on first use.
	ticksFirst bool
	macro      goja.Callable
	macroTicks goja.Value
}

// fail ends the run with err at the next VM instruction or loop turn; the
// first failure wins. Loop goroutine only.
func (r *run) fail(err error) {
	if r.fatal == nil {
		r.fatal = err
	}
	r.vm.Interrupt(err)
}

func (r *run) execute(parent context.Context, source string) (res *Result) {
	res = &Result{}
	if len(source) > r.opts.MaxSourceBytes {
		res.Error = limitError(fmt.Sprintf("the snippet is %d bytes, over the source size limit of %d bytes", len(source), r.opts.MaxSourceBytes))
		return res
	}
	if e := nestingError(r.opts.Filename, source, r.opts.MaxNesting); e != nil {
		res.Error = e
		return res
	}
	prog, cerr := r.compile(source)
	if cerr != nil {
		res.Error = cerr
		return res
	}

	ctx, cancel := context.WithTimeoutCause(parent, r.opts.Timeout, TimeoutError(r.opts.Timeout))
	defer cancel()
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	r.loop = eventloop.New(r.runTicks)
	if r.sess != nil {
		r.vm = r.sess.takeVM(r)
		r.workers = &r.sess.workers
	} else {
		r.vm = goja.New()
		r.workers = &r.ownWorkers
	}
	r.vm.SetParserOptions(parser.WithDisableSourceMaps)
	r.vm.SetPromiseRejectionTracker(r.trackRejection)
	r.vm.SetTimeSource(r.src.now)
	r.vm.SetRandSource(r.src.float64)
	stopInterrupt := context.AfterFunc(r.ctx, func() { r.interrupt(context.Cause(r.ctx)) })

	defer func() {
		stopInterrupt()
		r.cancel(ErrRunOver)
		// The loop may not have run (an exception at the top level, a
		// failed setup): closing it drops what host work completed.
		r.loop.Close()
		r.waitCalls()
		if r.workers == &r.ownWorkers {
			r.workers.stop()
		}
		r.gate.Lock()
		r.closed = true
		r.gate.Unlock()
		if p := recover(); p != nil {
			res.Error = &Error{Name: "InternalError", Message: fmt.Sprintf("codeexec internal error: %v", p), Kind: KindInternal}
			if r.sess != nil {
				r.sess.end(fmt.Errorf("its engine failed: %w", res.Error))
			}
		}
		if r.sess != nil {
			r.sess.afterRun(r)
		}
	}()

	setup := func() error {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if err := r.installGlobals(); err != nil {
			return err
		}
		h := &hardening{} // a fresh VM has none of it
		if r.sess != nil {
			h = &r.sess.hard
		}
		return h.apply(r)
	}
	if err := setup(); err != nil {
		res.Error = r.setupError(err)
		return res
	}
	// Every run has a memory limit (Limits.Memory defaults): the
	// allocation check replaces a session VM's last one.
	s := newHeapSample()
	s.read()
	ceiling := r.heapCeiling(s)
	r.vm.SetAllocationCheck(r.allocationCheck(ceiling))
	defer r.startHeapWatch(s, ceiling)()
	if r.opts.Setup != nil {
		if err := r.opts.Setup(&Env{r: r}); err != nil {
			res.Error = r.setupError(err)
			return res
		}
	}

	if r.sess != nil {
		if err := r.sess.declare(r, prog.Globals()); err != nil {
			res.Error = r.setupError(err)
			return res
		}
	}
	r.ticksFirst = r.usesTicks()
	v, err := r.macrotask(func() (goja.Value, error) { return r.vm.RunProgram(prog.Code()) })
	if r.fatal != nil {
		err = r.fatal
	}
	if err == nil {
		if p, ok := v.Export().(*goja.Promise); ok {
			r.top = p
			r.handled(p)
		}
		err = r.checkRejections()
	}
	if err == nil {
		err = r.loop.Run(r.ctx,
			func() bool { return r.top == nil || r.top.State() != goja.PromiseStatePending },
			func() error { return r.fatal })
	}
	if err != nil {
		if !exited(res, err) {
			res.Error = r.toError(err)
		}
		return res
	}
	if r.top != nil && r.top.State() == goja.PromiseStateRejected {
		res.Error = r.errorFromValue(r.top.Result())
		return res
	}
	if r.top != nil {
		r.setValue(res, r.top.Result())
	}
	if r.exitCode != 0 && res.Error == nil {
		res.Error = exitError(r.exitCode, "process.exitCode")
	}
	return res
}

// setupError describes a failure to prepare the VM: the run's end (its
// context was done, or an interrupt came first) as such, anything else as
// an internal error.
func (r *run) setupError(err error) *Error {
	var interrupted *goja.InterruptedError
	if r.ctx.Err() != nil || errors.As(err, &interrupted) {
		return r.toError(err)
	}
	return &Error{Name: "SetupError", Message: err.Error(), Kind: KindInternal}
}

// ErrRunOver is the cause of the context of host work still in flight
// when a run ends normally (context.Cause of Env.Context).
var ErrRunOver = errors.New("the run ended before this call finished")

// waitCalls waits for host calls to return after the run's context was
// cancelled, for at most CancelGrace. Most runs end with none in flight
// (the loop waited for their outcomes): they wait for nothing, with no
// goroutine or timer started.
func (r *run) waitCalls() {
	if r.inFlight.Load() == 0 {
		return
	}
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(r.opts.CancelGrace):
	}
}

// trackRejection keeps the promises rejected without a handler, as Node does
// for its unhandled-rejection check.
func (r *run) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		if p != r.top {
			r.rejections = append(r.rejections, p)
		}
	case goja.PromiseRejectionHandle:
		r.handled(p)
	}
}

func (r *run) handled(p *goja.Promise) {
	for i, q := range r.rejections {
		if q == p {
			r.rejections = append(r.rejections[:i], r.rejections[i+1:]...)
			return
		}
	}
}

// checkRejections fails the run if a promise was rejected and nothing
// handled it by the time the microtask queue drained, as Node does.
func (r *run) checkRejections() error {
	if len(r.rejections) == 0 {
		return nil
	}
	p := r.rejections[0]
	return &unhandledRejection{value: p.Result()}
}

// unhandledRejection is a rejection nobody handled.
type unhandledRejection struct{ value goja.Value }

func (u *unhandledRejection) Error() string { return "unhandled promise rejection" }

// LimitError is the Go error that ends a run because it hit a limit: the
// run's Error then has Kind KindLimit, Name "LimitError" and this Message.
// Host code that enforces a limit of its own (a tool-call limit) ends the
// run with one through Env.Fail or Outcome.Fail.
type LimitError struct {
	// Message names the limit and its value.
	Message string
	cause   error
}

// NewLimitError returns a LimitError with the given message whose Unwrap
// returns cause (which may be nil).
func NewLimitError(msg string, cause error) *LimitError {
	return &LimitError{Message: msg, cause: cause}
}

// TimeoutError is the LimitError of a run that exceeded its timeout d: it
// unwraps to context.DeadlineExceeded.
func TimeoutError(d time.Duration) *LimitError {
	return NewLimitError(fmt.Sprintf("the run exceeded its timeout of %s", d), context.DeadlineExceeded)
}

// Error returns the message.
func (e *LimitError) Error() string { return e.Message }

// Unwrap returns what the limit stands for, if anything: the timeout
// unwraps to context.DeadlineExceeded.
func (e *LimitError) Unwrap() error { return e.cause }

// Env is what a Setup function uses to install globals and start host work.
// Its methods must be called on the loop goroutine: from Setup itself or from
// JavaScript functions it installed.
type Env struct{ r *run }

// VM returns the run's goja runtime. It must only be used on the loop
// goroutine and must not be kept after the run.
func (e *Env) VM() *goja.Runtime { return e.r.vm }

// Context returns the run's context, which is cancelled when the run ends.
func (e *Env) Context() context.Context { return e.r.ctx }

// Fail ends the run with err at the next VM instruction or loop turn: a
// *LimitError as that limit, anything else as an internal error. The first
// failure wins. Loop goroutine only.
func (e *Env) Fail(err error) { e.r.fail(err) }

// Outcome is what host work produced.
type Outcome struct {
	// Settle builds the promise's value and says whether to reject the
	// promise with it rather than resolve it. It runs on the loop
	// goroutine, so it may use the VM (and so it can still decide to
	// reject, for a result that turns out not to convert). nil resolves
	// to undefined.
	Settle func(vm *goja.Runtime) (v goja.Value, reject bool)
	// Fail, when set, ends the whole run with it (see Env.Fail) instead of
	// settling the promise, interrupting the snippet at once even if it is
	// busy.
	Fail error
	// Discard, when set, is called whenever Settle is not: when Fail is
	// set, and when the run ends before the loop could settle the promise
	// (which then never settles). So exactly one of Settle and Discard is
	// called, for work whose outcome holds something to release or take
	// back when nobody will see it (package bindings finalizes a tool's
	// result with it). It may run on any goroutine: before Run returns,
	// or, for work that outlives the run (abandoned after CancelGrace),
	// when the work returns.
	Discard func()
}

// Work is host work started by Env.Go. It runs on its own goroutine with the
// run's context, and must return promptly once ctx is done.
type Work func(ctx context.Context) Outcome

// Go starts work on its own goroutine and returns a promise that settles
// with its Outcome, back on the loop. The goroutine may be one that ran
// earlier work of the run, or of the session's earlier runs, and waits
// for more (see workers): never one
// that is busy, so that calls run concurrently. The run waits for it, as
// Node waits for pending I/O; when the run ends, ctx is cancelled with
// ErrRunOver (or the run's own cause) and the run waits CancelGrace at
// most. A panic in work rejects the promise. Go does no accounting of its
// own: limits on tool calls, their trace and their events belong to the
// caller (see package bindings and the codeexec Runner). Loop goroutine
// only.
func (e *Env) Go(work Work) goja.Value {
	r := e.r
	// Where the snippet made the call, for the stack of a rejection, which
	// is created later on the loop with no snippet frames of its own.
	c := &hostCall{r: r, work: work, site: r.vm.CaptureCallStack(maxFrames, nil)}
	promise, resolve, reject := r.vm.NewPromise()
	c.resolve, c.reject = resolve, reject
	r.loop.Register()
	r.wg.Add(1)
	r.inFlight.Add(1)
	r.workers.start(c)
	return r.vm.ToValue(promise)
}

// hostCall is one call of Env.Go: its work, done by a worker goroutine,
// then its completion, which settles its promise on the loop.
type hostCall struct {
	r               *run
	work            Work
	site            []goja.StackFrame
	resolve, reject func(any) error
	out             Outcome // set by do, before the loop gets c
}

// do performs the work and hands its outcome to the loop.
func (c *hostCall) do() {
	r := c.r
	defer func() {
		r.inFlight.Add(-1)
		r.wg.Done()
	}()
	c.out = r.doWork(c.work)
	if c.out.Fail != nil {
		// Stop the VM now: the snippet may be busy in a loop that never
		// lets the loop settle the call.
		r.interrupt(c.out.Fail)
	}
	r.loop.Enqueue(c)
}

// Settle settles the promise with the outcome, on the loop (an
// eventloop.Completion).
func (c *hostCall) Settle() error {
	r, out := c.r, c.out
	if out.Fail != nil {
		c.Drop() // Settle is not called: Discard is
		r.fail(out.Fail)
		return out.Fail
	}
	var v goja.Value = goja.Undefined()
	rejected := false
	if out.Settle != nil {
		v, rejected = out.Settle(r.vm)
	}
	// Settling runs the promise jobs it unblocks (the snippet's code after
	// its await): an error here is one they could not catch, a limit's
	// interrupt for one, which ends the run as itself.
	var err error
	if rejected {
		setCallSite(v, c.site)
		err = c.reject(v)
	} else {
		err = c.resolve(v)
	}
	if err != nil {
		return err
	}
	return r.checkRejections()
}

// Drop is what runs instead of Settle when the run ends first.
func (c *hostCall) Drop() {
	if c.out.Discard != nil {
		c.out.Discard()
	}
}

// interrupt interrupts the VM unless the run is over. Any goroutine.
func (r *run) interrupt(v any) {
	r.gate.Lock()
	defer r.gate.Unlock()
	if !r.closed {
		r.vm.Interrupt(v)
	}
}

// setCallSite gives an Error value the stack frames of the call that it
// rejects, so that its position points at the snippet's call.
func setCallSite(v goja.Value, site []goja.StackFrame) {
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() != "Error" || len(site) == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteString(obj.Get("name").String() + ": " + obj.Get("message").String())
	for _, f := range site {
		b.WriteString("\n\tat ")
		f.Write(&b)
	}
	_ = obj.Set("stack", b.String())
}

// doWork runs work, turning a panic into a rejection.
func (r *run) doWork(work Work) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) {
				return NewError(vm, "Error", fmt.Sprintf("host call failed: internal error: %v", p)), true
			}}
		}
	}()
	return work(r.ctx)
}
