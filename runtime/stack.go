package runtime

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
	"github.com/codeexec/codeexec/runtime/transform"
)

// The call-stack limit.
//
// A snippet whose stack grows past Options.MaxStackDepth frames gets a
// RangeError it can catch, as in Node: goja, patched (see
// third_party/goja/PATCH.md), checks the depth of its call stack at every
// call, as it always did for its own uncatchable limit, and throws the
// engine's RangeError with overflowMessage there
// (SetStackOverflowRangeError). Uncaught, that RangeError ends the run as
// the limit. The snippet's code is not instrumented: calls cost what they
// cost in goja.
//
// Some of the engine's operations recurse in Go without any JavaScript
// frame: forwarding through a Proxy without a trap (a prototype chain that
// loops through a Proxy recursed until the goroutine's stack overflowed,
// a fatal error that killed the host), getters, setters and conversions
// to primitives that are native or bound functions, JSON.stringify, the
// reviver walk of JSON.parse, Array.prototype.flat, generators delegating
// with yield*. The patched goja counts them on one counter per VM, bounded
// by MaxStackDepth levels too: past it they throw goja's RangeError
// "Maximum call stack size exceeded", which the snippet can catch, as
// Node's; uncaught, it ends the run as the call-stack limit
// (isNativeOverflow).

// overflowMessage is the message of the call-stack limit.
func overflowMessage(limit int) string {
	return fmt.Sprintf("Maximum call stack size exceeded (the call-stack limit is %d frames)", limit)
}

// installStackLimit sets goja's call-stack limit, a catchable RangeError
// with overflowMessage, and its limit of native recursion.
func (r *run) installStackLimit() {
	limit := r.opts.MaxStackDepth
	r.vm.SetMaxCallStackSize(limit)
	r.vm.SetStackOverflowRangeError(overflowMessage(limit))
	r.vm.SetMaxNativeDepth(limit)
}

// isOverflow reports whether the uncaught error e, of obj, is the
// RangeError of the call-stack limit: one goja threw past the limit (with
// overflowMessage) or past the native recursion limit (see
// SetMaxNativeDepth above), an error whose message is exactly one of
// theirs. A snippet that throws such an error itself has it reported as
// the limit too, which is what it says.
func (r *run) isOverflow(obj *goja.Object, e *Error) bool {
	return e.Name == "RangeError" && obj.ClassName() == "Error" &&
		(e.Message == goja.NativeDepthErrorMessage || e.Message == overflowMessage(r.opts.MaxStackDepth))
}

// defineHidden defines a native function of the engine's own code on the
// global object, not enumerable and not writable (but configurable: a
// session's next run defines it again); jsglobals lists its name.
func (r *run) defineHidden(name string, fn func(goja.FunctionCall) goja.Value) error {
	return r.vm.GlobalObject().DefineDataProperty(name, js.NamedFunction(r.vm, name, fn), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// Stacks a snippet reads.
//
// An error's stack, as the snippet reads it (e.stack), in console output
// and in Error.Stack, is in Node's form, with the snippet's own positions:
//
//	TypeError: Cannot read property 'x' of undefined
//	    at inner (snippet.ts:7:14)
//	    at outer (snippet.ts:3:3)
//	    at snippet.ts:10:1
//
// the "Name: message" header, then at most maxFrames frames, each four
// spaces, "at", the function's name and its position in parentheses (the
// bare position for the snippet's top level and other anonymous code),
// 1-based lines and columns in UTF-16 units of the snippet as written
// (TypeScript included). goja's program counters ("f.ts:47:20(12)"), the
// frame of the wrapper's closing call and those of Go host functions are
// left out, and a native function's frame reads "at name (native)". When
// printed (console.log(e)) or reported, a run of identical frames (deep
// recursion) is shown once with a line saying how often it repeats; e.stack
// has them all, as Node's. See nodeStack.
//
// For e.stack, package transform passes the object of the snippet's
// stack reads through transform.StackReader, which stackOf implements:
// it rewrites an error's stack in place, once, the first time the
// snippet reads it. Other reads (a destructuring, Reflect.get, see
// package transform) give goja's text until then, and so does every read
// of an error frozen before its stack was first read.
//
// In a session, each snippet's code has its own name in goja's stacks
// (see transform.CompileSessionCached), and the session keeps the
// programs of its last maxSessionPrograms runs with the run that compiled
// each: a frame of the run's own code shows the filename, one of a
// function an earlier run defined shows that run (sessionProgramName:
// "snippet.ts#1"), at its snippet's position. Frames of older runs keep
// goja's names and positions.

// installStackReader defines transform.StackReader for a program that
// reads a stack; the program keeps it from its start (see package
// transform).
func (r *run) installStackReader() error {
	if !r.code.ReadsStack() {
		return nil
	}
	ownDescriptor := r.ownDescriptor()
	if ownDescriptor == nil {
		return fmt.Errorf("define %s: Object.getOwnPropertyDescriptor is missing", transform.StackReader)
	}
	return r.defineHidden(transform.StackReader, func(call goja.FunctionCall) goja.Value {
		v := call.Argument(0)
		if obj, ok := v.(*goja.Object); ok && obj.ClassName() == "Error" {
			r.stackOf(obj, ownDescriptor)
		}
		return v
	})
}

// ownDescriptor returns the engine's Object.getOwnPropertyDescriptor,
// taken before any snippet could replace it: the session's, or the fresh
// VM's own.
func (r *run) ownDescriptor() goja.Callable {
	if r.sess != nil {
		return r.sess.ownDescriptor
	}
	fn, _ := goja.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("getOwnPropertyDescriptor"))
	return fn
}

// stackOf rewrites the stack of the error obj into Node's form with the
// snippet's positions, when it is a data property that still holds
// goja's text; it reads the property's descriptor, which calls none of
// the snippet's code (obj is an error, not a proxy). The property keeps
// its attributes; one that cannot be redefined (a frozen error's) stays
// as it is.
func (r *run) stackOf(obj *goja.Object, ownDescriptor goja.Callable) {
	d, err := ownDescriptor(goja.Undefined(), obj, r.vm.ToValue("stack"))
	if err != nil {
		return
	}
	desc, ok := d.(*goja.Object)
	if !ok {
		return
	}
	v := desc.Get("value")
	if v == nil || !goja.IsString(v) {
		return
	}
	s := v.String()
	if !strings.Contains(s, "\tat ") {
		return // not goja's text: rewritten already, or the snippet's own
	}
	flag := func(key string) goja.Flag {
		if a := desc.Get(key); a != nil && a.ToBoolean() {
			return goja.FLAG_TRUE
		}
		return goja.FLAG_FALSE
	}
	text := strings.Join(r.nodeStack(s), "\n")
	_ = obj.DefineDataProperty("stack", r.vm.ToValue(text), flag("writable"), flag("configurable"), flag("enumerable"))
}

// installCaptureStackTrace defines Error.captureStackTrace, V8's, which
// goja lacks and Node code calls unguarded in its error classes, for a
// snippet that may use it (transform.CaptureStackTrace); in a session, for every run after one that
// did, so that a class an earlier run defined maps its frames with the
// current run's programs. A replaced Error that is not an object is left
// alone.
func (r *run) installCaptureStackTrace() error {
	if (r.sess == nil || !r.sess.captureStack) && !r.features.Has(transform.CaptureStackTrace) {
		return nil
	}
	if r.sess != nil {
		r.sess.captureStack = true
	}
	errorCtor, ok := r.vm.Get("Error").(*goja.Object)
	if !ok {
		return nil
	}
	fn := js.NamedFunction(r.vm, "captureStackTrace", r.captureStackTrace)
	if err := errorCtor.DefineDataProperty("captureStackTrace", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return fmt.Errorf("define Error.captureStackTrace: %w", err)
	}
	return nil
}

// captureStackTrace is Error.captureStackTrace(target, fn): it gives
// target a stack property (writable, configurable, not enumerable) in
// Node's form, "Name: message" as Error.prototype.toString would say it
// of target, then the frames of the call, without those above the
// topmost call of fn, and none at all when fn is not being called, as
// V8 does. target must be an object.
func (r *run) captureStackTrace(call goja.FunctionCall) goja.Value {
	vm := r.vm
	target, ok := call.Argument(0).(*goja.Object)
	if !ok {
		panic(NewError(vm, "TypeError", "invalid_argument"))
	}
	// More than shown: those above fn are dropped.
	frames := vm.CaptureCallStack(4*maxFrames, nil)
	if len(frames) > 0 && frames[0].FuncName() == "captureStackTrace" {
		frames = frames[1:] // its own
	}
	if fn, ok := call.Argument(1).(*goja.Object); ok {
		if _, callable := goja.AssertFunction(fn); callable {
			frames = framesBelow(vm, frames, fn)
		}
	}
	var b bytes.Buffer
	b.WriteString(errorText(vm, target))
	for _, f := range frames {
		b.WriteString("\n    at ")
		f.Write(&b)
	}
	if err := target.DefineDataProperty("stack", vm.ToValue(r.rewriteStack(b.String())), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(NewError(vm, "TypeError", err.Error()))
	}
	return goja.Undefined()
}

// framesBelow returns the frames below the topmost call of fn, none when
// fn is not being called. goja names a frame by its function's name, but
// every class constructor's (and the snippet's top level) "<anonymous>":
// for a class, the constructor frames are taken to be the leading
// anonymous ones, at most one per class in fn's chain of classes (fn, the
// class it extends, and so on), which is right for the usual call from
// the constructor of fn or of a class fn extends.
func framesBelow(vm *goja.Runtime, frames []goja.StackFrame, fn *goja.Object) []goja.StackFrame {
	if name := fn.Get("name"); js.Defined(name) {
		if i := slices.IndexFunc(frames, func(f goja.StackFrame) bool { return f.FuncName() == name.String() }); i >= 0 {
			return frames[i+1:]
		}
	}
	toString, _ := goja.AssertFunction(vm.Get("Function").ToObject(vm).Get("prototype").ToObject(vm).Get("toString"))
	isClass := func(o *goja.Object) bool {
		if toString == nil {
			return false
		}
		v, err := toString(o)
		return err == nil && strings.HasPrefix(v.String(), "class")
	}
	classes := 0
	for o := fn; o != nil && classes < len(frames) && isClass(o); o = o.Prototype() {
		classes++
	}
	i := 0
	for i < classes && frames[i].FuncName() == "<anonymous>" {
		i++
	}
	if i == 0 {
		return nil
	}
	return frames[i:]
}

// errorText is what Error.prototype.toString says of obj: its name
// ("Error" when undefined) and message, joined by ": " when both are
// non-empty. Getters and toString methods run, as in the engine's own.
func errorText(vm *goja.Runtime, obj *goja.Object) string {
	name, msg := "Error", ""
	if v := obj.Get("name"); js.Defined(v) {
		name = v.String()
	}
	if v := obj.Get("message"); js.Defined(v) {
		msg = v.String()
	}
	switch {
	case name == "":
		return msg
	case msg == "":
		return name
	}
	return name + ": " + msg
}
