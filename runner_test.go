package codeexec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// TestMain makes the test binary a worker when a Runner in Process
// isolation starts it as one, and fails the package if a test leaves a
// goroutine behind.
func TestMain(m *testing.M) {
	isolation.Main()
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/codeexec/codeexec/isolation.(*executors).loop"))
}

// modes are the isolation modes every test of the Runner runs in; Process
// only where it is supported.
func modes(t *testing.T) []codeexec.Isolation {
	if goruntime.GOOS != "linux" {
		return []codeexec.Isolation{codeexec.InProcess}
	}
	return []codeexec.Isolation{codeexec.InProcess, codeexec.Process}
}

// forEachMode runs f as a parallel subtest per isolation mode, with a
// Runner for reg and opts in that mode.
func forEachMode(t *testing.T, reg *registry.Registry, opts codeexec.Options, f func(t *testing.T, r *codeexec.Runner)) {
	t.Helper()
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			f(t, newRunner(t, reg, opts, m))
		})
	}
}

// newRunner returns a Runner for reg and opts in mode m, closed when t
// ends; runs that set no timeout get 20 s.
func newRunner(t *testing.T, reg *registry.Registry, opts codeexec.Options, m codeexec.Isolation) *codeexec.Runner {
	t.Helper()
	opts.Isolation = m
	if opts.Limits.Timeout == 0 {
		opts.Limits.Timeout = 20 * time.Second
	}
	r, err := codeexec.New(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// forEachModeTools is forEachMode with a fresh testTools registry per
// mode, so that f can read how many sleeps ran at once in its mode.
func forEachModeTools(t *testing.T, opts codeexec.Options, f func(t *testing.T, r *codeexec.Runner, maxRunning *atomic.Int32)) {
	t.Helper()
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			reg, maxRunning := testTools(t)
			f(t, newRunner(t, reg, opts, m), maxRunning)
		})
	}
}

// testTools is a registry with a few tools for the runner's tests: echo,
// sleep (ms), fail, and progress (reports two updates).
func testTools(t testing.TB) (*registry.Registry, *atomic.Int32) {
	t.Helper()
	reg := registry.New()
	var running, maxRunning atomic.Int32
	tools := []registry.Tool{
		{
			Name: "echo", Description: "Echo the text.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
			CallSignature: "async function echo(text: string): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult(c.Params["text"].(string)), nil
			},
		},
		{
			Name: "sleep", Description: "Sleep some milliseconds.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"ms":{"type":"number"}},"required":["ms"]}`),
			CallSignature: "async function sleep(ms: number): Promise<void>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				n := running.Add(1)
				defer running.Add(-1)
				for {
					m := maxRunning.Load()
					if n <= m || maxRunning.CompareAndSwap(m, n) {
						break
					}
				}
				select {
				case <-time.After(time.Duration(c.Params["ms"].(float64)) * time.Millisecond):
					return registry.Result{}, nil
				case <-ctx.Done():
					return registry.Result{}, ctx.Err()
				}
			},
		},
		{
			Name: "fail", Description: "Fail.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
			CallSignature: "async function fail(): Promise<void>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.Result{}, errors.New("it failed")
			},
		},
		{
			Name: "progress", Description: "Report progress twice.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
			CallSignature: "async function progress(): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				c.Update(registry.TextResult("half"))
				c.Update(registry.TextResult("most"))
				return registry.TextResult("done"), nil
			},
		},
	}
	for _, tool := range tools {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg, &maxRunning
}

// TestHookDeniesWrite is the permission gate: a tool_call hook that denies
// write stops a snippet's write in both modes, and nothing is written.
func TestHookDeniesWrite(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ts, err := builtin.Open(builtin.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	reg := registry.New()
	for _, tool := range ts.Tools() {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if ev.Name == "write" {
			return "writing is not allowed"
		}
		return ""
	})
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		name := "denied-" + t.Name()[strings.LastIndex(t.Name(), "/")+1:] + ".txt"
		res := r.Run(context.Background(), "await write(\""+name+"\", \"x\");\nreturn 1", codeexec.RunOptions{Filename: "w.ts"})
		e := res.Error
		if e == nil || e.Name != "ToolError" || e.Message != "Tool call write blocked: writing is not allowed" || e.Line != 1 {
			t.Fatalf("error %+v, want the hook's denial at w.ts:1", e)
		}
		if _, err := os.Stat(filepath.Join(root, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the denied write created the file (stat: %v)", err)
		}
		if len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != "write" || !res.ToolCalls[0].IsError {
			t.Errorf("trace %+v, want the one failed write", res.ToolCalls)
		}
	})
}

// TestTrace checks the trace the Runner keeps in both modes: every call in
// the order the snippet made it, with its id, params, error flag and
// duration.
func TestTrace(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	src := `await echo("a");
const p = sleep(30);
await Promise.allSettled([fail(), p]);
await callTool("echo", { text: "b" });
return "ok";`
	want := `[{"id":"call_1","name":"echo","params":{"text":"a"},"isError":false,"updates":0},` +
		`{"id":"call_2","name":"sleep","params":{"ms":30},"isError":false,"updates":0},` +
		`{"id":"call_3","name":"fail","params":{},"isError":true,"updates":0},` +
		`{"id":"call_4","name":"echo","params":{"text":"b"},"isError":false,"updates":0}]`
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), src, codeexec.RunOptions{})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		got, _ := json.Marshal(res.ToolCalls)
		if string(got) != want {
			t.Errorf("trace\n got %s\nwant %s", got, want)
		}
		if d := res.ToolCalls[1].Duration; d < 25*time.Millisecond {
			t.Errorf("the 30 ms sleep lasted %s", d)
		}
	})
}

// TestCallLimits checks MaxCalls (the call past it ends the run, even
// inside try/catch) and MaxConcurrentCalls in both modes.
func TestCallLimits(t *testing.T) {
	t.Parallel()
	opts := codeexec.Options{Limits: codeexec.Limits{MaxCalls: 3, MaxConcurrentCalls: 2}}
	forEachModeTools(t, opts, func(t *testing.T, r *codeexec.Runner, maxRunning *atomic.Int32) {
		res := r.Run(context.Background(), `for (let i = 0; i < 10; i++) { try { await echo("x") } catch { } } return "escaped"`, codeexec.RunOptions{})
		e := res.Error
		if e == nil || e.Kind != runtime.KindLimit || e.Message != "the run made more than 3 tool calls, its limit" || res.Value != nil {
			t.Fatalf("value %s, error %+v; want the call limit", res.Value, e)
		}
		var limit *runtime.LimitError
		if !errors.As(e, &limit) {
			t.Errorf("the error does not unwrap to a *runtime.LimitError")
		}
		if len(res.ToolCalls) != 3 {
			t.Errorf("trace has %d calls, want the 3 allowed", len(res.ToolCalls))
		}
		res = r.Run(context.Background(), `await Promise.all([sleep(40), sleep(40), sleep(40)])`, codeexec.RunOptions{})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		if m := maxRunning.Load(); m > 2 {
			t.Errorf("%d calls ran at once, over the limit of 2", m)
		}
	})
}

// TestParallelByDefault checks that Promise.all of ten 100 ms calls runs
// them all at once: the default concurrency limit (16) leaves room for a
// Promise.all of ten.
func TestParallelByDefault(t *testing.T) {
	t.Parallel()
	forEachModeTools(t, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner, maxRunning *atomic.Int32) {
		res := r.Run(context.Background(), `await Promise.all(Array.from({ length: 10 }, () => sleep(100)))`, codeexec.RunOptions{})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		if m := maxRunning.Load(); m != 10 {
			t.Errorf("%d calls ran at once, want all 10", m)
		}
	})
}

// recorder keeps a run's events.
type recorder struct {
	mu     sync.Mutex
	events []codeexec.Event
}

func (r *recorder) on(e codeexec.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// lines renders the events one line each, for comparison.
func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		s := string(e.Kind)
		switch e.Kind {
		case codeexec.EventOutput:
			s += " " + string(e.Stream) + " " + strings.TrimSuffix(e.Text, "\n")
		case codeexec.EventToolStart:
			p, _ := json.Marshal(e.Params)
			s += " " + e.CallID + " " + e.Tool + " " + string(p)
		case codeexec.EventToolUpdate:
			s += " " + e.CallID + " " + e.Update.Text()
		case codeexec.EventToolEnd:
			s += " " + e.CallID
			if e.IsError {
				s += " error"
			}
		case codeexec.EventEnd:
			s += " " + string(e.Result.Value)
		}
		out = append(out, s)
	}
	return out
}

// TestEvents checks the run events in both modes: output, tool start,
// updates and end as they happen and in order, the run's end last.
func TestEvents(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	src := `console.log("before");
await progress();
console.error("between");
try { await fail() } catch { }
console.log("after");
return 7;`
	want := []string{
		"output stdout before",
		`tool_start call_1 progress {}`,
		"tool_update call_1 half",
		"tool_update call_1 most",
		"tool_end call_1",
		"output stderr between",
		`tool_start call_2 fail {}`,
		"tool_end call_2 error",
		"output stdout after",
		"end 7",
	}
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		var rec recorder
		var out strings.Builder
		res := r.Run(context.Background(), src, codeexec.RunOptions{OnEvent: rec.on, Stdout: &out})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		got := rec.lines()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if out.String() != "before\nafter\n" {
			t.Errorf("live stdout %q", out.String())
		}
	})
}

// TestClose checks that Close stops a run in progress and that a Run after
// Close fails, both with errors that unwrap to ErrClosed.
func TestClose(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			r, err := codeexec.New(reg, codeexec.Options{Isolation: m})
			if err != nil {
				t.Fatal(err)
			}
			started := make(chan struct{})
			done := make(chan *codeexec.Result)
			go func() {
				done <- r.Run(context.Background(), `await sleep(1); await sleep(60000)`, codeexec.RunOptions{OnEvent: func(e codeexec.Event) {
					if e.Kind == codeexec.EventToolStart && e.CallID == "call_2" {
						close(started)
					}
				}})
			}()
			<-started
			_ = r.Close()
			res := <-done
			if res.Error == nil || res.Error.Kind != runtime.KindCanceled || !errors.Is(res.Error, codeexec.ErrClosed) {
				t.Errorf("stopped run: %+v, want a CanceledError unwrapping to ErrClosed", res.Error)
			}
			res = r.Run(context.Background(), `return 1`, codeexec.RunOptions{})
			if res.Error == nil || res.Error.Kind != runtime.KindCanceled || !errors.Is(res.Error, codeexec.ErrClosed) {
				t.Errorf("run after Close: %+v, want a CanceledError unwrapping to ErrClosed", res.Error)
			}
		})
	}
}

// TestCancel checks that cancelling a run's context ends it with a
// CanceledError unwrapping to context.Canceled, in both modes.
func TestCancel(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		ctx, cancel := context.WithCancel(context.Background())
		res := r.Run(ctx, `await sleep(1); await sleep(60000)`, codeexec.RunOptions{OnEvent: func(e codeexec.Event) {
			if e.Kind == codeexec.EventToolStart && e.CallID == "call_2" {
				cancel()
			}
		}})
		if res.Error == nil || res.Error.Kind != runtime.KindCanceled || !errors.Is(res.Error, context.Canceled) {
			t.Errorf("cancelled run: %+v, want a CanceledError unwrapping to context.Canceled", res.Error)
		}
	})
}

// TestNewRefuses checks the options New refuses, each with an error that
// names the problem.
func TestNewRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts codeexec.Options
		want string
	}{
		{"negative limit", codeexec.Options{Limits: codeexec.Limits{MaxCalls: -1, Timeout: -time.Second}}, "codeexec: negative limits: [Timeout is -1s MaxCalls is -1]"},
		{"pool options in process", codeexec.Options{Pool: codeexec.PoolOptions{Size: 2}}, "codeexec: Pool options apply only to Process isolation"},
		{"worker runs in process", codeexec.Options{Pool: codeexec.PoolOptions{MaxRunsPerWorker: 1}}, "codeexec: Pool options apply only to Process isolation"},
		{"worker heap in process", codeexec.Options{Pool: codeexec.PoolOptions{MaxWorkerHeap: 1 << 20}}, "codeexec: Pool options apply only to Process isolation"},
		{"unknown isolation", codeexec.Options{Isolation: 7}, "codeexec: unknown isolation 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := codeexec.New(nil, tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Errorf("New: %v, want %q", err, tt.want)
			}
			if r != nil {
				t.Errorf("New returned a Runner with its error")
			}
		})
	}
}

// TestNoTools checks a Runner given no tools, as nil or as a nil
// *registry.Registry: callTool finds none.
func TestNoTools(t *testing.T) {
	t.Parallel()
	var nilRegistry *registry.Registry
	for _, tools := range []codeexec.Tools{nil, nilRegistry} {
		r, err := codeexec.New(tools, codeexec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res := r.Run(context.Background(), `try { await callTool("x", {}) } catch (e) { return e.message }`, codeexec.RunOptions{})
		if string(res.Value) != `"Tool not found: x"` {
			t.Errorf("tools %#v: value %s, error %v", tools, res.Value, res.Error)
		}
		r.Close()
	}
}

// TestToolsChangeBetweenRuns checks that each run binds the tools as they
// are when it starts: one registered or overridden after an earlier run
// is bound by the next, with its new signature.
func TestToolsChangeBetweenRuns(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tool := func(sig, text string) registry.Tool {
		return registry.Tool{
			Name: "greet", Description: "Greet.", CallSignature: sig,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"who":{"type":"string"}}}`),
			Execute: func(context.Context, registry.Call) (registry.Result, error) {
				return registry.TextResult(text), nil
			},
		}
	}
	const src = `if (typeof greet !== "function") return "unbound"; try { return await greet("x") } catch (e) { return e.message }`
	steps := []struct {
		change func() error
		want   string
	}{
		{func() error { return nil }, `"unbound"`},
		{func() error { return reg.Register(tool("async function greet(who: string): Promise<string>", "hi")) }, `"hi"`},
		{func() error { return nil }, `"hi"`},
		{func() error { return reg.Override(tool("async function greet(): Promise<string>", "hello")) },
			`"greet() takes at most 0 arguments but got 1; its signature is async function greet(): Promise<string>"`},
	}
	for i, step := range steps {
		if err := step.change(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		res := r.Run(context.Background(), src, codeexec.RunOptions{})
		if res.Error != nil || string(res.Value) != step.want {
			t.Errorf("step %d: value %s, error %v; want %s", i, res.Value, res.Error, step.want)
		}
	}
}

// TestSchemaOnlyAndTypedTools checks that a tool registered with only a
// schema (its signature generated at Register) and a tool made with
// registry.NewTool are callable from a snippet, in both modes.
func TestSchemaOnlyAndTypedTools(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "get-sum", Description: "Add two numbers.",
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult(fmt.Sprint(c.Params["a"].(float64) + c.Params["b"].(float64))), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	type wordsIn struct {
		Text string `json:"text"`
	}
	type wordsOut struct {
		Words int `json:"words"`
	}
	typed, err := registry.NewTool("word_count", "Count words.", func(ctx context.Context, in wordsIn) (wordsOut, error) {
		return wordsOut{Words: len(strings.Fields(in.Text))}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(typed); err != nil {
		t.Fatal(err)
	}
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), `return [await get_sum({ a: 2, b: 3 }), (await word_count({ text: "a b c" })).words]`, codeexec.RunOptions{})
		if res.Error != nil || string(res.Value) != `[5,3]` {
			t.Errorf("value %s, error %v; want [5,3]", res.Value, res.Error)
		}
	})
}

// TestRunMemoryBounds checks the two bounds on what a run holds in the
// host besides the snippet's heap: the trace keeps a cut copy of big
// params, and a tool result over MaxResultBytes is refused, in both modes.
func TestRunMemoryBounds(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	opts := codeexec.Options{Limits: codeexec.Limits{MaxResultBytes: 1000}}
	forEachMode(t, reg, opts, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), `const big = "x".repeat(200000);
await echo(big.slice(0, 900));
try { await echo(big) } catch (e) { return (e as Error).message }`, codeexec.RunOptions{})
		if want := `"Tool echo failed: the result is 200070 bytes as JSON, over the limit of 1000 bytes on a tool result"`; string(res.Value) != want {
			t.Errorf("value %s, error %v; want %s", res.Value, res.Error, want)
		}
		if len(res.ToolCalls) != 2 || !res.ToolCalls[1].IsError {
			t.Fatalf("trace %+v", res.ToolCalls)
		}
		kept := res.ToolCalls[1].Params.(map[string]any)["text"].(string)
		if want := strings.Repeat("x", 1024) + "...[198976 more bytes not kept in the trace]"; kept != want {
			t.Errorf("the trace kept %d bytes of the 200000-byte param: %.60q...", len(kept), kept)
		}
		if small := res.ToolCalls[0].Params.(map[string]any)["text"].(string); len(small) != 900 {
			t.Errorf("the trace cut a small param to %d bytes", len(small))
		}
	})
}

// TestMemoryLimit checks, in both modes, that a snippet that keeps
// allocating ends with the memory-limit error, which unwraps to
// runtime.ErrMemoryLimit, with what it printed before kept, and that the
// next run works. (In process the case runs beside the package's other
// tests, whose heap the watchdog sees too: it only needs to end.)
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	reg, _ := testTools(t)
	opts := codeexec.Options{Limits: codeexec.Limits{Memory: 96 << 20}}
	forEachMode(t, reg, opts, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), `console.log("growing"); const chunk = "x".repeat(1 << 16), keep: string[] = []; for (;;) keep.push(chunk + keep.length);`, codeexec.RunOptions{})
		if res.Error == nil || res.Error.Kind != runtime.KindLimit || res.Error.Message != "the run exceeded its memory limit of 96 MiB" {
			t.Fatalf("error %v, want the memory limit", res.Error)
		}
		if !errors.Is(res.Error, runtime.ErrMemoryLimit) {
			t.Errorf("the error %v does not unwrap to ErrMemoryLimit", res.Error)
		}
		if res.Stdout != "growing\n" {
			t.Errorf("stdout %q", res.Stdout)
		}
		if res := r.Run(context.Background(), `return 6 * 7`, codeexec.RunOptions{}); res.Error != nil || string(res.Value) != "42" {
			t.Errorf("the next run: %s %v", res.Value, res.Error)
		}
	})
}

// TestToolCallDeadline checks, in both modes, that a tool call's context
// has the run's deadline, so that a tool can plan by the time left (bash
// lowers its timeout to it).
func TestToolCallDeadline(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	if err := reg.Register(registry.Tool{
		Name: "left", Description: "Says how long its call may run.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function left(): Promise<any>",
		Execute: func(ctx context.Context, _ registry.Call) (registry.Result, error) {
			dl, ok := ctx.Deadline()
			return registry.Result{Details: map[string]any{"deadline": ok, "withinTimeout": ok && time.Until(dl) > 0 && time.Until(dl) <= 40*time.Second}}, nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	forEachMode(t, reg, codeexec.Options{Limits: codeexec.Limits{Timeout: 40 * time.Second}}, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), `return await left()`, codeexec.RunOptions{})
		if res.Error != nil || string(res.Value) != `{"deadline":true,"withinTimeout":true}` {
			t.Errorf("value %s, error %v", res.Value, res.Error)
		}
	})
}

// TestProcessOptions checks that Options.Process is what a snippet's
// process global shows, in both modes, and that no host variable leaks.
func TestProcessOptions(t *testing.T) {
	t.Setenv("CODEEXEC_TEST_HOST_SECRET", "s3cret")
	opts := codeexec.Options{Process: runtime.ProcessOptions{Env: map[string]string{"MODE": "test"}, Cwd: "/work/project"}}
	for _, m := range modes(t) {
		r := newRunner(t, registry.New(), opts, m)
		res := r.Run(context.Background(), `return [process.env.MODE, process.env.CODEEXEC_TEST_HOST_SECRET ?? "absent", process.cwd()]`, codeexec.RunOptions{})
		if want := `["test","absent","/work/project"]`; string(res.Value) != want {
			t.Errorf("%s: value %s, error %v; want %s", m, res.Value, res.Error, want)
		}
	}
}

// TestWorkerReuse checks that a Runner passes its pool options on: by
// default a clean run leaves its worker for the next and a run that hits a
// limit does not; with MaxRunsPerWorker 1 every run gets its own worker.
// PoolStats says which.
func TestWorkerReuse(t *testing.T) {
	t.Parallel()
	if goruntime.GOOS != "linux" {
		t.Skip("process isolation is Linux only")
	}
	tests := []struct {
		name string
		pool codeexec.PoolOptions
		want isolation.Stats
	}{
		// Runs: clean, clean, a limit, clean: the third retires the
		// worker the first two shared; the fourth starts another.
		{"default", codeexec.PoolOptions{}, isolation.Stats{Started: 2, Runs: 4, Reused: 2, Retired: 1}},
		{"one run per worker", codeexec.PoolOptions{MaxRunsPerWorker: 1}, isolation.Stats{Started: 4, Runs: 4, Reused: 0, Retired: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, registry.New(), codeexec.Options{Pool: tc.pool, Limits: codeexec.Limits{MaxCalls: 1}}, codeexec.Process)
			for i, src := range []string{`globalThis.x = 1; return 1`, `return typeof x`, `await callTool("a", {}).catch(() => 0); await callTool("b", {})`, `return typeof x`} {
				res := r.Run(context.Background(), src, codeexec.RunOptions{})
				if i == 2 {
					if res.Error == nil || res.Error.Kind != runtime.KindLimit {
						t.Fatalf("run %d: error %v, want the call limit", i, res.Error)
					}
				} else if res.Error != nil || (i > 0 && string(res.Value) != `"undefined"`) {
					t.Fatalf("run %d: %s, %v", i, res.Value, res.Error)
				}
			}
			if got := r.PoolStats(); got != tc.want {
				t.Errorf("PoolStats = %+v, want %+v", got, tc.want)
			}
		})
	}
	r := newRunner(t, registry.New(), codeexec.Options{}, codeexec.InProcess)
	if got := r.PoolStats(); got != (isolation.Stats{}) {
		t.Errorf("PoolStats in process = %+v, want zero", got)
	}
	if _, err := codeexec.New(nil, codeexec.Options{Isolation: codeexec.Process, Pool: codeexec.PoolOptions{MaxRunsPerWorker: -1}}); err == nil || err.Error() != "codeexec: isolation: MaxRunsPerWorker -1 is negative" {
		t.Errorf("New with a negative MaxRunsPerWorker: %v", err)
	}
}
