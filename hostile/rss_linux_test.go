package hostile

import (
	"syscall"

	"github.com/codeexec/codeexec/internal/proctest"
)

// peakRSS returns, in bytes, the peak resident memory of this process and
// the largest of those of the children it has waited for: for process
// isolation, its workers. Its own is VmHWM, which starts afresh at exec,
// unlike its ru_maxrss (see runInChild); its children's is ru_maxrss of
// RUSAGE_CHILDREN, in KiB, which also covers their own waited-for
// descendants, and is at least this process's peak when they started.
func peakRSS() (self, child int64, ok bool) {
	self, err := proctest.StatusBytes("VmHWM")
	if err != nil {
		return 0, 0, false
	}
	var ru syscall.Rusage
	if self == 0 || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0, 0, false
	}
	return self, ru.Maxrss << 10, true
}
