//go:build unix

package runtime

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system,
// and true; benchmarks report it per operation beside the wall time, which
// a machine busy with other work stretches far more.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
