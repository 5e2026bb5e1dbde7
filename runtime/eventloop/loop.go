// Package eventloop is a run's event loop, in Node's order: due timers,
// then completed host work, then immediates, each turn after a hook that
// drains what must run between turns (process.nextTick's queue). It knows
// nothing of the JavaScript engine: its callbacks are Go functions that
// the runtime makes call into the VM. Timers and immediates belong to the
// goroutine that calls Run (the loop goroutine); host work finishing on
// other goroutines reaches it through Register and Enqueue.
package eventloop

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"time"
)

// ErrNeverSettled ends a run whose top-level promise is still pending when
// nothing is left that could settle it.
var ErrNeverSettled = errors.New("the snippet's top-level code is still waiting (an await that nothing will ever resolve), but no timer or tool call is pending")

// Loop is a run's event loop. The VM is only touched from the goroutine
// that calls Run; other goroutines hand it work through Enqueue. Timers
// live on the loop goroutine only.
type Loop struct {
	mu     sync.Mutex
	queue  []Completion
	refs   int  // host work registered and not yet enqueued
	closed bool // run has returned; enqueued work is dropped
	wake   chan struct{}

	// beforeTurn is New's.
	beforeTurn func() (bool, error)

	// immediates are the pending setImmediate callbacks, in order; a
	// cleared one is nil until its turn passes.
	immediates []*immediate
	immByID    map[int64]*immediate

	timers   timerHeap
	timerSeq int64
	byID     map[int64]*timer
	refTimer int // pending ref'd timeouts (intervals do not keep a finished run alive)
}

// New returns a loop. beforeTurn, when not nil, runs at the start of each
// turn (the microtask queue is then empty); when it reports that it ran,
// the turn starts again. process.nextTick's callbacks run there.
func New(beforeTurn func() (ran bool, err error)) *Loop {
	return &Loop{wake: make(chan struct{}, 1), byID: map[int64]*timer{}, immByID: map[int64]*immediate{}, beforeTurn: beforeTurn}
}

// Completion is completed host work waiting for the loop: Settle runs on
// the loop, or, if the loop closes first, Drop runs instead.
type Completion interface {
	Settle() error
	Drop()
}

// Register records pending host work, whose completion Enqueue hands to
// the loop later. The loop does not finish while registered work has not
// been enqueued. Loop goroutine only.
func (l *Loop) Register() {
	l.mu.Lock()
	l.refs++
	l.mu.Unlock()
}

// Enqueue hands the completion of work registered before to the loop;
// call it once for each Register. Exactly one of c's methods runs: Settle
// on the loop, or Drop when the loop closes before it runs Settle (Drop
// then runs in Close, or at once when the loop is closed already). Any
// goroutine.
func (l *Loop) Enqueue(c Completion) {
	l.mu.Lock()
	l.refs--
	closed := l.closed
	if !closed {
		l.queue = append(l.queue, c)
	}
	l.mu.Unlock()
	if closed {
		c.Drop()
		return
	}
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Close closes the loop: the work still queued is dropped, and work
// enqueued later is dropped at once. Idempotent; any goroutine.
func (l *Loop) Close() {
	l.mu.Lock()
	q := l.queue
	l.closed, l.queue = true, nil
	l.mu.Unlock()
	for _, c := range q {
		c.Drop()
	}
}

// Run executes queued work and due timers until settled reports true and no
// work or timeout is pending, until a callback fails or fatal reports an
// error, or until ctx is done; with settled false and nothing left that
// could change it, it returns ErrNeverSettled. Intervals keep the loop
// alive only while settled is false. It closes the loop when it returns.
func (l *Loop) Run(ctx context.Context, settled func() bool, fatal func() error) error {
	wait := time.NewTimer(time.Hour)
	defer wait.Stop()
	// During the first timers phase, the timers the snippet's top level
	// created (ids up to topLevel) are taken when due within a
	// millisecond: node's start-up makes a setTimeout(fn, 0) of the main
	// script due by then, so it runs before a setImmediate of the main
	// script.
	// The window is fixed at the start, so that an interval the phase
	// fires is not due again within it (it would keep the first phase
	// going until the run's timeout).
	first, topLevel, earlyBy := true, l.timerSeq, time.Now().Add(time.Millisecond)
	// phaseAt is the clock of the timers phase in progress (zero between
	// phases): as in libuv, the phase runs the timers due by the time it
	// started, so that a timer a callback sets, due a millisecond later at
	// the earliest, waits for the next turn, after this turn's immediates,
	// however long the callback ran.
	var phaseAt time.Time
	defer l.Close()
	for {
		if err := fatal(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if l.beforeTurn != nil {
			if ran, err := l.beforeTurn(); err != nil || ran {
				if err != nil {
					return err
				}
				continue
			}
		}
		// Node's phases: due timers, then completed host work (poll), then
		// immediates (check).
		if phaseAt.IsZero() && len(l.timers) > 0 { // no clock read on a turn with no timer
			phaseAt = time.Now()
			if first && phaseAt.Before(earlyBy) && l.timers[0].id <= topLevel {
				phaseAt = earlyBy
			}
		}
		if fired, err := l.fireDue(phaseAt); err != nil || fired {
			if err != nil {
				return err
			}
			continue
		}
		first, phaseAt = false, time.Time{}
		l.mu.Lock()
		q, refs := l.queue, l.refs
		l.queue = nil
		l.mu.Unlock()
		for i, c := range q {
			if err := c.Settle(); err != nil {
				// The rest is dropped by Close, not lost.
				l.mu.Lock()
				l.queue = append(q[i+1:], l.queue...)
				l.mu.Unlock()
				return err
			}
		}
		if len(q) > 0 {
			continue
		}
		if ran, err := l.runImmediates(); err != nil || ran {
			if err != nil {
				return err
			}
			continue
		}
		done := settled()
		if done && refs == 0 && l.refTimer == 0 && len(l.immByID) == 0 {
			return nil
		}
		if !done && refs == 0 && len(l.timers) == 0 && len(l.immByID) == 0 {
			return ErrNeverSettled
		}
		var timerC <-chan time.Time
		if len(l.timers) > 0 {
			wait.Reset(time.Until(l.timers[0].when))
			timerC = wait.C
		}
		select {
		case <-l.wake:
		case <-timerC:
		case <-ctx.Done():
		}
	}
}

// fireDue runs the earliest timer if it is due by now, reporting whether
// it did.
func (l *Loop) fireDue(now time.Time) (bool, error) {
	if len(l.timers) == 0 || now.Before(l.timers[0].when) {
		return false, nil
	}
	t := l.timers[0]
	if t.interval > 0 {
		t.when = time.Now().Add(t.interval)
		heap.Fix(&l.timers, 0)
	} else {
		l.remove(t)
	}
	return true, t.fn()
}

// AddTimer schedules fn after delay, repeating every delay when repeat is
// set, and returns the timer's id (ids of timers and immediates come from
// one sequence, in creation order). A returned error ends Run with it.
// Loop goroutine only.
func (l *Loop) AddTimer(delay time.Duration, repeat bool, fn func() error) int64 {
	l.timerSeq++
	t := &timer{id: l.timerSeq, when: time.Now().Add(delay), delay: delay, fn: fn, ref: true}
	if repeat {
		t.interval = max(delay, time.Millisecond)
	} else {
		l.refTimer++
	}
	heap.Push(&l.timers, t)
	l.byID[t.id] = t
	return t.id
}

// ClearTimer cancels the timer with the given id, if it is still pending.
// Loop goroutine only.
func (l *Loop) ClearTimer(id int64) {
	if t, ok := l.byID[id]; ok {
		l.remove(t)
	}
}

func (l *Loop) remove(t *timer) {
	heap.Remove(&l.timers, t.index)
	delete(l.byID, t.id)
	if t.keepsAlive() {
		l.refTimer--
	}
}

// SetRef refs or unrefs the timer with the given id, if it is pending: an
// unref'd timeout does not keep the run alive. Loop goroutine only.
func (l *Loop) SetRef(id int64, ref bool) {
	t, ok := l.byID[id]
	if !ok || t.ref == ref {
		return
	}
	before := t.keepsAlive()
	t.ref = ref
	switch after := t.keepsAlive(); {
	case after && !before:
		l.refTimer++
	case before && !after:
		l.refTimer--
	}
}

// HasRef reports whether the timer with the given id is ref'd (true for
// one no longer pending, as in Node). Loop goroutine only.
func (l *Loop) HasRef(id int64) bool {
	if t, ok := l.byID[id]; ok {
		return t.ref
	}
	return true
}

// Refresh makes the pending timer with the given id due its delay from
// now, as Node's Timeout.refresh does; of a timeout that already fired it
// does nothing (Node fires it again). Loop goroutine only.
func (l *Loop) Refresh(id int64) {
	if t, ok := l.byID[id]; ok {
		t.when = time.Now().Add(max(t.delay, t.interval))
		heap.Fix(&l.timers, t.index)
	}
}

// immediate is a pending setImmediate callback.
type immediate struct {
	id int64
	fn func() error
}

// AddImmediate queues fn for the loop's check phase and returns its id
// (from the timers' sequence). A returned error ends Run with it. Loop
// goroutine only.
func (l *Loop) AddImmediate(fn func() error) int64 {
	l.timerSeq++
	im := &immediate{id: l.timerSeq, fn: fn}
	l.immediates = append(l.immediates, im)
	l.immByID[im.id] = im
	return im.id
}

// ClearImmediate cancels the immediate with the given id, if it has not
// run. Loop goroutine only.
func (l *Loop) ClearImmediate(id int64) {
	delete(l.immByID, id)
}

// runImmediates runs the immediates queued before it started, in order, as
// Node's check phase does (those they queue wait for the next turn), and
// reports whether it ran any.
func (l *Loop) runImmediates() (bool, error) {
	if len(l.immediates) == 0 {
		return false, nil
	}
	batch := l.immediates
	l.immediates = nil
	ran := false
	for i, im := range batch {
		if _, ok := l.immByID[im.id]; !ok {
			continue
		}
		delete(l.immByID, im.id)
		ran = true
		if err := im.fn(); err != nil {
			l.immediates = append(batch[i+1:], l.immediates...)
			return true, err
		}
	}
	return ran, nil
}

// timer is a pending setTimeout or setInterval.
type timer struct {
	id       int64
	when     time.Time
	delay    time.Duration
	interval time.Duration // 0 for a timeout
	ref      bool          // not unref'd
	fn       func() error
	index    int
}

// keepsAlive reports whether t keeps a finished run alive: a ref'd
// timeout.
func (t *timer) keepsAlive() bool { return t.interval == 0 && t.ref }

// timerHeap orders timers by due time, then by creation, as Node does.
type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when.Equal(h[j].when) {
		return h[i].id < h[j].id
	}
	return h[i].when.Before(h[j].when)
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return t
}
