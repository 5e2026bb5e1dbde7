package isolation

import (
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestExecutorsReuseIdle(t *testing.T) {
	e := newExecutors()
	defer e.stop()
	done := make(chan struct{})
	for range 100 {
		e.run(func() { done <- struct{}{} })
		<-done
		waitFor(t, "an executor to go idle", func() bool { return e.idle.Load() >= 1 })
	}
	// A call finds the idle executor unless it comes in the instant between
	// the executor counting itself idle and waiting for work; without reuse
	// every call would start a goroutine.
	if n := e.started.Load(); n > 10 {
		t.Errorf("100 calls in a row started %d goroutines; the idle executor was not reused", n)
	}
}

func TestExecutorsNeverWaitForABusyOne(t *testing.T) {
	e := newExecutors()
	defer e.stop()
	release := make(chan struct{})
	started := make(chan struct{})
	e.run(func() { close(started); <-release })
	<-started
	done := make(chan struct{})
	e.run(func() { close(done) }) // must not queue behind the blocked job
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a call waited for a busy executor")
	}
	close(release)
}

func TestExecutorsKeepFewIdle(t *testing.T) {
	e := newExecutors()
	const n = 3 * maxIdleExecutors
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Add(n)
	for range n {
		e.run(func() { wg.Done(); <-release })
	}
	wg.Wait() // all n run at once, on n executors
	close(release)
	waitFor(t, "the surplus executors to exit", func() bool { return e.idle.Load() == maxIdleExecutors })
	e.stop()
	goleak.VerifyNone(t)
	if got := e.idle.Load(); got != 0 {
		t.Errorf("%d executors idle after stop", got)
	}
}
