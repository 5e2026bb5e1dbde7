package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/transform"
	"github.com/codeexec/codeexec/runtime/webapi"
)

// Session is a sequence of runs that share one VM and its global scope, as
// in Node's REPL: what a snippet declares at its top level (const, let,
// var, function, class; see package transform's CompileSession for how)
// and whatever it puts on globalThis or changes in a prototype is there
// for the next snippet of the session. Each run has its own Options
// (limits), output, result, error, event loop and host calls, exactly as
// a Run: timers, intervals and host calls do not outlive their run, and a
// promise that one of them would have settled stays pending.
//
// Before every run the sandbox globals (console, timers, queueMicrotask,
// require) are installed again, and Options.Setup runs again (tool
// bindings), so they belong to the run that uses them, and a snippet that
// replaced one of them gets it back in the next run. The web classes and
// functions (URL, TextEncoder, EventTarget, Intl, Buffer...) are built
// once per session, so that what an earlier run made with them is still
// an instance of them, and they act for the run in progress (its
// console, timers and clock); process and performance are built again
// for the run that reads them: one that an earlier run built is removed
// before the next run unless the snippet replaced, redefined or deleted
// it (see webapi.Shared). A reference to one of the per-run globals that
// a snippet kept in a variable of its own is the old run's: calling it
// in a later run does nothing (console output is dropped, a timer never
// fires), and a Setup function should refuse (see Env.Over; package
// bindings' tool functions throw). The eval restriction, the
// regular-expression guard and webapi's replacements of RegExp and Date
// are installed once and hold for every run; so do, from the first run
// whose snippet may use them, Error.captureStackTrace and the console's
// honouring of custom inspect methods.
//
// What a failed run leaves: a run that throws, is rejected or hits a limit
// (timeout, memory, stack, output, tool calls) leaves every global it
// assigned before it stopped, including the top-level declarations whose
// statements ran, and every top-level function declaration of the snippet
// (they are globals from its first instruction); a let, const or class
// whose statement did not run is not defined afterwards (unless an earlier
// run defined it: then it keeps that value). A snippet that does not
// compile changes nothing.
//
// A run that panics inside the engine (an internal error), whose set-up
// fails (an earlier snippet made a global that the sandbox or a tool
// binding needs non-writable, or froze globalThis), or after which the VM
// cannot be repaired (see repairVM) ends the session: Ended reports it,
// and later runs fail with an error saying so.
// The caller (a codeexec Runner) then starts a new Session.
//
// Run calls are serialized: a Run waits for the one in progress. The VM is
// only touched by the run that holds it. A Session holds no goroutine
// between runs; Close drops the VM.
type Session struct {
	mu     sync.Mutex
	vm     *goja.Runtime
	ended  error // why the VM was discarded; nil while it lives
	closed bool

	hard hardening // what the VM has of the hardening
	// workers are the goroutines that ran its runs' host work, waiting
	// for the next run's (up to sessionWorkerIdle each), so that a call
	// runs on a stack an earlier one grew; Close stops them.
	workers workers
	idle    idleVM // the VM's idle state, for repairVM
	// web is what package webapi keeps about the VM's global object
	// between runs.
	web webapi.Shared

	// hasOwn is Object.prototype.hasOwnProperty of the VM, taken before
	// any snippet could replace it.
	hasOwn goja.Callable
	// ownDescriptor is the VM's Object.getOwnPropertyDescriptor, taken
	// likewise (see installStackReader).
	ownDescriptor goja.Callable
	// pending are the names this run defined as not yet initialized,
	// with whether the run assigned them; set and read by the run that
	// holds mu.
	pending map[string]*bool
	// runs counts the runs compiled in the session, and programs are the
	// last maxSessionPrograms of their programs, each with the number of
	// the run that compiled it: a stack through a function an earlier run
	// defined is mapped to that run's snippet and named by that run (see
	// sessionProgramName). Held by the run that holds mu.
	runs     int
	programs []sessionProgram
	// captureStack: a run defined Error.captureStackTrace, which every
	// later run defines again (see installCaptureStackTrace). Held by
	// the run that holds mu.
	captureStack bool
	// customInspect: a run's snippet may have used inspect.custom, so
	// every later run's console honours custom inspect methods (see
	// customInspect). Held by the run that holds mu.
	customInspect bool
}

// maxSessionPrograms bounds the earlier runs' programs a session keeps for
// mapping stacks; frames of older runs keep goja's positions.
const maxSessionPrograms = 64

// sessionProgram is the program of one of a session's runs.
type sessionProgram struct {
	code *transform.Program
	// name is how stacks name the run's code (see sessionProgramName).
	name string
}

// sessionProgramName is how a stack names the code of a session's nth
// run: its filename and "#n". A frame of the run itself shows the
// filename alone once mapped; one of an earlier run's code shows that
// name, so that it says which run's snippet its position is in.
func sessionProgramName(filename string, n int) string {
	return filename + "#" + strconv.Itoa(n)
}

// compile compiles the snippet of the session's next run, with echo as
// Options.Echo says, and keeps the program, for mapping the stacks of
// later runs. Programs are cached (transform.CompileSessionCached), so a
// snippet sent again skips esbuild and goja's compiler; each has a name
// of its own in goja's stacks, which program maps back to the run. Two
// runs of one snippet share its Program: a frame of a function either
// defined is named by the later (the position, in the same text, is the
// same), the run's own filename when the later is the run itself.
func (s *Session) compile(source, filename string, echo bool) (*transform.Program, *transform.Diagnostic) {
	s.runs++
	p, d := transform.CompileSessionCached(source, filename, echo)
	if d != nil {
		return nil, d
	}
	s.programs = append(s.programs, sessionProgram{code: p, name: sessionProgramName(filename, s.runs)})
	if len(s.programs) > maxSessionPrograms {
		s.programs = slices.Delete(s.programs, 0, len(s.programs)-maxSessionPrograms)
	}
	return p, nil
}

// program returns the program of an earlier run whose code goja's stacks
// name name, and that run's name for stacks (see sessionProgramName); nil
// when no run the session keeps has it.
func (s *Session) program(name string) (*transform.Program, string) {
	for i := len(s.programs) - 1; i >= 0; i-- {
		if p := s.programs[i]; p.code.Name() == name {
			return p.code, p.name
		}
	}
	return nil, ""
}

// ErrSessionEnded is what the error of a Run on an ended or closed
// Session unwraps to.
var ErrSessionEnded = errors.New("the session has ended")

// NewSession returns a session whose VM is made by its first run. Close
// it when done: it keeps the goroutines that ran its host calls, each for
// sessionWorkerIdle after its last call.
func NewSession() *Session { return &Session{workers: workers{idle: sessionWorkerIdle}} }

// sessionWorkerIdle is how long a goroutine that ran a session's host call
// waits for another before it returns: long enough for a model's next
// snippet, short enough that an idle session keeps none.
const sessionWorkerIdle = 30 * time.Second

// Run runs source in the session, as the package's Run does otherwise
// (same options, same guarantees when it returns), with its top-level
// declarations kept as globals for the next run. On an ended or closed
// session it runs nothing and returns an error that unwraps to
// ErrSessionEnded.
func (s *Session) Run(ctx context.Context, source string, opts Options) *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return &Result{Error: (&Error{Name: "SessionError", Message: "the session is closed", Kind: KindCanceled}).WithCause(ErrSessionEnded)}
	case s.ended != nil:
		return &Result{Error: (&Error{Name: "SessionError", Message: "the session has ended: " + s.ended.Error(), Kind: KindInternal}).WithCause(ErrSessionEnded)}
	}
	res := runIn(ctx, source, opts, s)
	if s.ended == nil && res.Error != nil && res.Error.Name == "SetupError" {
		// Something an earlier snippet did (a non-writable global where a
		// sandbox global or a tool goes, a frozen globalThis) would fail
		// every later run the same way: a fresh session is the way out.
		s.end(fmt.Errorf("a run could not be set up in it: %s", res.Error.Message))
	}
	if s.ended != nil && res.Error != nil {
		res.Error.Message += "; the session has ended: " + s.ended.Error()
	}
	return res
}

// Ended reports why the session's VM was discarded (a run's internal
// error), or nil while it lives. Safe for concurrent use; it waits for a
// run in progress.
func (s *Session) Ended() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

// Close ends the session and drops its VM, after the run in progress (if
// any) has returned; cancel that run's context to end it sooner. Later
// runs fail. Close is idempotent.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.workers.stop()
	}
	s.closed = true
	s.vm, s.hasOwn, s.ownDescriptor = nil, nil, nil
}

// takeVM returns the session's VM, made on first use, with no interrupt
// left over from the last run. The run holds s.mu.
func (s *Session) takeVM(r *run) *goja.Runtime {
	r.reused = s.vm != nil
	if s.vm == nil {
		s.vm = goja.New()
		s.idle = captureIdle(s.vm)
		fn, _ := goja.AssertFunction(s.vm.Get("Object").ToObject(s.vm).Get("prototype").ToObject(s.vm).Get("hasOwnProperty"))
		s.hasOwn = fn
		s.ownDescriptor, _ = goja.AssertFunction(s.vm.Get("Object").ToObject(s.vm).Get("getOwnPropertyDescriptor"))
	}
	s.vm.ClearInterrupt()
	return s.vm
}

// end discards the VM after a run that may have left it inconsistent or
// unusable; why says what happened.
func (s *Session) end(why error) {
	s.ended = why
	s.vm, s.hasOwn, s.ownDescriptor = nil, nil, nil
}

// hardening is what a VM has of the hardening that a run installs
// before the snippet: the eval restriction, the JSON.parse guard, and,
// once a snippet may need it, the restriction of the generator
// constructor. A run of its own starts from the zero value; a session
// keeps one, so that each is installed once per VM.
type hardening struct {
	// always: the eval restriction and the JSON.parse guard, which every
	// VM gets; generators: the restriction of the generator constructor
	// too.
	always, generators bool
	// allowEval is the AllowEval of the run that installed the eval
	// restriction, which holds for the VM's later runs.
	allowEval bool
}

// apply installs on r's VM what it does not have yet of the hardening:
// the eval restriction and the JSON.parse guard, and the restriction of
// the generator constructor when the snippet may make a generator
// (transform.Generators): in a session, the first snippet that may,
// whatever the earlier ones had.
func (h *hardening) apply(r *run) error {
	generators := r.features.Has(transform.Generators)
	if !h.always {
		if err := r.restrictCodeGeneration(r.opts.AllowEval, generators); err != nil {
			return err
		}
		if err := guardJSONParse(r.vm); err != nil {
			return err
		}
		h.always, h.generators, h.allowEval = true, generators, r.opts.AllowEval
	}
	if generators && !h.generators {
		if err := r.restrictGenerators(h.allowEval); err != nil {
			return err
		}
		h.generators = true
	}
	return nil
}

// declare defines on the global object the names the snippet declares at
// top level that it does not have yet: a var as undefined; a let, const,
// class or function as not yet initialized (reading it throws a
// ReferenceError, as in its temporal dead zone) until the snippet assigns
// it, which makes it a plain global.
func (s *Session) declare(r *run, globals []transform.Global) error {
	s.pending = nil
	vm := r.vm
	g := vm.GlobalObject()
	for _, gl := range globals {
		own, err := s.hasOwn(g, vm.ToValue(gl.Name))
		if err != nil {
			return err
		}
		if own.ToBoolean() {
			continue
		}
		if !gl.Lexical {
			if err := g.DefineDataProperty(gl.Name, goja.Undefined(), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				return err
			}
			continue
		}
		name := gl.Name
		assigned := new(bool)
		getter := vm.ToValue(func(goja.FunctionCall) goja.Value {
			panic(NewError(vm, "ReferenceError", fmt.Sprintf("Cannot access '%s' before initialization", name)))
		})
		setter := vm.ToValue(func(call goja.FunctionCall) goja.Value {
			*assigned = true
			if err := g.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				panic(err)
			}
			return goja.Undefined()
		})
		if err := g.DefineAccessorProperty(name, getter, setter, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return err
		}
		if s.pending == nil {
			s.pending = map[string]*bool{}
		}
		s.pending[name] = assigned
	}
	return nil
}

// afterRun ends a run of the session, once nothing can interrupt the VM
// for it any more: it repairs the VM if an interrupt left it unbalanced,
// then removes the names that declare left uninitialized and the run
// never assigned (their declarations did not run).
func (s *Session) afterRun(r *run) {
	if s.vm == nil {
		return
	}
	s.vm.ClearInterrupt()
	if unbalanced(r.vm) && !repairVM(r.vm, s.idle) {
		s.end(errors.New("a limit stopped the run inside an async function, which left the engine unable to run promise callbacks"))
		return
	}
	g := r.vm.GlobalObject()
	for name, assigned := range s.pending {
		if !*assigned {
			_ = g.Delete(name)
		}
	}
	s.pending = nil
}

// Over reports whether the run is over (its context is done). A function
// that Setup installed can be called after its run in a session, by a
// snippet that kept it in a variable of its own: it should then refuse
// rather than start host work for a run that has ended. Loop goroutine.
func (e *Env) Over() bool { return e.r.over() }

// Reused reports whether the run's VM served an earlier run of its
// session: its globals then include what earlier runs and their Setup
// installed (a Setup installs its functions again, over its own). False
// for a run of its own and for a session's first run.
func (e *Env) Reused() bool { return e.r.reused }
