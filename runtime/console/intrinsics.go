package console

import (
	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// intrinsics is the formatter's state for one Console, which its
// inspectors share: the cache of the run's built-ins, and what the
// formatter knows about custom inspect functions.
type intrinsics struct {
	*js.Intrinsics

	customProbed bool
	custom       *goja.Symbol
	inspectFn    goja.Value

	// builtinInspect maps prototypes of the sandbox's own classes (URL,
	// TextDecoder...) to their custom inspect functions, which Node keeps
	// under Symbol.for('nodejs.util.inspect.custom').
	builtinInspect map[*goja.Object]goja.Callable
	// userInspect is Options.CustomInspect: only when it is set is that
	// symbol looked up (materializing Symbol costs ~15µs).
	userInspect bool
}

func newIntrinsics(vm *goja.Runtime) *intrinsics {
	return &intrinsics{Intrinsics: js.NewIntrinsics(vm)}
}

// customSymbol returns Symbol.for('nodejs.util.inspect.custom'), or nil
// when the snippet's code does not use it (Options.CustomInspect).
func (x *intrinsics) customSymbol() *goja.Symbol {
	if !x.userInspect {
		return nil
	}
	if !x.customProbed {
		x.customProbed = true
		if f := x.Fn("symbolFor"); f != nil {
			if v, err := f(goja.Undefined(), x.VM().ToValue("nodejs.util.inspect.custom")); err == nil {
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
		x.inspectFn = x.VM().ToValue(func(c goja.FunctionCall) goja.Value {
			in := &inspector{vm: x.VM(), stack: stack, done: done, opts: defaultInspectOptions, intr: x}
			in.opts = inspectOptionsFrom(x.VM(), c.Argument(1), in.opts)
			s, _ := in.guard(func() string { return in.value(c.Argument(0)) })
			return x.VM().ToValue(s)
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
		case !js.Defined(v):
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
