//go:build linux

package isolation

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/internal/procfs"
	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/registry"
)

// TestMain makes the test binary a worker when a pool started it as one,
// and otherwise fails the package if a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(testWorker())
	}
	goleak.VerifyTestMain(m)
}

// envTestMode makes the test worker misbehave in a given way (see
// testWorker); tests pass it through Options.Env.
const envTestMode = "ISOLATION_TEST_MODE"

// testWorker is ServeWorker, or, when envTestMode asks, a worker that
// fails in one specific way, to test how the parent copes.
func testWorker() int {
	mode := os.Getenv(envTestMode)
	switch mode {
	case "":
		return ServeWorker()

	case "exit-early":
		return 7
	case "request-first":
		// Serves normally once its run request is in its pipe before it
		// reported ready; exits 9 if none comes within 10 s.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			var n int32
			if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, 3, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno == 0 && n > 0 {
				return ServeWorker()
			}
			if time.Now().After(deadline) {
				return 9
			}
		}
	case "hang-early":
		time.Sleep(time.Hour)
		return 0
	case "bad-version":
		_, out, _ := workerPipes()
		c := newChildConn(out)
		_ = c.send(&message{Type: msgReady, Version: protocolVersion + 1})
		time.Sleep(time.Hour)
		runtime.KeepAlive(out)
		return 0
	}
	// The other modes misbehave during the run, after a normal start.
	in, out, ok := workerPipes()
	if !ok {
		return exitSetup
	}
	defer runtime.KeepAlive(in)
	defer runtime.KeepAlive(out)
	c := newChildConn(out)
	if _, err := setupWorker(); err != nil {
		return exitSetup
	}
	_ = c.send(&message{Type: msgReady, Version: protocolVersion, PID: os.Getpid()})
	if _, err := readMessage(in); err != nil {
		return exitParentGone
	}
	_ = c.send(&message{Type: msgStdout, Data: "before the crash\n"})
	switch mode {
	case "stack":
		return recurse(1)
	case "oom":
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 64<<20))
			keep[len(keep)-1][0] = 1
		}
	case "panic":
		panic("test worker panic")
	case "exit":
		return 5
	case "runaway":
		// As the memory watchdog's OnRunaway does.
		return exitMemory
	case "sigkill":
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	case "garbage":
		_, _ = out.Write([]byte{0, 0, 0, 3, 'x', 'y', 'z'})
	case "oversize":
		_, _ = out.Write([]byte{0xff, 0xff, 0xff, 0xff})
	case "ack":
		_ = c.send(&message{Type: msgAck, Seq: 99, Delivered: true})
	case "hang":
		// Ignore everything, as native code that never checks the interrupt.
	}
	time.Sleep(time.Hour)
	return 0
}

// recurse overflows the Go stack.
func recurse(n int) int {
	if n < 0 {
		return 0
	}
	var pad [256]byte
	pad[n%256] = byte(n)
	return recurse(n+1) + int(pad[(n+1)%256])
}

// testTools is a registry of parent-side tools for the tests:
//
//	echo(text)   returns text
//	sleep(ms)    waits ms (or until cancelled), returns "slept <ms>"
//	fail(msg)    fails with msg
//	stats()      returns details {count, items}
//	stuck()      waits until the test releases it, ignoring cancellation
type testTools struct {
	reg        *registry.Registry
	calls      sync.Map // tool name -> *atomic.Int32
	running    atomic.Int32
	maxRunning atomic.Int32
	cancelled  atomic.Int32 // sleeps that saw their context end
	release    chan struct{}
	// stuckStarted gets a value when stuck starts, if none waits there.
	stuckStarted chan struct{}
}

func newTestTools(t testing.TB) *testTools {
	tt := &testTools{reg: registry.New(), release: make(chan struct{}), stuckStarted: make(chan struct{}, 1)}
	str := func(names ...string) map[string]any {
		props := map[string]any{}
		for _, n := range names {
			props[n] = map[string]any{"type": "string"}
		}
		return map[string]any{"type": "object", "properties": props}
	}
	tools := []registry.Tool{
		{
			Name: "echo", Description: "Echo text.", Parameters: str("text"),
			CallSignature: "async function echo(text: string): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				text, _ := c.Params["text"].(string)
				return registry.TextResult(text), nil
			},
		},
		{
			Name: "sleep", Description: "Sleep.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"ms":{"type":"number"}},"required":["ms"]}`),
			CallSignature: "async function sleep(ms: number): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				ms, _ := c.Params["ms"].(float64)
				n := tt.running.Add(1)
				defer tt.running.Add(-1)
				for {
					m := tt.maxRunning.Load()
					if n <= m || tt.maxRunning.CompareAndSwap(m, n) {
						break
					}
				}
				timer := time.NewTimer(time.Duration(ms) * time.Millisecond)
				defer timer.Stop()
				select {
				case <-timer.C:
					return registry.TextResult(fmt.Sprintf("slept %v", ms)), nil
				case <-ctx.Done():
					tt.cancelled.Add(1)
					return registry.Result{}, context.Cause(ctx)
				}
			},
		},
		{
			Name: "fail", Description: "Fail.", Parameters: str("msg"),
			CallSignature: "async function fail(msg: string): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				msg, _ := c.Params["msg"].(string)
				return registry.Result{}, fmt.Errorf("%s", msg)
			},
		},
		{
			Name: "stats", Description: "Stats.", Parameters: str(),
			CallSignature: "async function stats(): Promise<{ count: number; items: string[] }>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.Result{
					Content: []registry.Content{registry.TextContent("2 items")},
					Details: map[string]any{"count": 2, "items": []string{"a", "b"}},
				}, nil
			},
		},
		{
			Name: "stuck", Description: "Never returns on its own.", Parameters: str(),
			CallSignature: "async function stuck(): Promise<string>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				select {
				case tt.stuckStarted <- struct{}{}:
				default:
				}
				<-tt.release
				return registry.TextResult("released"), nil
			},
		},
	}
	for _, tool := range tools {
		if err := tt.reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	tt.reg.Observe(func(tel registry.Telemetry) {
		v, _ := tt.calls.LoadOrStore(tel.Name, new(atomic.Int32))
		v.(*atomic.Int32).Add(1)
	})
	return tt
}

// count returns how many times the tool called name was called.
func (tt *testTools) count(name string) int {
	v, ok := tt.calls.Load(name)
	if !ok {
		return 0
	}
	return int(v.(*atomic.Int32).Load())
}

// testPool returns a pool closed at the end of the test, and the workers
// it starts.
func testPool(t testing.TB, opts Options) (*Pool, *pids) {
	t.Helper()
	var ps pids
	p, err := newPool(opts, ps.add)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		ps.checkGone(t)
	})
	return p, &ps
}

// worker identifies a worker process: its pid, and when it started, which
// tells it from a later process given the same pid.
type worker struct {
	pid   int
	start uint64 // clock ticks after boot; 0 when unknown
}

// left lists the processes still in the worker's process group, the
// worker included (running or a zombie). Once the worker is reaped its pid
// may be reused, but not while any process is left in its group: a
// process with that pid and another start time means the group is gone,
// and that process and its group are not the worker's.
func (w worker) left() []proctest.Proc {
	group := processesInGroup(w.pid)
	for _, p := range group {
		if p.PID == w.pid && w.start != 0 {
			if start, ok := startTime(p.PID); ok && start != w.start {
				return nil
			}
		}
	}
	return group
}

// startTime reads when process pid started, in clock ticks after boot:
// field 22 of /proc/PID/stat.
func startTime(pid int) (uint64, bool) {
	b, err := procfs.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ... starttime; comm may hold spaces and parens.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	return start, err == nil
}

// pids records the workers a pool starts.
type pids struct {
	mu   sync.Mutex
	list []worker
}

// add records the worker pid, which the pool has started and not reaped.
func (ps *pids) add(pid int) {
	start, _ := startTime(pid)
	ps.mu.Lock()
	ps.list = append(ps.list, worker{pid, start})
	ps.mu.Unlock()
}

func (ps *pids) all() []worker {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return slices.Clone(ps.list)
}

func (ps *pids) last() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if len(ps.list) == 0 {
		return 0
	}
	return ps.list[len(ps.list)-1].pid
}

// runPids records the worker of each run of a pool (not of a session), in
// the order the runs got them.
type runPids struct {
	mu   sync.Mutex
	list []int
}

// recordRuns records the workers of p's runs from now on; call it before
// the first run.
func recordRuns(p *Pool) *runPids {
	rp := &runPids{}
	p.onRun = func(pid int) {
		rp.mu.Lock()
		rp.list = append(rp.list, pid)
		rp.mu.Unlock()
	}
	return rp
}

func (rp *runPids) all() []int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return slices.Clone(rp.list)
}

// checkGone fails the test if a worker, or anything in its process group,
// is still there (running or a zombie).
func (ps *pids) checkGone(t testing.TB) {
	t.Helper()
	for _, w := range ps.all() {
		if left := w.left(); len(left) > 0 {
			t.Errorf("worker %d: processes left in its group: %v", w.pid, left)
		}
	}
}

// checkUsedGone fails the test if a worker that is neither idle nor
// starting (one that served a run) still has a process in its group (a
// zombie included) a few seconds later: after a normal end, workers are
// reaped in the background. It asks the pool for its idle and starting
// workers each time it looks, since the pool starts replacements
// meanwhile: a replacement it had not been told of would look like a
// worker left behind.
func checkUsedGone(t testing.TB, p *Pool, ps *pids) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, w := range ps.all() {
		for {
			if slices.Contains(p.livePids(), w.pid) {
				break
			}
			left := w.left()
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("worker %d: processes left in its group: %v", w.pid, left)
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// processesInGroup lists the processes whose process group is pgid.
func processesInGroup(pgid int) []proctest.Proc {
	return proctest.Where(func(p proctest.Proc) bool { return p.PGID == pgid })
}

// children lists this process's children, zombies included.
func children() []proctest.Proc {
	return proctest.Where(func(p proctest.Proc) bool { return p.PPID == os.Getpid() })
}

// openFDs counts this process's open file descriptors.
func openFDs(t testing.TB) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// waitIdle waits until the pool has n idle workers.
func waitIdle(t testing.TB, p *Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for p.Idle() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the pool has %d idle workers after 30s, want %d (last start error: %v)", p.Idle(), n, p.lastStartErr())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// dumpMarks are pieces of a Go runtime crash dump that must never reach a
// result.
var dumpMarks = []string{"goroutine ", "runtime.", "fatal error", "panic(", "runtime stack", ".go:", "SIGSEGV", "ThreadSanitizer"}

// checkNoDump fails the test if any text of the result looks like a dump,
// or if the error message is more than one line.
func checkNoDump(t testing.TB, texts ...string) {
	t.Helper()
	for _, s := range texts {
		for _, m := range dumpMarks {
			if strings.Contains(s, m) {
				t.Errorf("result text contains %q, part of a Go dump:\n%s", m, s)
			}
		}
	}
}

// eventually fails the test if check keeps reporting a problem for five
// seconds.
func eventually(t testing.TB, check func() string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		problem := check()
		if problem == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Error(problem)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
