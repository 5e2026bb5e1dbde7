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
	"github.com/codeexec/codeexec/registry/meettest"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/convert"
	"github.com/codeexec/codeexec/toolcall"
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
			Name: "ping", Description: "Answers pong.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
			CallSignature: "async function ping(): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult("pong"), nil
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

func runWith(t testing.TB, reg toolcall.Caller, src string, ro runtime.Options) *runtime.Result {
	t.Helper()
	ro.Setup = New(reg).Setup
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
		{"no signature: bound with one generated from its schema", `return [typeof hidden, await hidden()]`, `["function","hidden ran"]`, ""},
		{"callTool reaches tools without signature", `return await callTool("hidden", {})`, `{"content":[{"type":"text","text":"hidden ran"}],"details":null,"isError":false}`, ""},
		{"callTool does not reject on tool errors", `const r = await callTool("fail", { why: "x" }); return [r.isError, r.content[0].text, r.details]`, `[true,"fail: x",{}]`, ""},
		{"callTool rejects on unknown tool", `try { await callTool("nope", {}) } catch (e) { return e.message }`, `"Tool not found: nope"`, ""},
		{"callTool's unknown tool names the closest", `try { await callTool("raed", {}) } catch (e) { return [e.name, e.message] }`, `["Error","Tool not found: raed (did you mean read?)"]`, ""},
		{"a tool without parameters takes {}", `return [await ping(), await ping({}), await ping(undefined)]`, `["pong","pong","pong"]`, ""},
		{"a tool without parameters refuses other keys", `await ping({ x: 1 })`, ``, "ping() takes at most 0 arguments but got 1; its signature is async function ping(): Promise<string>"},
		{"a tool without parameters refuses other values", `await ping(1)`, ``, "ping() takes at most 0 arguments but got 1"},
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
			res := runWith(t, reg, tc.src, runtime.Options{})
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
	res := runWith(t, fakeTools(t, nil), `try { await read(42) } catch (e) { return e.message }`, runtime.Options{})
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

// TestParallelCalls checks that a snippet's calls run at once: each of ten
// calls of meet waits until all ten have started, which only calls that
// run in parallel can do before the run's (liveness) timeout.
func TestParallelCalls(t *testing.T) {
	reg := registry.New()
	if err := reg.Register(meettest.Tool(10)); err != nil {
		t.Fatal(err)
	}
	res := runWith(t, reg, `
const results = await Promise.all(Array.from({ length: 10 }, () => meet()));
return results.length;`, runtime.Options{Limits: runtime.Limits{Timeout: 30 * time.Second}})
	if res.Error != nil || string(res.Value) != "10" {
		t.Fatalf("value %s, error %v: the ten calls did not run in parallel", res.Value, res.Error)
	}
}

func TestTimeoutCancelsToolCalls(t *testing.T) {
	var cancelled atomic.Int32
	reg := fakeTools(t, &cancelled)
	res := runWith(t, reg, `sleep(60000); await sleep(60000);`, runtime.Options{Limits: runtime.Limits{Timeout: 300 * time.Millisecond}})
	if res.Error == nil || res.Error.Kind != runtime.KindLimit || !strings.Contains(res.Error.Message, "timeout of 300ms") {
		t.Fatalf("want a timeout limit error, got %+v", res.Error)
	}
	if n := cancelled.Load(); n != 2 {
		t.Fatalf("%d tool contexts saw cancellation, want 2", n)
	}
}

// TestHooksApplyToSnippetCalls checks that a registry's tool_call hook
// blocks a call a snippet makes, and a tool_result hook replaces a result:
// snippet calls always pass the hooks.
func TestHooksApplyToSnippetCalls(t *testing.T) {
	reg := fakeTools(t, nil)
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if ev.Name == "sleep" {
			return "sleeping is not allowed here"
		}
		return ""
	})
	reg.OnToolResult(func(ctx context.Context, ev registry.ToolResultEvent) *registry.Result {
		if ev.Name == "read" {
			r := registry.TextResult("replaced")
			return &r
		}
		return nil
	})
	res := runWith(t, reg, `try { await sleep(1); return "ran" } catch (e) { return e.message }`, runtime.Options{})
	if string(res.Value) != `"Tool call sleep blocked: sleeping is not allowed here"` {
		t.Fatalf("blocked call: value %s, error %v", res.Value, res.Error)
	}
	res = runWith(t, reg, `return await read("a")`, runtime.Options{})
	if string(res.Value) != `"replaced"` {
		t.Fatalf("replaced result: value %s, error %v", res.Value, res.Error)
	}
}

// limitCaller is a Starter that refuses every call past max, at the start
// (as in process) or when performed (as across a process boundary).
type limitCaller struct {
	toolcall.Caller
	max, n  int
	atStart bool
}

func (c *limitCaller) StartCall(name string, params map[string]any) (toolcall.Perform, error) {
	c.n++
	over := c.n > c.max
	if over && c.atStart {
		return nil, runtime.NewLimitError("too many calls", nil)
	}
	return func(ctx context.Context) (registry.Result, error) {
		if over {
			return registry.Result{}, runtime.NewLimitError("too many calls", nil)
		}
		return c.Caller.CallTool(ctx, name, params, registry.CallOptions{})
	}, nil
}

// TestStarterLimit checks that a limit a Starter reports ends the run, as
// the run's limit error, even inside try/catch, whether it comes at the
// call's start or when the call is performed.
func TestStarterLimit(t *testing.T) {
	for _, atStart := range []bool{true, false} {
		c := &limitCaller{Caller: fakeTools(t, nil), max: 2, atStart: atStart}
		res := runWith(t, c, `for (let i = 0; i < 5; i++) { try { await sleep(1) } catch { } } return "escaped"`, runtime.Options{})
		if res.Error == nil || res.Error.Kind != runtime.KindLimit || res.Error.Message != "too many calls" || res.Value != nil {
			t.Errorf("atStart=%v: value %s, error %+v; want the limit", atStart, res.Value, res.Error)
		}
		if c.n != 3 {
			t.Errorf("atStart=%v: %d calls started, want 3", atStart, c.n)
		}
	}
}

func TestBindingsAreFreshPerRun(t *testing.T) {
	reg := fakeTools(t, nil)
	res := runWith(t, reg, `read.hacked = true; globalThis.sleep = null; return 1`, runtime.Options{})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	res = runWith(t, reg, `return [read.hacked === undefined, typeof sleep]`, runtime.Options{})
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
	res := runWith(t, reg, "const a = 1;\nawait flaky();", runtime.Options{Filename: "x.ts"})
	if res.Error == nil {
		t.Fatal("want an error")
	}
	e := res.Error
	if e.Name != "ToolError" || e.Message != "tool flaky failed: disk full" || e.File != "x.ts" || e.Line != 2 {
		t.Fatalf("got %s at %s:%d:%d", e.Error(), e.File, e.Line, e.Column)
	}
}

// TestToDataMatchesRoundTrip checks toData, for the primitives most
// arguments are and a few records, against the JSON round trip it
// replaced (ExportJSON, then json.Unmarshal): the same data, with -0 told
// from 0 (json.Marshal writes -0), and the same error. runtime/convert tests the rules at length.
func TestToDataMatchesRoundTrip(t *testing.T) {
	vm := goja.New()
	for _, src := range []string{
		`"path/to/file.txt"`, `""`, `"\ud800 lone"`, `"é 🎉"`, `0`, `-0`, `42`, `-7.5`, `1e300`, `2**53 + 2`,
		`NaN`, `Infinity`, `-Infinity`, `true`, `false`, `null`, `undefined`, `10n`, `Symbol("s")`, `new String("s")`,
		`({ path: "a", n: -0, list: [1, undefined, () => 1], m: new Map([["k", 1n]]), s: new Set(["x"]) })`,
		`({ get bad() { throw new Error("getter") } })`,
	} {
		v, err := vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := toData(vm, v)
		var want any
		raw, wantErr := convert.ExportJSON(vm, v)
		if wantErr == nil {
			wantErr = json.Unmarshal(raw, &want)
		}
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Errorf("%s: toData error %v, round trip error %v", src, gotErr, wantErr)
			continue
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if !reflect.DeepEqual(got, want) || string(gb) != string(wb) {
			t.Errorf("%s: toData %#v (%s), round trip %#v (%s)", src, got, gb, want, wb)
		}
	}
}

// TestUnconvertibleResults checks that a result the snippet cannot receive
// (details JSON cannot encode, or nested deeper than the engine parses) is
// a ToolError the snippet sees, for bound functions and callTool alike.
func TestUnconvertibleResults(t *testing.T) {
	reg := registry.New()
	deep := json.RawMessage(strings.Repeat("[", 10005) + strings.Repeat("]", 10005))
	for name, details := range map[string]any{"chan_details": make(chan int), "deep_details": deep} {
		err := reg.Register(registry.Tool{
			Name: name, Description: "Returns odd details.",
			Parameters:    registry.MustParseSchema(`{"type":"object"}`),
			CallSignature: "async function " + name + "(): Promise<unknown>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.Result{Content: []registry.Content{registry.TextContent("x")}, Details: details}, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ src, want string }{
		{`await chan_details()`, "tool chan_details: its result cannot be converted to a JavaScript value: json: unsupported type: chan int"},
		{`await callTool("chan_details", {})`, "tool chan_details: its result cannot be converted to a JavaScript value: json: unsupported type: chan int"},
		{`await deep_details()`, "tool deep_details: its result cannot be converted to a JavaScript value: parse JSON: nested too deeply"},
	}
	for _, tt := range tests {
		res := runWith(t, reg, "try { "+tt.src+"; return 'resolved' } catch (e) { return [e.name, e.tool, e.message] }", runtime.Options{})
		var got []string
		if err := json.Unmarshal(res.Value, &got); err != nil || len(got) != 3 {
			t.Fatalf("%s: value %s, error %v", tt.src, res.Value, res.Error)
		}
		if got[0] != "ToolError" || !strings.HasPrefix(got[2], tt.want) {
			t.Errorf("%s: %q, want a ToolError %q", tt.src, got, tt.want)
		}
	}
}

// TestArgumentConversionErrors checks what the snippet sees when an
// argument cannot be converted: the thrown error's name and message, no
// engine internals; and a limit that fires inside a getter ends the run as
// that limit, not as a catchable TypeError.
func TestArgumentConversionErrors(t *testing.T) {
	reg := fakeTools(t, nil)
	tests := []struct{ src, want string }{
		{`const { proxy, revoke } = Proxy.revocable({}, {}); revoke();
try { await read(proxy as any) } catch (e) { return (e as Error).message }`, `"read(): argument 1 (path) cannot be passed to a tool: TypeError: Proxy already revoked"`},
		{`try { await read({ get path() { throw new RangeError("boom") } } as any) } catch (e) { return (e as Error).message }`, `"read(): argument 1 (path) cannot be passed to a tool: RangeError: boom"`},
		{`try { await read({ get path() { throw "text" } } as any) } catch (e) { return (e as Error).message }`, `"read(): argument 1 (path) cannot be passed to a tool: uncaught text"`},
		{`try { await callTool("read", { get path() { throw new Error("x") } }) } catch (e) { return (e as Error).message }`, `"callTool(name, params): params cannot be passed to a tool: Error: x"`},
	}
	for _, tt := range tests {
		res := runWith(t, reg, tt.src, runtime.Options{})
		if string(res.Value) != tt.want || strings.Contains(string(res.Value), "github.com") {
			t.Errorf("%s:\nvalue %s, error %v\nwant %s", tt.src, res.Value, res.Error, tt.want)
		}
	}
	res := runWith(t, reg, `try { await read({ get path() { for (;;) {} } } as any) } catch (e) { return "caught" }`, runtime.Options{Limits: runtime.Limits{Timeout: 100 * time.Millisecond}})
	if res.Error == nil || res.Error.Kind != runtime.KindLimit || res.Error.Message != "the run exceeded its timeout of 100ms" || res.Value != nil {
		t.Errorf("a getter past the timeout: value %s, error %+v; want the timeout", res.Value, res.Error)
	}
}
