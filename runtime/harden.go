package runtime

import (
	"fmt"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/transform"
)

// nestingError is the compile error for source nested deeper than limit.
func nestingError(filename, src string, limit int) *Error {
	if d := transform.CheckNesting(filename, src, limit); d != nil {
		return compileError(*d)
	}
	return nil
}

// Property flags below follow goja's DefineDataProperty order: writable,
// configurable, enumerable, matching the built-ins they replace.

// restrictCodeGeneration replaces eval and the Function constructors (also
// reachable as the constructor of any function, async function or
// generator) with functions that throw an EvalError explaining why, unless
// allowed is set; then eval and new Function only check the nesting of the
// code they are given, since the parser's overflow would kill the process.
// The generator constructor is restricted only with generators (see
// restrictGenerators).
func (r *run) restrictCodeGeneration(allowed, generators bool) error {
	vm := r.vm
	limit := r.opts.MaxNesting
	evalFn, ok := goja.AssertFunction(vm.Get("eval"))
	if !ok {
		return fmt.Errorf("restrict eval: no eval global")
	}
	var evalReplacement any = refuseCode(vm, "eval")
	if allowed {
		// eval returns any value, so it cannot be a constructor-style func.
		evalReplacement = func(call goja.FunctionCall) goja.Value {
			if len(call.Arguments) > 0 && goja.IsString(call.Arguments[0]) {
				if e := nestingError("eval", call.Arguments[0].String(), limit); e != nil {
					panic(NewError(vm, "SyntaxError", "eval: "+e.Message))
				}
			}
			v, err := evalFn(goja.Undefined(), call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}
	}
	if err := vm.Set("eval", evalReplacement); err != nil {
		return err
	}
	if err := vm.Get("eval").ToObject(vm).DefineDataProperty("name", vm.ToValue("eval"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if !generators {
		// Only generator syntax makes a generator function, and setting up
		// goja's generator machinery is most of this function's cost.
		return r.restrictConstructors(allowed, functionKindsNoGenerator(), constructorNames[:2])
	}
	return r.restrictConstructors(allowed, functionKinds(), constructorNames)
}

// restrictGenerators restricts the GeneratorFunction constructor as
// restrictCodeGeneration does, for a VM that it restricted without
// generators (a session's, whose first snippet had no generator).
func (r *run) restrictGenerators(allowed bool) error {
	return r.restrictConstructors(allowed, generatorKind(), constructorNames[2:])
}

// constructorNames are the function constructors, in the order of the
// functions of functionKinds.
var constructorNames = []string{"Function", "AsyncFunction", "GeneratorFunction"}

// refuseCode returns a constructor that throws the EvalError of what.
// It is a constructor so that `new Function()` gets the same answer as
// `Function()`.
func refuseCode(vm *goja.Runtime, what string) func(goja.ConstructorCall) *goja.Object {
	return func(goja.ConstructorCall) *goja.Object {
		panic(NewError(vm, "EvalError", what+" is disabled in snippets: write the code directly instead of generating it"))
	}
}

// restrictConstructors replaces the constructors named kinds, found
// through the prototypes of the functions that kindsProgram's value holds
// (in the same order), since only Function itself is a global: with
// refuseCode, or, when allowed, with a constructor that checks the
// nesting of the code it is given before calling the original.
func (r *run) restrictConstructors(allowed bool, kindsProgram *goja.Program, kinds []string) error {
	vm := r.vm
	limit := r.opts.MaxNesting
	guard := func(what string, orig goja.Callable) func(goja.ConstructorCall) *goja.Object {
		return func(call goja.ConstructorCall) *goja.Object {
			for _, a := range call.Arguments {
				if goja.IsString(a) {
					if e := nestingError("eval", a.String(), limit); e != nil {
						panic(NewError(vm, "SyntaxError", what+": "+e.Message))
					}
				}
			}
			v, err := orig(goja.Undefined(), call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v.ToObject(vm)
		}
	}
	protos, err := vm.RunProgram(kindsProgram)
	if err != nil {
		return fmt.Errorf("restrict %s: %w", kinds[0], err)
	}
	fns := protos.ToObject(vm)
	for i, what := range kinds {
		proto := fns.Get(fmt.Sprint(i)).ToObject(vm).Prototype()
		ctor, ok := goja.AssertFunction(proto.Get("constructor"))
		if !ok {
			return fmt.Errorf("restrict %s: no constructor", what)
		}
		var replacement goja.Value
		if allowed {
			replacement = vm.ToValue(guard("new "+what, ctor))
		} else {
			replacement = vm.ToValue(refuseCode(vm, "new "+what+"()"))
		}
		ro := replacement.ToObject(vm)
		if err := ro.DefineDataProperty("name", vm.ToValue(what), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
		// Keep `x instanceof Function` and Function.prototype working.
		if err := ro.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			return err
		}
		if err := proto.DefineDataProperty("constructor", ro, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
		if what == "Function" {
			if err := vm.Set("Function", ro); err != nil {
				return err
			}
		}
	}
	return nil
}

// functionKinds is a program whose value holds one function of each kind
// that has its own constructor, functionKindsNoGenerator all but the
// generator, generatorKind the generator alone; compiled once, shared by
// every run.
var (
	functionKinds = sync.OnceValue(func() *goja.Program {
		return goja.MustCompile("kinds.js", "[function(){}, async function(){}, function*(){}]", true)
	})
	functionKindsNoGenerator = sync.OnceValue(func() *goja.Program {
		return goja.MustCompile("kinds.js", "[function(){}, async function(){}]", true)
	})
	generatorKind = sync.OnceValue(func() *goja.Program {
		return goja.MustCompile("kinds.js", "[function*(){}]", true)
	})
)

// RegexpTimeout bounds one match of a regular expression that goja runs
// with its backtracking engine (patterns with backreferences or
// lookarounds); catastrophic backtracking would otherwise never return, and
// a VM interrupt cannot stop it. It is set process-wide in the regexp2
// package (see setRegexpTimeout) before the first snippet compiles, since
// a regular expression takes the timeout in force when it is compiled. A
// match that hits it throws a RangeError the snippet can catch ("Regular
// expression /…/ was stopped after 1s without finishing"), where goja
// without codeexec's patch reported no match (third_party/goja/PATCH.md).
const RegexpTimeout = time.Second

// regexpTimeout is the match timeout setRegexpTimeout sets: RegexpTimeout,
// which this package's tests lower (each catastrophic pattern they run
// spins a CPU until it fires).
var regexpTimeout = RegexpTimeout

// setRegexpTimeout sets regexp2's default match timeout, once.
var setRegexpTimeout = sync.OnceFunc(func() { regexp2.DefaultMatchTimeout = regexpTimeout })

// FormatBytes renders a byte count as the limit messages say it: "512
// MiB" or "64 KiB" when it is a whole number of them, else "N bytes".
// Package isolation uses it so that both modes name limits alike.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
