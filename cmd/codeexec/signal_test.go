//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/procfs"
)

// signalLiveness bounds how long the signal tests wait for what happens at
// once on an idle machine (the CLI starts and prints, a process exits), on
// top of signalGrace where the grace is what is tested: generous, so that
// only a hang fails it on a loaded machine.
const signalLiveness = 60 * time.Second

// spin is a snippet that spins in native code, which cancelling the run
// cannot interrupt (goja checks its interrupt between instructions only),
// and prints "started" from inside it: from the getter of the element the
// native loop reads first, a few instructions before the loop runs on its
// own.
const spin = `Array.prototype.indexOf.call({ length: 2 ** 53 - 1, get 0() { console.log("started"); return 0 } }, 1)`

// TestSignalsDuringNativeSpin runs the CLI as a real process (the test
// binary, named codeexec) with --isolation none, a snippet spinning in
// native code, and signals it: a second signal ends it at once, and a
// single one after signalGrace; either way with the shell's code for the
// signal that ended it. The CLI's grace is the case's: short where it is
// waited out (the CLI spins a CPU meanwhile), and where a second signal
// ends the run, too long to end it first on a loaded machine.
func TestSignalsDuringNativeSpin(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(t.TempDir(), "codeexec")
	if err := os.Symlink(exe, cli); err != nil {
		t.Fatal(err)
	}
	const waited, unreached = 200 * time.Millisecond, 10 * time.Minute
	tests := []struct {
		name    string
		signals []syscall.Signal
		grace   time.Duration // the CLI's signalGrace
		code    int
		why     string
	}{
		{"two SIGTERM", []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM}, unreached, 143, "a second signal (SIGTERM)"},
		{"two SIGINT", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}, unreached, 130, "a second signal (SIGINT)"},
		{"SIGTERM then SIGINT", []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}, unreached, 130, "a second signal (SIGINT)"},
		{"one SIGTERM, then the grace", []syscall.Signal{syscall.SIGTERM}, waited, 143, "SIGTERM did not stop the run within " + waited.String()},
		{"one SIGINT, then the grace", []syscall.Signal{syscall.SIGINT}, waited, 130, "SIGINT did not stop the run within " + waited.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// A signal that lands in the few instructions between the
			// print and the native loop stops the run as it should, and
			// proves nothing: then the case runs again.
			for attempt := 1; !signalCase(t, cli, tt.signals, tt.grace, tt.code, tt.why); attempt++ {
				if attempt == 5 {
					t.Fatal("every attempt's run stopped before its native loop")
				}
				t.Logf("attempt %d: the run stopped before its native loop; again", attempt)
			}
		})
	}
}

// signalCase runs the CLI, with signalGrace grace, on spin, sends it
// signals once it printed, and checks its exit code and what it says. It
// reports false when the run stopped before the native loop (exit 1, a
// CanceledError).
func signalCase(t *testing.T, cli string, signals []syscall.Signal, grace time.Duration, code int, why string) bool {
	t.Helper()
	cmd := exec.Command(cli, "run", "--isolation", "none", "-e", spin)
	cmd.Env = append(os.Environ(), testSignalGraceEnv+"="+grace.String())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stderrR.Close()
	cmd.Stderr = stderrW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderrW.Close()
	exited := make(chan error, 1)
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	stderr := bufio.NewReader(stderrR)
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		for {
			line, err := stderr.ReadString('\n')
			if line != "" {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	started := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err == nil && line != "started\n" {
			err = errors.New("stdout: " + line)
		}
		started <- err
		_, _ = io.Copy(io.Discard, stdout)
		exited <- cmd.Wait()
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(signalLiveness):
		t.Fatal("the snippet did not start")
	}

	// The print comes a few instructions before the native loop, where
	// the VM can still be interrupted (a goroutine that wrote may wait for
	// its turn to run again): the signals wait until the process has
	// spent a tenth of a second of CPU since, which it can only spend in
	// the loop (the instructions before it take microseconds).
	waitCPU(t, cmd.Process.Pid, 10)

	var got strings.Builder
	for _, sig := range signals {
		if err := cmd.Process.Signal(sig); errors.Is(err, os.ErrProcessDone) {
			break // the run stopped before its native loop
		} else if err != nil {
			t.Fatal(err)
		}
		// The CLI says it took the first signal before the next
		// is sent (the kernel merges a signal sent twice before
		// it is delivered).
		if got.Len() == 0 {
			select {
			case line := <-lines:
				got.WriteString(line)
				if !strings.Contains(line, "stopping") {
					t.Fatalf("first stderr line %q does not say it is stopping", line)
				}
			case <-time.After(signalLiveness):
				t.Fatal("the CLI did not take the first signal")
			}
		}
	}
	var err2 error
	select {
	case err2 = <-exited:
		exited <- err2 // for the deferred kill
	case <-time.After(grace + signalLiveness):
		t.Fatal("the CLI did not exit")
	}
	for line := range lines {
		got.WriteString(line)
	}
	var ee *exec.ExitError
	if errors.As(err2, &ee) && ee.ExitCode() == exitFailed && strings.Contains(got.String(), "CanceledError") {
		t.Logf("stderr:\n%s", got.String())
		return false
	}
	if !errors.As(err2, &ee) || ee.ExitCode() != code {
		t.Fatalf("exit = %v, want code %d; stderr:\n%s", err2, code, got.String())
	}
	if !strings.Contains(got.String(), why) {
		t.Fatalf("stderr lacks %q:\n%s", why, got.String())
	}
	return true
}

// waitCPU waits until process pid has used ticks more clock ticks (a
// hundredth of a second each) of CPU time than when it is called, or has
// exited.
func waitCPU(t *testing.T, pid int, ticks int64) {
	t.Helper()
	cpu := func() (int64, bool) {
		b, err := procfs.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0, false
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 || f[0] == "Z" {
			return 0, false
		}
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		return utime + stime, true
	}
	start, ok := cpu()
	for deadline := time.Now().Add(signalLiveness); ok; time.Sleep(10 * time.Millisecond) {
		var now int64
		if now, ok = cpu(); !ok || now-start >= ticks {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the CLI used %d ticks of CPU in %v", now-start, signalLiveness)
		}
	}
}

// TestHelpStatesSignalGrace checks that run's help states the grace the
// CLI really gives a signal.
func TestHelpStatesSignalGrace(t *testing.T) {
	if want := "a second one, or " + defaultSignalGrace.String() + " without the"; !strings.Contains(runAbout, want) {
		t.Errorf("run's help does not say %q", want)
	}
}
