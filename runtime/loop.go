package runtime

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"time"
)

// errNeverSettled ends a run whose top-level promise is still pending when
// nothing is left that could settle it.
var errNeverSettled = errors.New("the snippet's top-level code is still waiting (an await that nothing will ever resolve), but no timer or tool call is pending")

// loop is the run's event loop. The VM is only touched from the goroutine
// that calls run; other goroutines hand it work through the functions that
// register returns. Timers live on the loop goroutine only.
type loop struct {
	mu     sync.Mutex
	queue  []completion
	refs   int  // host work registered and not yet enqueued
	closed bool // run has returned; enqueued work is dropped
	wake   chan struct{}

	// beforeTurn, when set, runs at the start of each turn (the microtask
	// queue is then empty); when it reports that it ran, the turn starts
	// again. process.nextTick's callbacks run there.
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

func newLoop() *loop {
	return &loop{wake: make(chan struct{}, 1), byID: map[int64]*timer{}, immByID: map[int64]*immediate{}}
}

// completion is completed host work waiting for the loop: settle runs on
// the loop, or, if the loop closes first, drop runs instead.
type completion interface {
	settle() error
	drop()
}

// register records pending host work, whose completion enqueue hands to
// the loop later. The loop does not finish while registered work has not
// been enqueued. Loop goroutine only.
func (l *loop) register() {
	l.mu.Lock()
	l.refs++
	l.mu.Unlock()
}

// enqueue hands the completion of work registered before to the loop;
// call it once for each register. Exactly one of c's methods runs: settle
// on the loop, or drop when the loop closes before it runs settle (drop
// then runs in close, or at once when the loop is closed already). Any
// goroutine.
func (l *loop) enqueue(c completion) {
	l.mu.Lock()
	l.refs--
	closed := l.closed
	if !closed {
		l.queue = append(l.queue, c)
	}
	l.mu.Unlock()
	if closed {
		c.drop()
		return
	}
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// close closes the loop: the work still queued is dropped, and work
// enqueued later is dropped at once. Idempotent; any goroutine.
func (l *loop) close() {
	l.mu.Lock()
	q := l.queue
	l.closed, l.queue = true, nil
	l.mu.Unlock()
	for _, c := range q {
		c.drop()
	}
}

// run executes queued work and due timers until settled reports true and no
// work or timeout is pending, until a callback fails or fatal reports an
// error, or until ctx is done. Intervals keep the loop alive only while
// settled is false.
func (l *loop) run(ctx context.Context, settled func() bool, fatal func() error) error {
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
	defer l.close()
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
			if err := c.settle(); err != nil {
				// The rest is dropped by close, not lost.
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
			return errNeverSettled
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
func (l *loop) fireDue(now time.Time) (bool, error) {
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

// addTimer schedules fn after delay, repeating every delay when repeat is set,
// and returns the timer's id. Loop goroutine only.
func (l *loop) addTimer(delay time.Duration, repeat bool, fn func() error) int64 {
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

// clearTimer cancels the timer with the given id, if it is still pending.
// Loop goroutine only.
func (l *loop) clearTimer(id int64) {
	if t, ok := l.byID[id]; ok {
		l.remove(t)
	}
}

func (l *loop) remove(t *timer) {
	heap.Remove(&l.timers, t.index)
	delete(l.byID, t.id)
	if t.keepsAlive() {
		l.refTimer--
	}
}

// setRef refs or unrefs the timer with the given id, if it is pending: an
// unref'd timeout does not keep the run alive. Loop goroutine only.
func (l *loop) setRef(id int64, ref bool) {
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

// hasRef reports whether the timer with the given id is ref'd (true for
// one no longer pending, as in Node). Loop goroutine only.
func (l *loop) hasRef(id int64) bool {
	if t, ok := l.byID[id]; ok {
		return t.ref
	}
	return true
}

// refresh makes the pending timer with the given id due its delay from
// now, as Node's Timeout.refresh does; of a timeout that already fired it
// does nothing (Node fires it again). Loop goroutine only.
func (l *loop) refresh(id int64) {
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

// addImmediate queues fn for the loop's check phase and returns its id
// (from the timers' sequence). Loop goroutine only.
func (l *loop) addImmediate(fn func() error) int64 {
	l.timerSeq++
	im := &immediate{id: l.timerSeq, fn: fn}
	l.immediates = append(l.immediates, im)
	l.immByID[im.id] = im
	return im.id
}

// clearImmediate cancels the immediate with the given id, if it has not
// run. Loop goroutine only.
func (l *loop) clearImmediate(id int64) {
	delete(l.immByID, id)
}

// runImmediates runs the immediates queued before it started, in order, as
// Node's check phase does (those they queue wait for the next turn), and
// reports whether it ran any.
func (l *loop) runImmediates() (bool, error) {
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
