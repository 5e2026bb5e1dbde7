package isolation

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// supported reports whether process isolation works on this system.
const supported = true

// threadAllowance is address space the cap leaves beyond the limit for
// the threads the Go runtime starts during a run (on a busy machine it
// starts more, for system calls that block longer): each reserves an 8 MiB
// stack mapping, untouched and not resident, which a snippet's memory
// should not pay for. Without it a worker under a 96 MiB limit could fail
// its first run while the machine was loaded.
const threadAllowance = 64 << 20

// limitMemory caps the worker's memory, first thing in the worker: a hard
// cap on its address space (RLIMIT_AS) of what it has mapped now plus limit
// (and threadAllowance),
// so that any allocation past it fails and the Go runtime dies with "fatal
// error: out of memory"; a GC target (debug.SetMemoryLimit) below it, so
// that the heap is collected hard before it gets there (and a run whose
// live heap passes heapCeiling, below that, is stopped); and a Go stack
// limit well inside it, so that runaway recursion in the engine is a "stack
// overflow" rather than an out-of-memory.
//
// The cap is relative because a Go program reserves 1.2 to 1.6 GiB of
// address space at startup (the heap's page-allocator summaries, the arena
// index; all untouched, PROT_NONE), 1.9 GiB with the race detector: an
// absolute RLIMIT_AS of 512 MiB is below what the runtime has mapped before
// main runs, so the first heap growth would fail.
func limitMemory(limit int64) error {
	base, err := addressSpace()
	if err != nil {
		return fmt.Errorf("limit memory: %w", err)
	}
	capacity := uint64(base) + uint64(limit) + threadAllowance
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: capacity, Max: capacity}); err != nil {
		return fmt.Errorf("limit memory: setrlimit(RLIMIT_AS, %d): %w", capacity, err)
	}
	debug.SetMemoryLimit(gcTarget(limit))
	debug.SetMaxStack(int(stackLimit(limit)))
	return nil
}

// addressSpace returns the process's mapped address space (VmSize) in
// bytes: the first field of /proc/self/statm, in pages, which the kernel
// writes for a fraction of the cost of /proc/self/status.
func addressSpace() (int64, error) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, err
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0, errors.New("/proc/self/statm is empty")
	}
	pages, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/self/statm: %w", err)
	}
	return pages * int64(os.Getpagesize()), nil
}

// inheritedPipe returns the pipe the worker inherited as fd, in
// non-blocking mode, or nil when fd is not an open pipe. Non-blocking
// descriptors go through Go's netpoller: a goroutine that waits for the
// parent parks instead of holding a thread in read(2), and the goroutine it
// wakes runs on its P at once.
func inheritedPipe(fd int, name string) *os.File {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil
	}
	if syscall.SetNonblock(fd, true) != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), name)
}
