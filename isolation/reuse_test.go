//go:build linux

package isolation

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// pristineProbe runs after another snippet in the same worker (or not) and
// checks that it sees none of that snippet's globals, prototype changes,
// timers or promises: it waits long enough for a leaked interval to fire.
const pristineProbe = `await new Promise((r) => setTimeout(r, 30));
return [typeof (globalThis as any).leaked, ({} as any).polluted === undefined, typeof (Array.prototype as any).evil,
  [1, 2].map((x) => x * 2).join(), typeof JSON.parse, await echo("ok")]`

const pristineValue = `["undefined",true,"undefined","2,4","function","ok"]`

// TestReuse runs a snippet, then pristineProbe, through one pool, and
// checks which worker the probe got: the first snippet's after a run that
// ended cleanly (a value, an exception, a compile error), a new one after a
// run that hit a limit, was cancelled, crashed its worker or left it
// holding too much memory. Either way the probe sees nothing of the first
// run.
func TestReuse(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	tests := []struct {
		name   string
		pool   Options
		src    string
		opts   runtime.Options
		cancel time.Duration // cancel the first run's context after this
		kind   runtime.ErrorKind
		errHas string
		reused bool
	}{
		{name: "value", src: `(globalThis as any).leaked = 1; (Object.prototype as any).polluted = 1; (Array.prototype as any).evil = 1; Array.prototype.map = () => "bad"; JSON.parse = null as any; return 1`, reused: true},
		{name: "exception", src: `(globalThis as any).leaked = 1; throw new Error("boom")`, kind: runtime.KindException, errHas: "boom", reused: true},
		{name: "compile error", src: `const x = ;`, kind: runtime.KindCompile, reused: true},
		{name: "timers and promises left", src: `setInterval(() => console.log("tick"), 5); Promise.resolve().then(() => { (globalThis as any).leaked = 2 }); return 1`, reused: true},
		{name: "never settles", src: `(globalThis as any).leaked = 1; await new Promise(() => {})`, kind: runtime.KindException, errHas: "still waiting", reused: true},
		{name: "failed tool call", src: `(globalThis as any).leaked = 1; await fail("no")`, kind: runtime.KindException, errHas: "no", reused: true},
		{name: "output truncated", src: `for (let i = 0; i < 1e4; i++) console.log("x".repeat(100))`, opts: runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1000}}, reused: true},
		{name: "timeout", src: `(globalThis as any).leaked = 1; for (;;) {}`, opts: runtime.Options{Limits: runtime.Limits{Timeout: 100 * time.Millisecond}}, kind: runtime.KindLimit, errHas: "timeout of 100ms"},
		{name: "memory", src: `return 'ab'.repeat(2 ** 40)`, kind: runtime.KindLimit, errHas: "memory limit"},
		{name: "call stack", src: `function f(): number { return f() + 1 } f()`, opts: runtime.Options{Limits: runtime.Limits{MaxStackDepth: 100}}, kind: runtime.KindLimit, errHas: "Maximum call stack size exceeded"},
		{name: "source size", src: `return "` + strings.Repeat("x", 100) + `"`, opts: runtime.Options{Limits: runtime.Limits{MaxSourceBytes: 50}}, kind: runtime.KindLimit, errHas: "source size limit"},
		{name: "limit from a tool", src: `await quota()`, kind: runtime.KindLimit, errHas: "quota is used up"},
		{name: "cancelled", src: `(globalThis as any).leaked = 1; await sleep(60000)`, cancel: 300 * time.Millisecond, kind: runtime.KindCanceled, errHas: "cancelled by its caller"},
		// A 48 MiB string: the heap the worker holds after the run, over
		// MaxWorkerHeap, built in milliseconds (three arrays of a million
		// elements took a second of CPU).
		{name: "heap", pool: Options{MaxWorkerHeap: 40 << 20}, src: `return "x".repeat(1 << 20).repeat(48).length`},
		{name: "under the heap limit", pool: Options{MaxWorkerHeap: 40 << 20}, src: `return new Array(1e4).fill(1).length`, reused: true},
		{name: "one run per worker", pool: Options{MaxRunsPerWorker: 1}, src: `return 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, _ := testPool(t, tc.pool)
			runs := recordRuns(p)
			ctx := context.Background()
			if tc.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				time.AfterFunc(tc.cancel, cancel)
			}
			caller := quotaTools{tt.reg}
			res := p.Run(ctx, tc.src, caller, runOpts(tc.opts))
			switch {
			case tc.kind == "" && res.Error != nil:
				t.Fatalf("first run: %s", res.Error.Report())
			case tc.kind != "" && (res.Error == nil || res.Error.Kind != tc.kind || !strings.Contains(res.Error.Error(), tc.errHas)):
				t.Fatalf("first run: error %v, want a %s error with %q", res.Error, tc.kind, tc.errHas)
			}
			res = p.Run(context.Background(), pristineProbe, caller, runOpts(runtime.Options{}))
			if res.Error != nil || string(res.Value) != pristineValue || res.Stdout != "" {
				t.Errorf("the next run: %s, stdout %q, error %v; want %s and no output", res.Value, res.Stdout, res.Error, pristineValue)
			}
			pids := runs.all()
			if len(pids) != 2 {
				t.Fatalf("workers of the runs = %v, want 2", pids)
			}
			if reused := pids[0] == pids[1]; reused != tc.reused {
				t.Errorf("the next run reused the first one's worker: %v, want %v (workers %v)", reused, tc.reused, pids)
			}
			st := p.Stats()
			if want := map[bool]int64{true: 1}[tc.reused]; st.Reused != want || st.Runs != 2 {
				t.Errorf("stats %+v, want 2 runs, %d reused", st, want)
			}
		})
	}
}

// quotaTools are a registry's tools and quota(), whose every call is
// refused with a limit error, as a Runner refuses a call past its limit:
// the run ends with it.
type quotaTools struct{ *registry.Registry }

var _ toolcall.Starter = quotaTools{}

func (q quotaTools) Tools() []registry.Info {
	return append(q.Registry.Tools(), registry.Info{
		Name: "quota", Description: "Hit a limit.", CallSignature: "async function quota(): Promise<string>",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{}},
	})
}

func (q quotaTools) StartCall(name string, params map[string]any) (toolcall.Perform, error) {
	if name == "quota" {
		return nil, runtime.NewLimitError("the test's quota is used up", nil)
	}
	return toolcall.Start(q.Registry, name, params)
}

// TestMaxRunsPerWorker checks that a worker serves MaxRunsPerWorker runs,
// then is replaced: run i gets a new worker exactly when i is a multiple
// of the limit.
func TestMaxRunsPerWorker(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	for _, limit := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, Options{MaxRunsPerWorker: limit})
			runs := recordRuns(p)
			const n = 7
			for i := range n {
				src := fmt.Sprintf(`if (typeof (globalThis as any).seen !== "undefined") throw new Error("a global of an earlier run"); (globalThis as any).seen = 1; return %d`, i)
				if res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{})); res.Error != nil || string(res.Value) != fmt.Sprint(i) {
					t.Fatalf("run %d: %s, %v", i, res.Value, res.Error)
				}
			}
			pids := runs.all()
			for i := 1; i < n; i++ {
				if fresh := pids[i] != pids[i-1]; fresh != (i%limit == 0) {
					t.Errorf("run %d got a new worker: %v, want %v (workers %v)", i, fresh, i%limit == 0, pids)
				}
			}
			workers := (n + limit - 1) / limit
			if st := p.Stats(); st.Started != int64(workers) || st.Reused != int64(n-workers) || len(ps.all()) != workers {
				t.Errorf("stats %+v, %d workers; want %d started, %d reused", st, len(ps.all()), workers, n-workers)
			}
			checkUsedGone(t, p, ps)
		})
	}
}

// namedTools is a caller with tools named after its names, each returning
// its own name.
type namedTools []string

func (nt namedTools) Tools() []registry.Info {
	var infos []registry.Info
	for _, n := range nt {
		infos = append(infos, registry.Info{
			Name: n, Description: "Return " + n + ".", CallSignature: "async function " + n + "(): Promise<string>",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{}},
		})
	}
	return infos
}

func (nt namedTools) CallTool(_ context.Context, name string, _ map[string]any, _ registry.CallOptions) (registry.Result, error) {
	if !slices.Contains(nt, name) {
		return registry.Result{}, &registry.NotFoundError{Name: name}
	}
	return registry.TextResult(name), nil
}

// TestReuseToolSets checks that a worker serves the runs of one tool set
// only: runs with other tools get other workers, runs with the same tools
// (from another caller) share one, and every run sees exactly its own
// tools (a reused worker's run request says SameTools instead of listing
// them).
func TestReuseToolSets(t *testing.T) {
	t.Parallel()
	p, _ := testPool(t, Options{PoolSize: 2})
	runs := recordRuns(p)
	steps := []struct {
		caller namedTools
		want   string
	}{
		{namedTools{"alpha"}, `["function","undefined","alpha"]`},
		{namedTools{"beta"}, `["undefined","function","beta"]`},
		{namedTools{"alpha"}, `["function","undefined","alpha"]`},
		{namedTools{"beta"}, `["undefined","function","beta"]`},
		{namedTools{"alpha", "beta"}, `["function","function","alpha"]`},
	}
	src := `const own = typeof alpha === "function" ? await alpha() : await beta();
return [typeof alpha, typeof beta, own]`
	for i, st := range steps {
		res := p.Run(context.Background(), src, st.caller, runOpts(runtime.Options{}))
		if res.Error != nil || string(res.Value) != st.want {
			t.Fatalf("run %d with %v: %s, %v; want %s", i, st.caller, res.Value, res.Error, st.want)
		}
	}
	pids := runs.all()
	if pids[0] != pids[2] || pids[1] != pids[3] || pids[0] == pids[1] || pids[4] == pids[0] || pids[4] == pids[1] {
		t.Errorf("workers of the runs = %v, want the alpha runs on one, the beta runs on another, the last on a third", pids)
	}
}

// TestReuseSessions checks that a session never gets a worker that served
// other runs, and that its worker never serves a plain run.
func TestReuseSessions(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	runs := recordRuns(p)
	run := func(src, want string) {
		t.Helper()
		if res := p.Run(context.Background(), src, tt.reg, runOpts(runtime.Options{})); res.Error != nil || string(res.Value) != want {
			t.Fatalf("%s: %s, %v", src, res.Value, res.Error)
		}
	}
	run(`return typeof kept`, `"undefined"`)
	s := p.NewSession()
	runSessionSteps(t, s, tt, []sessionStep{{src: `const kept = 1`}, {src: `return kept`, value: `1`}})
	run(`return typeof kept`, `"undefined"`)
	s.Close()
	run(`return typeof kept`, `"undefined"`)
	pids := runs.all()
	if len(ps.all()) != 2 || pids[0] != pids[1] || pids[1] != pids[2] || slices.Contains(pids, ps.last()) {
		t.Errorf("plain runs' workers %v, workers started %v: want the plain runs on one and the session on another", pids, ps.all())
	}
}

// TestReuseClose checks that Close kills a worker idle after serving a
// run, and that a pool of size zero keeps that one worker, no more.
func TestReuseClose(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, ps := testPool(t, Options{})
	for range 3 {
		if res := p.Run(context.Background(), `return await echo("x")`, tt.reg, runOpts(runtime.Options{})); res.Error != nil {
			t.Fatal(res.Error.Report())
		}
	}
	pid := ps.last()
	if n := len(ps.all()); n != 1 || p.Idle() != 1 || len(processesInGroup(pid)) != 1 {
		t.Fatalf("%d workers started, %d idle, worker group %v; want the one worker, idle and alive", n, p.Idle(), processesInGroup(pid))
	}
	p.Close()
	ps.checkGone(t)
}
