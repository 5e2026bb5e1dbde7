package runtime

import (
	"sync"
	"time"
)

// workers runs the jobs of Env.Go, each on a goroutine of its own at the
// time, reusing the goroutines of jobs that finished: a goroutine that ran
// a job waits for the next one until stop (a run's own workers stop when
// the run ends; a session's, when it closes) or, with idle set, until it
// has waited that long. A new goroutine starts
// with a small stack that a tool call's frames grow, copying it, every
// time; a waiting one keeps its stack, and is handed a job as cheaply as a
// new one is started. A job never waits for another: when no goroutine is
// waiting, a new one starts, so that jobs run as concurrently as before.
type workers struct {
	// jobs hands a job to a waiting goroutine; unbuffered, so a send
	// succeeds only when one is waiting.
	jobs chan job
	// done is closed by stop: waiting goroutines return.
	done chan struct{}

	// idle, when not zero, is how long a goroutine waits for a job
	// before it returns.
	idle time.Duration

	mu      sync.Mutex
	stopped bool
	waiting sync.WaitGroup // goroutines waiting for a job; Add under mu
}

// job is work for a worker goroutine: a *hostCall.
type job interface{ do() }

// start runs j on a waiting goroutine, or on a new one. Loop goroutine
// only.
func (w *workers) start(j job) {
	if w.jobs == nil {
		w.jobs, w.done = make(chan job), make(chan struct{})
	}
	select {
	case w.jobs <- j:
	default:
		go w.work(j)
	}
}

// work runs j, then the jobs it is handed, until stop.
func (w *workers) work(j job) {
	for {
		j.do()
		w.mu.Lock()
		if w.stopped {
			w.mu.Unlock()
			return
		}
		w.waiting.Add(1)
		w.mu.Unlock()
		var t *time.Timer
		var expired <-chan time.Time
		if w.idle > 0 {
			t = time.NewTimer(w.idle)
			expired = t.C
		}
		select {
		case j = <-w.jobs:
			w.waiting.Done()
			if t != nil {
				t.Stop()
			}
		case <-w.done:
			w.waiting.Done()
			return
		case <-expired:
			w.waiting.Done()
			return
		}
	}
}

// stop ends the waiting goroutines and waits until they have returned; a
// goroutine still running a job (abandoned after CancelGrace) returns when
// the job does. Called once, when the run is over and starts no more jobs.
func (w *workers) stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	if w.done != nil {
		close(w.done)
	}
	w.waiting.Wait()
}
