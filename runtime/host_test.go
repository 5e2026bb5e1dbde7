package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestHostCalls checks host work started with Env.Go: it resolves,
// rejects, survives a panic, and keeps the run alive until it settles.
func TestHostCalls(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		value     string
		stdout    string
	}{
		{"resolve", `return await sleep(10, "v");`, `"v"`, ""},
		{"reject is catchable", `try { await fail("bad thing") } catch (e) { return [e instanceof Error, (e as Error).message] }`, `[true,"bad thing"]`, ""},
		{"panic becomes a rejection", `try { await boom() } catch (e) { return (e as Error).message } `, `"host call failed: internal error: kaboom"`, ""},
		{"un-awaited call still finishes", `sleep(50, "late").then(v => console.log("done", v)); return 1;`, `1`, "done late\n"},
		{"un-awaited call in async function", `async function go() { const v = await sleep(20, 7); console.log("got", v) } go(); console.log("sync");`, ``, "sync\ngot 7\n"},
		{"host call inside a timer", `setTimeout(async () => console.log(await sleep(5, "in timer")), 5);`, ``, "in timer\n"},
		{"results feed further calls", `let v = 0; for (let i = 0; i < 5; i++) v = (await sleep(1, v + 1)) as number; return v;`, `5`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHost()
			res := mustRun(t, tt.src, Options{Setup: h.setup})
			if string(res.Value) != tt.value {
				t.Errorf("Value = %s, want %s", res.Value, tt.value)
			}
			if res.Stdout != tt.stdout {
				t.Errorf("Stdout = %q, want %q", res.Stdout, tt.stdout)
			}
		})
	}
}

// TestHostCallRejectionUnhandled checks that a host call that rejects with
// nobody listening fails the run like any unhandled rejection, and that an
// awaited one fails it with the rejection's error.
func TestHostCallRejectionUnhandled(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	res := runSnippet(t, `fail("lost"); await sleep(30); console.log("after");`, Options{Setup: h.setup})
	if res.Error == nil || !strings.Contains(res.Error.Message, "lost") || !strings.Contains(res.Error.Message, "unhandled") {
		t.Errorf("Error %v, want an unhandled rejection of \"lost\"", res.Error)
	}
	if strings.Contains(res.Stdout, "after") {
		t.Errorf("the run went on: %q", res.Stdout)
	}

	h = newHost()
	res = runSnippet(t, "const x = 1;\nawait fail(\"awaited\");", Options{Setup: h.setup})
	if res.Error == nil || res.Error.Message != "awaited" || res.Error.Kind != KindException {
		t.Errorf("Error %+v, want \"awaited\"", res.Error)
	}
}

// TestHostPanicRunSurvives checks that a panicking host call does not bring
// the run (or the process) down.
func TestHostPanicRunSurvives(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	res := mustRun(t, `const r = await Promise.allSettled([boom(), sleep(5, "ok"), boom()]);
return r.map(x => x.status);`, Options{Setup: h.setup})
	if string(res.Value) != `["rejected","fulfilled","rejected"]` {
		t.Errorf("Value %s", res.Value)
	}
	// Unhandled, the panic's rejection fails the run with an exception.
	e := mustFail(t, `await boom();`, Options{Setup: h.setup})
	if e.Kind != KindException || !strings.Contains(e.Message, "kaboom") {
		t.Errorf("error %s kind %s", e, e.Kind)
	}
}

// TestHostParallel checks that host work really runs concurrently: Env.Go
// sets no limit of its own, so ten 100 ms calls all run at once.
func TestHostParallel(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	res := mustRun(t, `const r = await Promise.all(Array.from({ length: 10 }, (_, i) => sleep(100, i)));
return r;`, Options{Setup: h.setup})
	if string(res.Value) != `[0,1,2,3,4,5,6,7,8,9]` {
		t.Errorf("Value %s", res.Value)
	}
	if m := h.maxRunning.Load(); m != 10 {
		t.Errorf("at most %d calls ran at once, want all 10", m)
	}
}

// TestHostFail checks Outcome.Fail and Env.Fail: host code that enforces a
// limit of its own ends the run with it, past any try/catch, and the run's
// error is that limit, unwrapping to the Go error.
func TestHostFail(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	res := runSnippet(t, `try { await limit("the run made more than 3 tool calls, its limit") } catch { } return "escaped";`, Options{Setup: h.setup})
	e := res.Error
	if e == nil || e.Kind != KindLimit || e.Name != "LimitError" || e.Message != "the run made more than 3 tool calls, its limit" || res.Value != nil {
		t.Fatalf("Result value %s, error %+v; want the limit error", res.Value, e)
	}
	var le *LimitError
	if !errors.As(e, &le) || le.Message != e.Message {
		t.Errorf("errors.As(*LimitError) = %v", le)
	}
}

// TestErrorUnwrap checks that a run's Error unwraps to its Go cause.
func TestErrorUnwrap(t *testing.T) {
	checkLeaks(t)
	e := mustFail(t, `for (;;) {}`, Options{Limits: Limits{Timeout: 50 * time.Millisecond}})
	if !errors.Is(e, context.DeadlineExceeded) {
		t.Errorf("timeout error %v does not unwrap to context.DeadlineExceeded", e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, `return 1`, Options{})
	if res.Error == nil || res.Error.Kind != KindCanceled || !errors.Is(res.Error, context.Canceled) {
		t.Errorf("cancelled run: %+v, want a CanceledError unwrapping to context.Canceled", res.Error)
	}
	e = mustFail(t, `throw new Error("x")`, Options{})
	if errors.Unwrap(e) != nil {
		t.Errorf("a JavaScript exception unwraps to %v, want nil", errors.Unwrap(e))
	}
}

// TestHostContext checks the context host work gets: it is cancelled once
// the run is over, with a cause, and Env.Context is the same.
func TestHostContext(t *testing.T) {
	checkLeaks(t)
	var env *Env
	var workCtx context.Context
	opts := Options{Setup: func(e *Env) error {
		env = e
		return e.VM().Set("grab", func(goja.FunctionCall) goja.Value {
			return e.Go(func(ctx context.Context) Outcome {
				workCtx = ctx
				return Outcome{}
			})
		})
	}}
	res := mustRun(t, `const v = await grab(); return v === undefined;`, opts)
	if string(res.Value) != "true" {
		t.Errorf("an Outcome without Settle should resolve to undefined: %s", res.Value)
	}
	if env.Context().Err() == nil || workCtx.Err() == nil {
		t.Errorf("the run's context is not cancelled after the run")
	}
	if !errors.Is(context.Cause(workCtx), ErrRunOver) {
		t.Errorf("cause %v, want ErrRunOver", context.Cause(workCtx))
	}
}

// TestSetupError checks that a failing Setup is reported, not run.
func TestSetupError(t *testing.T) {
	ran := false
	res := Run(context.Background(), `console.log("ran")`, Options{Setup: func(e *Env) error {
		ran = true
		return errors.New("no bindings")
	}})
	if !ran || res.Error == nil || res.Error.Kind != KindInternal || !strings.Contains(res.Error.Message, "no bindings") || res.Stdout != "" {
		t.Errorf("Result %+v, error %+v", res, res.Error)
	}
}

// TestHostFunctionThrows checks a host function that throws a JavaScript
// error synchronously (as bindings do for bad arguments), and one that
// panics with a Go value.
func TestHostFunctionThrows(t *testing.T) {
	checkLeaks(t)
	opts := Options{Setup: func(e *Env) error {
		vm := e.VM()
		if err := vm.Set("bad", func(goja.FunctionCall) goja.Value {
			panic(NewError(vm, "TypeError", "bad argument"))
		}); err != nil {
			return err
		}
		return vm.Set("gopanic", func(goja.FunctionCall) goja.Value {
			panic("a Go bug")
		})
	}}
	e := mustFail(t, "const x = 1;\nbad(x);", opts)
	if e.Name != "TypeError" || e.Message != "bad argument" || e.Line != 2 {
		t.Errorf("error %s at line %d", e, e.Line)
	}
	res := mustRun(t, `try { bad() } catch (e) { return (e as Error).name }`, opts)
	if string(res.Value) != `"TypeError"` {
		t.Errorf("caught %s", res.Value)
	}
	// A Go panic in a host function is reported, not propagated.
	e = mustFail(t, `gopanic()`, opts)
	if e.Kind != KindInternal {
		t.Errorf("Go panic: %s kind %s, want internal", e, e.Kind)
	}
	// And the next run is fine.
	mustRun(t, `return 1`, opts)
}

// TestNewError checks the exported helper bindings use for errors.
func TestNewError(t *testing.T) {
	vm := goja.New()
	tests := []struct{ name, wantName, wantCtor string }{
		{"Error", "Error", "Error"},
		{"TypeError", "TypeError", "TypeError"},
		{"RangeError", "RangeError", "RangeError"},
		{"ToolError", "ToolError", "Error"},
		{"NotAnError", "NotAnError", "Error"},
	}
	for _, tt := range tests {
		obj := NewError(vm, tt.name, "msg "+tt.name)
		if got := obj.Get("name").String(); got != tt.wantName {
			t.Errorf("%s: name %q", tt.name, got)
		}
		if got := obj.Get("message").String(); got != "msg "+tt.name {
			t.Errorf("%s: message %q", tt.name, got)
		}
		if obj.ClassName() != "Error" {
			t.Errorf("%s: class %q", tt.name, obj.ClassName())
		}
		ctor := vm.Get(tt.wantCtor).ToObject(vm)
		if !obj.Get("constructor").StrictEquals(ctor) {
			t.Errorf("%s: constructor is not %s", tt.name, tt.wantCtor)
		}
		if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) && !strings.HasPrefix(st.String(), tt.wantName+": msg "+tt.name) {
			t.Errorf("%s: stack %q", tt.name, st)
		}
	}
}
