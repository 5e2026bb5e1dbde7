//go:build linux

package isolation

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/internal/workerproc"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// testTimeout bounds runs that do not set their own timeout.
const testTimeout = 20 * time.Second

func runOpts(o runtime.Options) runtime.Options {
	if o.Timeout == 0 {
		o.Timeout = testTimeout
	}
	return o
}

// TestRunTools runs snippets that use the parent's tools and checks what
// comes back: values, errors, output and the trace.
func TestRunTools(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{PoolSize: 2})
	tests := []struct {
		name      string
		src       string
		value     string // JSON; "" for none
		stdout    string
		stderr    string
		err       string // "Name: message" prefix; "" for success
		kind      runtime.ErrorKind
		line      int // -1: any
		toolCalls []string
	}{
		{name: "plain value", src: "return 1 + 1", value: "2"},
		{name: "typescript", src: "const n: number = 20; interface A { x: number }\nreturn { n, s: `x${n}` } as const", value: `{"n":20,"s":"x20"}`},
		{name: "no value", src: "const x = 1"},
		{name: "string tool", src: `return await echo("hi")`, value: `"hi"`, toolCalls: []string{"echo"}},
		{name: "details", src: `const s = await stats(); return [s.count, s.items]`, value: `[2,["a","b"]]`, toolCalls: []string{"stats"}},
		{
			name:  "tool error rejects",
			src:   `try { await fail("boom") } catch (e) { return [e.name, e.message, e.tool, e instanceof Error] }`,
			value: `["ToolError","boom","fail",true]`, toolCalls: []string{"fail"},
		},
		{
			name: "uncaught tool error", src: "const a = 1;\nawait fail(\"bad news\");",
			err: "ToolError: ", kind: runtime.KindException, line: -1, toolCalls: []string{"fail"},
		},
		{
			name:  "callTool",
			src:   `const r = await callTool("fail", {msg: "x"}); const s = await callTool("echo", {text: "y"}); return [r.isError, r.content[0].text, s.content[0].text, s.isError]`,
			value: `[true,"x","y",false]`, toolCalls: []string{"fail", "echo"},
		},
		{
			name:  "unknown tool",
			src:   `try { await callTool("nope", {}) } catch (e) { return [e.name, e.message] }`,
			value: `["Error","Tool not found: nope"]`, toolCalls: []string{"nope"},
		},
		{
			name:  "invalid params",
			src:   `try { await sleep("long") } catch (e) { return e.message.startsWith("Invalid parameters for tool sleep") }`,
			value: `true`, toolCalls: []string{"sleep"},
		},
		{
			name:   "console",
			src:    `console.log("a", {b: [1, 2]}); console.warn("w"); console.info(42); return "done"`,
			value:  `"done"`,
			stdout: "a { b: [ 1, 2 ] }\n42\n", stderr: "w\n",
		},
		{name: "exception", src: "\n  throw new TypeError('nope')", err: "TypeError: nope", kind: runtime.KindException, line: 2},
		{name: "syntax error", src: "let x = ;", err: "SyntaxError: ", kind: runtime.KindCompile, line: 1},
		{
			name:  "un-awaited call still runs",
			src:   `echo("later").then((s) => console.log(s)); return 1`,
			value: "1", stdout: "later\n", toolCalls: []string{"echo"},
		},
		{
			name:  "parallel calls",
			src:   `const r = await Promise.all([sleep(200), sleep(200), sleep(200)]); return r`,
			value: `["slept 200","slept 200","slept 200"]`, toolCalls: []string{"sleep", "sleep", "sleep"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := p.Run(context.Background(), tc.src, tt.reg, runOpts(runtime.Options{}))
			if tc.err == "" && res.Error != nil {
				t.Fatalf("run failed: %s", res.Error.Report())
			}
			if tc.err != "" {
				if res.Error == nil {
					t.Fatalf("run succeeded with %s, want error %q", res.Value, tc.err)
				}
				if !strings.HasPrefix(res.Error.Error(), tc.err) || res.Error.Kind != tc.kind || tc.line >= 0 && res.Error.Line != tc.line {
					t.Errorf("error = %q (kind %s, line %d), want %q (kind %s, line %d)", res.Error, res.Error.Kind, res.Error.Line, tc.err, tc.kind, tc.line)
				}
			}
			if got := string(res.Value); got != tc.value {
				t.Errorf("value = %s, want %s", got, tc.value)
			}
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr {
				t.Errorf("stdout, stderr = %q, %q; want %q, %q", res.Stdout, res.Stderr, tc.stdout, tc.stderr)
			}
		})
	}
	if got := tt.maxRunning.Load(); got != 3 {
		t.Errorf("at most %d sleeps ran at once, want 3 (Promise.all runs calls in parallel)", got)
	}
}

// TestSameAsInProcess checks that an isolated run returns the result an
// in-process run of the same snippet returns, field by field.
func TestSameAsInProcess(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{PoolSize: 1})
	snippets := []string{
		`return 1`,
		`return "text"`,
		`return null`,
		`return [1, "a", {b: true}, new Map([["k", 1]]), new Set([1])]`,
		`return undefined`,
		`console.log("%s is %d", "x", 42, {a: {b: {c: {d: 1}}}}); console.error(new Error("shown"))`,
		`const s = await stats(); console.log(s); return s`,
		`await Promise.all([echo("a"), sleep(10), callTool("stats", {})]); return "ok"`,
		"function f() {\n  throw new RangeError('deep')\n}\nf()",
		`await fail("it failed")`,
		`let x: number = ;`,
		`import fs from "fs"`,
		`function r(): number { return r() + 1 } r()`,
		`for (let i = 0; i < 50; i++) console.log("line " + i + " " + "x".repeat(20))`,
		`return echo(42 as any)`,
		`return JSON.parse('{"a":[1,2,{"b":null}]}')`,
	}
	for _, src := range snippets {
		t.Run(src, func(t *testing.T) {
			opts := runtime.Options{Limits: runtime.Limits{Timeout: testTimeout, MaxOutputBytes: 500}}
			want := runtime.Run(context.Background(), src, runtime.Options{
				Limits: runtime.Limits{Timeout: opts.Timeout, MaxOutputBytes: opts.MaxOutputBytes},
				Setup:  bindings.New(tt.reg).Setup,
			})
			got := p.Run(context.Background(), src, tt.reg, opts)
			compareResults(t, got, want)
		})
	}
}

// compareResults compares two results, ignoring durations.
func compareResults(t *testing.T, got, want *runtime.Result) {
	t.Helper()
	if string(got.Value) != string(want.Value) || got.ValueText != want.ValueText {
		t.Errorf("value = %s (%q), want %s (%q)", got.Value, got.ValueText, want.Value, want.ValueText)
	}
	if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Truncated != want.Truncated {
		t.Errorf("output = %q, %q, truncated %v; want %q, %q, %v", got.Stdout, got.Stderr, got.Truncated, want.Stdout, want.Stderr, want.Truncated)
	}
	if !reflect.DeepEqual(got.Error, want.Error) {
		t.Errorf("error = %#v\nwant    %#v", got.Error, want.Error)
	}
	if got.Duration <= 0 {
		t.Error("the result has no duration")
	}
}

// TestHooksRunInParent checks that the caller's hooks run, in this process,
// for every call a snippet makes, and that a hook can block a call.
func TestHooksRunInParent(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	var mu sync.Mutex
	var seen []string
	tt.reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		mu.Lock()
		seen = append(seen, ev.Name+" "+fmt.Sprint(ev.Params["text"]))
		mu.Unlock()
		if ev.Params["text"] == "rm -rf /" {
			return "not allowed"
		}
		return ""
	})
	p, _ := testPool(t, Options{})
	src := `const ok = await echo("fine");
try { await echo("rm -rf /"); return "ran" } catch (e) { return [ok, e.name, e.message] }`
	res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{}))
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if want := `["fine","ToolError","Tool call echo blocked: not allowed"]`; string(res.Value) != want {
		t.Errorf("value = %s, want %s", res.Value, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"echo fine", "echo rm -rf /"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("the hook saw %v, want %v", seen, want)
	}
}

// timedWriter records when each chunk was written.
type timedWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	chunks []time.Time
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.chunks = append(w.chunks, time.Now())
	return w.buf.Write(p)
}

// TestStreaming checks that console output reaches the live writers while
// the run goes on, not at its end.
func TestStreaming(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{PoolSize: 1})
	var out, errOut timedWriter
	src := `console.log("first"); console.error("oops"); await sleep(500); console.log("second"); return 1`
	res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{Stdout: &out, Stderr: &errOut}))
	end := time.Now()
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if out.buf.String() != "first\nsecond\n" || errOut.buf.String() != "oops\n" {
		t.Errorf("live output = %q, %q", out.buf.String(), errOut.buf.String())
	}
	if res.Stdout != "first\nsecond\n" || res.Stderr != "oops\n" {
		t.Errorf("captured output = %q, %q", res.Stdout, res.Stderr)
	}
	if len(out.chunks) != 2 || end.Sub(out.chunks[0]) < 400*time.Millisecond {
		t.Errorf("the first line reached the writer %v before the run ended, want at least 400ms (chunks %v)", end.Sub(out.chunks[0]), len(out.chunks))
	}
}

// TestOutputLimit checks that the output limit applies in the worker, live
// and captured, as in process.
func TestOutputLimit(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{})
	var live bytes.Buffer
	src := `for (let i = 0; i < 1000; i++) console.log("line " + i)`
	res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 100}, Stdout: &live}))
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	want := "line 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\n" +
		"[output truncated: 8796 bytes cut here; the first 49 and the last 45 bytes are shown]\n" +
		"line 995\nline 996\nline 997\nline 998\nline 999\n"
	if !res.Truncated || res.Stdout != want {
		t.Errorf("stdout = %q, truncated %v; want %q", res.Stdout, res.Truncated, want)
	}
	if live.String() != want {
		t.Errorf("live output = %q, want the same as the result's", live.String())
	}
}

// TestLimitsReachWorker checks that the runtime's limits are sent to the
// worker and named in its errors.
func TestLimitsReachWorker(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{})
	tests := []struct {
		name string
		src  string
		opts runtime.Options
		err  string
	}{
		{"stack depth", `function f(n) { return f(n + 1) + 1 } f(0)`, runtime.Options{Limits: runtime.Limits{MaxStackDepth: 50}}, "RangeError: Maximum call stack size exceeded (the call-stack limit is 50 frames)"},
		{"source size", `return "` + strings.Repeat("x", 100) + `"`, runtime.Options{Limits: runtime.Limits{MaxSourceBytes: 50}}, "LimitError: the snippet is 109 bytes, over the source size limit of 50 bytes"},
		{"timeout", `for (;;) {}`, runtime.Options{Limits: runtime.Limits{Timeout: 100 * time.Millisecond}}, "LimitError: the run exceeded its timeout of 100ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := p.Run(context.Background(), tc.src, tt.reg, runOpts(tc.opts))
			if res.Error == nil || res.Error.Error() != tc.err {
				t.Errorf("error = %v, want %q", res.Error, tc.err)
			}
		})
	}
}

// TestLocaleFormatsFreed checks that the formats toLocaleString and
// localeCompare make, one per call, are freed with their tokens: sorting
// with localeCompare and formatting in a loop fit in a small memory limit.
func TestLocaleFormatsFreed(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{MemoryLimit: 96 << 20})
	src := `const a = Array.from({length: 2000}, (_, i) => "k" + ((i * 7919) % 2000));
a.sort((x, y) => x.localeCompare(y));
let n = 0;
for (let i = 0; i < 20000; i++) n += (i + 0.5).toLocaleString().length + new Date(i).toLocaleDateString("en-US", {timeZone: "UTC"}).length;
return [a[0], a[1999], n]`
	// 40,000 formats: half a second of CPU, and over testTimeout under the
	// race detector beside two CPU hogs. The timeout is a liveness bound.
	res := p.Run(context.Background(), src, tt.reg, runtime.Options{Limits: runtime.Limits{Timeout: 2 * time.Minute}})
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	if want := `["k0","k999",307890]`; string(res.Value) != want {
		t.Errorf("value = %s, want %s", res.Value, want)
	}
}

// TestConcurrentRuns runs many snippets at once through one pool.
func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{PoolSize: 2})
	const goroutines, runs = 6, 4
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*runs)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range runs {
				src := fmt.Sprintf(`const r = await Promise.all([echo("%d"), sleep(5), echo("%d")]); console.log(r[0]); return r[2]`, g, i)
				res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{}))
				switch {
				case res.Error != nil:
					errs <- fmt.Errorf("run %d/%d: %s", g, i, res.Error.Report())
				case string(res.Value) != fmt.Sprintf(`"%d"`, i) || res.Stdout != fmt.Sprintf("%d\n", g):
					errs <- fmt.Errorf("run %d/%d: value %s, stdout %q", g, i, res.Value, res.Stdout)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestPrestart checks that a prestarted worker serves the next run and
// that a pool of size zero starts no other. Its workers serve one run
// each, so that every run needs one.
func TestPrestart(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{MaxRunsPerWorker: 1})
	p.Prestart()
	res := p.Run(context.Background(), `return await echo("x")`, tt.reg, runOpts(runtime.Options{}))
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(ps.all()); n != 1 {
		t.Errorf("%d workers started, want the prestarted one only", n)
	}
	// Without a prestarted worker, runs start their own, concurrently.
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := p.Run(context.Background(), `return 1`, tt.reg, runOpts(runtime.Options{})); res.Error != nil {
				t.Error(res.Error.Report())
			}
		}()
	}
	wg.Wait()
	if n := len(ps.all()); n != 4 {
		t.Errorf("%d workers started, want 4", n)
	}
}

// TestRunSentBeforeReady checks that a run that takes a worker still
// starting sends it the request at once: the test worker serves only if
// the request is in its pipe before it reports ready. It covers the
// prestarted worker, a run waiting for a pool's start, and a run that
// starts its own worker.
func TestRunSentBeforeReady(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	env := []string{envTestMode + "=request-first"}
	for _, tc := range []struct {
		name     string
		opts     Options
		prestart bool
	}{
		{"prestarted", Options{Env: env, MaxRunsPerWorker: 1}, true},
		{"pool start", Options{Env: env, PoolSize: 1, MaxRunsPerWorker: 1}, false},
		{"own start", Options{Env: env, MaxRunsPerWorker: 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, tc.opts)
			if tc.prestart {
				p.Prestart()
			}
			res := p.Run(context.Background(), `return await echo("x")`, tt.reg, runOpts(runtime.Options{}))
			if res.Error != nil {
				t.Fatal(res.Error.Report())
			}
			if string(res.Value) != `"x"` {
				t.Errorf("value %s, want \"x\"", res.Value)
			}
			if n := len(ps.all()); n != 1 {
				t.Errorf("%d workers started, want 1", n)
			}
		})
	}
}

// oddCaller is a toolcall.Caller whose tools misbehave: one returns
// details JSON cannot encode, one panics.
type oddCaller struct{}

func (oddCaller) Tools() []registry.Info {
	params := map[string]any{"type": "object", "properties": map[string]any{}}
	return []registry.Info{
		{Name: "odd", Description: "Odd.", Parameters: params, CallSignature: "async function odd(): Promise<any>"},
		{Name: "boom", Description: "Boom.", Parameters: params, CallSignature: "async function boom(): Promise<string>"},
	}
}

func (oddCaller) CallTool(ctx context.Context, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error) {
	if name == "boom" {
		panic("kaboom")
	}
	return registry.Result{Content: []registry.Content{}, Details: make(chan int)}, nil
}

// TestCallerFailures checks results that cannot cross the process
// boundary and a caller that panics: each rejects the call, and the run
// goes on.
func TestCallerFailures(t *testing.T) {
	t.Parallel()
	p, _ := testPool(t, Options{})
	src := `const out = [];
for (const f of [odd, boom]) {
  try { await f(); out.push("resolved") } catch (e) { out.push(e.message) }
}
return out`
	res := p.Run(context.Background(), src, oddCaller{}, runOpts(runtime.Options{}))
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	want := `["tool odd failed: its result details cannot be encoded as JSON: json: unsupported type: chan int","boom failed: internal error: kaboom"]`
	if string(res.Value) != want {
		t.Errorf("value = %s\nwant    %s", res.Value, want)
	}
	// A run without a caller has no tools.
	res = p.Run(context.Background(), `return typeof odd + " " + (await callTool("odd").catch((e) => e.message))`, nil, runOpts(runtime.Options{}))
	if res.Error != nil || string(res.Value) != `"undefined Tool not found: odd"` {
		t.Errorf("run without a caller: %s, %v", res.Value, res.Error)
	}
}

// TestOutputLostWithWorker checks the output of a run whose worker dies
// while its runtime holds the rest of the output back (the head is full):
// the result keeps what came live, ends it with lostNotice and says it
// is truncated. A run whose output all came live says neither. The tool
// kills the worker from the parent, as the OOM killer or an operator
// would.
func TestOutputLostWithWorker(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 79) + "\n"
	tests := []struct {
		name  string
		lines int
		cut   bool
	}{
		{"head full", 10, true}, // 800 bytes against a head of 500
		{"all live", 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, Options{MaxRunsPerWorker: 1})
			reg := registry.New()
			if err := reg.Register(registry.Tool{
				Name: "die", Description: "Kill the worker.",
				Parameters:    map[string]any{"type": "object", "properties": map[string]any{}},
				CallSignature: "async function die(): Promise<string>",
				Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
					_ = syscall.Kill(ps.last(), syscall.SIGKILL)
					<-ctx.Done()
					return registry.Result{}, ctx.Err()
				},
			}); err != nil {
				t.Fatal(err)
			}
			src := fmt.Sprintf("for (let i = 0; i < %d; i++) console.log(%q.trimEnd()); await die()", tc.lines, line)
			res := p.Run(context.Background(), src, reg, runOpts(runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1000}}))
			if res.Error == nil || !strings.Contains(res.Error.Message, "killed") {
				t.Fatalf("error %v, want the worker killed", res.Error)
			}
			want := strings.Repeat(line, tc.lines)
			if tc.cut {
				want = strings.Repeat(line, 6) + lostNotice
			}
			if res.Stdout != want || res.Truncated != tc.cut {
				t.Errorf("stdout %q, truncated %v; want %q, %v", res.Stdout, res.Truncated, want, tc.cut)
			}
		})
	}
}

// TestPrestartAdoptsEarlyWorker checks that Prestart takes the worker
// the program launched early (workerproc.Launch) when it is the one the
// pool would start: no other worker is started, and the run runs in it;
// and that a pool that would start another leaves it. Not parallel: the
// early worker is the process's one.
func TestPrestartAdoptsEarlyWorker(t *testing.T) {
	tt := newTestTools(t)
	defer workerproc.Discard()
	for _, tc := range []struct {
		name  string
		opts  Options
		taken bool
	}{
		{"default options", Options{}, true},
		{"another memory limit", Options{MemoryLimit: 256 << 20}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			workerproc.Launch()
			p, ps := testPool(t, tc.opts)
			var ran int
			p.onRun = func(pid int) { ran = pid }
			p.Prestart()
			res := p.Run(context.Background(), `return await echo("x")`, tt.reg, runOpts(runtime.Options{}))
			if res.Error != nil {
				t.Fatal(res.Error.Report())
			}
			started := ps.all()
			if len(started) != 1 || ran != started[0].pid {
				t.Fatalf("workers %v started, the run in %d; want one", started, ran)
			}
			left := workerproc.Take(p.exe, workerproc.Env(nil, workerproc.DefaultMemoryLimit))
			if left != nil {
				left.Discard()
			}
			if taken := left == nil; taken != tc.taken {
				t.Errorf("early worker taken %v, want %v", taken, tc.taken)
			}
		})
	}
}

// TestRunRefusesNegativeLimits checks that a negative limit is refused
// before a worker is taken, as runtime.Run refuses it in process.
func TestRunRefusesNegativeLimits(t *testing.T) {
	t.Parallel()
	p, _ := testPool(t, Options{})
	res := p.Run(context.Background(), "return 1", nil, runtime.Options{Limits: runtime.Limits{Timeout: -time.Second}})
	inProcess := runtime.Run(context.Background(), "return 1", runtime.Options{Limits: runtime.Limits{Timeout: -time.Second}})
	if res.Error == nil || res.Error.Kind != runtime.KindInternal || res.Error.Message != inProcess.Error.Message || res.Error.Name != inProcess.Error.Name {
		t.Fatalf("Run with a negative timeout: %+v, want the in-process refusal %+v", res.Error, inProcess.Error)
	}
	if st := p.Stats(); st.Started != 0 {
		t.Errorf("a refused run started %d workers", st.Started)
	}
}
