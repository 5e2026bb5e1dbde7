package isolation

import (
	"bytes"
	"os"
	"strconv"
	"testing"
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
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmSize:")); ok {
			f := bytes.Fields(rest)
			if len(f) != 2 || string(f[1]) != "kB" {
				t.Fatalf("VmSize line %q", line)
			}
			kb, err := strconv.ParseInt(string(f[0]), 10, 64)
			if err != nil {
				t.Fatalf("VmSize line %q: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmSize in /proc/self/status")
	return 0
}
