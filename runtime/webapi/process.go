package webapi

import (
	goruntime "runtime"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// Process is what the process global of a run is made of. The zero value
// gives an empty env, argv ["codeexec"], cwd "/" and functions that do
// nothing.
type Process struct {
	// Env is process.env: only these variables, never the host's. The map
	// is copied when the global is built.
	Env map[string]string
	// Argv is process.argv.
	Argv []string
	// Cwd is what process.cwd() returns.
	Cwd string
	// Write receives what process.stdout.write (fd 1) and
	// process.stderr.write (fd 2) print.
	Write func(fd int, s string)
	// Exit is called by process.exit(code) with the code. It must end the
	// run before the next JavaScript instruction (an interrupt).
	Exit func(code int)
	// SetExitCode is called with each value assigned to process.exitCode
	// (undefined and null as 0).
	SetExitCode func(code int)
	// Ticks is called when the first callback is queued by
	// process.nextTick since the last drain, with the function that runs
	// the queued callbacks (in order, until none is left). The loop calls
	// it once the microtask queue has drained.
	Ticks func(drain goja.Callable)
}

// nodeVersion is what process.version reports: the Node line whose
// behaviour the globals follow.
const nodeVersion = "v20.0.0"

// newProcess builds the process global.
func (w *webGlobals) newProcess() goja.Value {
	p := w.opts.Process
	env := w.vm.NewObject()
	for k, v := range p.Env {
		_ = env.Set(k, v)
	}
	argv := p.Argv
	if len(argv) == 0 {
		argv = []string{"codeexec"}
	}
	argvVals := make([]any, len(argv))
	for i, a := range argv {
		argvVals[i] = a
	}
	cwd := p.Cwd
	if cwd == "" {
		cwd = "/"
	}
	platform := goruntime.GOOS
	if platform == "windows" {
		platform = "win32"
	}
	arch := map[string]string{"amd64": "x64", "386": "ia32"}[goruntime.GOARCH]
	if arch == "" {
		arch = goruntime.GOARCH
	}
	var drain goja.Callable
	n := w.natives(map[string]func(goja.FunctionCall) goja.Value{
		"write": func(c goja.FunctionCall) goja.Value {
			if p.Write != nil {
				p.Write(int(c.Argument(0).ToInteger()), c.Argument(1).String())
			}
			return goja.Undefined()
		},
		"exit": func(c goja.FunctionCall) goja.Value {
			if p.Exit != nil {
				p.Exit(int(c.Argument(0).ToInteger()))
			}
			return goja.Undefined()
		},
		"setExitCode": func(c goja.FunctionCall) goja.Value {
			if p.SetExitCode != nil {
				p.SetExitCode(int(c.Argument(0).ToInteger()))
			}
			return goja.Undefined()
		},
		"setDrain": func(c goja.FunctionCall) goja.Value {
			drain, _ = goja.AssertFunction(c.Argument(0))
			return goja.Undefined()
		},
		"ticksPending": func(goja.FunctionCall) goja.Value {
			if p.Ticks != nil && drain != nil {
				p.Ticks(drain)
			}
			return goja.Undefined()
		},
		"hrtime": func(goja.FunctionCall) goja.Value {
			return w.vm.ToValue(w.opts.Now().Sub(w.start).Nanoseconds())
		},
		"memoryUsage": func(goja.FunctionCall) goja.Value {
			var m goruntime.MemStats
			goruntime.ReadMemStats(&m)
			o := w.vm.NewObject()
			_ = o.Set("rss", m.Sys)
			_ = o.Set("heapTotal", m.HeapSys)
			_ = o.Set("heapUsed", m.HeapAlloc)
			_ = o.Set("external", 0)
			_ = o.Set("arrayBuffers", 0)
			return o
		},
	})
	_ = n.Set("env", env)
	_ = n.Set("argv", w.vm.NewArray(argvVals...))
	_ = n.Set("cwd", cwd)
	_ = n.Set("platform", platform)
	_ = n.Set("arch", arch)
	_ = n.Set("version", nodeVersion)
	qm, err := w.global("queueMicrotask")
	if err != nil {
		panic(err)
	}
	return js.Call(w.factory("process"), goja.Undefined(), w.withErrors(n), qm)
}
