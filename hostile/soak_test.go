//go:build linux

package hostile

import (
	"context"
	"flag"
	"fmt"
	"os"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/runtime"
)

var soakRuns = flag.Int("soak", 0, "run TestSoak with this many runs (make soak uses 10000)")

// soakSnippets mixes normal snippets with cheap hostile ones.
var soakSnippets = []string{
	`return (await read("a.txt")).trim()`,
	`const r = await Promise.all([read("a.txt"), ls("."), find("*.txt")]); return r.length`,
	`for (;;) {}`,
	`for (;;) await null;`,
	`function f(): number { return f() } f()`,
	`eval("1")`,
	`const x = ;`,
	`Promise.reject(new Error("unhandled"))`,
	`await read("../secret.txt")`,
	`await callTool("nope", {})`,
	`for (let i = 0; i < 2000; i++) console.log("line", i)`,
	`setTimeout(() => console.log("late"), 5); return new Map([["k", [1, 2, 3]]])`,
	`setInterval(() => {}, 1); await new Promise(() => {})`,
	`return /^(a|b)+$/.test("ab".repeat(1000))`,
	`await bash("echo hi")`,
}

// TestSoak runs many snippets in a row in one process and checks that the
// goroutine count, open file descriptors and resident memory stay flat. It
// is not part of the default test run: `make soak` runs it.
func TestSoak(t *testing.T) {
	if *soakRuns == 0 {
		t.Skip("a soak run: go test ./hostile -run TestSoak -soak 10000 (make soak)")
	}
	e := newEnv(t)
	// One Runner serves every run, as in a long-lived host.
	r := caseRunner(t, e, codeexec.InProcess, codeexec.PoolOptions{}, codeexec.Limits{Timeout: 50 * time.Millisecond, Memory: memoryLimit})
	run := func(i int) {
		src := soakSnippets[i%len(soakSnippets)]
		res := r.Run(context.Background(), src, codeexec.RunOptions{})
		if res.Error != nil && res.Error.Kind == runtime.KindInternal {
			t.Fatalf("run %d (%q): internal error %s", i, src, res.Error.Report())
		}
	}
	warm := min(500, *soakRuns/10)
	for i := range warm {
		run(i)
	}
	before := measure()
	for i := warm; i < *soakRuns; i++ {
		run(i)
		if i%1000 == 0 {
			t.Logf("%d runs: %s", i, measure())
		}
	}
	after := measure()
	t.Logf("after warm-up: %s; after %d runs: %s", before, *soakRuns, after)
	if after.goroutines > before.goroutines+2 {
		t.Errorf("goroutines grew from %d to %d", before.goroutines, after.goroutines)
	}
	if after.fds > before.fds+4 {
		t.Errorf("open file descriptors grew from %d to %d", before.fds, after.fds)
	}
	if after.rssKB > before.rssKB*3/2+64<<10 {
		t.Errorf("resident memory grew from %d KiB to %d KiB", before.rssKB, after.rssKB)
	}
}

type usage struct{ goroutines, fds, rssKB int }

func (u usage) String() string {
	return fmt.Sprintf("%d goroutines, %d fds, %d KiB resident", u.goroutines, u.fds, u.rssKB)
}

// measure reads the process's usage after letting finished work settle.
func measure() usage {
	goruntime.GC()
	time.Sleep(100 * time.Millisecond)
	u := usage{goroutines: goruntime.NumGoroutine()}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		u.fds = len(fds)
	}
	if rss, err := proctest.StatusBytes("VmRSS"); err == nil {
		u.rssKB = int(rss >> 10)
	}
	return u
}
