package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/console"
	"github.com/codeexec/codeexec/runtime/convert"
	"github.com/codeexec/codeexec/runtime/internal/js"
	"github.com/codeexec/codeexec/runtime/transform"
	"github.com/codeexec/codeexec/runtime/webapi"
)

// installGlobals adds the sandbox globals every run has: console, timers,
// queueMicrotask, a require that gives path and util and explains that
// other modules are unavailable, and the
// web and newer-ECMAScript globals of package webapi (built lazily). The
// names are those of package jsglobals.
func (r *run) installGlobals() error {
	vm := r.vm
	// Named, so that console.log(setTimeout) prints [Function: setTimeout]
	// rather than the Go function's symbol.
	set := func(name string, fn func(goja.FunctionCall) goja.Value) error {
		return vm.Set(name, js.NamedFunction(vm, name, fn))
	}
	for _, g := range []struct {
		name string
		fn   func(goja.FunctionCall) goja.Value
	}{
		{"setTimeout", r.timerFunc(false)},
		{"setInterval", r.timerFunc(true)},
		{"clearTimeout", r.clearTimer},
		{"clearInterval", r.clearTimer},
		{"setImmediate", r.setImmediate},
		{"clearImmediate", r.clearImmediate},
		{"queueMicrotask", r.queueMicrotask},
		{"require", r.require},
	} {
		if err := set(g.name, g.fn); err != nil {
			return err
		}
	}
	if err := vm.Set("console", r.console().Object()); err != nil {
		return err
	}
	r.installStackLimit()
	if err := r.installStackReader(); err != nil {
		return err
	}
	if err := r.installCaptureStackTrace(); err != nil {
		return err
	}
	con := r.console()
	opts := webapi.Options{Features: r.features, RegisterInspect: con.RegisterInspect, Done: r.over, Process: r.processGlobal(), Format: con.FormatWith, Inspect: con.InspectWith, Now: r.src.now, Random: r.src}
	if r.sess != nil {
		// The session's global object serves run after run: the web
		// classes are kept, process and performance built again for this one.
		opts.Shared = &r.sess.web
	}
	web, err := webapi.Install(vm, opts)
	if err != nil {
		return err
	}
	r.web = web
	return nil
}

// over reports whether the run is over: its context is done. Any
// goroutine.
func (r *run) over() bool { return r.ctx != nil && r.ctx.Err() != nil }

// console returns the run's console, which also formats the values in the
// run's messages and its return value; it is made on first use. Loop
// goroutine only.
func (r *run) console() *console.Console {
	if r.con != nil {
		return r.con
	}
	opts := console.Options{Stdout: r.stdout.write, Stderr: r.stderr.write, Stack: r.rewriteStack, Done: r.over}
	opts.CustomInspect = r.customInspect()
	r.con = console.New(r.vm, opts)
	return r.con
}

// customInspect reports whether the run's console honours the values'
// own custom inspect methods: when the snippet may use inspect.custom
// (transform.CustomInspect), and in a session in every run after one
// that may have, whose values may have such a method.
func (r *run) customInspect() bool {
	has := r.features.Has(transform.CustomInspect)
	if r.sess == nil {
		return has
	}
	if has {
		r.sess.customInspect = true
	}
	return r.sess.customInspect
}

// timerFunc implements setTimeout (repeat false) and setInterval.
func (r *run) timerFunc(repeat bool) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(r.vm.NewTypeError("The \"callback\" argument must be of type function. Received " + r.console().Format(call.Argument(0))))
		}
		// As in Node: a delay that is not a number, below 1, or over
		// 2**31-1 (Infinity included) is 1 ms; past the maximum Node also
		// warns, which stderr here says.
		ms := call.Argument(1).ToFloat()
		if ms > float64(math.MaxInt32) {
			r.stderr.write(fmt.Sprintf("(codeexec) TimeoutOverflowWarning: %s does not fit into a 32-bit signed integer.\nTimeout duration was set to 1.\n", js.NumberString(ms)))
			ms = 1
		}
		if math.IsNaN(ms) || ms < 1 {
			ms = 1
		}
		var args []goja.Value
		if len(call.Arguments) > 2 {
			args = append(args, call.Arguments[2:]...)
		}
		id := r.loop.AddTimer(time.Duration(ms*float64(time.Millisecond)), repeat, func() error {
			if _, err := r.macrotask(func() (goja.Value, error) { return fn(goja.Undefined(), args...) }); err != nil {
				return err
			}
			return r.checkRejections()
		})
		return r.timeoutObject(id)
	}
}

// queueMicrotask schedules fn as a promise job, which runs before any timer
// or host call completes.
func (r *run) queueMicrotask(call goja.FunctionCall) goja.Value {
	fn := call.Argument(0)
	if _, ok := goja.AssertFunction(fn); !ok {
		panic(r.vm.NewTypeError("The \"callback\" argument must be of type function. Received " + r.console().Format(fn)))
	}
	p, resolve, _ := r.vm.NewPromise()
	then, _ := goja.AssertFunction(r.vm.ToValue(p).ToObject(r.vm).Get("then"))
	if _, err := then(r.vm.ToValue(p), fn); err != nil {
		panic(err)
	}
	_ = resolve(goja.Undefined())
	return goja.Undefined()
}

// require gives the path and util modules (as node:path, node:util too)
// and refuses every other name, explaining that modules are unavailable.
func (r *run) require(call goja.FunctionCall) goja.Value {
	name := call.Argument(0).String()
	if m, ok := r.web.Require(name); ok {
		return m
	}
	panic(NewError(r.vm, "Error", "require("+strconv.Quote(name)+") is not supported: "+transform.ModulesHint))
}

// setValue stores the snippet's return value in res, as data and as text.
// Formatting never calls getters; the JSON export does, as JSON.stringify
// would: an exception it raises becomes the run's error (the snippet's own
// exception, not an internal one) and a timeout meanwhile ends the run with
// the timeout.
func (r *run) setValue(res *Result, v goja.Value) {
	if !js.Defined(v) {
		return
	}
	text, aborted, err := r.console().Inspect(v)
	if err == nil && aborted {
		err = context.Cause(r.ctx)
	}
	if err != nil {
		res.Error = r.valueError(err)
		return
	}
	if text == "" && goja.IsString(v) {
		text = "''" // an empty string, not nothing
	}
	res.ValueText = text
	data, err := convert.ExportJSON(r.vm, v)
	if err == nil && r.ctx.Err() != nil {
		err = context.Cause(r.ctx)
	}
	if err != nil {
		res.Error = r.valueError(err)
		return
	}
	res.Value = data
}

// valueError describes a failure to convert the return value: an exception
// or a limit (through toError), or a value JSON cannot hold.
func (r *run) valueError(err error) *Error {
	var limit *LimitError
	if js.IsVMError(err) || errors.As(err, &limit) {
		return r.toError(err)
	}
	return &Error{Name: "TypeError", Message: fmt.Sprintf("the return value cannot be converted to JSON: %v", err), Kind: KindException}
}
