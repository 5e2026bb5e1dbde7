package runtime

import (
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
	const n = 5
	var all sync.WaitGroup
	all.Add(n)
	var done sync.WaitGroup
	done.Add(n)
	for range n {
		w.start(jobFunc(func() {
			defer done.Done()
			all.Done()
			all.Wait() // returns only once every job runs
		}))
	}
	done.Wait()
	// The five goroutines wait for jobs now, or will shortly: a job
	// started later runs on one of them or on a new goroutine.
	ran := make(chan struct{})
	w.start(jobFunc(func() { close(ran) }))
	<-ran
	w.stop()
}

// jobFunc is a job that calls the function.
type jobFunc func()

func (f jobFunc) do() { f() }
