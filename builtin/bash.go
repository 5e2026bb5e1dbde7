package builtin

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

// pipeGrace is how long bash waits for the output pipe to close after the
// command's process group was killed. Only a process that left the group
// (setsid) and kept the pipe open can make it wait that long.
const pipeGrace = 2 * time.Second

const bashSignature = `async function bash(command: string, options?: { timeout?: number }): Promise<string>`

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "Shell command line to run in the root directory."},
    "timeout": {"type": "number", "exclusiveMinimum": 0, "description": "Timeout in seconds (fractions allowed). Default %s; larger values are lowered to %s."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

func (t *Toolset) bashTool() registry.Tool {
	def, max := secondsString(t.opts.BashTimeout), secondsString(t.opts.MaxBashTimeout)
	return registry.Tool{
		Name:  "bash",
		Label: "Run shell command",
		Description: fmt.Sprintf("Run a shell command in the root directory and return its combined stdout and stderr exactly as printed, plus a final line \"[exit code N]\" when it exits non-zero (that is not a failure of the call). "+
			"Uses %s -c with stdin from /dev/null, so parseInt(await bash(\"wc -l < f\")) works. "+
			"The timeout is %s seconds unless { timeout: seconds } (at most %s); on timeout the command and everything it started are killed and the call fails with the output so far. "+
			"Processes the command leaves running in the background (even with setsid or nohup) are killed when it exits. "+
			"Output over %s keeps the tail, after a first line in square brackets saying how much was cut.",
			filepath.Base(t.shell), def, max, sizeString(int64(t.opts.MaxOutputBytes))),
		Parameters:    registry.MustParseSchema(fmt.Sprintf(bashSchema, def, max)),
		CallSignature: bashSignature,
		Source:        "builtin",
		Execute:       t.bash,
	}
}

// secondsString formats d as a number of seconds, e.g. "120" or "1.5".
func secondsString(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

func (t *Toolset) bash(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"bash", call.Params}
	command, err := p.required("command")
	if err != nil {
		return registry.Result{}, err
	}
	timeout := t.opts.BashTimeout
	if secs, ok, err := p.number("timeout"); err != nil {
		return registry.Result{}, err
	} else if ok {
		if secs <= 0 {
			return registry.Result{}, fmt.Errorf("bash: timeout must be a positive number of seconds, got %v", secs)
		}
		timeout = t.opts.MaxBashTimeout
		if secs < timeout.Seconds() {
			timeout = time.Duration(math.Ceil(secs * float64(time.Second)))
		}
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("bash: %w", err)
	}

	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, t.shell, "-c", command)
	cmd.Dir = t.abs
	marker := newRunMarker()
	cmd.Env = append(t.opts.Env, marker)
	if t.opts.Env == nil {
		cmd.Env = append(os.Environ(), marker)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }

	// One pipe for stdout and stderr keeps their interleaving exact. The
	// pipe is ours, not exec's, so Wait returns when the shell exits even if
	// a background child still holds the write end.
	r, w, err := os.Pipe()
	if err != nil {
		return registry.Result{}, fmt.Errorf("bash: %w", err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	out := tail.New(t.opts.MaxOutputBytes)
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return registry.Result{}, fmt.Errorf("bash: start %s: %w", t.shell, err)
	}
	w.Close()
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(out, r) // ends at EOF, or when r is closed below
	}()

	waitErr := cmd.Wait()
	// Kill whatever the command left running in its process group: that
	// also closes the pipe those processes hold.
	_ = killGroup(cmd.Process.Pid) // os.ErrProcessDone when nothing is left
	// Processes that left the group (setsid, a daemonising double fork)
	// still carry the marker in their environment.
	killMarked(marker)
	timer := time.NewTimer(pipeGrace)
	select {
	case <-copied:
	case <-timer.C:
	}
	timer.Stop()
	r.Close()
	<-copied

	text, notice := tailText(out)
	text = prependNotice(notice, text)
	soFar := "; output so far:\n" + text
	if text == "" {
		soFar = "; it printed nothing"
	}
	details := map[string]any{"truncated": notice != "", "outputBytes": out.Total()}

	if tctx.Err() != nil && waitErr != nil {
		if cerr := ctx.Err(); cerr != nil {
			return registry.Result{}, fmt.Errorf("bash: cancelled (%w); the command and its process group were killed%s", cerr, soFar)
		}
		return registry.Result{}, fmt.Errorf("bash: command timed out after %ss and was killed with its whole process group; pass { timeout: SECONDS } (at most %s) for a longer run%s",
			secondsString(timeout), secondsString(t.opts.MaxBashTimeout), soFar)
	}
	code := 0
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return registry.Result{}, fmt.Errorf("bash: %w", waitErr)
		}
		code = exitCode(ee)
	}
	details["exitCode"] = code
	if code != 0 {
		text = appendNotice(text, "exit code "+strconv.Itoa(code))
	}
	return registry.Result{Content: []registry.Content{registry.TextContent(text)}, Details: details}, nil
}

// exitCode is the shell's convention for a process's status: its exit code,
// or 128+N when it was killed by signal N.
func exitCode(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// killGroup sends SIGKILL to every process in the process group pgid.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// markerVar is the environment variable that marks every process a bash call
// starts, so that the call can find the ones that left its process group.
const markerVar = "CODEEXEC_BASH_RUN"

// newRunMarker returns a fresh "CODEEXEC_BASH_RUN=<random>" entry.
func newRunMarker() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return markerVar + "=" + hex.EncodeToString(b[:])
}

// killMarked sends SIGKILL to every process whose environment holds marker,
// found through /proc (where there is none, it does nothing). It scans a
// few times, since a process may fork while it is being killed. Only
// processes this user may read are seen, which are the only ones a command
// run by this user can have started.
func killMarked(marker string) {
	needle := []byte(marker + "\x00")
	self := os.Getpid()
	for range 3 {
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		killed := 0
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !bytes.Contains(append(env, 0), needle) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		if killed == 0 {
			return
		}
	}
}
