package runtime

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/webapi"
)

// ProcessOptions configure the process global of a run. The zero value
// gives an empty process.env, process.argv ["codeexec", Filename] and
// process.cwd() "/".
type ProcessOptions struct {
	// Env is process.env: only these variables, never the host's. The map
	// is read, not kept.
	Env map[string]string `json:"env,omitempty"`
	// Argv is process.argv; empty means ["codeexec", Filename].
	Argv []string `json:"argv,omitempty"`
	// Cwd is what process.cwd() returns, normally the root the tools work
	// in; empty means "/".
	Cwd string `json:"cwd,omitempty"`
}

// exitRequest is the interrupt of process.exit(code): it ends the run at
// the next VM instruction, uncatchable by try/catch.
type exitRequest struct{ code int }

func (e *exitRequest) Error() string {
	return fmt.Sprintf("the snippet exited with code %d (process.exit)", e.code)
}

// exitError describes a run that ended with a non-zero exit code: through
// process.exit(code), or by finishing with process.exitCode set.
func exitError(code int, how string) *Error {
	msg := fmt.Sprintf("the snippet exited with code %d (%s)", code, how)
	return &Error{Name: "ExitError", Message: msg, Stack: "ExitError: " + msg, Kind: KindException}
}

// processGlobal returns how webapi builds the run's process global.
func (r *run) processGlobal() webapi.Process {
	p := r.opts.Process
	argv := p.Argv
	if len(argv) == 0 {
		argv = []string{"codeexec", r.opts.Filename}
	}
	return webapi.Process{
		Env:  p.Env,
		Argv: argv,
		Cwd:  p.Cwd,
		Write: func(fd int, s string) {
			if fd == 2 {
				r.stderr.write(s)
				return
			}
			r.stdout.write(s)
		},
		Exit:        func(code int) { r.fail(&exitRequest{code: code}) },
		SetExitCode: func(code int) { r.exitCode = code },
		Ticks:       func(drain goja.Callable) { r.drainTicks = drain },
	}
}

// runTicks runs the callbacks queued by process.nextTick, if any, and
// reports whether it did. The loop calls it at the start of each turn,
// when the microtask queue has drained.
func (r *run) runTicks() (bool, error) {
	drain := r.drainTicks
	if drain == nil {
		return false, nil
	}
	r.drainTicks = nil
	if _, err := drain(goja.Undefined()); err != nil {
		return true, err
	}
	return true, r.checkRejections()
}

// exited reports whether err is the end of a run through process.exit,
// and then sets res.Error to what the exit code means: nothing for 0.
func exited(res *Result, err error) bool {
	var ex *exitRequest
	if !errors.As(err, &ex) {
		return false
	}
	if ex.code != 0 {
		res.Error = exitError(ex.code, "process.exit")
	}
	return true
}

// setImmediate schedules a callback for the loop's check phase: after the
// current turn's promise jobs and host work, before the next due timer.
func (r *run) setImmediate(call goja.FunctionCall) goja.Value {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(r.vm.NewTypeError("The \"callback\" argument must be of type function. Received " + r.console().Format(call.Argument(0))))
	}
	var args []goja.Value
	if len(call.Arguments) > 1 {
		args = append(args, call.Arguments[1:]...)
	}
	id := r.loop.AddImmediate(func() error {
		if _, err := r.macrotask(func() (goja.Value, error) { return fn(goja.Undefined(), args...) }); err != nil {
			return err
		}
		return r.checkRejections()
	})
	return r.immediateObject(id)
}

// immediateObject is what setImmediate returns: an Immediate object, as
// in Node, that clearImmediate takes.
func (r *run) immediateObject(id int64) goja.Value {
	if r.immediateProto == nil {
		r.immediateProto = r.vm.NewObject()
		ctor := r.vm.NewObject()
		_ = ctor.Set("name", "Immediate")
		_ = r.immediateProto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = r.immediateProto.Set("hasRef", func(goja.FunctionCall) goja.Value { return r.vm.ToValue(true) })
		_ = r.immediateProto.Set("ref", func(c goja.FunctionCall) goja.Value { return c.This })
		_ = r.immediateProto.Set("unref", func(c goja.FunctionCall) goja.Value { return c.This })
	}
	o := r.vm.NewObject()
	_ = o.SetPrototype(r.immediateProto)
	_ = o.DefineDataPropertySymbol(immediateID, r.vm.ToValue(id), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return o
}

// immediateID keys the id of an Immediate object.
var immediateID = goja.NewSymbol("immediateId")

func (r *run) clearImmediate(call goja.FunctionCall) goja.Value {
	if o, ok := call.Argument(0).(*goja.Object); ok {
		if id := o.GetSymbol(immediateID); id != nil {
			r.loop.ClearImmediate(id.ToInteger())
		}
	}
	return goja.Undefined()
}
