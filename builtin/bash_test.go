//go:build unix

package builtin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/proctest"
)

func TestBash(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "1\n2\n3\n", "sub/g.txt": ""})
	real, err := filepath.EvalSymlinks(e.root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		params  map[string]any
		want    string
		wantErr []string
	}{
		{"stdout exactly", map[string]any{"command": "echo hello"}, "hello\n", nil},
		{"no trailing newline", map[string]any{"command": "printf 42"}, "42", nil},
		{"no output", map[string]any{"command": "true"}, "", nil},
		{"stdout and stderr interleaved", map[string]any{"command": "echo a; echo b >&2; echo c"}, "a\nb\nc\n", nil},
		{"runs in the root", map[string]any{"command": "pwd -P"}, real + "\n", nil},
		{"sees root files", map[string]any{"command": "wc -l < f.txt | tr -d ' '"}, "3\n", nil},
		{"stdin is empty", map[string]any{"command": "cat; echo done"}, "done\n", nil},
		{"exit code", map[string]any{"command": "exit 3"}, "[exit code 3]", nil},
		{"exit code after output", map[string]any{"command": "echo out; exit 1"}, "out\n[exit code 1]", nil},
		{"exit code after partial line", map[string]any{"command": "printf x; exit 2"}, "x\n[exit code 2]", nil},
		{"killed by signal", map[string]any{"command": "kill -9 $$"}, "[exit code 137]", nil},
		{"failed command", map[string]any{"command": "ls nope-not-here 2>/dev/null"}, "[exit code 2]", nil},
		{"fractional timeout", map[string]any{"command": "echo ok", "timeoutSeconds": 0.5}, "ok\n", nil},
		{"huge timeout is lowered", map[string]any{"command": "echo ok", "timeoutSeconds": float64(1e9)}, "ok\n", nil},
		{"negative timeout", map[string]any{"command": "echo ok", "timeoutSeconds": -1}, "", []string{"timeoutSeconds must be a positive number"}},
		{"missing command", map[string]any{}, "", []string{"missing required parameter command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "bash", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
}

func TestBashEnv(t *testing.T) {
	e := newEnv(t, nil, func(o *Options) { o.Env = []string{"CODEEXEC_TEST=42", "PATH=" + os.Getenv("PATH")} })
	got, err := e.call(t, "bash", map[string]any{"command": "echo $CODEEXEC_TEST"})
	check(t, got, err, "42\n")
}

// firstLinePID parses the process id that a test command printed with
// "echo $$" on the first line after the "output so far:" of an error, or at
// the start of a result.
func firstLinePID(t *testing.T, s string) int {
	t.Helper()
	if i := strings.Index(s, "output so far:\n"); i >= 0 {
		s = s[i+len("output so far:\n"):]
	}
	line, _, _ := strings.Cut(s, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid at the start of %q", s)
	}
	return pid
}

// groupAlive lists the live (not zombie) processes in process group pgid.
func groupAlive(pgid int) []int {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return nil
	}
	var alive []int
	for _, p := range proctest.Where(func(p proctest.Proc) bool { return p.PGID == pgid && p.Live() }) {
		alive = append(alive, p.PID)
	}
	return alive
}

// waitGroupGone fails the test if process group pgid still has live members
// after a few seconds (the kill is immediate; this only allows for the
// kernel to finish tearing processes down).
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		alive := groupAlive(pgid)
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v of group %d survived", alive, pgid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBashTimeoutKillsGroup(t *testing.T) {
	e := newEnv(t, nil)
	start := time.Now()
	_, err := e.call(t, "bash", map[string]any{"command": "echo $$; sleep 100 & sleep 100", "timeoutSeconds": 1})
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("no timeout error")
	}
	if elapsed > 10*time.Second {
		t.Fatalf("took %v", elapsed)
	}
	if !strings.HasPrefix(err.Error(), "bash: command timed out after 1s") {
		t.Fatalf("error = %q", err)
	}
	waitGroupGone(t, firstLinePID(t, err.Error()))
}

// TestBashTimeoutWithinDeadline checks that a command's timeout is lowered
// to a little less than what is left of its call's context (the snippet's
// own time limit), so that the call fails with bash's own error, the
// output so far and the reason, while the snippet can still use it.
func TestBashTimeoutWithinDeadline(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		params map[string]any
		wanted string
	}{
		{map[string]any{"command": "echo start; sleep 300"}, "bash's default is 120s"},
		{map[string]any{"command": "echo start; sleep 300", "timeoutSeconds": 180}, "it asked for 180s"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := e.callCtx(t, ctx, "bash", tt.params)
		cancel()
		re := regexp.MustCompile(`^bash: command timed out after 1\.[0-9]+s, all that was left of the snippet's own time limit \(` + regexp.QuoteMeta(tt.wanted) +
			`\), and was killed with its whole process group; split the work over several snippets; output so far:\nstart\n$`)
		if err == nil || !re.MatchString(err.Error()) {
			t.Errorf("%v: error = %v, want one matching %s", tt.params, err, re)
		}
	}
	if got := beforeDeadline(30 * time.Second); got != 29*time.Second {
		t.Errorf("beforeDeadline(30s) = %v, want 29s", got)
	}
	if got := beforeDeadline(2 * time.Second); got != 1800*time.Millisecond {
		t.Errorf("beforeDeadline(2s) = %v, want 1.8s", got)
	}
}

func TestBashCancelKillsGroup(t *testing.T) {
	e := newEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	timer := time.AfterFunc(300*time.Millisecond, cancel)
	defer timer.Stop()
	start := time.Now()
	_, err := e.callCtx(t, ctx, "bash", map[string]any{"command": "echo $$; sleep 100 & sleep 100"})
	if time.Since(start) > 10*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "bash: cancelled") {
		t.Fatalf("error = %q", err)
	}
	waitGroupGone(t, firstLinePID(t, err.Error()))
}

func TestBashKillsLeftoverBackground(t *testing.T) {
	e := newEnv(t, nil)
	start := time.Now()
	got, err := e.call(t, "bash", map[string]any{"command": "echo $$; sleep 100 & echo started"})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if !strings.HasSuffix(got, "\nstarted\n") {
		t.Fatalf("output = %q", got)
	}
	waitGroupGone(t, firstLinePID(t, got))
}

func TestBashLargeOutput(t *testing.T) {
	tests := []struct {
		name, command string
		body          func(string) bool
	}{
		{"no newlines", "head -c 50000000 /dev/zero | tr '\\0' a", func(s string) bool { return strings.Trim(s, "a") == "" }},
		{"lines", "yes | head -c 50000000", func(s string) bool { return strings.HasPrefix(s, "y\n") && strings.Trim(s, "y\n") == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			got, err := e.call(t, "bash", map[string]any{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 30*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
			runtime.ReadMemStats(&after)
			notice, body, ok := strings.Cut(got, "\n")
			if !ok || !strings.HasPrefix(notice, "[output capped: showing the last ") || !strings.Contains(notice, "of 47.7 MiB") || !strings.HasSuffix(notice, "]") {
				t.Fatalf("notice = %q", notice)
			}
			if len(body) > DefaultMaxOutputBytes || len(body) < DefaultMaxOutputBytes-2 || !tt.body(body) {
				t.Fatalf("body of %d bytes: %q...", len(body), body[:min(len(body), 40)])
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Fatalf("allocated %d bytes for 50 MB of output", alloc)
			}
		})
	}
}

func TestBashTimeoutKeepsOutput(t *testing.T) {
	e := newEnv(t, nil)
	_, err := e.call(t, "bash", map[string]any{"command": "echo partial; sleep 100", "timeoutSeconds": 0.2})
	check(t, "", err, "", "timed out after 0.2s", "pass { timeoutSeconds: N } (at most 600)", "output so far:\npartial\n")
}

// TestGroupAliveSeesLiveGroup guards the kill tests: the check they rely on
// must see a live process group.
func TestGroupAliveSeesLiveGroup(t *testing.T) {
	g, err := procgroup.Start(context.Background(), exec.Command("sleep", "30"), procgroup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	alive := groupAlive(g.Pid())
	g.Kill()
	_ = g.Wait()
	if len(alive) != 1 || alive[0] != g.Pid() {
		t.Fatalf("groupAlive = %v, want [%d]", alive, g.Pid())
	}
	if alive := groupAlive(g.Pid()); len(alive) != 0 {
		t.Fatalf("after kill: %v", alive)
	}
}

// TestBashKillsEscapedProcesses checks that processes which left the
// command's process group (setsid, a double fork) are killed too.
func TestBashKillsEscapedProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	e := newEnv(t, nil)
	// The marker is sh's $0, so it shows in /proc/PID/cmdline.
	marker := fmt.Sprintf("codeexec-escape-%d", time.Now().UnixNano())
	cmd := fmt.Sprintf("setsid sh -c 'sleep 300' %s-a >/dev/null 2>&1 < /dev/null & (sh -c 'sleep 301' %s-b >/dev/null 2>&1 &) ; sleep 0.2; echo started", marker, marker)
	out, err := e.call(t, "bash", map[string]any{"command": cmd})
	if err != nil || !strings.Contains(out, "started") {
		t.Fatalf("bash: %q, %v", out, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := processesWithArg(t, marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left running after bash returned: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesWithArg lists the pids whose command line contains arg.
func processesWithArg(t *testing.T, arg string) []int {
	t.Helper()
	var pids []int
	for _, p := range proctest.Where(func(p proctest.Proc) bool { return strings.Contains(p.Cmdline, arg) }) {
		pids = append(pids, p.PID)
	}
	return pids
}

// TestBashKillsEnvClearedEscapes checks that a process which left the
// command's process group and cleared its environment (so that it carries
// no marker) is killed and reaped when the call returns, whether it holds
// the output pipe or nothing at all.
func TestBashKillsEnvClearedEscapes(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil || runtime.GOOS != "linux" {
		t.Skip("needs Linux's child subreaper")
	}
	for _, name := range []string{"setsid", "env", "sleep"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Skip("no " + name)
		}
	}
	e := newEnv(t, nil)
	for _, redirect := range []string{"", " >/dev/null 2>&1 </dev/null"} {
		t.Run("redirect="+redirect, func(t *testing.T) {
			// The unique duration shows in the command line of sleep,
			// which env -i cannot take off (and, written $n, not in the
			// shell's). The shell returns once sleep runs.
			n := time.Now().UnixNano()
			token := fmt.Sprintf("300.%d", n)
			command := fmt.Sprintf(`n=%d; setsid env -i sleep 300.$n%s & until grep -qs "300\.$n" /proc/[0-9]*/cmdline; do sleep 0.01; done; echo started`, n, redirect)
			out, err := e.call(t, "bash", map[string]any{"command": command})
			if err != nil || out != "started\n" {
				t.Fatalf("bash: %q, %v", out, err)
			}
			// Killed and reaped: not even a zombie child of this process.
			for deadline := time.Now().Add(bashLiveness); ; time.Sleep(20 * time.Millisecond) {
				left := proctest.Where(func(p proctest.Proc) bool {
					return strings.Contains(p.Cmdline, token) || (p.PPID == os.Getpid() && !p.Live())
				})
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("left after bash returned: %+v", left)
				}
			}
		})
	}
}

// bashLiveness bounds how long a test waits for what happens at once on an
// idle machine (a killed process is torn down): generous, so that only a
// hang fails it on a loaded machine.
const bashLiveness = 30 * time.Second
