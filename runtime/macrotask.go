package runtime

import (
	"sync"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/transform"
)

// macrotaskFile names the program of macrotaskJS in goja's stacks, whose
// frames nodeStack leaves out.
const macrotaskFile = "codeexec:macrotask"

// macrotaskJS calls a macrotask, then drains process.nextTick's queue:
// from a JavaScript frame, so that goja, which runs the promise jobs a
// call from Go queued when that call returns, runs them after the ticks,
// as Node does after each macrotask (the main script, a timer, an
// immediate): `Promise.resolve().then(a); process.nextTick(b)` runs b
// first. Ticks queued by promise jobs run when the jobs have drained (the
// loop's beforeTurn), as in Node.
// Compiled at the first run that uses it, not in every start of the binary.
var macrotaskProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile(macrotaskFile, `(function (task, ticks) { const v = task(); ticks(); return v; })`, true)
})

// usesTicks reports whether the run's macrotasks go through macrotaskJS:
// when its snippet may call nextTick (transform.NextTick), and always in
// a session, whose earlier runs may have left functions that call it.
func (r *run) usesTicks() bool {
	return r.sess != nil || r.features.Has(transform.NextTick)
}

// macrotask runs task, the VM's entry for one macrotask, and then the
// callbacks process.nextTick queued in it, before the promise jobs either
// queued (see macrotaskJS). Without nextTick in the run it is task().
// Loop goroutine only.
func (r *run) macrotask(task func() (goja.Value, error)) (goja.Value, error) {
	if !r.ticksFirst {
		return task()
	}
	if r.macro == nil {
		v, err := r.vm.RunProgram(macrotaskProgram())
		if err != nil {
			return nil, err
		}
		r.macro, _ = goja.AssertFunction(v)
		r.macroTicks = r.vm.ToValue(func(goja.FunctionCall) goja.Value {
			if drain := r.drainTicks; drain != nil {
				r.drainTicks = nil
				if _, err := drain(goja.Undefined()); err != nil {
					panic(err)
				}
			}
			return goja.Undefined()
		})
	}
	return r.macro(goja.Undefined(), r.vm.ToValue(func(goja.FunctionCall) goja.Value {
		v, err := task()
		if err != nil {
			panic(err) // a thrown *goja.Exception, or an interrupt, goes on up
		}
		return v
	}), r.macroTicks)
}
