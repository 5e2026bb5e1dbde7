//go:build unix && !aix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// livenessBound bounds a wait for an event in these tests, so that a bug
// fails them instead of hanging them; it is no performance assertion, and
// is generous for a loaded 2-core machine.
const livenessBound = 3 * time.Minute

// TestStateLockWaits checks that a second holder of one --state file waits
// for the first, says so, and stops waiting when its context ends, taking
// nothing with it; and that the lock is free once the first lets go.
func TestStateLockWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	first, _, err := openState(context.Background(), path, func(string) { t.Error("the first run waited") })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var waitedOn string
	_, _, err = openState(ctx, path, func(lockPath string) { waitedOn = lockPath; cancel() })
	want := "--state " + path + ": waiting for the lock " + path + ".lock: context canceled"
	if !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Fatalf("second openState = %v\nwant %s", err, want)
	}
	if waitedOn != path+".lock" {
		t.Errorf("waited on %q, want %q", waitedOn, path+".lock")
	}
	first.close()
	h, _, err := openState(context.Background(), path, func(string) { t.Error("waited for a released lock") })
	if err != nil {
		t.Fatal(err)
	}
	h.close()
}

// runningCLI is a codeexec process whose stderr lines arrive on lines.
type runningCLI struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	lines  chan string // stderr, closed at its end
	stderr []string    // every stderr line, once lines is closed
}

// startCLI starts the test binary as codeexec (testscript puts it on PATH
// under that name) in dir.
func startCLI(t *testing.T, dir string, args ...string) *runningCLI {
	t.Helper()
	return startCLIEnv(t, dir, nil, args...)
}

// startCLIEnv is startCLI with env added to the environment.
func startCLIEnv(t *testing.T, dir string, env []string, args ...string) *runningCLI {
	t.Helper()
	bin, err := exec.LookPath("codeexec")
	if err != nil {
		t.Fatal(err)
	}
	r := &runningCLI{cmd: exec.Command(bin, args...), lines: make(chan string, 64)}
	r.cmd.Dir = dir
	if env != nil {
		r.cmd.Env = append(os.Environ(), env...)
	}
	if r.stdout, err = r.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
	})
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
	}()
	return r
}

// waitStderr waits for a stderr line containing s, and returns it.
func (r *runningCLI) waitStderr(t *testing.T, s string) string {
	t.Helper()
	timeout := time.NewTimer(livenessBound)
	defer timeout.Stop()
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				t.Fatalf("%v ended its stderr without a line containing %q; it said:\n%s", r.cmd.Args, s, strings.Join(r.stderr, "\n"))
			}
			r.stderr = append(r.stderr, line)
			if strings.Contains(line, s) {
				return line
			}
		case <-timeout.C:
			t.Fatalf("%v: no stderr line containing %q within the liveness bound %s", r.cmd.Args, s, livenessBound)
		}
	}
}

// wait reads the rest of the process's output and waits for it to exit 0.
func (r *runningCLI) wait(t *testing.T) string {
	t.Helper()
	out, err := io.ReadAll(r.stdout)
	if err != nil {
		t.Fatal(err)
	}
	for line := range r.lines {
		r.stderr = append(r.stderr, line)
	}
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("%v: %v; stdout:\n%s\nstderr:\n%s", r.cmd.Args, err, out, strings.Join(r.stderr, "\n"))
	}
	return string(out)
}

// TestStateConcurrentRuns runs three codeexec processes on one --state
// file at once, in each isolation mode: the first holds the file until
// both others are seen waiting for it, then all three commit a step. The
// file must end with all three steps, with unique increasing ids, in the
// order the runs took the lock.
func TestStateConcurrentRuns(t *testing.T) {
	for _, mode := range []string{"none", "process"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			flags := []string{"run", "--isolation", mode, "--timeout", "10m", "--state", "s.json"}
			setup := startCLI(t, dir, append(flags, "-e", `await planning_setup_plan("concurrent")`)...)
			setup.wait(t)

			// first commits its step, says so, and keeps the file until the
			// file "go" exists.
			first := startCLI(t, dir, append(flags, "-e", `
await planning_add_step(["first"]);
console.log("holding");
await bash("while [ ! -e go ]; do sleep 0.01; done", { timeoutSeconds: 600 });`)...)
			line, err := bufio.NewReader(first.stdout).ReadString('\n')
			if line != "holding\n" {
				first.wait(t) // its stdout ended: report how it exited
				t.Fatalf("first run's stdout: %q, %v", line, err)
			}
			others := []*runningCLI{
				startCLI(t, dir, append(flags, "-e", `await planning_add_step(["second"])`)...),
				startCLI(t, dir, append(flags, "-e", `await planning_add_step(["third"])`)...),
			}
			for _, o := range others {
				o.waitStderr(t, "codeexec: --state s.json: waiting for another process that holds s.json.lock")
			}
			if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, r := range append(others, first) {
				r.wait(t)
			}

			b, err := os.ReadFile(filepath.Join(dir, "s.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Plan struct {
					Steps []struct {
						ID    int    `json:"step_id"`
						Title string `json:"title"`
					} `json:"steps"`
				} `json:"plan"`
				Next int `json:"next_step_id"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v:\n%s", err, b)
			}
			var plan []string
			for _, s := range got.Plan.Steps {
				plan = append(plan, fmt.Sprintf("%d:%s", s.ID, s.Title))
			}
			// The other two take the lock in either order.
			want1 := []string{"1:first", "2:second", "3:third"}
			want2 := []string{"1:first", "2:third", "3:second"}
			if !slices.Equal(plan, want1) && !slices.Equal(plan, want2) || got.Next != 4 {
				t.Errorf("plan %v, next_step_id %d; want %v or %v, next 4; file:\n%s", plan, got.Next, want1, want2, b)
			}
		})
	}
}
