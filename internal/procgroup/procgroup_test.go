//go:build linux

package procgroup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/internal/procfs"
	"github.com/codeexec/codeexec/internal/proctest"
)

// TestMain fails the package if a test leaves a goroutine behind, or a
// process: a child of this process (running or not reaped), or anything
// carrying a test's tag in its command line.
//
// Started with sleeperVar set, the test binary is a sleeper instead: a
// process for the tests to leave behind, that forks nothing and shows its
// arguments (the test's tag) in its command line.
func TestMain(m *testing.M) {
	if os.Getenv(sleeperVar) != "" {
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	}
	code := m.Run()
	if code == 0 {
		if left := leftovers(); len(left) > 0 {
			fmt.Fprintf(os.Stderr, "processes left behind: %+v\n", left)
			code = 1
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goroutines left behind: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// tagPrefix starts every tag the tests put in their commands' $0.
const tagPrefix = "procgroup-test-"

// liveness bounds how long a test waits for what happens at once on an
// idle machine (a killed process is torn down, a started one has
// exec'd): generous, so that only a hang fails it on a loaded machine.
const liveness = 30 * time.Second

// leftovers lists the children of this process and the tagged processes,
// waiting up to liveness for the kernel to finish tearing killed ones down.
func leftovers() []proctest.Proc {
	self := os.Getpid()
	var left []proctest.Proc
	for deadline := time.Now().Add(liveness); ; time.Sleep(20 * time.Millisecond) {
		left = proctest.Where(func(p proctest.Proc) bool {
			return p.PPID == self || (p.Live() && strings.Contains(p.Cmdline, tagPrefix))
		})
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}

// sleeperVar, set in a command's environment, holds the path of this test
// binary; started with it set, the binary sleeps (see TestMain).
const sleeperVar = "PROCGROUP_TEST_SLEEPER"

// sleeperEnv returns an environment in which a script starts a sleeper
// tagged tag with `"$SLEEPER" "$TAG"`. The tag is not in the script, so
// that only the sleepers show it in their command lines.
func sleeperEnv(t *testing.T, tag string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), sleeperVar+"="+exe, "SLEEPER="+exe, "TAG="+tag)
}

// strategies are the two ways a Group learns that its leader exited: on
// Linux without reaping it, elsewhere by reaping it.
var strategies = []struct {
	name string
	peek func(pid int)
}{
	{"wait without reaping", waitWithoutReaping},
	{"reap at exit", nil},
}

// newTag returns a tag unique to the test, for a command's $0, and kills
// whatever still carries it when the test ends, reaping what this process
// adopted.
func newTag(t *testing.T) string {
	tag := fmt.Sprintf("%s%d", tagPrefix, time.Now().UnixNano())
	t.Cleanup(func() {
		for _, p := range proctest.Where(func(p proctest.Proc) bool { return strings.Contains(p.Cmdline, tag) }) {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
			if p.PPID == os.Getpid() {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(p.PID, &ws, 0, nil)
			}
		}
	})
	return tag
}

// sh returns an unstarted "sh -c script tag".
func sh(script, tag string) *exec.Cmd {
	return exec.Command("sh", "-c", script, tag)
}

// tagged lists the live processes whose command line holds tag.
func tagged(tag string) []int {
	var pids []int
	for _, p := range proctest.Where(func(p proctest.Proc) bool { return p.Live() && strings.Contains(p.Cmdline, tag) }) {
		pids = append(pids, p.PID)
	}
	return pids
}

// waitNoneTagged fails the test if processes carrying tag are still alive
// after liveness (the kill is immediate; this allows the kernel to finish
// tearing them down).
func waitNoneTagged(t *testing.T, tag string) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(20 * time.Millisecond) {
		left := tagged(tag)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v survived", left)
		}
	}
}

// waitSleepers waits until n sleepers carrying tag run: processes that
// exec'd this test binary. A process that shows the tag but not yet the
// binary is still setsid (or the shell) on its way there: setsid has not
// necessarily left the group yet, and a kill of the group would take it.
func waitSleepers(t *testing.T, tag string, n int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sleepers := func() int {
		return len(proctest.Where(func(p proctest.Proc) bool {
			return p.Live() && strings.HasPrefix(p.Cmdline, exe+" ") && strings.Contains(p.Cmdline, tag)
		}))
	}
	for deadline := time.Now().Add(liveness); ; time.Sleep(10 * time.Millisecond) {
		if sleepers() >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sleepers tagged %s run, want %d", sleepers(), tag, n)
		}
	}
}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		code   int
		sig    syscall.Signal
	}{
		{"exit 0", 0, 0},
		{"exit 3", 3, 0},
		{"kill -KILL $$", 137, syscall.SIGKILL},
		{"kill -TERM $$", 143, syscall.SIGTERM},
	}
	for _, s := range strategies {
		for _, tt := range tests {
			t.Run(s.name+"/"+tt.script, func(t *testing.T) {
				g, err := start(context.Background(), sh(tt.script, newTag(t)), Options{}, s.peek)
				if err != nil {
					t.Fatal(err)
				}
				err = g.Wait()
				if tt.code == 0 {
					if err != nil {
						t.Fatalf("Wait = %v, want nil", err)
					}
					return
				}
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatalf("Wait = %v, want an *exec.ExitError", err)
				}
				if code, sig := ExitStatus(ee); code != tt.code || sig != tt.sig {
					t.Errorf("ExitStatus = %d, %v; want %d, %v", code, sig, tt.code, tt.sig)
				}
			})
		}
	}
}

func TestStreams(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 1<<20) // more than a pipe holds
	tests := []struct {
		name           string
		script         string
		stdin          string // "": no reader, so /dev/null
		shared         bool
		stdout, stderr string
	}{
		{"one writer keeps the interleaving", "echo a; echo b >&2; echo c", "", true, "a\nb\nc\n", ""},
		{"two writers", "echo a; echo b >&2; echo c", "", false, "a\nc\n", "b\n"},
		{"stdin is /dev/null without a reader", "cat; echo done", "", true, "done\n", ""},
		{"stdin from a reader", "cat; echo", "hello", true, "hello\n", ""},
		{"stdin the command does not read", "echo ok", big, true, "ok\n", ""},
		{"large output", "head -c 1048576 /dev/zero | tr '\\0' x", "", true, big, ""},
	}
	for _, s := range strategies {
		for _, tt := range tests {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				cmd := sh(tt.script, newTag(t))
				if tt.stdin != "" {
					cmd.Stdin = strings.NewReader(tt.stdin)
				}
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if tt.shared {
					cmd.Stderr = &stdout
				}
				g, err := start(context.Background(), cmd, Options{}, s.peek)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Wait(); err != nil {
					t.Fatal(err)
				}
				if stdout.String() != tt.stdout || stderr.String() != tt.stderr {
					t.Errorf("stdout, stderr = %.40q, %.40q; want %.40q, %.40q", stdout.String(), stderr.String(), tt.stdout, tt.stderr)
				}
			})
		}
	}
}

// TestKillsTheGroup checks that a background process left in the group is
// killed when the leader exits, and that the context kills the whole
// group while the leader runs.
func TestKillsTheGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		script  string
		timeout time.Duration // 0: none
		killed  bool          // the leader dies of SIGKILL
	}{
		{"left in the background", "sleep 100 & echo started", 0, false},
		{"context ends", "sleep 100 & sleep 100", 300 * time.Millisecond, true},
	}
	for _, s := range strategies {
		for _, tt := range tests {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				ctx := context.Background()
				if tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				g, err := start(ctx, sh(tt.script, newTag(t)), Options{}, s.peek)
				if err != nil {
					t.Fatal(err)
				}
				begun := time.Now()
				err = g.Wait()
				if took := time.Since(begun); took > liveness {
					t.Fatalf("Wait took %v", took)
				}
				var ee *exec.ExitError
				if killed := errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL; killed != tt.killed {
					t.Fatalf("Wait = %v, want killed %v", err, tt.killed)
				}
				waitGroupGone(t, g.Pid())
			})
		}
	}
}

// waitGroupGone fails the test if process group pgid still has live
// members after liveness.
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(20 * time.Millisecond) {
		left := proctest.Where(func(p proctest.Proc) bool { return p.PGID == pgid && p.Live() })
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %+v of group %d survived", left, pgid)
		}
	}
}

// TestKillEscaped checks that processes which left the group (setsid, a
// double fork) are killed with KillEscaped, and only then.
func TestKillEscaped(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for _, s := range strategies {
		for _, kill := range []bool{true, false} {
			t.Run(s.name+"/KillEscaped "+strconv.FormatBool(kill), func(t *testing.T) {
				tag := newTag(t)
				// One sleeper leaves the group, the other is orphaned by a
				// double fork but stays in the group. The script waits
				// on stdin until both run.
				cmd := exec.Command("sh", "-c", `setsid "$SLEEPER" "$TAG-a" >/dev/null 2>&1 </dev/null & ("$SLEEPER" "$TAG-b" >/dev/null 2>&1 </dev/null &); read x || :`)
				cmd.Env = sleeperEnv(t, tag)
				stdin, release := io.Pipe()
				cmd.Stdin = stdin
				g, err := start(context.Background(), cmd, Options{KillEscaped: kill}, s.peek)
				if err != nil {
					t.Fatal(err)
				}
				waitSleepers(t, tag, 2)
				release.Close()
				if err := g.Wait(); err != nil {
					t.Fatal(err)
				}
				if kill {
					waitNoneTagged(t, tag)
					return
				}
				waitNoneTagged(t, tag+"-b")
				if left := tagged(tag + "-a"); len(left) != 1 {
					t.Fatalf("without KillEscaped, %v run; want the sleeper that left the group (newTag's cleanup kills it)", left)
				}
			})
		}
	}
}

// TestPipeGrace checks that a process that left the group and holds the
// output pipe delays Wait by PipeGrace at most, and that what was printed
// before is kept.
func TestPipeGrace(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			tag := newTag(t)
			var out bytes.Buffer
			cmd := exec.Command("sh", "-c", `echo before; setsid "$SLEEPER" "$TAG" </dev/null & read x || :`)
			cmd.Env = sleeperEnv(t, tag)
			stdin, release := io.Pipe()
			cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &out
			g, err := start(context.Background(), cmd, Options{PipeGrace: 300 * time.Millisecond}, s.peek)
			if err != nil {
				t.Fatal(err)
			}
			waitSleepers(t, tag, 1)
			release.Close()
			begun := time.Now()
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			// At least the grace (what is tested), and not a hang.
			if took := time.Since(begun); took < 300*time.Millisecond || took > liveness {
				t.Fatalf("Wait took %v with a grace of 300ms", took)
			}
			if out.String() != "before\n" {
				t.Fatalf("output = %q", out.String())
			}
			if left := tagged(tag); len(left) != 1 {
				t.Fatalf("%v run; want the sleeper, which holds the pipe and is not killed without KillEscaped", left)
			}
		})
	}
}

// TestExitedDoesNotReap checks the Linux promise: between the leader's
// exit and Wait, the leader is a zombie, so its pid (the group id) stays
// reserved; elsewhere it is reaped at once.
func TestExitedDoesNotReap(t *testing.T) {
	t.Parallel()
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			g, err := start(context.Background(), exec.Command("true"), Options{}, s.peek)
			if err != nil {
				t.Fatal(err)
			}
			<-g.Exited()
			var state string
			for _, p := range proctest.Where(func(p proctest.Proc) bool { return p.PID == g.Pid() }) {
				state = p.State
			}
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			want := "Z"
			if s.peek == nil {
				want = ""
			}
			if state != want {
				t.Fatalf("state after Exited = %q, want %q", state, want)
			}
			if left := proctest.Where(func(p proctest.Proc) bool { return p.PID == g.Pid() }); len(left) != 0 {
				t.Fatalf("after Wait: %+v", left)
			}
		})
	}
}

func TestStartRefuses(t *testing.T) {
	// Not parallel: it counts this process's open files.
	started := exec.Command("true")
	if err := started.Run(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cmd  *exec.Cmd
		want string
	}{
		{"CommandContext", exec.CommandContext(context.Background(), "true"), "pass the context to Start"},
		{"started", started, "already started"},
		{"no such file", exec.Command("/nonexistent/procgroup-test"), "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cmd.Stdout = &bytes.Buffer{}
			tt.cmd.Stdin = strings.NewReader("x")
			before := openFiles(t)
			g, err := Start(context.Background(), tt.cmd, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Start = %v, %v; want an error with %q", g, err, tt.want)
			}
			if after := openFiles(t); after != before {
				t.Fatalf("%d open files before Start, %d after", before, after)
			}
		})
	}
}

// TestNoFilesLeft checks that a run closes every pipe it made.
func TestNoFilesLeft(t *testing.T) {
	// Not parallel: it counts this process's open files.
	before := openFiles(t)
	var stdout, stderr bytes.Buffer
	cmd := sh("cat; echo err >&2", newTag(t))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("in"), &stdout, &stderr
	g, err := Start(context.Background(), cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Wait(); err != nil || stdout.String() != "in" || stderr.String() != "err\n" {
		t.Fatalf("Wait = %v; stdout, stderr = %q, %q", err, stdout.String(), stderr.String())
	}
	if after := openFiles(t); after != before {
		t.Fatalf("%d open files before the run, %d after", before, after)
	}
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

// TestKillEscapedEnvCleared checks that processes which left the group
// and cleared their environment, so that they carry no marker, are killed
// with KillEscaped: found as children this process adopted, by the pipe
// they hold or by their start time.
func TestKillEscapedEnvCleared(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	tests := []struct{ name, redirect string }{
		{"holding the output pipe", ""},
		{"holding nothing", ">/dev/null 2>&1 </dev/null"},
	}
	for _, s := range strategies {
		for _, tt := range tests {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				tag := newTag(t)
				var out bytes.Buffer
				cmd := exec.Command("sh", "-c", `setsid env -i `+sleeperVar+`="$SLEEPER" "$SLEEPER" "$TAG" `+tt.redirect+` & read x || :`)
				cmd.Env = sleeperEnv(t, tag)
				stdin, release := io.Pipe()
				cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &out
				g, err := start(context.Background(), cmd, Options{KillEscaped: true}, s.peek)
				if err != nil {
					t.Fatal(err)
				}
				waitSleepers(t, tag, 1)
				for _, pid := range tagged(tag) {
					if env, err := procfs.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil && bytes.Contains(env, []byte(markerVar)) {
						t.Fatalf("the sleeper's environment holds the marker: %q", env)
					}
				}
				release.Close()
				if err := g.Wait(); err != nil {
					t.Fatal(err)
				}
				waitNoneTagged(t, tag)
			})
		}
	}
}

// TestSweepKillsOnlyItsOwn checks, with two groups running at once, that
// the one ending first leaves alone an unmarked process the other left
// behind, both when that process started before the first group (so it
// cannot be the first group's) and after (so it could be either's: the
// last of them to end kills it).
func TestSweepKillsOnlyItsOwn(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for _, leaverFirst := range []bool{true, false} {
		t.Run("leaver started first "+strconv.FormatBool(leaverFirst), func(t *testing.T) {
			t.Parallel()
			tag := newTag(t)
			// The leaver orphans an unmarked sleeper holding nothing of
			// its own (a subshell starts it and exits), then waits on
			// stdin.
			leaverCmd := exec.Command("sh", "-c", `(setsid env -i `+sleeperVar+`="$SLEEPER" "$SLEEPER" "$TAG" >/dev/null 2>&1 </dev/null &); read x || :`)
			leaverCmd.Env = sleeperEnv(t, tag)
			leaverIn, releaseLeaver := io.Pipe()
			leaverCmd.Stdin = leaverIn
			otherCmd := exec.Command("sh", "-c", `read x || :`)
			otherIn, releaseOther := io.Pipe()
			otherCmd.Stdin = otherIn

			var leaver, other *Group
			var err error
			if leaverFirst {
				leaver, err = Start(context.Background(), leaverCmd, Options{KillEscaped: true})
				if err != nil {
					t.Fatal(err)
				}
				waitSleepers(t, tag, 1)
				for _, pid := range tagged(tag) {
					waitNextTick(t, startTime(pid))
				}
				other, err = Start(context.Background(), otherCmd, Options{KillEscaped: true})
				if err != nil {
					t.Fatal(err)
				}
			} else {
				other, err = Start(context.Background(), otherCmd, Options{KillEscaped: true})
				if err != nil {
					t.Fatal(err)
				}
				leaver, err = Start(context.Background(), leaverCmd, Options{KillEscaped: true})
				if err != nil {
					t.Fatal(err)
				}
				waitSleepers(t, tag, 1)
			}
			waitAdopted(t, tag)
			releaseOther.Close()
			if err := other.Wait(); err != nil {
				t.Fatal(err)
			}
			if left := tagged(tag); len(left) != 1 {
				t.Fatalf("after the other group's Wait, %v run; want the leaver's sleeper", left)
			}
			releaseLeaver.Close()
			if err := leaver.Wait(); err != nil {
				t.Fatal(err)
			}
			waitNoneTagged(t, tag)
		})
	}
}

// waitNextTick waits until the clock that /proc's start times count in
// (clock ticks, at most 10 ms each) is past start, so that a process
// started next starts strictly later than one that started at start.
func waitNextTick(t *testing.T, start uint64) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(5 * time.Millisecond) {
		c := exec.Command("true")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		later := startTime(c.Process.Pid) > start
		_ = c.Wait()
		if later {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the clock of start times does not move")
		}
	}
}

// waitAdopted waits until the processes carrying tag are children of this
// process (their parent, a subshell, has exited).
func waitAdopted(t *testing.T, tag string) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(10 * time.Millisecond) {
		adopted := proctest.Where(func(p proctest.Proc) bool {
			return p.Live() && strings.Contains(p.Cmdline, tag) && p.PPID == os.Getpid()
		})
		if len(adopted) > 0 && len(adopted) == len(tagged(tag)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the processes tagged %s were not adopted", tag)
		}
	}
}
