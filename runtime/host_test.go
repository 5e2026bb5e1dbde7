package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestHostCalls checks host work started with Env.Go: it resolves, rejects,
// survives a panic, and is traced.
func TestHostCalls(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		value     string
		stdout    string
		trace     []CallRecord // ID, Name, Params and IsError compared
	}{
		{"resolve", `return await sleep(10, "v");`, `"v"`, "",
			[]CallRecord{{ID: "call_1", Name: "sleep", Params: map[string]any{"ms": int64(10)}}}},
		{"reject is catchable", `try { await fail("bad thing") } catch (e) { return [e instanceof Error, (e as Error).message] }`, `[true,"bad thing"]`, "",
			[]CallRecord{{ID: "call_1", Name: "fail", Params: map[string]any{"msg": "bad thing"}, IsError: true}}},
		{"panic becomes a rejection", `try { await boom() } catch (e) { return (e as Error).message } `, `"boom failed: internal error: kaboom"`, "",
			[]CallRecord{{ID: "call_1", Name: "boom", IsError: true}}},
		{"soft error resolves but is marked", `return await soft("meh");`, `"meh"`, "",
			[]CallRecord{{ID: "call_1", Name: "soft", Params: map[string]any{"msg": "meh"}, IsError: true}}},
		{"ids", `return [await callID(), await callID()];`, `["call_1","call_2"]`, "",
			[]CallRecord{{ID: "call_1", Name: "callID"}, {ID: "call_2", Name: "callID"}}},
		{"trace in start order", `await sleep(1); const p = sleep(30); await Promise.allSettled([fail("x"), p]); await soft("s");`, ``, "",
			[]CallRecord{
				{ID: "call_1", Name: "sleep", Params: map[string]any{"ms": int64(1)}},
				{ID: "call_2", Name: "sleep", Params: map[string]any{"ms": int64(30)}},
				{ID: "call_3", Name: "fail", Params: map[string]any{"msg": "x"}, IsError: true},
				{ID: "call_4", Name: "soft", Params: map[string]any{"msg": "s"}, IsError: true},
			}},
		{"un-awaited call still finishes", `sleep(50, "late").then(v => console.log("done", v)); return 1;`, `1`, "done late\n",
			[]CallRecord{{ID: "call_1", Name: "sleep", Params: map[string]any{"ms": int64(50)}}}},
		{"un-awaited call in async function", `async function go() { const v = await sleep(20, 7); console.log("got", v) } go(); console.log("sync");`, ``, "sync\ngot 7\n",
			[]CallRecord{{ID: "call_1", Name: "sleep", Params: map[string]any{"ms": int64(20)}}}},
		{"host call inside a timer", `setTimeout(async () => console.log(await sleep(5, "in timer")), 5);`, ``, "in timer\n",
			[]CallRecord{{ID: "call_1", Name: "sleep", Params: map[string]any{"ms": int64(5)}}}},
		{"results feed further calls", `let v = 0; for (let i = 0; i < 5; i++) v = (await sleep(1, v + 1)) as number; return v;`, `5`, "", nil},
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
			if tt.trace != nil {
				checkTrace(t, res.ToolCalls, tt.trace)
			}
			for _, c := range res.ToolCalls {
				if c.Duration < 0 {
					t.Errorf("call %s has a negative duration", c.ID)
				}
			}
		})
	}
}

func checkTrace(t *testing.T, got, want []CallRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("trace has %d calls, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Name != w.Name || g.IsError != w.IsError || !sameParams(g.Params, w.Params) {
			t.Errorf("call %d = {%s %s %v IsError:%v}, want {%s %s %v IsError:%v}", i, g.ID, g.Name, g.Params, g.IsError, w.ID, w.Name, w.Params, w.IsError)
		}
	}
}

func sameParams(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	am, ok1 := a.(map[string]any)
	bm, ok2 := b.(map[string]any)
	if !ok1 || !ok2 || len(am) != len(bm) {
		return false
	}
	for k, v := range am {
		if bm[k] != v {
			return false
		}
	}
	return true
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
	if len(res.ToolCalls) != 1 || !res.ToolCalls[0].IsError {
		t.Errorf("trace %+v", res.ToolCalls)
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

// TestHostParallel checks that host calls really run concurrently: ten
// 100 ms calls under Promise.all take far less than a second.
func TestHostParallel(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	start := time.Now()
	res := mustRun(t, `const r = await Promise.all(Array.from({ length: 10 }, (_, i) => sleep(100, i)));
return r;`, Options{Setup: h.setup, MaxConcurrentCalls: 10})
	d := time.Since(start)
	if string(res.Value) != `[0,1,2,3,4,5,6,7,8,9]` {
		t.Errorf("Value %s", res.Value)
	}
	if d >= time.Second {
		t.Errorf("10 parallel 100 ms calls took %s, want well under 1s", d)
	}
	if h.maxRunning.Load() < 2 {
		t.Errorf("at most %d calls ran at once", h.maxRunning.Load())
	}
	if len(res.ToolCalls) != 10 {
		t.Errorf("trace has %d calls", len(res.ToolCalls))
	}
	for _, c := range res.ToolCalls {
		if c.Duration < 90*time.Millisecond {
			t.Errorf("call %s lasted %s, want about 100ms", c.ID, c.Duration)
		}
	}

	// With the default concurrency limit (8) they still finish well under
	// one second.
	h = newHost()
	start = time.Now()
	mustRun(t, `await Promise.all(Array.from({ length: 10 }, () => sleep(100)));`, Options{Setup: h.setup})
	if d := time.Since(start); d >= time.Second {
		t.Errorf("10 calls with the default limit took %s", d)
	}
	if m := h.maxRunning.Load(); m > DefaultMaxConcurrentCalls {
		t.Errorf("%d calls ran at once, over the default limit %d", m, DefaultMaxConcurrentCalls)
	}
}

// TestHostConcurrencyLimit checks MaxConcurrentCalls: with 2 slots, six
// 50 ms calls need at least three rounds.
func TestHostConcurrencyLimit(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	start := time.Now()
	res := mustRun(t, `return await Promise.all([1, 2, 3, 4, 5, 6].map(i => sleep(50, i)));`, Options{Setup: h.setup, MaxConcurrentCalls: 2})
	d := time.Since(start)
	if string(res.Value) != `[1,2,3,4,5,6]` {
		t.Errorf("Value %s", res.Value)
	}
	if d < 140*time.Millisecond {
		t.Errorf("six 50 ms calls two at a time took %s, want >= ~150ms", d)
	}
	if m := h.maxRunning.Load(); m > 2 {
		t.Errorf("%d calls ran at once, over the limit of 2", m)
	}
	if len(res.ToolCalls) != 6 {
		t.Errorf("trace has %d calls, want 6", len(res.ToolCalls))
	}
}

// TestHostMaxCalls checks that the call past MaxCalls ends the run with a
// limit error naming the limit, even inside try/catch.
func TestHostMaxCalls(t *testing.T) {
	checkLeaks(t)
	tests := []struct{ name, src string }{
		{"sequential", `for (let i = 0; i < 10; i++) await sleep(1);`},
		{"inside try", `for (let i = 0; i < 10; i++) { try { await sleep(1) } catch { } } return "escaped";`},
		{"parallel", `await Promise.all(Array.from({ length: 10 }, () => sleep(1)));`},
		{"un-awaited", `for (let i = 0; i < 10; i++) sleep(1); return "escaped";`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHost()
			res := runSnippet(t, tt.src, Options{Setup: h.setup, MaxCalls: 3})
			e := res.Error
			if e == nil || e.Kind != KindLimit {
				t.Fatalf("Error %v (value %s), want a limit error", e, res.Value)
			}
			if !strings.Contains(e.Message, "3") || !strings.Contains(e.Message, "tool calls") {
				t.Errorf("message %q does not name the limit of 3 tool calls", e.Message)
			}
			if len(res.ToolCalls) != 3 {
				t.Errorf("trace has %d calls, want the 3 that were allowed", len(res.ToolCalls))
			}
		})
	}
	// At the limit exactly, the run succeeds.
	h := newHost()
	mustRun(t, `for (let i = 0; i < 3; i++) await sleep(1);`, Options{Setup: h.setup, MaxCalls: 3})
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
			return e.Go(Call{Name: "grab"}, func(ctx context.Context, id string) Outcome {
				workCtx = ctx
				return Outcome{}
			})
		})
	}}
	res := mustRun(t, `const v = await grab(); return v === undefined;`, opts)
	if string(res.Value) != "true" {
		t.Errorf("an Outcome without Value should resolve to undefined: %s", res.Value)
	}
	if env.Context().Err() == nil || workCtx.Err() == nil {
		t.Errorf("the run's context is not cancelled after the run")
	}
	if !errors.Is(context.Cause(workCtx), errRunOver) {
		t.Errorf("cause %v, want errRunOver", context.Cause(workCtx))
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
