package webapi

import (
	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// Globals is what Install made of a run's global object: it gives the
// modules a snippet may require. Loop goroutine only.
type Globals struct {
	w *webGlobals
}

// moduleNames maps the names require accepts to the global that is the
// module: Node's REPL and node -e have path and util as globals, and
// require gives the same objects.
var moduleNames = map[string]string{
	"path": "path", "node:path": "path", "path/posix": "path", "node:path/posix": "path",
	"util": "util", "node:util": "util",
}

// Require returns the module require(name) gives, built on first use
// (path, node:path, path/posix, util, node:util), or false for any other
// name. It is the module the global of that name first held, even when the
// snippet has replaced or deleted the global since. Loop goroutine only;
// it may panic with a JavaScript exception, as a native function does.
func (g *Globals) Require(name string) (goja.Value, bool) {
	global, ok := moduleNames[name]
	if !ok || g == nil || g.w == nil {
		return nil, false
	}
	return g.w.module(global), true
}

// module returns the lazy global called name as build makes it, without
// defining it on the global object when it has not been built yet (the
// snippet may have a global of its own by that name).
func (w *webGlobals) module(name string) goja.Value {
	if v, ok := w.kept[name]; ok {
		return v
	}
	w.quiet = true
	defer func() { w.quiet = false }()
	return w.build(name)
}

// newPath builds the path global (path.js).
func (w *webGlobals) newPath() goja.Value {
	cwd := func(goja.FunctionCall) goja.Value {
		if w.opts.Process.Cwd == "" {
			return w.vm.ToValue("/")
		}
		return w.vm.ToValue(w.opts.Process.Cwd)
	}
	return js.Call(w.factory("path"), goja.Undefined(), w.withErrors(w.natives(map[string]func(goja.FunctionCall) goja.Value{"cwd": cwd})))
}

// newUtil builds the util global (util.js), whose format and inspect are
// those of the run in progress's console (Options.Format and Inspect).
func (w *webGlobals) newUtil() goja.Value {
	vm := w.vm
	natives := w.natives(map[string]func(goja.FunctionCall) goja.Value{
		"format": func(c goja.FunctionCall) goja.Value {
			if w.opts.Format == nil {
				panic(js.NewError(vm, "Error", "util.format is not available in this run"))
			}
			var args []goja.Value
			if o, ok := c.Argument(1).(*goja.Object); ok {
				_ = vm.ExportTo(o, &args)
			}
			return vm.ToValue(w.opts.Format(c.Argument(0), args))
		},
		"inspect": func(c goja.FunctionCall) goja.Value {
			if w.opts.Inspect == nil {
				panic(js.NewError(vm, "Error", "util.inspect is not available in this run"))
			}
			return vm.ToValue(w.opts.Inspect(c.Argument(0), c.Argument(1)))
		},
		"kind": func(c goja.FunctionCall) goja.Value { return vm.ToValue(w.kind(c.Argument(0))) },
		"warn": func(c goja.FunctionCall) goja.Value {
			if w.opts.Process.Write != nil {
				w.opts.Process.Write(2, c.Argument(0).String())
			}
			return goja.Undefined()
		},
		"timerName": func(c goja.FunctionCall) goja.Value {
			for i, name := range timerNames {
				if (name == "setTimeout" || name == "setImmediate") && w.timers[i] != nil && w.timers[i].SameAs(c.Argument(0)) {
					return vm.ToValue(name)
				}
			}
			return goja.Undefined()
		},
		"global": func(c goja.FunctionCall) goja.Value { return w.module(c.Argument(0).String()) },
	})
	return js.Call(w.factory("util"), goja.Undefined(), w.withErrors(natives))
}

// kind names what the engine tells of v's internal kind, for util.types:
// "Proxy"; a typed array's constructor name; "ArrayBuffer", "Promise",
// "Map", "Set"; "BigInt" or "Symbol" for those boxed; the engine's class
// of the object ("Date", "RegExp", "Error", "Arguments", "Number",
// "String", "Boolean", "Array"); "Function" for any other function and
// "Object" for any other object (util.js tells WeakMap, DataView,
// iterators... apart); "" for a primitive. It never runs the snippet's
// code.
func (w *webGlobals) kind(v goja.Value) string {
	o, ok := v.(*goja.Object)
	if !ok {
		return ""
	}
	if _, isProxy := js.AsProxy(o); isProxy {
		return "Proxy"
	}
	if _, isFunc := goja.AssertFunction(o); isFunc {
		return "Function"
	}
	et := o.ExportType()
	if name := js.TypedArrayName(et); name != "" {
		return name
	}
	class := o.ClassName()
	switch {
	case class != "Object":
		return class
	case et == js.ArrayBufferType:
		return "ArrayBuffer"
	case et == js.PromiseType:
		return "Promise"
	case et == js.BigIntType:
		return "BigInt"
	case et == js.MapType:
		return "Map"
	case et == js.SetType:
		return "Set"
	case et == js.StringType:
		return "Symbol" // a boxed string's class is "String"
	}
	return "Object"
}
