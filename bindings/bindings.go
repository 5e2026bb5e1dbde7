// Package bindings is the only package that knows both the JavaScript side
// and the tool side: for every registered tool that has a CallSignature it
// installs one async global function in a run, maps the function's
// positional arguments onto the tool's parameters, runs the tool through
// registry.CallTool on its own goroutine, and shapes the result into a
// JavaScript value as the signature's return type says. It also installs
// the global callTool(name, params).
package bindings

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/internal/suggest"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Binder installs a Caller's tools into runs. It is safe for concurrent use
// by many runs; each run sees the tools as they are when the run starts.
type Binder struct {
	reg toolcall.Caller
}

// New returns a Binder for reg: a *registry.Registry, or a Caller that
// accounts for the calls (see toolcall.Starter).
func New(reg toolcall.Caller) *Binder {
	return &Binder{reg: reg}
}

// Setup installs the tool functions and callTool into env's VM. Use it as
// runtime.Options.Setup. A call's result is delivered on the run's loop:
// converted to a JavaScript value, then finalized (registry.Result.
// Finalize) with true, then the promise resolves; with false instead when
// it is an error result, when it cannot be converted, and when the run
// ends before the loop got to it. It fails when a signature does not parse or its
// function name is already a global of the run (except in a later run of
// a session, where it is the binding of an earlier run, replaced).
//
// A tool with a Namespace is installed as a method of one global object per
// namespace (`everything.echo`), created with the namespace's first tool;
// the namespace must not already be a global of the run (again except in a
// later run of a session, where it is replaced).
func (b *Binder) Setup(env *runtime.Env) error {
	vm := env.VM()
	spaces := map[string]*goja.Object{}
	for _, info := range b.reg.Tools() {
		if info.CallSignature == "" {
			continue
		}
		sig, err := signature.ParseShared(info.CallSignature) // parsed already when the tool was registered
		if err != nil {
			return fmt.Errorf("bind tool %s: %w", info.Name, err)
		}
		t := &tool{b: b, env: env, info: info, sig: sig}
		t.prepare = t.payload
		if info.Namespace == "" {
			if !env.Reused() && vm.Get(sig.Name) != nil {
				return fmt.Errorf("bind tool %s: function name %q would shadow an existing global", info.Name, sig.Name)
			}
			if err := vm.Set(sig.Name, runtime.NamedFunction(vm, sig.Name, t.call)); err != nil {
				return fmt.Errorf("bind tool %s: %w", info.Name, err)
			}
			continue
		}
		obj := spaces[info.Namespace]
		if obj == nil {
			if !env.Reused() && vm.Get(info.Namespace) != nil {
				return fmt.Errorf("bind tool %s: namespace %q would shadow an existing global", info.Name, info.Namespace)
			}
			obj = vm.NewObject()
			if err := vm.Set(info.Namespace, obj); err != nil {
				return fmt.Errorf("bind tool %s: %w", info.Name, err)
			}
			spaces[info.Namespace] = obj
		}
		if err := obj.Set(sig.Name, runtime.NamedFunction(vm, sig.Name, t.call)); err != nil {
			return fmt.Errorf("bind tool %s: %w", info.Name, err)
		}
		env.Suggest(t.jsName())
	}
	return vm.Set("callTool", runtime.NamedFunction(vm, "callTool", func(call goja.FunctionCall) goja.Value { return b.callTool(env, call) }))
}

// tool is one bound tool in one run.
type tool struct {
	b    *Binder
	env  *runtime.Env
	info registry.Info
	sig  *signature.Signature
	// prepare is t.payload, made once: calls share it.
	prepare func(registry.Result) payload
}

// jsName is the name a snippet calls the tool by: NS.fn in a namespace.
func (t *tool) jsName() string {
	if t.info.Namespace != "" {
		return t.info.Namespace + "." + t.sig.Name
	}
	return t.sig.Name
}

// call is the JavaScript function bound to the tool.
func (t *tool) call(call goja.FunctionCall) goja.Value {
	vm := t.env.VM()
	params, err := t.params(vm, call.Arguments)
	if err != nil {
		failOnLimit(t.env, err)
		panic(runtime.NewError(vm, "TypeError", err.Error()))
	}
	return t.b.start(t.env, t.info.Name, params, t.prepare)
}

// payload turns the tool's result into the payload of its promise: an
// error result rejects, any other is shaped as the signature's return
// type says.
func (t *tool) payload(res registry.Result) payload {
	if res.IsError {
		return toolError(t.info.Name, res)
	}
	return shape(t.info.Name, t.sig.ResultType(), res)
}

// params maps positional arguments onto the tool's parameters. Trailing
// undefined arguments count as not passed, and a tool whose signature has
// no parameters takes one plain object whose keys are all properties of
// its schema (f({}), as models write) as its params. Of the parameters
// schema it reads only which properties there are and whether each has
// type "object": a process-isolation worker gets no more of it (see
// isolation's wireTools).
func (t *tool) params(vm *goja.Runtime, args []goja.Value) (map[string]any, error) {
	props, _ := t.info.Parameters["properties"].(map[string]any)
	for len(args) > 0 && goja.IsUndefined(args[len(args)-1]) {
		args = args[:len(args)-1] // as if not passed: f(undefined) is f()
	}
	if len(t.sig.Params) == 0 {
		// f({}) for a tool without parameters: models pass an empty
		// options object to such tools all the time (MCP tools too).
		if obj, ok := paramsObject(vm, args, props); ok {
			return obj, nil
		}
	}
	if n := len(t.sig.Params); len(args) > n && (n == 0 || !t.sig.Params[n-1].Rest) {
		return nil, fmt.Errorf("%s() takes at most %d argument%s but got %d; its signature is %s",
			t.jsName(), n, plural(n), len(args), t.sig.String())
	}
	params := map[string]any{}
	for i, arg := range args {
		if goja.IsUndefined(arg) {
			continue
		}
		p := t.sig.Params[min(i, len(t.sig.Params)-1)]
		value, err := toData(vm, arg)
		if err != nil {
			return nil, &convertError{fmt.Sprintf("%s(): argument %d (%s) cannot be passed to a tool: %s", t.jsName(), i+1, p.Name, jsErrorText(err)), err}
		}
		prop, isProp := props[p.Name].(map[string]any)
		obj, isObj := value.(map[string]any)
		switch {
		case isObj && isRecord(arg) && !(isProp && prop["type"] == "object"):
			// An options bag, or one object holding all params (read({path})).
			for k, v := range obj {
				params[k] = v
			}
		case isProp:
			params[p.Name] = value
		default:
			return nil, fmt.Errorf("%s(): argument %d (%s) must be an object, got %s; its signature is %s",
				t.jsName(), i+1, p.Name, typeName(arg), t.sig.String())
		}
	}
	return params, nil
}

// paramsObject returns args' one argument as the params object when it is
// a plain object whose keys are all properties of the schema (props).
func paramsObject(vm *goja.Runtime, args []goja.Value, props map[string]any) (map[string]any, bool) {
	if len(args) != 1 || !isRecord(args[0]) {
		return nil, false
	}
	value, err := toData(vm, args[0])
	obj, isObj := value.(map[string]any)
	if err != nil || !isObj {
		return nil, false
	}
	for k := range obj {
		if _, ok := props[k]; !ok {
			return nil, false
		}
	}
	return obj, true
}

// callTool implements the global callTool(name, params), which resolves to
// the whole {content, details, isError} and rejects only when the call
// cannot be made (unknown tool, the run is over).
func (b *Binder) callTool(env *runtime.Env, call goja.FunctionCall) goja.Value {
	vm := env.VM()
	nameArg := call.Argument(0)
	if !goja.IsString(nameArg) {
		panic(runtime.NewError(vm, "TypeError", "callTool(name, params): name must be a string, got "+typeName(nameArg)))
	}
	params := map[string]any{}
	if p := call.Argument(1); !goja.IsUndefined(p) && !goja.IsNull(p) {
		data, err := toData(vm, p)
		if err != nil {
			failOnLimit(env, err)
			panic(runtime.NewError(vm, "TypeError", "callTool(name, params): params cannot be passed to a tool: "+jsErrorText(err)))
		}
		obj, ok := data.(map[string]any)
		if !ok || !isRecord(p) {
			panic(runtime.NewError(vm, "TypeError", "callTool(name, params): params must be an object, got "+typeName(p)))
		}
		params = obj
	}
	return b.start(env, nameArg.String(), params, func(res registry.Result) payload {
		return jsonPayload(nameArg.String(), res)
	})
}

// start begins the call on the loop (in the snippet's order) and performs
// it on its own goroutine. prepare, also off the loop, turns the result
// into the promise's payload (an error payload rejects); the loop only
// builds the JavaScript value. A call its Caller refuses with a limit ends
// the run.
func (b *Binder) start(env *runtime.Env, name string, params map[string]any, prepare func(registry.Result) payload) goja.Value {
	if env.Over() {
		// A session snippet kept a tool function of an earlier run: its
		// accounting, events and context are that run's, which is over.
		panic(runtime.NewError(env.VM(), "Error", fmt.Sprintf(
			"this %s function belongs to an earlier run of the session and can no longer be called; call the global %s (or callTool) directly", name, name)))
	}
	perform, err := toolcall.Start(b.reg, name, params)
	if err != nil {
		if toolcall.EndsRun(err) {
			env.Fail(err)
		}
		panic(runtime.NewError(env.VM(), errorName(err), b.errorText(err, name)))
	}
	return env.Go(func(ctx context.Context) runtime.Outcome {
		res, err := perform(ctx)
		if err != nil {
			if toolcall.EndsRun(err) {
				return runtime.Outcome{Fail: err}
			}
			errName, msg := errorName(err), b.errorText(err, name)
			return runtime.Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) {
				e := runtime.NewError(vm, errName, msg)
				if errName == "ToolError" {
					_ = e.Set("tool", name)
				}
				return e, true
			}}
		}
		return deliver(res, prepare)
	})
}

// deliver is the outcome of a call that returned res: the promise settles
// with prepare's payload, and res is finalized exactly once, with true
// only when its payload became the JavaScript value the promise resolves
// with (before it resolves), with false when it is an error result, when
// the payload cannot be made or converted, and when the run ends first
// (runtime.Outcome.Discard).
func deliver(res registry.Result, prepare func(registry.Result) payload) runtime.Outcome {
	made := false
	defer func() {
		if !made {
			res.Finalize(false) // prepare panicked
		}
	}()
	p := prepare(res)
	made = true
	return runtime.Outcome{
		Settle: func(vm *goja.Runtime) (v goja.Value, reject bool) {
			delivered := false
			defer func() { res.Finalize(delivered) }()
			v, reject = p.settle(vm)
			delivered = !reject && !res.IsError
			return v, reject
		},
		Discard: func() { res.Finalize(false) },
	}
}

// errorText is the message of the error a call of name that failed with
// err rejects with: err's text, and for an unknown tool (a callTool of a
// mistyped name) the closest tool's name, as a ReferenceError names the
// closest global ("Tool not found: raed (did you mean read?)").
func (b *Binder) errorText(err error, name string) string {
	if !errors.Is(err, registry.ErrToolNotFound) {
		return err.Error()
	}
	tools := b.reg.Tools()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	if best := suggest.Closest(name, names); best != "" {
		return err.Error() + " (did you mean " + best + "?)"
	}
	return err.Error()
}

// errorName is the JavaScript name of the error a failed call rejects
// with: Error for an unknown tool (as callTool documents), LimitError for
// a limit, ToolError otherwise.
func errorName(err error) string {
	switch {
	case errors.Is(err, registry.ErrToolNotFound):
		return "Error"
	case errors.As(err, new(*runtime.LimitError)):
		return "LimitError"
	}
	return "ToolError"
}

// convertError is an argument that cannot be converted: its message for
// the snippet, and what stopped the conversion.
type convertError struct {
	msg   string
	cause error
}

func (e *convertError) Error() string { return e.msg }
func (e *convertError) Unwrap() error { return e.cause }

// jsErrorText is what a conversion error says to the snippet: for what a
// getter, a toJSON method or a Proxy trap threw, the thrown error's
// "Name: message" (its stack, with the engine's own frames and positions
// in the compiled code, stays out); otherwise the error's text.
func jsErrorText(err error) string {
	var exc *goja.Exception
	if !errors.As(err, &exc) {
		return err.Error()
	}
	if obj, ok := exc.Value().(*goja.Object); ok && obj.ClassName() == "Error" {
		return obj.Get("name").String() + ": " + obj.Get("message").String()
	}
	return "uncaught " + exc.Value().String()
}

// failOnLimit ends the run when a limit (the timeout, the memory limit)
// interrupted the conversion of an argument: the limit is reported as
// itself, never disguised as the TypeError that unwinds the call.
func failOnLimit(env *runtime.Env, err error) {
	var ie *goja.InterruptedError
	if !errors.As(err, &ie) {
		return
	}
	cause, ok := ie.Value().(error)
	if !ok {
		cause = runtime.NewLimitError(fmt.Sprint(ie.Value()), nil)
	}
	env.Fail(cause)
}
