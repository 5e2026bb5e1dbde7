package hostile

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/runtime"
)

// rssChildEnv, in the environment of the test binary, makes it the child
// process that runs one case marked rss (runInChild); its value is the
// file the child writes its peak resident memory to (writePeakRSS).
const rssChildEnv = "CODEEXEC_HOSTILE_RSS_CHILD"

// inRSSChild reports whether this process is such a child.
var inRSSChild = os.Getenv(rssChildEnv) != ""

// rssMargin is how far above a case's memory limit the peak resident
// memory of the processes that run it may go: the Go runtime and the test
// binary (about 25 MiB resident before a run), the buffers of the tools
// and of the output, and, in process, the garbage the collector lets pile
// up, since the limit there watches the heap the last collection found
// live, and the heap grows to about twice that before the next one.
// Measured on Linux (amd64, 2 cores, under load): at most 211 MiB for the
// in-process growth cases (a 64 MiB limit), 151 MiB for a worker's (128
// MiB), 232 MiB for the host that moves the planning case's 35 MB of
// params (256 MiB). The edit case's old defect, a 477 MiB file built in
// memory under the 256 MiB limit, peaked at 505 MiB: over this bound.
const rssMargin = 224 << 20

// runInChild runs the test t, a case marked rss, in a child process: the
// test binary again, with -test.run selecting t alone (so the case runs
// once, in its mode, with all its checks) and rssChildEnv set. The case
// must pass there, and the peak resident memory of the processes that ran
// it must stay below limit, the case's memory limit, plus rssMargin: the
// larger of the child's own peak and that of its largest child (peakRSS),
// a worker in process isolation. The cases run in parallel in this
// process, so its own peak says nothing about one case; the child's is the
// case's alone.
//
// The child measures itself: the ru_maxrss that wait4 returns here would
// not do, since Linux carries the peak of the address space a process
// leaves at exec into its ru_maxrss, and os/exec starts the child from
// this process (vfork): the child's would be at least this process's peak.
// For the same reason the peak is the larger of the two, not their sum: a
// worker started after the child's peak has that peak as its own.
func runInChild(t *testing.T, limit int64) {
	report := filepath.Join(t.TempDir(), "peak")
	args := []string{"-test.run", exactPattern(t.Name()), "-test.v"}
	if f := flag.Lookup("test.timeout"); f != nil {
		args = append(args, "-test.timeout="+f.Value.String())
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), rssChildEnv+"="+report)
	out, err := cmd.CombinedOutput()
	if err == nil && bytes.Contains(out, []byte("--- SKIP: "+t.Name()+" (")) {
		t.Skipf("skipped in its child process:\n%s", out)
	}
	// A pattern that matched nothing would pass too: the child must
	// report this very test passed.
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name()+" (")) {
		t.Fatalf("the case failed in its child process (%v):\n%s", err, out)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("the child process did not report its peak resident memory: %v\n%s", err, out)
	}
	if len(b) == 0 {
		t.Logf("the peak resident memory of a process is not measured on this system")
		return
	}
	var self, child int64
	if _, err := fmt.Sscan(string(b), &self, &child); err != nil {
		t.Fatalf("the child process reported its peak resident memory as %q: %v", b, err)
	}
	peak := max(self, child)
	t.Logf("peak resident memory %d MiB (the test process %d MiB, its largest child %d MiB); memory limit %d MiB",
		peak>>20, self>>20, child>>20, limit>>20)
	switch {
	case raceEnabled:
		t.Logf("not checked against the memory limit: the race detector multiplies memory")
	case peak >= limit+rssMargin:
		t.Errorf("the peak resident memory of the processes that ran the case was %d MiB, over its memory limit of %s plus %s",
			peak>>20, runtime.FormatBytes(limit), runtime.FormatBytes(rssMargin))
	}
}

// writePeakRSS writes this process's peak resident memory and its largest
// child's, in bytes, or nothing where they are not measured, to the file
// rssChildEnv names.
func writePeakRSS() error {
	var text string
	if self, child, ok := peakRSS(); ok {
		text = fmt.Sprint(self, child)
	}
	return os.WriteFile(os.Getenv(rssChildEnv), []byte(text), 0o644)
}

// exactPattern returns the -test.run pattern that selects the test named
// name and no other: each element of the name anchored and quoted.
func exactPattern(name string) string {
	elems := strings.Split(name, "/")
	for i, e := range elems {
		elems[i] = "^" + regexp.QuoteMeta(e) + "$"
	}
	return strings.Join(elems, "/")
}
