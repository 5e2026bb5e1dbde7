//go:build linux

package isolation

import (
	"errors"
	"io"
	"os"
	goruntime "runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// spinReader reads a protocol pipe. While spin reports true it polls the
// pipe for up to spinFor before it parks the goroutine in the netpoller,
// letting the other goroutines of its process (and, after spinAlone, the
// threads of other processes: see schedYield) run between two polls: a
// message that comes within that time is read without the writer having
// to wake a sleeping thread in another process, which is a good part of a
// tool call's round trip. The spin is bounded per read, so a reader costs
// at most spinFor of CPU per message it receives. A reader parked while
// spin reported false is woken by kick, so that it spins when spin turns
// true.
//
// A worker reads its parent's answers through one, spinning while a tool
// call waits (the worker has nothing else to do then). The parent reads
// its worker through one too, spinning only for spinFor after it answered
// a call (see process.answered), when the worker's next message is
// likely to come soon. Polling whenever no call was in flight, or always,
// burnt the host's CPU while the worker computed and measured no faster
// round trips on the 2-core machine.
type spinReader struct {
	f      *os.File
	rc     syscall.RawConn // f's, once Read has run
	spin   func() bool     // nil: never spin
	parked atomic.Bool     // the reader waits in the netpoller
	kicked atomic.Bool     // kick set a read deadline to wake it
}

// kick wakes the reader if it is parked, so that it polls again.
func (s *spinReader) kick() {
	if s.parked.Load() && !s.kicked.Swap(true) {
		_ = s.f.SetReadDeadline(time.Unix(1, 0))
	}
}

// schedYield gives the thread's CPU to another runnable thread, if the
// kernel has one for it: a spinning reader must not keep the writer it
// waits for (or what that writer waits for) off a busy machine's CPUs.
// A reader yields only once it has polled for spinAlone: on an idle
// machine every yield is a switch to one of the Go runtime's or the other
// process's threads and back, which made a call's round trip twice as
// long.
func schedYield() { _, _, _ = syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// spinAlone is how long a reader polls before it yields its thread
// between polls (see schedYield). Measured with
// BenchmarkPoolToolCallRoundTrip on the 2-core machine against yielding
// from the first poll (3 to 6 runs each): idle, the median call 21-28 ->
// 10 us; beside one CPU-bound process 34 -> 49-51 us; beside two, the
// median about the same (40-54 -> 52 us) and the 90th percentile 3.8-4
// ms -> 77-80 us (a yielding thread waited out the other processes'
// time slices). 10 us gave idle medians of 10-14 us, 20 us 74-80 us
// beside one busy process.
const spinAlone = 15 * time.Microsecond

// Read reads from the pipe, which must be in non-blocking mode. It
// returns os.ErrDeadlineExceeded for a read deadline set by its user; a
// user that sets deadlines must not call kick, which uses them.
func (s *spinReader) Read(p []byte) (int, error) {
	if s.rc == nil {
		rc, err := s.f.SyscallConn()
		if err != nil {
			return 0, err
		}
		s.rc = rc
	}
	for {
		var (
			n     int
			rerr  error
			start int64 // when the first poll found nothing, in UnixNano
		)
		err := s.rc.Read(func(fd uintptr) bool {
			s.parked.Store(false)
			for {
				n, rerr = syscall.Read(int(fd), p)
				if rerr != syscall.EAGAIN {
					return true
				}
				if s.spin == nil || !s.spin() {
					s.parked.Store(true)
					return false
				}
				now := time.Now().UnixNano()
				if start == 0 {
					start = now
				}
				switch waited := time.Duration(now - start); {
				case waited > spinFor:
					s.parked.Store(true)
					return false
				case waited > spinAlone:
					schedYield()
				}
				goruntime.Gosched()
			}
		})
		if errors.Is(err, os.ErrDeadlineExceeded) && s.kicked.Load() {
			// Clear the deadline before the flag: a kick in between finds
			// the flag still set and does nothing, and this reader checks
			// spin again as it reads on.
			if err := s.f.SetReadDeadline(time.Time{}); err != nil {
				return 0, err
			}
			s.kicked.Store(false)
			continue
		}
		switch {
		case err != nil:
			return 0, err
		case rerr == syscall.EINTR:
			continue
		case rerr != nil:
			return 0, rerr
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
