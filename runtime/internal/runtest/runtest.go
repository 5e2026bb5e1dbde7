// Package runtest holds the helpers that the tests of runtime's
// sub-packages share: running a snippet through runtime.Run with a bound on
// its time, requiring that it succeed or fail, and checking that no
// goroutine is left behind. It is for tests only. Its functions are safe
// for concurrent use by parallel tests; CheckLeaks is not meaningful in a
// parallel test (it sees the goroutines of the tests running beside it).
package runtest

import (
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/runtime"
)

// Timeout bounds every run of these helpers that does not set its own, so
// that a runtime bug shows up as a failed test rather than a hung one.
const Timeout = 10 * time.Second

// ignoreRegexpClock ignores regexp2's clock goroutine, which the match
// timeout (runtime.RegexpTimeout) starts and which stops by itself once no
// match is pending; it belongs to the process, not to a run.
var ignoreRegexpClock = goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock")

// Main runs the tests of a package in UTC (the zone of the dates their
// expectations are written for; set before anything reads the local zone,
// so that parallel tests need not set it) and fails the package if any
// test leaves a goroutine behind: every run must stop its timers and wait
// for (or abandon and later release) its host work. Call it from TestMain.
func Main(m *testing.M) {
	if err := os.Setenv("TZ", "UTC"); err != nil {
		panic(err)
	}
	goleak.VerifyTestMain(m, ignoreRegexpClock)
}

// CheckLeaks fails t if goroutines are left behind when it ends. Main's
// check only runs when every test passed; this one runs regardless. Use
// it in serial tests only.
func CheckLeaks(t *testing.T) {
	t.Helper()
	t.Cleanup(func() { goleak.VerifyNone(t, ignoreRegexpClock) })
}

// Run runs src with opts, defaulting the timeout to Timeout.
func Run(t testing.TB, src string, opts runtime.Options) *runtime.Result {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = Timeout
	}
	res := runtime.Run(context.Background(), src, opts)
	if res == nil {
		t.Fatalf("Run returned nil for %q", src)
	}
	return res
}

// MustRun runs src and fails the test if the run failed.
func MustRun(t testing.TB, src string, opts runtime.Options) *runtime.Result {
	t.Helper()
	res := Run(t, src, opts)
	if res.Error != nil {
		t.Fatalf("run of %q failed: %s\nreport:\n%s", src, res.Error, res.Error.Report())
	}
	return res
}

// MustFail runs src and fails the test if the run succeeded; it returns the
// run's error.
func MustFail(t testing.TB, src string, opts runtime.Options) *runtime.Error {
	t.Helper()
	res := Run(t, src, opts)
	if res.Error == nil {
		t.Fatalf("run of %q succeeded (value %s, stdout %q), want an error", src, res.Value, res.Stdout)
	}
	return res.Error
}

// CheckNextRunWorks runs a normal snippet (output, a timer, a return
// value), as the run after one that hit a limit.
func CheckNextRunWorks(t testing.TB) {
	t.Helper()
	res := MustRun(t, `console.log("next"); return [1 + 1, await new Promise((r) => setTimeout(() => r("s"), 1))];`, runtime.Options{})
	if string(res.Value) != `[2,"s"]` || res.Stdout != "next\n" {
		t.Errorf("the run after a limit: Value %s Stdout %q", res.Value, res.Stdout)
	}
}

// ValueCase is a JavaScript expression and the JSON of its value.
type ValueCase struct{ Expr, Want string }

// CheckValues runs `return (expr);` as JavaScript for each case and
// compares the returned JSON (Result.Value) with Want.
func CheckValues(t testing.TB, cases []ValueCase) {
	t.Helper()
	for _, c := range cases {
		res := Run(t, "return ("+c.Expr+");", runtime.Options{Filename: "case.js"})
		if res.Error != nil {
			t.Errorf("%s\nfailed: %s", c.Expr, res.Error.Report())
			continue
		}
		if string(res.Value) != c.Want {
			t.Errorf("%s\n got %s\nwant %s", c.Expr, res.Value, c.Want)
		}
	}
}
