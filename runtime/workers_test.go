package runtime

import (
	"context"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestWorkersConcurrentAndReused: jobs that wait for each other all run
// at once (a job never waits for a goroutine to be free), a finished
// job's goroutine serves a later job, and stop ends the waiting
// goroutines (the leak check sees none left).
func TestWorkersConcurrentAndReused(t *testing.T) {
	checkLeaks(t)
	var w workers
	defer w.stop()
	const n = 5
	var all sync.WaitGroup
	all.Add(n)
	var done sync.WaitGroup
	done.Add(n)
	var mu sync.Mutex
	ids := map[string]bool{}
	for range n {
		w.start(jobFunc(func() {
			defer done.Done()
			mu.Lock()
			ids[goroutineID()] = true
			mu.Unlock()
			all.Done()
			all.Wait() // returns only once every job runs
		}))
	}
	done.Wait()
	if len(ids) != n {
		t.Fatalf("%d jobs ran on %d goroutines, want one each", n, len(ids))
	}
	// Once the five goroutines wait for jobs, each job started later runs
	// on one of them, and then that one waits again.
	for i := range 2 * n {
		waitInSelect(ids)
		ran := make(chan string)
		w.start(jobFunc(func() { ran <- goroutineID() }))
		if id := <-ran; !ids[id] {
			t.Fatalf("later job %d ran on a new goroutine (%s), not on a waiting one", i, id)
		}
	}
}

// goroutineID returns the calling goroutine's number, from the header of
// its stack ("goroutine 18 [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:goruntime.Stack(buf, false)]
	return strings.Fields(string(buf))[1]
}

// waitInSelect returns once every goroutine of ids is blocked in a select
// (the workers' wait for a job, where a job sent is received at once).
func waitInSelect(ids map[string]bool) {
	for {
		buf := make([]byte, 1<<16)
		for {
			n := goruntime.Stack(buf, true)
			if n < len(buf) {
				buf = buf[:n]
				break
			}
			buf = make([]byte, 2*len(buf))
		}
		waiting := 0
		for _, g := range strings.Split(string(buf), "\n\n") {
			header, _, _ := strings.Cut(g, "\n")
			// "goroutine 18 [select]:" or "goroutine 18 [select, 2 minutes]:"
			f := strings.SplitN(header, " ", 3)
			if len(f) == 3 && f[0] == "goroutine" && ids[f[1]] && strings.HasPrefix(f[2], "[select") {
				waiting++
			}
		}
		if waiting == len(ids) {
			return
		}
		goruntime.Gosched()
	}
}

// jobFunc is a job that calls the function.
type jobFunc func()

func (f jobFunc) do() { f() }

// TestWorkersIdle: with idle set, a goroutine that waited that long for a
// job returns without stop (the leak check at the end sees none left, and
// stop then waits for nothing); one handed a job sooner serves it.
func TestWorkersIdle(t *testing.T) {
	checkLeaks(t)
	w := workers{idle: time.Hour}
	ran := make(chan string)
	w.start(jobFunc(func() { ran <- goroutineID() }))
	first := <-ran
	waitInSelect(map[string]bool{first: true})
	w.start(jobFunc(func() { ran <- goroutineID() }))
	if id := <-ran; id != first {
		t.Fatalf("the second job ran on goroutine %s, not on the waiting %s", id, first)
	}
	w.stop()

	short := workers{idle: time.Millisecond}
	short.start(jobFunc(func() { ran <- goroutineID() }))
	<-ran
	// goleak.VerifyNone (checkLeaks) retries until the goroutine has
	// returned on its own: short.stop is never called.
}

// TestSessionCloseStopsWorkers: a session's runs leave their calls'
// goroutines waiting for its next run, and Close ends them.
func TestSessionCloseStopsWorkers(t *testing.T) {
	checkLeaks(t)
	s := NewSession()
	for range 2 {
		res := s.Run(context.Background(), `return await hostEcho("x")`, Options{Setup: func(e *Env) error {
			return e.VM().Set("hostEcho", func(c goja.FunctionCall) goja.Value {
				v := c.Argument(0).String()
				return e.Go(func(context.Context) Outcome {
					return Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) { return vm.ToValue(v), false }}
				})
			})
		}})
		if res.Error != nil || res.ValueText != "x" {
			t.Fatalf("run: %+v", res)
		}
	}
	if !hasGoroutine("(*workers).work") {
		t.Fatal("no worker goroutine waits after the session's runs")
	}
	s.Close()
}

// hasGoroutine reports whether a goroutine's stack names fn.
func hasGoroutine(fn string) bool {
	buf := make([]byte, 1<<20)
	return strings.Contains(string(buf[:goruntime.Stack(buf, true)]), fn)
}
