package isolation

import (
	"sync"
	"sync/atomic"
	"time"
)

// How long an idle executor waits for another tool call before it exits,
// and how many may wait at once (the rest exit after their call).
const (
	executorIdle     = 2 * time.Second
	maxIdleExecutors = 8
)

// executors run the tool calls of a Pool's runs on goroutines that outlive
// one call. A fresh goroutine per call grows its stack, copying it several
// times, on the way through the registry and the JSON encoder: about a
// fifth of the parent's CPU time per call, measured on a round trip. A call
// is handed to an idle executor, or to a new one when none is idle; it
// never waits for a busy one.
type executors struct {
	jobs    chan func() // unbuffered: a send succeeds only to an idle executor
	quit    chan struct{}
	once    sync.Once
	idle    atomic.Int32
	started atomic.Int32 // goroutines started, for tests
}

func newExecutors() *executors {
	return &executors{jobs: make(chan func()), quit: make(chan struct{})}
}

// run runs job on an idle executor, or on a new one.
func (e *executors) run(job func()) {
	select {
	case e.jobs <- job:
	default:
		e.started.Add(1)
		go e.loop(job)
	}
}

// loop runs job, then the jobs handed to it, until it has waited
// executorIdle for one, enough others are idle, or stop was called.
func (e *executors) loop(job func()) {
	t := time.NewTimer(executorIdle)
	defer t.Stop()
	for {
		job()
		job = nil // an idle executor must not keep the last run reachable
		if e.idle.Add(1) > maxIdleExecutors {
			e.idle.Add(-1)
			return
		}
		t.Reset(executorIdle)
		select {
		case job = <-e.jobs:
			e.idle.Add(-1)
		case <-t.C:
			e.idle.Add(-1)
			return
		case <-e.quit:
			e.idle.Add(-1)
			return
		}
	}
}

// stop makes the idle executors exit; a busy one exits after its job.
func (e *executors) stop() {
	e.once.Do(func() { close(e.quit) })
}
