package convert

import (
	"math"
	"math/big"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// CloneOptions configure Clone.
type CloneOptions struct {
	// Uncloneable returns the exception to throw for a value that cannot be
	// cloned, given Node's message ("#<Promise> could not be cloned.");
	// package webapi makes it a DataCloneError DOMException. When nil, an
	// Error is thrown.
	Uncloneable func(msg string) goja.Value
	// Done reports that the run is over; cloning then stops with an error
	// (the run's pending interrupt ends it next). May be nil.
	Done func() bool
}

// Clone returns a deep copy of v, as the global structuredClone(value)
// does: plain data (objects, arrays, Map, Set, Date, RegExp, boxed
// primitives, errors, ArrayBuffer, typed arrays and DataView), keeping
// shared and circular references. Functions, symbols, proxies, promises
// and weak collections are refused, as in Node. Getters run (the copy
// reads properties); class instances become plain objects. What it throws
// (the refusal, or an exception of a getter) it panics with, to propagate
// to the calling JavaScript: call it from a native function. Loop
// goroutine only.
func Clone(vm *goja.Runtime, v goja.Value, opts CloneOptions) goja.Value {
	cl := &cloner{vm: vm, intr: js.NewIntrinsics(vm), opts: opts, memo: map[*goja.Object]goja.Value{}}
	return cl.clone(v, 0)
}

type cloner struct {
	vm   *goja.Runtime
	intr *js.Intrinsics
	opts CloneOptions
	memo map[*goja.Object]goja.Value
	n    int
}

// maxCloneDepth bounds the nesting structuredClone follows (V8 runs out of
// stack somewhat later).
const maxCloneDepth = 5000

func (cl *cloner) fail(what string) {
	msg := what + " could not be cloned."
	if cl.opts.Uncloneable != nil {
		panic(cl.opts.Uncloneable(msg))
	}
	panic(js.NewError(cl.vm, "Error", msg))
}

// construct calls the global constructor name with args.
func (cl *cloner) construct(name string, args ...goja.Value) *goja.Object {
	o, err := cl.vm.New(cl.vm.Get(name), args...)
	if err != nil {
		panic(err)
	}
	return o
}

// define sets an own, enumerable data property, as structured
// deserialization does (never a setter).
func define(o *goja.Object, k string, v goja.Value) {
	_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

func (cl *cloner) clone(v goja.Value, depth int) goja.Value {
	vm := cl.vm
	if cl.n++; cl.n%1024 == 0 && cl.opts.Done != nil && cl.opts.Done() {
		// The run is over; its pending interrupt ends it next.
		panic(js.NewError(vm, "Error", "structuredClone stopped: the run is over"))
	}
	if depth > maxCloneDepth {
		panic(js.NewError(vm, "RangeError", "Maximum call stack size exceeded"))
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		if sym, ok := v.(*goja.Symbol); ok {
			cl.fail(js.SymbolString(sym))
		}
		return v
	}
	if c, ok := cl.memo[obj]; ok {
		return c
	}
	if _, isProxy := js.AsProxy(obj); isProxy {
		cl.fail("#<Object>")
	}
	if _, callable := goja.AssertFunction(obj); callable {
		cl.fail(obj.String())
	}
	class, et := obj.ClassName(), obj.ExportType()
	remember := func(c *goja.Object) *goja.Object {
		cl.memo[obj] = c
		return c
	}
	switch {
	case class == "Array":
		arr := remember(vm.NewArray())
		_ = arr.Set("length", obj.Get("length"))
		for _, k := range obj.Keys() {
			define(arr, k, cl.clone(obj.Get(k), depth+1))
		}
		return arr
	case class == "Date":
		ms := math.NaN()
		if t, ok := obj.Export().(time.Time); ok {
			ms = float64(t.UnixMilli())
		}
		return remember(cl.construct("Date", vm.ToValue(ms)))
	case class == "RegExp":
		return remember(cl.construct("RegExp", obj.Get("source"), obj.Get("flags")))
	case class == "Error":
		name := "Error"
		switch n := js.String(obj.Get("name")); n {
		case "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError":
			name = n
		}
		msg := goja.Undefined()
		if m := obj.Get("message"); js.Defined(m) {
			msg = m
		}
		e := remember(cl.construct(name, msg))
		_ = e.DefineDataProperty("stack", obj.Get("stack"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if cause := obj.Get("cause"); cause != nil {
			_ = e.DefineDataProperty("cause", cl.clone(cause, depth+1), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return e
	case class == "Number" || class == "Boolean":
		return remember(cl.construct(class, vm.ToValue(obj.Export())))
	case class == "String":
		return remember(cl.construct("String", obj.ToString()))
	case et == js.BigIntType:
		b, _ := obj.Export().(*big.Int)
		return remember(vm.ToValue(b).ToObject(vm))
	case et == js.MapType:
		m := remember(cl.construct("Map"))
		set, ok := goja.AssertFunction(m.Get("set"))
		if !ok {
			panic(js.NewError(vm, "TypeError", "Map.prototype.set is not a function"))
		}
		var entries [][2]goja.Value
		cl.intr.Iterate(obj, "Map", func(e goja.Value) bool {
			if eo, ok := e.(*goja.Object); ok {
				entries = append(entries, [2]goja.Value{eo.Get("0"), eo.Get("1")})
			}
			return true
		})
		for _, e := range entries {
			js.Call(set, m, cl.clone(e[0], depth+1), cl.clone(e[1], depth+1))
		}
		return m
	case et == js.SetType:
		s := remember(cl.construct("Set"))
		add, ok := goja.AssertFunction(s.Get("add"))
		if !ok {
			panic(js.NewError(vm, "TypeError", "Set.prototype.add is not a function"))
		}
		var values []goja.Value
		cl.intr.Iterate(obj, "Set", func(v goja.Value) bool {
			values = append(values, v)
			return true
		})
		for _, v := range values {
			js.Call(add, s, cl.clone(v, depth+1))
		}
		return s
	case et == js.ArrayBufferType:
		ab, _ := obj.Export().(goja.ArrayBuffer)
		return remember(vm.ToValue(vm.NewArrayBuffer(append([]byte(nil), ab.Bytes()...))).(*goja.Object))
	case et == js.PromiseType:
		cl.fail("#<Promise>")
	}
	tag := js.String(obj.GetSymbol(goja.SymToStringTag))
	if isTA := js.TypedArrayName(et) != ""; isTA || (tag == "DataView" && js.IsDataView(vm, obj)) {
		buf := cl.clone(obj.Get("buffer"), depth+1)
		name := "DataView"
		length := obj.Get("byteLength")
		if isTA {
			name = js.String(obj.GetSymbol(goja.SymToStringTag))
			length = obj.Get("length")
		}
		return remember(cl.construct(name, buf, obj.Get("byteOffset"), length))
	}
	if tag == "WeakMap" || tag == "WeakSet" {
		if js.Inherits(obj, cl.intr.Proto(tag)) {
			cl.fail("#<" + tag + ">")
		}
	}
	out := remember(vm.NewObject())
	for _, k := range obj.Keys() {
		define(out, k, cl.clone(obj.Get(k), depth+1))
	}
	return out
}
