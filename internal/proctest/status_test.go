package proctest

import (
	"strings"
	"testing"
)

// TestStatusBytes parses size fields out of a status file's text.
func TestStatusBytes(t *testing.T) {
	t.Parallel()
	const status = "Name:\tproctest.test\nVmPeak:\t  123456 kB\nVmSize:\t  120000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t       0 kB\nThreads:\t7\nVmOdd:\t12 MB\nVmNeg:\t-1 kB\nVmNaN:\tx kB\n"
	tests := []struct {
		field string
		want  int64
		err   string // a substring of the error; "" for none
	}{
		{"VmSize", 120000 << 10, ""},
		{"VmPeak", 123456 << 10, ""},
		{"VmHWM", 2 << 20, ""},
		{"VmRSS", 0, ""},
		{"Vm", 0, "no Vm line"},
		{"VmSwap", 0, "no VmSwap line"},
		{"Threads", 0, "want a size in kB"},
		{"VmOdd", 0, "want a size in kB"},
		{"VmNeg", 0, "want a size in kB"},
		{"VmNaN", 0, "want a size in kB"},
	}
	for _, tt := range tests {
		got, err := statusBytes(status, tt.field)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s: %d, %v; want %d", tt.field, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %d, %v; want an error with %q", tt.field, got, err, tt.err)
		}
	}
}

// TestStatusBytesOfThisProcess reads this process's own status.
func TestStatusBytesOfThisProcess(t *testing.T) {
	if !Supported() {
		t.Skip("no /proc")
	}
	rss, err := StatusBytes("VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	size, err := StatusBytes("VmSize")
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 || size < rss {
		t.Errorf("VmRSS %d, VmSize %d: want 0 < VmRSS <= VmSize", rss, size)
	}
}
