package js

import (
	"sync"

	"github.com/dop251/goja"
)

// Intrinsics caches the built-in functions and prototypes that formatting
// and conversion call, looked up lazily from the VM's globals. Node takes
// them from its primordials, captured before user code runs; here a
// snippet that replaces a built-in before printing changes what the
// formatter sees (never more: a missing or replaced built-in degrades the
// output, it cannot crash the host). Its zero value is not usable; make
// one with NewIntrinsics.
type Intrinsics struct {
	vm     *goja.Runtime
	fns    map[string]goja.Callable
	protos map[string]*goja.Object

	objProto, fnProto    *goja.Object
	asyncProto, genProto *goja.Object
	fnProbed             bool
}

// NewIntrinsics returns an empty cache for vm's built-ins.
func NewIntrinsics(vm *goja.Runtime) *Intrinsics {
	return &Intrinsics{vm: vm}
}

// VM returns the runtime whose built-ins x caches.
func (x *Intrinsics) VM() *goja.Runtime { return x.vm }

// intrinsicPaths maps the names Fn takes to where the function lives: a
// global, then a property path.
var intrinsicPaths = map[string][]string{
	"getOwnPropertyDescriptor": {"Object", "getOwnPropertyDescriptor"},
	"getOwnPropertySymbols":    {"Object", "getOwnPropertySymbols"},
	"functionToString":         {"Function", "prototype", "toString"},
	"regExpToString":           {"RegExp", "prototype", "toString"},
	"dateToString":             {"Date", "prototype", "toString"},
	"dateToISOString":          {"Date", "prototype", "toISOString"},
	"stringValueOf":            {"String", "prototype", "valueOf"},
	"errorToString":            {"Error", "prototype", "toString"},
	"mapEntries":               {"Map", "prototype", "entries"},
	"setValues":                {"Set", "prototype", "values"},
	"jsonStringify":            {"JSON", "stringify"},
	"symbolFor":                {"Symbol", "for"},
}

// lookup follows path from the global object, returning nil when a step
// is missing or not an object.
func (x *Intrinsics) lookup(path []string) goja.Value {
	v := x.vm.Get(path[0])
	for _, p := range path[1:] {
		o, ok := v.(*goja.Object)
		if !ok {
			return nil
		}
		v = o.Get(p)
	}
	return v
}

// Fn returns the named built-in function, or nil. The names are
// getOwnPropertyDescriptor, getOwnPropertySymbols, functionToString,
// regExpToString, dateToString, dateToISOString, stringValueOf,
// errorToString, mapEntries, setValues, jsonStringify and symbolFor.
func (x *Intrinsics) Fn(name string) goja.Callable {
	if f, ok := x.fns[name]; ok {
		return f
	}
	if x.fns == nil {
		x.fns = map[string]goja.Callable{}
	}
	f, _ := goja.AssertFunction(x.lookup(intrinsicPaths[name]))
	x.fns[name] = f
	return f
}

// Getter returns the getter of a built-in accessor, like the size getter
// of Map.prototype, or nil.
func (x *Intrinsics) Getter(class, prop string) goja.Callable {
	key := class + ".prototype." + prop
	if f, ok := x.fns[key]; ok {
		return f
	}
	if x.fns == nil {
		x.fns = map[string]goja.Callable{}
	}
	var f goja.Callable
	if proto := x.Proto(class); proto != nil {
		if gopd := x.Fn("getOwnPropertyDescriptor"); gopd != nil {
			if d, err := gopd(goja.Undefined(), proto, x.vm.ToValue(prop)); err == nil {
				if do, ok := d.(*goja.Object); ok {
					f, _ = goja.AssertFunction(do.Get("get"))
				}
			}
		}
	}
	x.fns[key] = f
	return f
}

// Proto returns the prototype object of a global constructor, or nil.
func (x *Intrinsics) Proto(class string) *goja.Object {
	if p, ok := x.protos[class]; ok {
		return p
	}
	if x.protos == nil {
		x.protos = map[string]*goja.Object{}
	}
	p, _ := x.lookup([]string{class, "prototype"}).(*goja.Object)
	x.protos[class] = p
	return p
}

// ObjectProto returns %Object.prototype%, which no snippet can replace.
func (x *Intrinsics) ObjectProto() *goja.Object {
	if x.objProto == nil {
		x.objProto = x.vm.NewObject().Prototype()
	}
	return x.objProto
}

// FunctionProto returns %Function.prototype%.
func (x *Intrinsics) FunctionProto() *goja.Object {
	if x.fnProto == nil {
		if c, ok := x.ObjectProto().Get("constructor").(*goja.Object); ok {
			x.fnProto = c.Prototype()
		}
		if x.fnProto == nil {
			x.fnProto = x.vm.ToValue(func(goja.FunctionCall) goja.Value { return nil }).(*goja.Object).Prototype()
		}
	}
	return x.fnProto
}

var (
	functionKindsOnce sync.Once
	functionKindsPrg  *goja.Program
)

func (x *Intrinsics) probeFunctionKinds() {
	if x.fnProbed {
		return
	}
	x.fnProbed = true
	functionKindsOnce.Do(func() {
		functionKindsPrg = goja.MustCompile("function-kinds.js", "[async function () {}, function* () {}]", false)
	})
	v, err := x.vm.RunProgram(functionKindsPrg)
	if err != nil {
		return
	}
	if arr, ok := v.(*goja.Object); ok {
		if f, ok := arr.Get("0").(*goja.Object); ok {
			x.asyncProto = f.Prototype()
		}
		if f, ok := arr.Get("1").(*goja.Object); ok {
			x.genProto = f.Prototype()
		}
	}
}

// AsyncFunctionProto returns %AsyncFunction.prototype%, or nil.
func (x *Intrinsics) AsyncFunctionProto() *goja.Object {
	x.probeFunctionKinds()
	return x.asyncProto
}

// GeneratorFunctionProto returns %GeneratorFunction.prototype%, or nil.
func (x *Intrinsics) GeneratorFunctionProto() *goja.Object {
	x.probeFunctionKinds()
	return x.genProto
}

// Iterate calls fn with the entries of a Map (as [key, value] arrays) or
// the values of a Set (class is "Map" or "Set"), through the built-in
// iterators, until fn returns false. What the iteration throws propagates
// to the caller's JavaScript.
func (x *Intrinsics) Iterate(value *goja.Object, class string, fn func(goja.Value) bool) {
	method := "mapEntries"
	if class == "Set" {
		method = "setValues"
	}
	f := x.Fn(method)
	if f == nil {
		return
	}
	it, ok := Call(f, value).(*goja.Object)
	if !ok {
		return
	}
	next, ok := goja.AssertFunction(it.Get("next"))
	if !ok {
		return
	}
	for {
		step, ok := Call(next, it).(*goja.Object)
		if !ok || step.Get("done").ToBoolean() {
			return
		}
		if !fn(step.Get("value")) {
			return
		}
	}
}
