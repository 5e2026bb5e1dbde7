package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// installGlobals adds the sandbox globals every run has: console, timers,
// queueMicrotask, and a require that explains modules are unavailable.
func (r *run) installGlobals() error {
	vm := r.vm
	console := vm.NewObject()
	for name, out := range map[string]*output{
		"log": r.stdout, "info": r.stdout, "debug": r.stdout,
		"warn": r.stderr, "error": r.stderr, "trace": r.stderr,
	} {
		if err := console.Set(name, r.printer(out)); err != nil {
			return err
		}
	}
	set := func(name string, fn func(goja.FunctionCall) goja.Value) error {
		return vm.Set(name, fn)
	}
	for _, g := range []struct {
		name string
		fn   func(goja.FunctionCall) goja.Value
	}{
		{"setTimeout", r.timerFunc(false)},
		{"setInterval", r.timerFunc(true)},
		{"clearTimeout", r.clearTimer},
		{"clearInterval", r.clearTimer},
		{"queueMicrotask", r.queueMicrotask},
		{"require", r.require},
	} {
		if err := set(g.name, g.fn); err != nil {
			return err
		}
	}
	return vm.Set("console", console)
}

// printer returns a console method writing one formatted line to out.
func (r *run) printer(out *output) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		out.write(r.format(call.Arguments) + "\n")
		return goja.Undefined()
	}
}

// format implements Node's util.format: printf-style specifiers in a leading
// string, then the remaining arguments inspected and joined by spaces.
func (r *run) format(args []goja.Value) string {
	in := r.inspector()
	var b strings.Builder
	rest := args
	if len(args) > 0 && goja.IsString(args[0]) {
		f := args[0].String()
		rest = args[1:]
		for i := 0; i < len(f); i++ {
			if f[i] != '%' || i+1 == len(f) {
				b.WriteByte(f[i])
				continue
			}
			c := f[i+1]
			if c == '%' {
				b.WriteByte('%')
				i++
				continue
			}
			if !strings.ContainsRune("sdifjoOc", rune(c)) || len(rest) == 0 {
				b.WriteByte('%')
				continue
			}
			a := rest[0]
			rest = rest[1:]
			i++
			switch c {
			case 's':
				if goja.IsString(a) {
					b.WriteString(a.String())
				} else {
					b.WriteString(in.format(a, 1))
				}
			case 'd', 'i':
				n := a.ToFloat()
				if c == 'i' {
					n = math.Trunc(n)
				}
				b.WriteString(formatNumber(n))
			case 'f':
				b.WriteString(formatNumber(a.ToFloat()))
			case 'j':
				s, err := jsonStringify(r.vm, a)
				if err != nil {
					s = "[Circular]"
				}
				b.WriteString(s)
			case 'o', 'O':
				b.WriteString(in.format(a, 0))
			case 'c':
				// CSS styles are ignored, as in Node.
			}
		}
		if len(rest) > 0 {
			b.WriteByte(' ')
		}
	}
	for i, a := range rest {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(in.inspect(a))
	}
	return b.String()
}

// jsonStringify calls the VM's JSON.stringify on v.
func jsonStringify(vm *goja.Runtime, v goja.Value) (string, error) {
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	s, err := stringify(goja.Undefined(), v)
	if err != nil {
		return "", err
	}
	if goja.IsUndefined(s) {
		return "undefined", nil
	}
	return s.String(), nil
}

// timerFunc implements setTimeout (repeat false) and setInterval.
func (r *run) timerFunc(repeat bool) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(r.vm.NewTypeError("The \"callback\" argument must be of type function. Received " + r.inspector().format(call.Argument(0), 0)))
		}
		ms := call.Argument(1).ToFloat()
		if math.IsNaN(ms) || ms < 1 {
			ms = 1
		}
		ms = min(ms, float64(math.MaxInt32))
		var args []goja.Value
		if len(call.Arguments) > 2 {
			args = append(args, call.Arguments[2:]...)
		}
		id := r.loop.addTimer(time.Duration(ms*float64(time.Millisecond)), repeat, func() error {
			if _, err := fn(goja.Undefined(), args...); err != nil {
				return err
			}
			return r.checkRejections()
		})
		return r.vm.ToValue(id)
	}
}

func (r *run) clearTimer(call goja.FunctionCall) goja.Value {
	if id := call.Argument(0); !goja.IsUndefined(id) && !goja.IsNull(id) {
		r.loop.clearTimer(id.ToInteger())
	}
	return goja.Undefined()
}

// queueMicrotask schedules fn as a promise job, which runs before any timer
// or host call completes.
func (r *run) queueMicrotask(call goja.FunctionCall) goja.Value {
	fn := call.Argument(0)
	if _, ok := goja.AssertFunction(fn); !ok {
		panic(r.vm.NewTypeError("The \"callback\" argument must be of type function. Received " + r.inspector().format(fn, 0)))
	}
	p, resolve, _ := r.vm.NewPromise()
	then, _ := goja.AssertFunction(r.vm.ToValue(p).ToObject(r.vm).Get("then"))
	if _, err := then(r.vm.ToValue(p), fn); err != nil {
		panic(err)
	}
	_ = resolve(goja.Undefined())
	return goja.Undefined()
}

func (r *run) require(call goja.FunctionCall) goja.Value {
	name := call.Argument(0).String()
	panic(NewError(r.vm, "Error", "require("+strconv.Quote(name)+") is not supported: "+modulesHint))
}

// setValue stores the snippet's return value in res, as data and as text.
func (r *run) setValue(res *Result, v goja.Value) {
	if v == nil || goja.IsUndefined(v) {
		return
	}
	res.ValueText = r.inspector().inspect(v)
	data, err := exportJSON(r.vm, v)
	if err != nil {
		res.Error = &Error{Name: "TypeError", Message: fmt.Sprintf("the return value cannot be converted to JSON: %v", err), Kind: KindException}
		return
	}
	res.Value = data
}
