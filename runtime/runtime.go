package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/codeexec/codeexec/runtime/console"
	"github.com/codeexec/codeexec/runtime/transform"
)

// Defaults for the zero values of Options.
const (
	DefaultTimeout            = 30 * time.Second
	DefaultMaxStackDepth      = 1000
	DefaultMaxOutputBytes     = 1 << 20
	DefaultMaxCalls           = 1000
	DefaultMaxConcurrentCalls = 8
	DefaultMaxSourceBytes     = 1 << 20
	DefaultCancelGrace        = 2 * time.Second
	DefaultFilename           = "snippet.ts"
)

// Options configure one run. Zero values take the defaults above.
type Options struct {
	// Filename names the snippet in errors and stacks; its extension picks
	// the loader (.js, .mjs, .cjs: JavaScript; anything else: TypeScript).
	Filename string
	// Stdout and Stderr, when set, receive console output as it is printed
	// (log, info, debug to Stdout; warn, error to Stderr), up to
	// MaxOutputBytes each, followed by one notice line if more was dropped.
	// Output is captured in the Result either way.
	Stdout, Stderr io.Writer
	// Timeout bounds the run's wall-clock time, including pending host work.
	Timeout time.Duration
	// MaxStackDepth bounds the JavaScript call stack, in frames.
	MaxStackDepth int
	// MaxOutputBytes bounds the captured text of each of stdout and stderr;
	// the tail is kept and Result.Truncated is set.
	MaxOutputBytes int
	// MaxCalls bounds the number of host calls (tool calls) in a run.
	MaxCalls int
	// MaxConcurrentCalls bounds host calls running at once; more wait.
	MaxConcurrentCalls int
	// MaxSourceBytes bounds the snippet's size, checked before anything else.
	MaxSourceBytes int
	// CancelGrace is how long a finished run waits for cancelled host calls
	// to return before it gives up on them.
	CancelGrace time.Duration
	// MaxNesting bounds how deeply brackets nest in the snippet, checked
	// before parsing (see DefaultMaxNesting).
	MaxNesting int
	// MemoryLimit, when positive, interrupts the run once the process's heap
	// has grown this many bytes since the run started. In process it is a
	// guard against runaway growth, not a hard bound: one huge native
	// allocation can still exhaust memory before it fires.
	MemoryLimit int64
	// AllowEval keeps eval and the Function constructors, which are
	// otherwise replaced by functions that throw an EvalError.
	AllowEval bool
	// Setup installs globals (for example tool bindings) before the snippet
	// runs. It is called on the loop goroutine with the run's Env.
	Setup func(env *Env) error
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxStackDepth, DefaultMaxStackDepth)
	def(&o.MaxOutputBytes, DefaultMaxOutputBytes)
	def(&o.MaxCalls, DefaultMaxCalls)
	def(&o.MaxConcurrentCalls, DefaultMaxConcurrentCalls)
	def(&o.MaxSourceBytes, DefaultMaxSourceBytes)
	def(&o.MaxNesting, DefaultMaxNesting)
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.CancelGrace <= 0 {
		o.CancelGrace = DefaultCancelGrace
	}
	if o.Filename == "" {
		o.Filename = DefaultFilename
	}
	return o
}

// Run executes source and reports what happened. It never panics and never
// returns nil: compile errors, exceptions, limits and cancellation of ctx
// are all described by Result.Error. When Run returns, every timer is gone
// and every host call has returned or been abandoned after CancelGrace (its
// context is cancelled either way).
func Run(ctx context.Context, source string, opts Options) *Result {
	setRegexpTimeout()
	opts = opts.withDefaults()
	start := time.Now()
	r := &run{opts: opts}
	r.stdout = newOutput(opts.Stdout, opts.MaxOutputBytes)
	r.stderr = newOutput(opts.Stderr, opts.MaxOutputBytes)
	res := r.execute(ctx, source)
	res.Stdout, res.Stderr = r.stdout.finish(), r.stderr.finish()
	res.Truncated = r.stdout.dropped > 0 || r.stderr.dropped > 0
	res.Duration = time.Since(start)
	return res
}

// run is the state of one Run.
type run struct {
	opts   Options
	vm     *goja.Runtime
	loop   *loop
	ctx    context.Context // cancelled when the run ends; host calls get it
	cancel context.CancelCauseFunc
	stdout *output
	stderr *output
	source []string // the original source, split into lines
	// code is the compiled snippet, which maps positions back to it; nil
	// until compile succeeds.
	code *transform.Program

	mu    sync.Mutex // guards calls
	calls []CallRecord
	nCall int
	sem   chan struct{}
	wg    sync.WaitGroup

	rejections []*goja.Promise // rejected with no handler yet
	top        *goja.Promise
	fatal      error // a limit hit inside a host function; ends the run
	con        *console.Console
	// mayMakeGenerators: the source has a "*", without which it cannot
	// declare a generator function.
	mayMakeGenerators bool
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
	r.source = transform.SplitLines(source)
	r.mayMakeGenerators = strings.Contains(source, "*")
	if e := nestingError(r.opts.Filename, source, r.opts.MaxNesting); e != nil {
		res.Error = e
		return res
	}
	prog, cerr := r.compile(source)
	if cerr != nil {
		res.Error = cerr
		return res
	}

	ctx, cancel := context.WithTimeoutCause(parent, r.opts.Timeout, &limitErr{msg: fmt.Sprintf("the run exceeded its timeout of %s", r.opts.Timeout)})
	defer cancel()
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	r.sem = make(chan struct{}, r.opts.MaxConcurrentCalls)
	r.loop = newLoop()
	r.vm = goja.New()
	r.vm.SetMaxCallStackSize(r.opts.MaxStackDepth)
	r.vm.SetParserOptions(parser.WithDisableSourceMaps)
	r.vm.SetPromiseRejectionTracker(r.trackRejection)
	stopInterrupt := context.AfterFunc(r.ctx, func() { r.vm.Interrupt(context.Cause(r.ctx)) })

	defer func() {
		stopInterrupt()
		r.cancel(errRunOver)
		r.waitCalls()
		res.ToolCalls = r.trace()
		if p := recover(); p != nil {
			res.Error = &Error{Name: "InternalError", Message: fmt.Sprintf("codeexec internal error: %v", p), Kind: KindInternal}
		}
	}()

	setup := func() error {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if err := r.installGlobals(); err != nil {
			return err
		}
		if mayBacktrack(source) {
			if err := r.guardRegexp(); err != nil {
				return err
			}
		}
		return r.restrictCodeGeneration(r.opts.AllowEval)
	}
	if err := setup(); err != nil {
		res.Error = r.setupError(err)
		return res
	}
	if r.opts.MemoryLimit > 0 {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.watchHeap(r.opts.MemoryLimit, stop)
		}()
		defer func() {
			close(stop)
			<-done
		}()
	}
	if r.opts.Setup != nil {
		if err := r.opts.Setup(&Env{r: r}); err != nil {
			res.Error = r.setupError(err)
			return res
		}
	}

	v, err := r.vm.RunProgram(prog.Code())
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
		err = r.loop.run(r.ctx,
			func() bool { return r.top == nil || r.top.State() != goja.PromiseStatePending },
			func() error { return r.fatal })
	}
	if err != nil {
		res.Error = r.toError(err)
		return res
	}
	if r.top != nil && r.top.State() == goja.PromiseStateRejected {
		res.Error = r.errorFromValue(r.top.Result())
		return res
	}
	if r.top != nil {
		r.setValue(res, r.top.Result())
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

// errRunOver cancels host calls still in flight when a run ends normally.
var errRunOver = errors.New("the run ended before this call finished")

// waitCalls waits for host calls to return after the run's context was
// cancelled, for at most CancelGrace.
func (r *run) waitCalls() {
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

// limitErr is the cause of an interrupt for a limit.
type limitErr struct{ msg string }

func (e *limitErr) Error() string { return e.msg }

// Env is what a Setup function uses to install globals and start host work.
// Its methods must be called on the loop goroutine: from Setup itself or from
// JavaScript functions it installed.
type Env struct{ r *run }

// VM returns the run's goja runtime. It must only be used on the loop
// goroutine and must not be kept after the run.
func (e *Env) VM() *goja.Runtime { return e.r.vm }

// Context returns the run's context, which is cancelled when the run ends.
func (e *Env) Context() context.Context { return e.r.ctx }

// Call describes host work for the run's trace.
type Call struct {
	// Name is what is called, typically a tool name.
	Name string
	// Params are the call's arguments as JSON-able data.
	Params any
}

// Outcome is what host work produced.
type Outcome struct {
	// Value converts the work's result to a JavaScript value. It runs on the
	// loop goroutine, so it may use the VM. nil means undefined.
	Value func(vm *goja.Runtime) goja.Value
	// Reject rejects the promise with that value instead of resolving it.
	Reject bool
	// IsError marks the call as failed in the trace (a rejection always is).
	IsError bool
}

// Work is host work started by Env.Go. It runs on its own goroutine with the
// run's context and the call's id, and must return promptly once ctx is done.
type Work func(ctx context.Context, id string) Outcome

// Go starts work on its own goroutine and returns a promise that settles
// with its Outcome, back on the loop. The run waits for it, as Node waits
// for pending I/O. At most MaxConcurrentCalls run at once; the call that
// exceeds MaxCalls ends the run with a limit error. A panic in work rejects
// the promise.
func (e *Env) Go(call Call, work Work) goja.Value {
	r := e.r
	r.mu.Lock()
	r.nCall++
	n := r.nCall
	r.mu.Unlock()
	if n > r.opts.MaxCalls {
		err := &limitErr{msg: fmt.Sprintf("the run made more than %d tool calls, its limit", r.opts.MaxCalls)}
		r.fail(err)
		panic(NewError(r.vm, "LimitError", err.msg)) // unwinds the snippet; the run ends with err
	}
	id := "call_" + strconv.Itoa(n)
	idx := r.record(CallRecord{ID: id, Name: call.Name, Params: call.Params})
	// Where the snippet made the call, for the stack of a rejection, which
	// is created later on the loop with no snippet frames of its own.
	site := r.vm.CaptureCallStack(maxFrames, nil)
	promise, resolve, reject := r.vm.NewPromise()
	enqueue := r.loop.register()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		out, dur := r.doWork(call, work, id)
		r.mu.Lock()
		r.calls[idx].IsError, r.calls[idx].Duration = out.IsError || out.Reject, dur
		r.mu.Unlock()
		enqueue(func() error {
			v := goja.Undefined()
			if out.Value != nil {
				v = out.Value(r.vm)
			}
			if out.Reject {
				setCallSite(v, site)
				_ = reject(v)
			} else {
				_ = resolve(v)
			}
			return r.checkRejections()
		})
	}()
	return r.vm.ToValue(promise)
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

// doWork waits for a concurrency slot and runs work, turning a panic or a
// run that ended first into a rejection.
func (r *run) doWork(call Call, work Work, id string) (out Outcome, dur time.Duration) {
	select {
	case r.sem <- struct{}{}:
	case <-r.ctx.Done():
		return rejectWith(fmt.Sprintf("%s was not started: %v", call.Name, context.Cause(r.ctx))), 0
	}
	defer func() { <-r.sem }()
	start := time.Now()
	defer func() {
		dur = time.Since(start)
		if p := recover(); p != nil {
			out = rejectWith(fmt.Sprintf("%s failed: internal error: %v", call.Name, p))
		}
	}()
	return work(r.ctx, id), 0
}

func rejectWith(msg string) Outcome {
	return Outcome{Reject: true, IsError: true, Value: func(vm *goja.Runtime) goja.Value {
		return NewError(vm, "Error", msg)
	}}
}

// record appends c to the trace and returns its index.
func (r *run) record(c CallRecord) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	return len(r.calls) - 1
}

// trace returns a copy of the recorded calls in the order they started.
func (r *run) trace() []CallRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]CallRecord(nil), r.calls...)
}
