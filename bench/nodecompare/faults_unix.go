//go:build unix

package main

import (
	"os"
	"syscall"
)

// minorFaults returns the minor page faults of an exited process, its
// waited-for children's included, as the system accounts them.
func minorFaults(ps *os.ProcessState) (float64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return float64(ru.Minflt), true
}
