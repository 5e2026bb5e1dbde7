package bindings

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/convert"
)

// TestMain checks that no test leaves a goroutine behind, except regexp2's
// clock, which the runtime's regular-expression timeout starts and which
// stops by itself.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

// fakeTools registers the tools the tests call. cancelled counts sleep calls
// whose context was cancelled before they finished.
func fakeTools(t testing.TB, cancelled *atomic.Int32) *registry.Registry {
	t.Helper()
	reg := registry.New()
	tools := []registry.Tool{
		{
			Name: "sleep", Description: "Sleep for ms milliseconds.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"]}`),
			CallSignature: "async function sleep(ms: number): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				d := time.Duration(c.Params["ms"].(float64)) * time.Millisecond
				select {
				case <-time.After(d):
					return registry.TextResult("slept"), nil
				case <-ctx.Done():
					if cancelled != nil {
						cancelled.Add(1)
					}
					return registry.Result{}, ctx.Err()
				}
			},
		},
		{
			Name: "fail", Description: "Always fails.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"why":{"type":"string"}}}`),
			CallSignature: "async function fail(options?: { why?: string }): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				why, _ := c.Params["why"].(string)
				return registry.Result{}, errors.New("fail: " + why)
			},
		},
		{
			Name: "word_count", Description: "Count words.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
			CallSignature: "async function wordCount(text: string): Promise<{ words: number }>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				n := len(strings.Fields(c.Params["text"].(string)))
				return registry.Result{Content: []registry.Content{registry.TextContent("counted")}, Details: map[string]any{"words": n}}, nil
			},
		},
		{
			Name: "read", Description: "Read a file.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["path"]}`),
			CallSignature: "async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				b, _ := json.Marshal(c.Params)
				return registry.TextResult(string(b)), nil
			},
		},
		{
			Name: "json_text", Description: "Returns JSON as text, no details.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"raw":{"type":"string"}}}`),
			CallSignature: "async function jsonText(raw: string): Promise<any>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult(c.Params["raw"].(string)), nil
			},
		},
		{
			Name: "touch", Description: "Returns nothing useful.",
			Parameters:    registry.MustParseSchema(`{"type":"object"}`),
			CallSignature: "async function touch(): Promise<void>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult("ignored"), nil
			},
		},
		{
			Name: "hidden", Description: "Has no signature.",
			Parameters: registry.MustParseSchema(`{"type":"object"}`),
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult("hidden ran"), nil
			},
		},
	}
	for _, tool := range tools {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func runWith(t testing.TB, reg *registry.Registry, opts Options, src string, ro runtime.Options) *runtime.Result {
	t.Helper()
	ro.Setup = New(reg, opts).Setup
	if ro.Timeout == 0 {
		ro.Timeout = 5 * time.Second
	}
	return runtime.Run(context.Background(), src, ro)
}

func TestBindings(t *testing.T) {
	reg := fakeTools(t, nil)
	tests := []struct {
		name  string
		src   string
		value string // JSON of the return value
		err   string // substring of the error report, "" for success
	}{
		{"string result", `return await sleep(1)`, `"slept"`, ""},
		{"positional and options", `return JSON.parse(await read("a.txt", { offset: 2, limit: 3 }))`, `{"limit":3,"offset":2,"path":"a.txt"}`, ""},
		{"one params object for a scalar first parameter", `return JSON.parse(await read({ path: "b.txt", limit: 1 }))`, `{"limit":1,"path":"b.txt"}`, ""},
		{"undefined arguments dropped", `return JSON.parse(await read("c", undefined))`, `{"path":"c"}`, ""},
		{"details for object return type", `return await wordCount("a b c")`, `{"words":3}`, ""},
		{"JSON text when no details", `return await jsonText('{"x":[1,2]}')`, `{"x":[1,2]}`, ""},
		{"text when not JSON", `return await jsonText("plain")`, `"plain"`, ""},
		{"void", `return typeof (await touch())`, `"undefined"`, ""},
		{"no signature, not bound", `return typeof hidden`, `"undefined"`, ""},
		{"callTool reaches tools without signature", `return await callTool("hidden", {})`, `{"content":[{"type":"text","text":"hidden ran"}],"details":null,"isError":false}`, ""},
		{"callTool does not reject on tool errors", `const r = await callTool("fail", { why: "x" }); return [r.isError, r.content[0].text, r.details]`, `[true,"fail: x",{}]`, ""},
		{"callTool rejects on unknown tool", `try { await callTool("nope", {}) } catch (e) { return e.message }`, `"Tool not found: nope"`, ""},
		{"ToolError is catchable with plain data", `try { await fail({ why: "disk" }) } catch (e) { return [e.name, e.message, e.tool, e.details, Object.getPrototypeOf(e.details) === Object.prototype, e instanceof Error] }`, `["ToolError","fail: disk","fail",{},true,true]`, ""},
		{"uncaught ToolError fails the run", `await fail({ why: "boom" })`, ``, "ToolError: fail: boom"},
		{"schema violation names the property", `try { await read(42) } catch (e) { return e.message }`, ``, ""},
		{"too many arguments name the signature", `await read("a", {}, 3)`, ``, "read() takes at most 2 arguments but got 3; its signature is async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>"},
		{"scalar for an options bag", `await fail(3)`, ``, "fail(): argument 1 (options) must be an object, got a number"},
		{"callTool name must be a string", `await callTool(1, {})`, ``, "callTool(name, params): name must be a string"},
		{"callTool params must be a plain object", `await callTool("hidden", [1])`, ``, "params must be an object, got an array"},
		{"inherited properties do not reach tools", `const o = Object.create({ offset: 5 }); o.path = "p"; return JSON.parse(await read(o))`, `{"path":"p"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runWith(t, reg, Options{}, tc.src, runtime.Options{})
			if tc.err != "" {
				if res.Error == nil || !strings.Contains(res.Error.Report(), tc.err) {
					t.Fatalf("want error containing %q, got %+v", tc.err, res.Error)
				}
				return
			}
			if res.Error != nil {
				t.Fatalf("unexpected error: %s", res.Error.Report())
			}
			if tc.value != "" && string(res.Value) != tc.value {
				t.Fatalf("value = %s, want %s", res.Value, tc.value)
			}
		})
	}
}

func TestSchemaViolationMessage(t *testing.T) {
	res := runWith(t, fakeTools(t, nil), Options{}, `try { await read(42) } catch (e) { return e.message }`, runtime.Options{})
	var msg string
	if err := json.Unmarshal(res.Value, &msg); err != nil {
		t.Fatalf("value %s: %v (error %v)", res.Value, err, res.Error)
	}
	for _, want := range []string{"params.path", "string", "expected {path: string"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
}

func TestParallelCalls(t *testing.T) {
	reg := fakeTools(t, nil)
	start := time.Now()
	res := runWith(t, reg, Options{}, `
const results = await Promise.all(Array.from({ length: 10 }, () => sleep(100)));
return results.length;`, runtime.Options{MaxConcurrentCalls: 10})
	elapsed := time.Since(start)
	if res.Error != nil || string(res.Value) != "10" {
		t.Fatalf("value %s, error %v", res.Value, res.Error)
	}
	// Sequential calls would take a second; this bound is deliberately loose.
	if elapsed > 700*time.Millisecond {
		t.Fatalf("ten 100 ms calls took %s; they did not run in parallel", elapsed)
	}
	if len(res.ToolCalls) != 10 {
		t.Fatalf("trace has %d calls, want 10", len(res.ToolCalls))
	}
}

func TestTimeoutCancelsToolCalls(t *testing.T) {
	var cancelled atomic.Int32
	reg := fakeTools(t, &cancelled)
	res := runWith(t, reg, Options{}, `sleep(60000); await sleep(60000);`, runtime.Options{Timeout: 300 * time.Millisecond})
	if res.Error == nil || res.Error.Kind != runtime.KindLimit || !strings.Contains(res.Error.Message, "timeout of 300ms") {
		t.Fatalf("want a timeout limit error, got %+v", res.Error)
	}
	if n := cancelled.Load(); n != 2 {
		t.Fatalf("%d tool contexts saw cancellation, want 2", n)
	}
	for _, c := range res.ToolCalls {
		if !c.IsError {
			t.Errorf("cancelled call %s not marked as an error", c.ID)
		}
	}
}

func TestHooks(t *testing.T) {
	reg := fakeTools(t, nil)
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if ev.Name == "sleep" {
			return "sleeping is not allowed here"
		}
		return ""
	})
	src := `try { await sleep(1); return "ran" } catch (e) { return e.message }`
	res := runWith(t, reg, Options{EmitEvents: true}, src, runtime.Options{})
	if !strings.Contains(string(res.Value), "sleeping is not allowed here") {
		t.Fatalf("blocked call: value %s, error %v", res.Value, res.Error)
	}
	res = runWith(t, reg, Options{EmitEvents: false}, src, runtime.Options{})
	if string(res.Value) != `"ran"` {
		t.Fatalf("without EmitEvents the hook must not run: value %s, error %v", res.Value, res.Error)
	}
}

func TestTraceRecordsParams(t *testing.T) {
	res := runWith(t, fakeTools(t, nil), Options{}, `await read("x", { limit: 2 }); await callTool("fail", {})`, runtime.Options{})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	got, _ := json.Marshal(res.ToolCalls)
	want := `[{"id":"call_1","name":"read","params":{"limit":2,"path":"x"},"isError":false},{"id":"call_2","name":"fail","params":{},"isError":true}]`
	if string(got) != want {
		t.Fatalf("trace\n got %s\nwant %s", got, want)
	}
}

func TestBindingsAreFreshPerRun(t *testing.T) {
	reg := fakeTools(t, nil)
	res := runWith(t, reg, Options{}, `read.hacked = true; globalThis.sleep = null; return 1`, runtime.Options{})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	res = runWith(t, reg, Options{}, `return [read.hacked === undefined, typeof sleep]`, runtime.Options{})
	if string(res.Value) != `[true,"function"]` {
		t.Fatalf("state leaked between runs: %s %v", res.Value, res.Error)
	}
}

func TestUncaughtToolErrorNamesToolAndCallSite(t *testing.T) {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "flaky", Description: "Fails without saying its name.",
		Parameters:    registry.MustParseSchema(`{"type":"object"}`),
		CallSignature: "async function flaky(): Promise<string>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			return registry.Result{}, errors.New("disk full")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := runWith(t, reg, Options{}, "const a = 1;\nawait flaky();", runtime.Options{Filename: "x.ts"})
	if res.Error == nil {
		t.Fatal("want an error")
	}
	e := res.Error
	if e.Name != "ToolError" || e.Message != "tool flaky failed: disk full" || e.File != "x.ts" || e.Line != 2 {
		t.Fatalf("got %s at %s:%d:%d", e.Error(), e.File, e.Line, e.Column)
	}
}

// TestPrimitiveDataMatchesRoundTrip checks the fast path of toData against
// the JSON round trip it stands in for.
func TestPrimitiveDataMatchesRoundTrip(t *testing.T) {
	vm := goja.New()
	for _, src := range []string{
		`"path/to/file.txt"`, `""`, `"\ud800 lone"`, `"é 🎉"`, `0`, `-0`, `42`, `-7.5`, `1e300`, `2**53 + 2`,
		`NaN`, `Infinity`, `-Infinity`, `true`, `false`, `null`,
	} {
		v, err := vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		fast, ok := primitiveData(v)
		if !ok {
			t.Errorf("%s: no fast path", src)
			continue
		}
		raw, err := convert.ExportJSON(vm, v)
		if err != nil {
			t.Fatal(err)
		}
		var slow any
		if err := json.Unmarshal(raw, &slow); err != nil {
			t.Fatal(err)
		}
		fb, _ := json.Marshal(fast)
		sb, _ := json.Marshal(slow)
		if !reflect.DeepEqual(fast, slow) || string(fb) != string(sb) {
			t.Errorf("%s: fast path %#v (%s), round trip %#v (%s)", src, fast, fb, slow, sb)
		}
	}
	for _, src := range []string{`({a: 1})`, `[1]`, `10n`, `Symbol("s")`, `new String("s")`, `undefined`} {
		v, err := vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := primitiveData(v); ok {
			t.Errorf("%s: took the fast path; it needs the round trip", src)
		}
	}
}
