package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/workerproc"
)

var update = flag.Bool("update", false, "rewrite the expected output inside testdata/scripts/*.txtar")

// TestMain lets the test binary act as the codeexec command inside scripts,
// and as its process-isolation worker (which is the binary re-executed).
// testSignalGraceEnv, in the environment of the test binary run as the
// CLI, is the signalGrace it gives a signal (see TestMain; the signal
// tests, Linux only, set it).
const testSignalGraceEnv = "CODEEXEC_TEST_SIGNAL_GRACE"

func TestMain(m *testing.M) {
	codeexec.Main()
	// TestSignalsDuringNativeSpin waits out the grace while the CLI spins
	// a CPU in native code: a second, not the default five, or what the
	// test asks of the CLI it starts (testSignalGraceEnv).
	signalGrace = time.Second
	if d, err := time.ParseDuration(os.Getenv(testSignalGraceEnv)); err == nil {
		signalGrace = d
	}
	testscript.Main(m, map[string]func(){
		"codeexec": func() {
			code := runProcess(nil, nil)
			workerproc.Discard()
			os.Exit(code)
		},
	})
}

// TestScripts runs the golden CLI scripts in testdata/scripts. With -update,
// failing `cmp` comparisons rewrite the expected files in the archives.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "../../testdata/scripts",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"stripdurations": stripDurations,
			"striptrace":     stripTrace,
			"exits":          exits,
		},
	})
}

// exits runs a command, as exec does, and checks its exit code:
//
//	exits 4 codeexec run --pause st.bin w.ts
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exits: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// durationRE matches the timing fields that differ between runs.
var durationRE = regexp.MustCompile(`"durationMs": [0-9.e+-]+`)

// stripDurations writes FILE (or stdout/stderr) to OUT with every durationMs
// set to 0, so that `cmp OUT want.json` (and -update) work on JSON output:
//
//	stripdurations stdout got.json
func stripDurations(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: stripdurations FILE OUT")
	}
	got := ts.ReadFile(args[0])
	if !json.Valid([]byte(got)) {
		ts.Fatalf("%s is not JSON:\n%s", args[0], got)
	}
	out := durationRE.ReplaceAllString(got, `"durationMs": 0`)
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// traceTimeRE matches the duration at the end of a --trace line.
var traceTimeRE = regexp.MustCompile(`(?m)^(trace: call_\d+ (?:done|failed) in ).*$`)

// stripTrace writes FILE (or stdout/stderr) to OUT with the duration of
// every --trace end line replaced by "T":
//
//	striptrace stderr got.txt
func stripTrace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: striptrace FILE OUT")
	}
	out := traceTimeRE.ReplaceAllString(ts.ReadFile(args[0]), "${1}T")
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// TestAppInProcess checks the dispatcher without a subprocess: unknown
// commands and missing arguments are usage errors.
func TestAppInProcess(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{}, exitUsage, "Usage:"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"rnu"}, exitUsage, `did you mean "run"?`},
		{[]string{"run"}, exitUsage, "run needs a file"},
		{[]string{"run", "-e", "1", "x.ts"}, exitUsage, "either --eval or a file"},
		{[]string{"run", "-e", ""}, exitUsage, "--eval: the code is empty"},
		{[]string{"run", "--timeout", "0s", "-e", "1"}, exitUsage, "--timeout must be positive"},
		{[]string{"run", "--bogus"}, exitUsage, "unknown flag --bogus\nRun 'codeexec run --help' for usage."},
		{[]string{"run", "--max-output", "1MiB", "-e", "1"}, exitOK, ""},
		{[]string{"run", "--max-output", "1M", "-e", "1"}, exitUsage, `--max-output: unit "M" is ambiguous`},
		{[]string{"run", "--help"}, exitOK, "Usage:\n  codeexec run [flags] FILE|-"},
		{[]string{"schema"}, exitUsage, "schema needs --provider"},
		{[]string{"schema", "--provider", "acme"}, exitUsage, `unknown provider "acme"`},
		{[]string{"version"}, exitOK, "codeexec dev"},
		{[]string{"version", "x"}, exitUsage, "version takes no arguments"},
		{[]string{"help", "version"}, exitOK, "Print the version of codeexec."},
		{[]string{"run", "-e", "console.log(6*7)"}, exitOK, "42"},
		{[]string{"repl", "x.ts"}, exitUsage, "repl takes no arguments"},
		{[]string{"help", "repl"}, exitOK, "separated by lines that hold only '---'"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			var out bytes.Buffer
			a := &app{stdin: bytes.NewReader(nil), stdout: &out, stderr: &out}
			if code := a.main(context.Background(), tc.args); code != tc.code {
				t.Errorf("exit code %d, want %d; output:\n%s", code, tc.code, out.String())
			}
			if !bytes.Contains(out.Bytes(), []byte(tc.out)) {
				t.Errorf("output does not contain %q:\n%s", tc.out, out.String())
			}
		})
	}
}
