package runtime

import (
	"github.com/dop251/goja"
)

// timerID keys the id of a Timeout object.
var timerID = goja.NewSymbol("timerId")

// timeoutObject is what setTimeout and setInterval return: a Timeout
// object, as in Node, whose ref, unref, hasRef, refresh and close work as
// Node's, and which converts to its id (Symbol.toPrimitive), so that +t,
// `${t}` and clearTimeout of either work. An unref'd timeout does not keep
// a finished run alive, as an interval never does here.
func (r *run) timeoutObject(id int64) goja.Value {
	if r.timeoutProto == nil {
		vm := r.vm
		proto := vm.NewObject()
		ctor := vm.NewObject()
		_ = ctor.Set("name", "Timeout")
		_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		method := func(name string, fn func(id int64, this goja.Value) goja.Value) {
			_ = proto.Set(name, func(c goja.FunctionCall) goja.Value {
				id, ok := timerOf(c.This)
				if !ok {
					panic(vm.NewTypeError("Timeout.prototype." + name + " called on an object that is not a Timeout"))
				}
				return fn(id, c.This)
			})
		}
		method("ref", func(id int64, this goja.Value) goja.Value { r.loop.SetRef(id, true); return this })
		method("unref", func(id int64, this goja.Value) goja.Value { r.loop.SetRef(id, false); return this })
		method("hasRef", func(id int64, _ goja.Value) goja.Value { return vm.ToValue(r.loop.HasRef(id)) })
		method("refresh", func(id int64, this goja.Value) goja.Value { r.loop.Refresh(id); return this })
		method("close", func(id int64, this goja.Value) goja.Value { r.loop.ClearTimer(id); return this })
		_ = proto.SetSymbol(goja.SymToPrimitive, func(c goja.FunctionCall) goja.Value {
			id, _ := timerOf(c.This)
			return vm.ToValue(id)
		})
		r.timeoutProto = proto
	}
	o := r.vm.NewObject()
	_ = o.SetPrototype(r.timeoutProto)
	_ = o.DefineDataPropertySymbol(timerID, r.vm.ToValue(id), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return o
}

// timerOf returns the id of the Timeout object v.
func timerOf(v goja.Value) (int64, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return 0, false
	}
	id := o.GetSymbol(timerID)
	if id == nil {
		return 0, false
	}
	return id.ToInteger(), true
}

// clearTimer implements clearTimeout and clearInterval: of a Timeout
// object, or of its id (a number, or a string of one), as Node takes.
func (r *run) clearTimer(call goja.FunctionCall) goja.Value {
	arg := call.Argument(0)
	if id, ok := timerOf(arg); ok {
		r.loop.ClearTimer(id)
		return goja.Undefined()
	}
	if goja.IsNumber(arg) || goja.IsString(arg) {
		r.loop.ClearTimer(arg.ToInteger())
	}
	return goja.Undefined()
}
