package runtime

import (
	"reflect"
	"unsafe"

	"github.com/dop251/goja"
)

// Repairing a VM after an interrupt.
//
// goja (at the version this module pins) leaves its VM unbalanced when an
// interrupt stops code running inside an async function: the interrupt
// escapes asyncRunner.start (and the reject of an async function's
// promise) before the call frame it pushed is popped. Every snippet runs
// inside an async function, so every timeout, memory limit or tool-call
// limit of a run does this. A fresh VM per run never notices; a session's
// next run would: RunProgram then believes it is called recursively and
// never runs promise jobs, so the first await of the next run never
// resumes.
//
// repairVM puts the VM's internal stacks back to the state of an idle VM
// (the one RunProgram leaves after a normal run) through reflection on
// goja's unexported fields, and then checks with a probe that promise jobs
// run again. If the fields are not what this code expects (another goja
// version), or the probe fails, it reports false and the session ends
// with an error that says so, rather than run on a broken VM. The session
// tests pin the behaviour (a timeout in an async function, then an await).

// idleVM is what repairVM restores: the VM's stash (scope) when idle.
type idleVM struct {
	stash unsafe.Pointer
}

// vmField returns the settable field name of goja's internal vm of rt,
// or an invalid Value when it does not exist.
func vmField(rt *goja.Runtime, name string) reflect.Value {
	v := reflect.ValueOf(rt).Elem().FieldByName("vm")
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		return reflect.Value{}
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// captureIdle records the idle state of a VM that has not run yet.
func captureIdle(rt *goja.Runtime) idleVM {
	f := vmField(rt, "stash")
	if !f.IsValid() || f.Kind() != reflect.Pointer {
		return idleVM{}
	}
	return idleVM{stash: f.UnsafePointer()}
}

// unbalanced reports whether the VM was left with frames on its call
// stack, which an idle VM never has.
func unbalanced(rt *goja.Runtime) bool {
	f := vmField(rt, "callStack")
	return f.IsValid() && f.Kind() == reflect.Slice && f.Len() > 0
}

// repairVM restores an idle VM's stacks and reports whether promise jobs
// run again.
func repairVM(rt *goja.Runtime, idle idleVM) bool {
	if idle.stash == nil {
		return false
	}
	for _, name := range []string{"callStack", "tryStack", "iterStack", "refStack"} {
		f := vmField(rt, name)
		if !f.IsValid() || f.Kind() != reflect.Slice {
			return false
		}
		f.SetLen(0)
	}
	ints := map[string]int64{"sp": 0, "sb": -1, "args": 0, "pc": 0}
	for name, v := range ints {
		f := vmField(rt, name)
		if !f.IsValid() || f.Kind() != reflect.Int {
			return false
		}
		f.SetInt(v)
	}
	for _, name := range []string{"prg", "privEnv", "curAsyncRunner"} {
		f := vmField(rt, name)
		if !f.IsValid() || f.Kind() != reflect.Pointer {
			return false
		}
		f.SetZero()
	}
	stash := vmField(rt, "stash")
	if !stash.IsValid() || stash.Kind() != reflect.Pointer {
		return false
	}
	stash.Set(reflect.NewAt(stash.Type().Elem(), idle.stash))
	jobs := reflect.ValueOf(rt).Elem().FieldByName("jobQueue")
	if !jobs.IsValid() || jobs.Kind() != reflect.Slice {
		return false
	}
	reflect.NewAt(jobs.Type(), unsafe.Pointer(jobs.UnsafeAddr())).Elem().SetZero()
	rt.ClearInterrupt()
	return jobsRun(rt)
}

// jobsRun reports whether the VM runs promise jobs at the end of a
// program, as an idle VM does. The probe awaits, which uses the engine's
// own promise machinery: a snippet that replaced Promise.resolve or
// Promise.prototype.then cannot make it fail.
func jobsRun(rt *goja.Runtime) bool {
	v, err := rt.RunString(`(() => { let ok = false; (async () => { await 0; ok = true })(); return () => ok })()`)
	if err != nil {
		return false
	}
	check, ok := goja.AssertFunction(v)
	if !ok {
		return false
	}
	res, err := check(goja.Undefined())
	return err == nil && res.ToBoolean() && !unbalanced(rt)
}
