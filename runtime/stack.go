package runtime

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
	"github.com/codeexec/codeexec/runtime/transform"
)

// The call-stack limit.
//
// A snippet whose stack grows past Options.MaxStackDepth frames gets a
// RangeError it can catch, as in Node: the compiled snippet's functions
// call the global transform.DepthCheck every transform.CheckEvery calls
// (see package transform), which measures goja's call stack and throws
// past the limit. Uncaught, that RangeError ends the run as the limit.
// goja's own limit, stackMargin frames higher, remains for recursion that
// never enters a snippet function (natives calling natives, or code made
// by eval when allowed); it cannot be caught and ends the run with the
// same message.

// stackMargin is how many frames beyond MaxStackDepth goja's own limit
// lies: room for the frames between two checks (CheckEvery calls of
// snippet functions, each with the native frames between them, such as
// Array.prototype.map's) and for building the RangeError.
const stackMargin = 1000

// overflowMessage is the message of the call-stack limit.
func overflowMessage(limit int) string {
	return fmt.Sprintf("Maximum call stack size exceeded (the call-stack limit is %d frames)", limit)
}

// installDepthCheck sets goja's limit and defines transform.DepthCheck on
// the global object: not enumerable, not writable, so that a snippet
// cannot replace it by assignment (deleting it only breaks the snippet's
// own functions). It reads the depth of goja's call stack through
// reflection on goja's unexported vm.callStack (goja has no API for it);
// if goja changes and the field is gone, the check does nothing and only
// goja's uncatchable limit remains (TestStackOverflowCatchable then fails).
func (r *run) installDepthCheck() error {
	limit := r.opts.MaxStackDepth
	r.vm.SetMaxCallStackSize(limit + stackMargin)
	stack := vmField(r.vm, "callStack")
	// A session's VM may have run snippets that replaced RangeError.
	ctor, ok := goja.AssertConstructor(r.vm.Get("RangeError"))
	if r.sess != nil {
		ctor, ok = r.sess.rangeError, r.sess.rangeError != nil
	}
	if !stack.IsValid() || stack.Kind() != reflect.Slice || !ok {
		return r.defineHidden(transform.DepthCheck, func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	}
	msg := r.vm.ToValue(overflowMessage(limit))
	return r.defineHidden(transform.DepthCheck, func(goja.FunctionCall) goja.Value {
		if stack.Len() <= limit {
			return goja.Undefined()
		}
		e, err := ctor(nil, msg)
		if err != nil {
			panic(err)
		}
		trimStack(e)
		r.overflow = e
		panic(e)
	})
}

// trimStack drops the depth check's own frame from the stack of e, and
// the frames past the first maxFrames, as Node keeps only the first ten
// (Error.stackTraceLimit): the stack of a RangeError thrown
// MaxStackDepth frames deep would otherwise be thousands of lines.
func trimStack(e *goja.Object) {
	v := e.Get("stack")
	if v == nil || !goja.IsString(v) {
		return
	}
	lines := strings.SplitN(v.String(), "\n", maxFrames+3)
	if len(lines) > 1 && strings.Contains(lines[1], transform.DepthCheck) {
		lines = append(lines[:1], lines[2:]...)
	}
	if len(lines) > maxFrames+1 {
		lines = lines[:maxFrames+1]
	}
	_ = e.Set("stack", strings.Join(lines, "\n"))
}

// defineHidden defines a native function of the engine's own code on the
// global object, not enumerable and not writable (but configurable: a
// session's next run defines it again); jsglobals lists its name.
func (r *run) defineHidden(name string, fn func(goja.FunctionCall) goja.Value) error {
	return r.vm.GlobalObject().DefineDataProperty(name, js.NamedFunction(r.vm, name, fn), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
