//go:build unix && !aix

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockWaitMax is the longest lockFile sleeps between two tries.
const lockWaitMax = 50 * time.Millisecond

// lockFile takes an exclusive flock(2) on the file at path, created if
// missing, and returns how to release it. While another process holds it,
// it calls waiting once and waits until the lock is free or ctx is done.
// flock cannot wait for a context, so the wait is a try every few
// milliseconds (at most lockWaitMax apart), which leaves nothing behind
// when ctx ends it. Where the file system does not support flock (some
// network file systems) the error wraps errLockUnsupported.
//
// The lock belongs to the open file, which is close-on-exec: a process
// the run starts (its worker, a bash call) does not inherit it, and it
// is released when unlock closes the file or this process ends.
func lockFile(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	unlock = func() { _ = f.Close() } // closing the file releases its lock
	delay := time.Millisecond
	notified := false
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return unlock, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			// Held by another process: wait below.
		case errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENOSYS):
			unlock()
			return nil, fmt.Errorf("lock %s: %w (%w)", path, errLockUnsupported, err)
		default:
			unlock()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !notified {
			notified = true
			waiting()
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			unlock()
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, context.Cause(ctx))
		case <-t.C:
		}
		delay = min(2*delay, lockWaitMax)
	}
}
