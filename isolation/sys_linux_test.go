package isolation

import (
	"testing"

	"github.com/codeexec/codeexec/internal/proctest"
)

// TestAddressSpace holds addressSpace, read from /proc/self/statm, to the
// VmSize line of /proc/self/status. The runtime may map memory between
// the reads, so the three reads must be in order, and one try in five
// suffices.
func TestAddressSpace(t *testing.T) {
	for try := 0; ; try++ {
		before := vmSize(t)
		got, err := addressSpace()
		if err != nil {
			t.Fatal(err)
		}
		after := vmSize(t)
		if before <= got && got <= after {
			return
		}
		if try == 4 {
			t.Fatalf("addressSpace() = %d, want it between VmSize before (%d) and after (%d)", got, before, after)
		}
	}
}

// vmSize is the VmSize line of /proc/self/status, in bytes.
func vmSize(t *testing.T) int64 {
	t.Helper()
	n, err := proctest.StatusBytes("VmSize")
	if err != nil {
		t.Fatal(err)
	}
	return n
}
