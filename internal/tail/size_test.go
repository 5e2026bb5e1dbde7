package tail

import "testing"

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1: "1 byte", 812: "812 bytes", 1023: "1023 bytes", 1 << 10: "1 KiB",
		50 << 10: "50 KiB", 1536: "1.5 KiB", 3355443: "3.2 MiB", 10 << 20: "10 MiB", 1 << 30: "1 GiB",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
