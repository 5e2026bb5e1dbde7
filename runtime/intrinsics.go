package runtime

import (
	"sync"

	"github.com/dop251/goja"
)

// intrinsics caches the built-in functions and prototypes the formatter
// calls, looked up lazily from the run's globals. Node takes them from its
// primordials, captured before user code runs; here a snippet that replaces
// a built-in before printing changes what the formatter sees (never more:
// a missing or replaced built-in degrades the output, it cannot crash the
// host). One per run (held by the console) or per inspector.
type intrinsics struct {
	vm     *goja.Runtime
	fns    map[string]goja.Callable
	protos map[string]*goja.Object

	objProto, fnProto      *goja.Object
	asyncProto, genProto   *goja.Object
	fnProbed, customProbed bool
	custom                 *goja.Symbol
	inspectFn              goja.Value

	// builtinInspect maps prototypes of the sandbox's own classes (URL,
	// TextDecoder...) to their custom inspect functions, which Node keeps
	// under Symbol.for('nodejs.util.inspect.custom').
	builtinInspect map[*goja.Object]goja.Callable
	// userInspect is set when the snippet mentions inspect.custom: only
	// then is that symbol looked up (materializing Symbol costs ~15µs).
	userInspect bool
}

func newIntrinsics(vm *goja.Runtime) *intrinsics {
	return &intrinsics{vm: vm}
}

// intrinsicPaths maps the names used by the formatter to where the
// function lives: a global, then a property path.
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
func (x *intrinsics) lookup(path []string) goja.Value {
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

// fn returns the named built-in function, or nil.
func (x *intrinsics) fn(name string) goja.Callable {
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

// getter returns the getter of a built-in accessor, like the size getter
// of Map.prototype, or nil.
func (x *intrinsics) getter(class, prop string) goja.Callable {
	key := class + ".prototype." + prop
	if f, ok := x.fns[key]; ok {
		return f
	}
	if x.fns == nil {
		x.fns = map[string]goja.Callable{}
	}
	var f goja.Callable
	if proto := x.proto(class); proto != nil {
		if gopd := x.fn("getOwnPropertyDescriptor"); gopd != nil {
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

// proto returns the prototype object of a global constructor, or nil.
func (x *intrinsics) proto(class string) *goja.Object {
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

// objectProto returns %Object.prototype%, which no snippet can replace.
func (x *intrinsics) objectProto() *goja.Object {
	if x.objProto == nil {
		x.objProto = x.vm.NewObject().Prototype()
	}
	return x.objProto
}

// functionProto returns %Function.prototype%.
func (x *intrinsics) functionProto() *goja.Object {
	if x.fnProto == nil {
		if c, ok := x.objectProto().Get("constructor").(*goja.Object); ok {
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

func (x *intrinsics) probeFunctionKinds() {
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

// asyncFunctionProto returns %AsyncFunction.prototype%.
func (x *intrinsics) asyncFunctionProto() *goja.Object {
	x.probeFunctionKinds()
	return x.asyncProto
}

// generatorFunctionProto returns %GeneratorFunction.prototype%.
func (x *intrinsics) generatorFunctionProto() *goja.Object {
	x.probeFunctionKinds()
	return x.genProto
}

// customSymbol returns Symbol.for('nodejs.util.inspect.custom'), or nil
// when the snippet does not mention it.
func (x *intrinsics) customSymbol() *goja.Symbol {
	if !x.userInspect {
		return nil
	}
	if !x.customProbed {
		x.customProbed = true
		if f := x.fn("symbolFor"); f != nil {
			if v, err := f(goja.Undefined(), x.vm.ToValue("nodejs.util.inspect.custom")); err == nil {
				x.custom, _ = v.(*goja.Symbol)
			}
		}
	}
	return x.custom
}

// inspectFunction returns the util.inspect function passed to custom
// inspect functions: inspect(value, options).
func (x *intrinsics) inspectFunction(parent *inspector) goja.Value {
	if x.inspectFn == nil {
		stack, done := parent.stack, parent.done
		x.inspectFn = x.vm.ToValue(func(c goja.FunctionCall) goja.Value {
			in := &inspector{vm: x.vm, stack: stack, done: done, opts: defaultInspectOptions, intr: x}
			in.opts = inspectOptionsFrom(x.vm, c.Argument(1), in.opts)
			s, _ := in.guard(func() string { return in.value(c.Argument(0)) })
			return x.vm.ToValue(s)
		})
	}
	return x.inspectFn
}

// inspectOptionsFrom reads util.inspect options from a JavaScript object
// (depth, showHidden, showProxy, customInspect, maxArrayLength,
// maxStringLength, breakLength, compact, sorted) over base. Other values
// leave base as it is.
func inspectOptionsFrom(vm *goja.Runtime, v goja.Value, base inspectOptions) inspectOptions {
	o, ok := v.(*goja.Object)
	if !ok {
		if v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) && !goja.IsString(v) && !goja.IsNumber(v) {
			// Legacy form inspect(value, showHidden).
			base.showHidden = v.ToBoolean()
		}
		return base
	}
	limit := func(v goja.Value, def int) int {
		switch {
		case v == nil || goja.IsUndefined(v):
			return def
		case goja.IsNull(v):
			return infinite
		}
		f := v.ToFloat()
		if f != f { // NaN
			return def
		}
		if f > infinite {
			return infinite
		}
		if f < -1 {
			return -1
		}
		return int(f)
	}
	base.depth = limit(o.Get("depth"), base.depth)
	if b := o.Get("showHidden"); b != nil && !goja.IsUndefined(b) {
		base.showHidden = b.ToBoolean()
	}
	if b := o.Get("showProxy"); b != nil && !goja.IsUndefined(b) {
		base.showProxy = b.ToBoolean()
	}
	if b := o.Get("customInspect"); b != nil && !goja.IsUndefined(b) {
		base.customInspect = b.ToBoolean()
	}
	if b := o.Get("sorted"); b != nil && !goja.IsUndefined(b) {
		base.sorted = b.ToBoolean()
	}
	base.maxArrayLength = max(0, limit(o.Get("maxArrayLength"), base.maxArrayLength))
	base.maxStringLength = max(0, limit(o.Get("maxStringLength"), base.maxStringLength))
	base.breakLength = limit(o.Get("breakLength"), base.breakLength)
	if c := o.Get("compact"); c != nil && !goja.IsUndefined(c) {
		switch {
		case c.ExportType() != nil && c.ExportType().Kind().String() == "bool":
			base.compactTrue = c.ToBoolean()
			if !base.compactTrue {
				base.compact = 0
			}
		default:
			base.compactTrue = false
			base.compact = limit(c, base.compact)
		}
	}
	return base
}
