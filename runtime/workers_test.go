package runtime

import (
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
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
