// Package js holds what the runtime's packages share for working with goja
// values from Go: calling and catching JavaScript, recognizing the kinds of
// objects goja exports, converting values to text without running code,
// making errors and named native functions, lazily populated objects, and
// Intrinsics, a cache of the built-in functions that formatting and
// conversion call.
//
// Everything here touches a goja.Runtime, which is not safe for concurrent
// use: call it on the goroutine that runs the VM (the run's loop goroutine)
// only.
package js

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// Call calls fn, re-raising what it throws (exceptions and interrupts
// alike) to the caller's JavaScript.
func Call(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// Try runs f, which calls into the VM while no JavaScript is running, and
// returns a JavaScript exception or an uncatchable error (interrupt, stack
// overflow) it raised instead of letting it unwind the caller. Other
// panics propagate.
func Try(vm *goja.Runtime, f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(error); ok && IsVMError(e) {
				err = e
				return
			}
			panic(p)
		}
	}()
	if ex := vm.Try(f); ex != nil {
		return ex
	}
	return nil
}

// IsVMError reports errors goja raises for JavaScript: exceptions,
// interrupts and stack overflows.
func IsVMError(err error) bool {
	var (
		ex  *goja.Exception
		in  *goja.InterruptedError
		ovf *goja.StackOverflowError
	)
	return errors.As(err, &ex) || errors.As(err, &in) || errors.As(err, &ovf)
}

// Defined reports whether v is neither missing (nil) nor undefined.
func Defined(v goja.Value) bool { return v != nil && !goja.IsUndefined(v) }

// The export types by which goja's objects are told apart without calling
// into JavaScript.
var (
	ProxyType       = reflect.TypeOf(goja.Proxy{})
	PromiseType     = reflect.TypeOf((*goja.Promise)(nil))
	ArrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
	MapType         = reflect.TypeOf([][2]any{})
	SetType         = reflect.TypeOf([]any{})
	BigIntType      = reflect.TypeOf((*big.Int)(nil))
	StringType      = reflect.TypeOf("")
)

// typedArrays maps the export types of typed arrays to their constructor
// names.
var typedArrays = map[reflect.Type]string{
	reflect.TypeOf([]uint8{}):   "Uint8Array",
	reflect.TypeOf([]int8{}):    "Int8Array",
	reflect.TypeOf([]uint16{}):  "Uint16Array",
	reflect.TypeOf([]int16{}):   "Int16Array",
	reflect.TypeOf([]uint32{}):  "Uint32Array",
	reflect.TypeOf([]int32{}):   "Int32Array",
	reflect.TypeOf([]float32{}): "Float32Array",
	reflect.TypeOf([]float64{}): "Float64Array",
	reflect.TypeOf([]int64{}):   "BigInt64Array",
	reflect.TypeOf([]uint64{}):  "BigUint64Array",
}

// TypedArrayName returns the constructor name of the typed arrays whose
// export type is t (a Uint8ClampedArray exports as a Uint8Array), or ""
// when t is not a typed array's.
func TypedArrayName(t reflect.Type) string { return typedArrays[t] }

// AsProxy returns obj's proxy details when obj is a Proxy. It never calls a
// trap (ClassName would, and panics on a revoked proxy).
func AsProxy(obj *goja.Object) (goja.Proxy, bool) {
	if obj.ExportType() != ProxyType {
		return goja.Proxy{}, false
	}
	p, ok := obj.Export().(goja.Proxy)
	return p, ok
}

// IsDataView reports a DataView, by its prototype chain.
func IsDataView(vm *goja.Runtime, o *goja.Object) bool {
	dv, ok := vm.Get("DataView").(*goja.Object)
	if !ok {
		return false
	}
	proto, _ := dv.Get("prototype").(*goja.Object)
	for p, i := o.Prototype(), 0; p != nil && i < 100; p, i = p.Prototype(), i+1 {
		if p == proto {
			return true
		}
	}
	return false
}

// Inherits reports whether proto is on obj's prototype chain.
func Inherits(obj, proto *goja.Object) bool {
	if proto == nil {
		return false
	}
	for p, i := obj.Prototype(), 0; p != nil && i < 1000; p, i = p.Prototype(), i+1 {
		if p == proto {
			return true
		}
	}
	return false
}

// SymbolString renders a symbol as Symbol.prototype.toString does.
func SymbolString(s *goja.Symbol) string {
	return "Symbol(" + s.String() + ")"
}

// String converts v to a string without throwing for symbols; nil is
// "undefined".
func String(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if s, ok := v.(*goja.Symbol); ok {
		return SymbolString(s)
	}
	return v.String()
}

// ToInt converts v to an int clamped to [0, 2**32-1], the range of an
// array length; nil is 0.
func ToInt(v goja.Value) int {
	if v == nil {
		return 0
	}
	n := v.ToInteger()
	if n > math.MaxUint32 {
		return math.MaxUint32
	}
	if n < 0 {
		return 0
	}
	return int(n)
}

// NumberString formats f as JavaScript's Number.prototype.toString does
// (so -0 is "0").
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	k, n := len(digits), e+1
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		x := n - 1
		if x < 0 {
			x = -x
		}
		if k == 1 {
			out = digits + "e" + sign + strconv.Itoa(x)
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(x)
		}
	}
	if f < 0 {
		out = "-" + out
	}
	return out
}

// NewError returns a plain JavaScript error object of the given constructor
// name ("Error", "TypeError", ...) carrying msg; unknown names give an Error
// whose name property is set to name.
func NewError(vm *goja.Runtime, name, msg string) *goja.Object {
	ctor, ok := vm.Get(name).(*goja.Object)
	if !ok || !strings.HasSuffix(name, "Error") {
		ctor = vm.Get("Error").(*goja.Object)
	}
	obj, err := vm.New(ctor, vm.ToValue(msg))
	if err != nil {
		obj = vm.NewObject()
		_ = obj.Set("message", msg)
	}
	if obj.Get("name").String() != name {
		_ = obj.Set("name", name)
		// The stack was captured with the constructor's name; fix its header.
		if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) {
			_, rest, _ := strings.Cut(st.String(), "\n")
			_ = obj.Set("stack", name+": "+msg+"\n"+rest)
		}
	}
	return obj
}

// NamedFunction creates a native function whose name property is name, so
// that console.log(fn) prints [Function: name] rather than the Go
// function's symbol.
func NamedFunction(vm *goja.Runtime, name string, fn func(goja.FunctionCall) goja.Value) goja.Value {
	f := vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}
