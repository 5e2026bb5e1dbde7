package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"runtime/metrics"
	"time"
)

// ErrMemoryLimit is the cause of a run's memory-limit error (the
// *LimitError a run ends with unwraps to it), in both isolation modes.
var ErrMemoryLimit = errors.New("memory limit exceeded")

// MemoryLimitError is the LimitError of a run that exceeded its memory
// limit of limit bytes: it unwraps to ErrMemoryLimit.
func MemoryLimitError(limit int64) *LimitError {
	return NewLimitError(fmt.Sprintf("the run exceeded its memory limit of %s", FormatBytes(limit)), ErrMemoryLimit)
}

// heapCheckInterval is how often a run's memory watchdog reads the heap.
const heapCheckInterval = 5 * time.Millisecond

// The runtime/metrics samples the watchdog reads, by index in heapSample.
const (
	// sampleLive is the heap the last garbage collection found live.
	sampleLive = iota
	// sampleObjects is every heap object now, live or garbage not yet
	// collected: an upper bound of the live heap between collections.
	sampleObjects
	// sampleAllocs counts every byte ever allocated on the heap.
	sampleAllocs
	// sampleCycles counts completed garbage collections.
	sampleCycles
)

var heapMetrics = [...]string{
	sampleLive:    "/gc/heap/live:bytes",
	sampleObjects: "/memory/classes/heap/objects:bytes",
	sampleAllocs:  "/gc/heap/allocs:bytes",
	sampleCycles:  "/gc/cycles/total:gc-cycles",
}

// heapSample is one reading of heapMetrics.
type heapSample [len(heapMetrics)]metrics.Sample

func newHeapSample() *heapSample {
	var s heapSample
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	return &s
}

// read refreshes s.
func (s *heapSample) read() { metrics.Read(s[:]) }

// get returns sample i (0 if this Go release lacks it).
func (s *heapSample) get(i int) uint64 {
	if s[i].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[i].Value.Uint64()
}

// heapCeiling returns the live heap past which the run exceeds its memory
// limit, given a reading s taken when it started (see watchHeap).
func (r *run) heapCeiling(s *heapSample) uint64 {
	if r.opts.HeapCeiling > 0 {
		return uint64(r.opts.HeapCeiling)
	}
	return s.get(sampleLive) + uint64(r.opts.Memory)
}

// allocationCheck returns the VM's allocation check for a run whose live
// heap must stay below ceiling (see goja's SetAllocationCheck in
// third_party/goja): before one of the engine's operations allocates a
// block whose size it knows (a string repeated or padded, a concatenation,
// an ArrayBuffer or typed array, Array.prototype.fill, the output of join
// or JSON.stringify as it grows), the check refuses it with the
// memory-limit error when the live heap plus the block would pass the
// ceiling: the run's remaining budget. Such an allocation would otherwise
// be made at once, before the watchdog could see it, and one past the
// machine's memory kills the process (Go's out-of-memory error is fatal).
//
// The refusal ends the run as the watchdog does: goja stops the snippet
// with the error, which it cannot catch. Node throws a RangeError the
// snippet could catch ("Invalid string length", "Array buffer allocation
// failed"), but at V8's fixed maximum sizes, not at a memory limit, and a
// snippet that hits a limit ends (SPEC 5).
//
// The live heap is the last collection's finding; when the heap with its
// garbage would pass the ceiling but that finding would not, the check
// collects first, as the watchdog does, so that garbage does not count.
//
// A refusal counts as the watchdog firing (heapFired): the run may have
// held much of its budget, and the next run's limit counts from the heap
// the last collection found live.
func (r *run) allocationCheck(ceiling uint64) func(int64) error {
	s := newHeapSample()
	refuse := func() error {
		r.heapFired.Store(true)
		return MemoryLimitError(r.opts.Memory)
	}
	return func(n int64) error {
		fits := func(used uint64) bool { return used < ceiling && uint64(n) <= ceiling-used }
		s.read()
		if !fits(s.get(sampleLive)) {
			return refuse()
		}
		if fits(s.get(sampleObjects)) {
			return nil
		}
		goruntime.GC()
		s.read()
		if !fits(s.get(sampleLive)) {
			return refuse()
		}
		return nil
	}
}

// startHeapWatch starts watchHeap heapCheckInterval from now, when its
// first check is due, and returns the function that stops it and waits
// until it has: a run that ends sooner starts no goroutine for it, and
// waits for none (the run and the session's next one would otherwise each
// pay a goroutine's start and a wake-up for nothing).
func (r *run) startHeapWatch(s *heapSample, ceiling uint64) (stop func()) {
	quit := make(chan struct{})
	done := make(chan struct{})
	t := time.AfterFunc(heapCheckInterval, func() {
		defer close(done)
		r.watchHeap(quit, s, ceiling)
	})
	return func() {
		if t.Stop() {
			return // it never started
		}
		close(quit)
		<-done
	}
}

// watchHeap ends the run with the memory-limit error once the live heap
// passes its ceiling, checking at once and then every heapCheckInterval
// until stop is closed. The ceiling is Options.HeapCeiling when set (a
// process whose heap is the run's), else the live heap at the start plus
// Limits.Memory: the heap is the whole process's, so concurrent runs and
// the host count too, and it is a guard against runaway growth, not an
// exact accounting (process isolation gives a hard bound).
//
// The live heap is known only after a garbage collection, and the Go
// collector runs when the heap has doubled: left to it, a snippet that
// keeps allocating would hold up to twice its limit for as long as that
// takes. So once the heap, garbage included, is past the ceiling, the
// watchdog collects itself, at most once per eighth of the limit allocated
// since the last collection (a run that churns garbage just under its
// ceiling costs the host a collection per limit/8 it allocates, not one
// per check), and fires when the collection finds the heap still past it.
//
// s is a reading taken when the run started, which watchHeap goes on
// using, and ceiling the heapCeiling of that reading.
func (r *run) watchHeap(stop <-chan struct{}, s *heapSample, ceiling uint64) {
	limit := r.opts.Memory
	step := uint64(limit / 8)
	cycles, allocsAtGC := s.get(sampleCycles), s.get(sampleAllocs)
	t := time.NewTicker(heapCheckInterval)
	defer t.Stop()
	// startHeapWatch starts it when the first check is due.
	for first := true; ; first = false {
		if !first {
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
		s.read()
		if c := s.get(sampleCycles); c != cycles {
			cycles, allocsAtGC = c, s.get(sampleAllocs)
		}
		if s.get(sampleLive) <= ceiling {
			if s.get(sampleObjects) <= ceiling || s.get(sampleAllocs)-allocsAtGC < step {
				continue
			}
			goruntime.GC()
			s.read()
			cycles, allocsAtGC = s.get(sampleCycles), s.get(sampleAllocs)
			if s.get(sampleLive) <= ceiling {
				continue
			}
		}
		r.heapFired.Store(true)
		r.vm.Interrupt(MemoryLimitError(limit))
		if r.opts.OnRunaway != nil {
			watchRunaway(s, s.get(sampleObjects)+uint64(limit/4), t.C, stop, r.opts.OnRunaway)
		}
		return
	}
}

// watchRunaway calls onRunaway if the heap, garbage included, passes
// bound before stop is closed, checking at every tick: after an
// interrupt, only native code that ignores it can still grow the heap.
func watchRunaway(s *heapSample, bound uint64, tick <-chan time.Time, stop <-chan struct{}, onRunaway func()) {
	for {
		select {
		case <-stop:
			return
		case <-tick:
		}
		if s.read(); s.get(sampleObjects) > bound {
			onRunaway()
			return
		}
	}
}
