//go:build linux

package isolation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/procfs"
	cxruntime "github.com/codeexec/codeexec/runtime"
)

// hostileMemory is the memory limit of TestHostileSnippets' workers: small,
// so that what a snippet allocates before it ends costs the suite little.
const hostileMemory = 128 << 20

const (
	outOfMemory   = "LimitError: the run exceeded its memory limit of 128 MiB"
	stackOverflow = "LimitError: the run overflowed the engine's stack limit of 16 MiB: code nested or recursed too deeply"
	evalDisabled  = "EvalError: eval is disabled in snippets: write the code directly instead of generating it"
	nestedTooDeep = "SyntaxError: brackets nest more than 1000 levels deep here, the limit; flatten the code"
)

// TestHostileSnippets runs snippets that would kill an in-process host:
// each must end with the one one-line error that names the limit (which,
// for those that set no timeout, shows the limit ended it before the
// default 30 s timeout), no Go dump anywhere in the result, no process
// left, and a pool that runs the next snippet normally.
func TestHostileSnippets(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	tests := []struct {
		name    string
		src     string
		timeout time.Duration
		err     string // the whole "Name: message"
		opts    cxruntime.Options
	}{
		{"string repeat", `'ab'.repeat(2**40)`, 0, outOfMemory, cxruntime.Options{}},
		{"array fill", `new Array(1e9).fill(0)`, 0, outOfMemory, cxruntime.Options{}},
		{"typed array", `const a = new Float64Array(2**28); return a.length`, 0, outOfMemory, cxruntime.Options{}},
		{"string doubling", `let s = 'x'; for (;;) s = s + s`, 0, outOfMemory, cxruntime.Options{}},
		{"buffers", `const a = []; for (;;) a.push(new Uint8Array(1 << 20))`, 0, outOfMemory, cxruntime.Options{}},
		// The runtime refuses these before the parser could overflow: eval
		// is off, and brackets may nest 1000 deep.
		{"nested eval", `eval('['.repeat(3e5)+']'.repeat(3e5))`, 0, evalDisabled, cxruntime.Options{}},
		{"nested literal", strings.Repeat("[", 300000) + strings.Repeat("]", 300000), 0, nestedTooDeep, cxruntime.Options{}},
		// Without the runtime's guards, the parsers overflow the Go stack:
		// the worker dies of it, and the host does not.
		{"nested literal unguarded", strings.Repeat("[", 300000) + strings.Repeat("]", 300000), 0,
			stackOverflow, cxruntime.Options{Limits: cxruntime.Limits{MaxNesting: 1 << 30}}},
		{"nested eval unguarded", `eval('['.repeat(3e5)+']'.repeat(3e5))`, 0,
			stackOverflow, cxruntime.Options{Limits: cxruntime.Limits{MaxNesting: 1 << 30}, AllowEval: true}},
		// They spin until the timeout fires: a short one, since its length
		// is not what they test.
		{"tight loop", `for (;;) {}`, 100 * time.Millisecond, "LimitError: the run exceeded its timeout of 100ms", cxruntime.Options{}},
		{"microtask flood", `for (;;) await null`, 100 * time.Millisecond, "LimitError: the run exceeded its timeout of 100ms", cxruntime.Options{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A pool of its own, with a worker started ahead as a host's
			// pool has: checkUsedGone sees this run's worker, and the
			// replacement the pool starts when the run ends.
			p, ps := testPool(t, Options{PoolSize: 1, MemoryLimit: hostileMemory})
			runs := recordRuns(p)
			start := time.Now()
			opts := tc.opts
			opts.Timeout = tc.timeout
			res := p.Run(context.Background(), tc.src, tt.reg, runOpts(opts))
			elapsed := time.Since(start)
			if res.Error == nil {
				t.Fatalf("run succeeded with %s, want an error", res.Value)
			}
			msg := res.Error.Error()
			t.Logf("%s after %v", msg, elapsed)
			if msg != tc.err {
				t.Errorf("error = %q, want %q", msg, tc.err)
			}
			if strings.Contains(res.Error.Message, "\n") {
				t.Errorf("the error message has more than one line: %q", res.Error.Message)
			}
			checkNoDump(t, res.Stdout, res.Stderr, res.Error.Message, res.Error.Stack, res.Text())
			checkUsedGone(t, p, ps)
			// A worker that hit a limit serves no other run; one that
			// refused the snippet serves the next.
			reusable := res.Error.Kind == cxruntime.KindCompile || res.Error.Kind == cxruntime.KindException
			// The host is alive and the next run is normal.
			res = p.Run(context.Background(), `return await echo("still here")`, tt.reg, runOpts(cxruntime.Options{}))
			if res.Error != nil || string(res.Value) != `"still here"` {
				t.Fatalf("the run after the hostile one: %s, %v", res.Value, res.Error)
			}
			if pids := runs.all(); len(pids) != 2 || (pids[0] == pids[1]) != reusable {
				t.Errorf("the runs' workers = %v, want the same worker only after a compile error or an exception", pids)
			}
		})
	}
}

// TestWorkerDeaths starts workers that die, hang or break the protocol in
// a given way during the run, and checks the error the run gets.
func TestWorkerDeaths(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	tests := []struct {
		mode    string
		timeout time.Duration
		err     string
		kind    cxruntime.ErrorKind
	}{
		{"stack", 0, "LimitError: the run overflowed the engine's stack limit of 64 MiB: code nested or recursed too deeply", cxruntime.KindLimit},
		{"oom", 0, "LimitError: the run exceeded its memory limit of 512 MiB", cxruntime.KindLimit},
		{"runaway", 0, "LimitError: the run exceeded its memory limit of 512 MiB", cxruntime.KindLimit},
		{"panic", 0, "InternalError: the isolated worker crashed (exit status 2): panic: test worker panic", cxruntime.KindInternal},
		{"exit", 0, "InternalError: the isolated worker exited (exit status 5) without a result", cxruntime.KindInternal},
		{"sigkill", 0, "InternalError: the isolated worker was killed (signal: killed) before it finished; the system may be out of memory", cxruntime.KindInternal},
		{"garbage", 0, "InternalError: the isolated worker broke the protocol: decode message: invalid character 'x' looking for beginning of value", cxruntime.KindInternal},
		{"oversize", 0, "InternalError: the isolated worker broke the protocol: frame of 4294967295 bytes: frame too large (the limit is 67108864 bytes)", cxruntime.KindInternal},
		{"ack", 0, "InternalError: the isolated worker broke the protocol: an ack of call 99, whose result awaits none", cxruntime.KindInternal},
		{"hang", 500 * time.Millisecond, "LimitError: the run exceeded its timeout of 500ms", cxruntime.KindLimit},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, Options{Env: []string{envTestMode + "=" + tc.mode}})
			start := time.Now()
			res := p.Run(context.Background(), "return 1", tt.reg, runOpts(cxruntime.Options{Limits: cxruntime.Limits{Timeout: tc.timeout}}))
			elapsed := time.Since(start)
			if res.Error == nil || res.Error.Error() != tc.err || res.Error.Kind != tc.kind {
				t.Fatalf("error = %v (kind %v), want %q (kind %s)", res.Error, res.Error.Kind, tc.err, tc.kind)
			}
			if res.Stdout != "before the crash\n" {
				t.Errorf("stdout = %q, want what the worker printed before it died", res.Stdout)
			}
			checkNoDump(t, res.Stdout, res.Stderr, res.Error.Message, res.Error.Stack)
			// Not before the grace (what is tested), and not a hang (a
			// generous liveness bound).
			if tc.timeout > 0 && (elapsed < tc.timeout+KillGrace || elapsed > tc.timeout+KillGrace+30*time.Second) {
				t.Errorf("the hung worker was killed after %v, want about %v", elapsed, tc.timeout+KillGrace)
			}
			checkUsedGone(t, p, ps)
		})
	}
}

// TestStartFailures checks the errors of workers that never become ready.
func TestStartFailures(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	tests := []struct {
		name string
		opts Options
		err  string
	}{
		{"exits", Options{Env: []string{envTestMode + "=exit-early"}}, "InternalError: could not start an isolated worker: the worker exited before it was ready (does the executable's main call isolation.Main first?) (exit status 7)"},
		{"hangs", Options{Env: []string{envTestMode + "=hang-early"}, StartTimeout: 300 * time.Millisecond}, "InternalError: could not start an isolated worker: the worker did not report ready within 300ms (does the executable's main call isolation.Main first?) (signal: killed)"},
		{"other build", Options{Env: []string{envTestMode + "=bad-version"}}, fmt.Sprintf("InternalError: could not start an isolated worker: the worker speaks protocol version %d, not %d (is the executable another build?) (signal: killed)", protocolVersion+1, protocolVersion)},
		{"not a worker", Options{Executable: "/bin/true"}, "InternalError: could not start an isolated worker: the worker exited before it was ready (does the executable's main call isolation.Main first?) (exit status 0)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := os.Stat(tc.opts.Executable); tc.opts.Executable != "" && err != nil {
				t.Skip(err)
			}
			p, _ := testPool(t, tc.opts)
			res := p.Run(context.Background(), "return 1", tt.reg, runOpts(cxruntime.Options{}))
			if res.Error == nil || res.Error.Error() != tc.err {
				t.Errorf("error = %v, want %q", res.Error, tc.err)
			}
		})
	}
}

// TestToolsAndDeadline checks tool calls around the deadline: a call the
// deadline interrupts is cancelled in the parent, a call after the
// deadline never runs, and a tool that ignores cancellation does not hold
// the run past CancelGrace.
func TestToolsAndDeadline(t *testing.T) {
	t.Parallel()
	opts := runOpts(cxruntime.Options{Limits: cxruntime.Limits{Timeout: time.Second, CancelGrace: 300 * time.Millisecond}})
	t.Run("interrupted call", func(t *testing.T) {
		t.Parallel()
		tt := newTestTools(t)
		// A worker started ahead: the run reaches its call well before the
		// deadline.
		p, _ := testPool(t, Options{PoolSize: 1})
		waitIdle(t, p, 1)
		res := p.Run(context.Background(), `await sleep(10000); await echo("late")`, tt.reg, opts)
		if res.Error == nil || res.Error.Message != "the run exceeded its timeout of 1s" {
			t.Errorf("error = %v, want the timeout", res.Error)
		}
		if tt.count("echo") != 0 || tt.cancelled.Load() != 1 {
			t.Errorf("echo ran %d times, %d sleeps cancelled; want 0 and 1", tt.count("echo"), tt.cancelled.Load())
		}
	})
	t.Run("call after the deadline", func(t *testing.T) {
		t.Parallel()
		tt := newTestTools(t)
		p, _ := testPool(t, Options{})
		// It spins until the deadline: a short one.
		opts := runOpts(cxruntime.Options{Limits: cxruntime.Limits{Timeout: 100 * time.Millisecond, CancelGrace: 300 * time.Millisecond}})
		res := p.Run(context.Background(), `setTimeout(() => echo("late"), 3000); for (;;) {}`, tt.reg, opts)
		if res.Error == nil || res.Error.Message != "the run exceeded its timeout of 100ms" || tt.count("echo") != 0 {
			t.Errorf("error = %v, echo ran %d times; want the timeout and no echo", res.Error, tt.count("echo"))
		}
	})
	t.Run("tool ignores cancellation", func(t *testing.T) {
		t.Parallel()
		tt := newTestTools(t)
		p, _ := testPool(t, Options{})
		start := time.Now()
		res := p.Run(context.Background(), `await stuck()`, tt.reg, opts)
		// The tool never returns before the release below: a run that
		// waited for it would not have returned at all (a liveness bound
		// catches a wait).
		if elapsed := time.Since(start); elapsed > 30*time.Second {
			t.Errorf("a run whose tool ignores cancellation took %v", elapsed)
		}
		if res.Error == nil || res.Error.Message != "the run exceeded its timeout of 1s" {
			t.Errorf("error = %v, want the timeout", res.Error)
		}
		close(tt.release) // the abandoned call returns; goleak checks it is gone
	})
}

// TestCancel checks that cancelling the context kills the worker at once.
func TestCancel(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	// Each prints when it has begun what it then does until cancelled: the
	// print cancels the run (cancelOnWrite).
	for _, src := range []string{
		`console.log("spinning"); for (;;) {}`,
		`const p = sleep(60000); console.log("waiting"); await p`,
		`console.log("growing"); const a = []; for (let i = 0; ; i++) a.push(i % 7)`,
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, Options{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			start := time.Now()
			res := p.Run(ctx, src, tt.reg, cxruntime.Options{Limits: cxruntime.Limits{Timeout: time.Minute}, Stdout: cancelOnWrite(cancel)})
			// Half the run's timeout: only the cancellation ends it.
			if elapsed := time.Since(start); elapsed > 30*time.Second {
				t.Errorf("the cancelled run took %v", elapsed)
			}
			if res.Error == nil || res.Error.Kind != cxruntime.KindCanceled || res.Error.Message != "the run was cancelled by its caller" {
				t.Errorf("error = %v, want the cancellation", res.Error)
			}
			checkUsedGone(t, p, ps)
		})
	}
	p, _ := testPool(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := p.Run(ctx, `return 1`, tt.reg, runOpts(cxruntime.Options{})); res.Error == nil || res.Error.Kind != cxruntime.KindCanceled {
		t.Errorf("a run with a done context: error %v", res.Error)
	}
}

// cancelOnWrite is a writer that calls cancel at each write.
type cancelOnWrite context.CancelFunc

func (c cancelOnWrite) Write(b []byte) (int, error) {
	c()
	return len(b), nil
}

// TestNoLeftovers runs snippets in a row, normal and hostile, each kind
// twice (a worker reused after each, or retired and replaced), and checks
// that no process, file descriptor or goroutine is left: one is a leak, so
// more rounds would only repeat the check (make soak runs 10,000 runs in
// one process). It counts this process's children, descriptors and
// goroutines, so it must not run in parallel with other tests.
func TestNoLeftovers(t *testing.T) {
	tt := newTestTools(t)
	p, ps := testPool(t, Options{PoolSize: 2})
	run := func(src string, timeout time.Duration) *cxruntime.Result {
		return p.Run(context.Background(), src, tt.reg, runOpts(cxruntime.Options{Limits: cxruntime.Limits{Timeout: timeout}}))
	}
	run("return 1", 0)
	waitIdle(t, p, 2)
	eventually(t, func() string {
		if kids := children(); len(kids) != 2 {
			return fmt.Sprintf("children = %v, want the 2 idle workers", kids)
		}
		return ""
	})
	fds, goroutines := openFDs(t), runtime.NumGoroutine()
	snippets := []struct {
		src     string
		timeout time.Duration // 0: testTimeout
	}{
		{`return await echo("x")`, 0},
		{`'ab'.repeat(2**40)`, 0},
		{`await Promise.all([sleep(5), echo("y"), fail("z").catch(() => 1)])`, 0},
		{`for (;;) {}`, 100 * time.Millisecond},
		{`console.log("out"); throw new Error("e")`, 0},
	}
	const n = 10
	for i := range n {
		sn := snippets[i%len(snippets)]
		if res := run(sn.src, sn.timeout); res.Error != nil && strings.Contains(res.Error.Message, "worker") {
			t.Fatalf("run %d (%s): %v", i, sn.src, res.Error)
		}
	}
	waitIdle(t, p, 2)
	// Two runs in five hit a limit, each retiring its worker; the others
	// leave theirs for the next run.
	if st, limited := p.Stats(), int64(n/len(snippets)*2); st.Retired != limited || st.Started != 2+limited || len(ps.all()) != 2+int(limited) {
		t.Errorf("stats %+v, %d workers started; want %d retired and %d started", st, len(ps.all()), limited, 2+limited)
	}
	// The two idle workers are the only processes left (the others are
	// reaped in the background), and the host holds what it held before.
	eventually(t, func() string {
		if kids := children(); len(kids) != 2 {
			return fmt.Sprintf("children = %v, want the 2 idle workers", kids)
		}
		if got := openFDs(t); got != fds {
			return fmt.Sprintf("open fds = %d, was %d", got, fds)
		}
		if got := runtime.NumGoroutine(); got > goroutines {
			return fmt.Sprintf("goroutines = %d, was %d", got, goroutines)
		}
		return ""
	})
	p.Close()
	if kids := children(); len(kids) != 0 {
		t.Errorf("children after Close = %v", kids)
	}
}

// TestClose checks that Close kills idle workers and running ones, and
// that Run after Close fails. It counts this process's children, so it
// must not run in parallel with other tests.
func TestClose(t *testing.T) {
	tt := newTestTools(t)
	p, ps := testPool(t, Options{PoolSize: 2})
	waitIdle(t, p, 2)
	done := make(chan *cxruntime.Result)
	go func() {
		done <- p.Run(context.Background(), `for (;;) {}`, tt.reg, runOpts(cxruntime.Options{}))
	}()
	time.Sleep(300 * time.Millisecond)
	p.Close()
	res := <-done
	if res.Error == nil || res.Error.Kind != cxruntime.KindCanceled || res.Error.Message != closedMessage {
		t.Errorf("the run Close stopped: error %v", res.Error)
	}
	ps.checkGone(t)
	if kids := children(); len(kids) != 0 {
		t.Errorf("children after Close = %v", kids)
	}
	res = p.Run(context.Background(), `return 1`, tt.reg, runOpts(cxruntime.Options{}))
	if res.Error == nil || res.Error.Kind != cxruntime.KindCanceled || !errors.Is(res.Error, ErrClosed) {
		t.Errorf("Run after Close: error %v, want %v", res.Error, ErrClosed)
	}
	p.Close()
}

// TestWorkerProcess checks what a worker is given: a minimal environment
// without the host's secrets, a capped address space, its own process
// group, and pipes on fds 3 and 4 only.
func TestWorkerProcess(t *testing.T) {
	t.Setenv("CODEEXEC_TEST_SECRET", "s3cret")
	p, ps := testPool(t, Options{PoolSize: 1, MemoryLimit: 256 << 20})
	waitIdle(t, p, 1)
	pid := ps.last()
	environ, err := procfs.ReadFile("/proc/" + itoa(pid) + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(strings.TrimRight(string(environ), "\x00"), "\x00")
	for _, kv := range env {
		if strings.HasPrefix(kv, "CODEEXEC_TEST_SECRET=") || strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "HOME=") {
			t.Errorf("the worker inherited %s", kv)
		}
	}
	if !containsAll(env, EnvWorker+"=1", envMemory+"=268435456", envWarm+"=1") {
		t.Errorf("worker environment = %q", env)
	}
	limits, err := procfs.ReadFile("/proc/" + itoa(pid) + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(limits), "\n") {
		if strings.HasPrefix(l, "Max address space") && strings.Contains(l, "unlimited") {
			t.Errorf("the worker's address space is not capped: %s", l)
		}
	}
	if g := processesInGroup(pid); len(g) != 1 || g[0].PID != pid {
		t.Errorf("the worker's process group = %v, want the worker alone", g)
	}
	fds, err := os.ReadDir("/proc/" + itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fd := range fds {
		names = append(names, fd.Name())
	}
	if !containsAll(names, "0", "1", "2", "3", "4") {
		t.Errorf("worker fds = %v", names)
	}
}

// TestNewPoolErrors checks the options NewPool refuses.
func TestNewPoolErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		err  string
	}{
		{"tiny memory", Options{MemoryLimit: 1 << 20}, "isolation: a memory limit of 1 MiB is too small for the engine (at least 32 MiB)"},
		{"negative size", Options{PoolSize: -1}, "isolation: pool size -1 is negative"},
		{"missing executable", Options{Executable: "/nonexistent/codeexec"}, "isolation: worker executable: stat /nonexistent/codeexec: no such file or directory"},
		{"directory", Options{Executable: "/"}, "isolation: worker executable / is not an executable file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPool(tc.opts)
			if err == nil {
				p.Close()
				t.Fatalf("NewPool succeeded, want %q", tc.err)
			}
			if err.Error() != tc.err {
				t.Errorf("error = %q, want %q", err, tc.err)
			}
		})
	}
	t.Run("in a worker", func(t *testing.T) {
		t.Setenv(EnvWorker, "1")
		if _, err := NewPool(Options{}); err == nil || !strings.Contains(err.Error(), "a worker cannot start workers") {
			t.Errorf("error = %v", err)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		if !slices.Contains(list, w) {
			return false
		}
	}
	return true
}
