package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// StatusBytes returns a size field of /proc/self/status ("VmRSS",
// "VmHWM", "VmSize", ...), which the kernel gives in kB, in bytes.
func StatusBytes(field string) (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", field, err)
	}
	return statusBytes(string(b), field)
}

// statusBytes finds the line "field:  N kB" of status, the text of a
// /proc/PID/status file, and returns N KiB in bytes.
func statusBytes(status, field string) (int64, error) {
	for line := range strings.SplitSeq(status, "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%s line %q: want a size in kB", field, line)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 {
			return 0, fmt.Errorf("%s line %q: want a size in kB", field, line)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no %s line in the process's status", field)
}
