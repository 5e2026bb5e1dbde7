package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

// pipeGrace is how long bash waits for the output pipe to close after the
// command's process group was killed. Only a process that escaped the kill
// and kept the pipe open can make it wait that long.
const pipeGrace = 2 * time.Second

const bashSignature = `async function bash(command: string, options?: { timeoutSeconds?: number }): Promise<string>`

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "Shell command line to run in the root directory."},
    "timeoutSeconds": {"type": "number", "exclusiveMinimum": 0, "description": "Timeout in seconds, not milliseconds (fractions allowed). Default %s; larger values are lowered to %s."}
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
			"The timeout is %s seconds unless { timeoutSeconds: N } (in seconds, not milliseconds; at most %s), and never more than what is left of the snippet's own time limit, so that the call fails in time for the snippet to see it; on timeout the command and everything it started are killed and the call fails with the output so far. "+
			"Processes the command leaves running in the background (even with setsid or nohup) are killed when it exits. "+
			"Output over %s keeps the tail, after a first line such as \"[output capped: showing the last %[4]s of 2.1 MiB; …]\".",
			filepath.Base(t.shell), def, max, tail.Size(int64(t.opts.MaxOutputBytes))),
		Parameters:    registry.MustParseSchema(fmt.Sprintf(bashSchema, def, max)),
		CallSignature: bashSignature,
		Source:        "builtin",
		Execute:       t.bash,
	}
}

// errBashTimeout is the cause of a command's context when its timeout,
// not its call's, ended it.
var errBashTimeout = errors.New("bash: the command's timeout")

// beforeDeadline is how long a command may run when its call's context
// ends in left: a tenth of left (at most a second) sooner, so that its
// timeout, not the snippet's, ends it, and the snippet gets the call's
// error, with the output so far, while it still has time to use it. It is
// rounded down to whole milliseconds, as the messages say it.
func beforeDeadline(left time.Duration) time.Duration {
	d := left - min(left/10, time.Second)
	return max(d.Truncate(time.Millisecond), time.Millisecond)
}

// secondsString formats d as a number of seconds, to the millisecond, e.g.
// "120", "1.5" or "2.696".
func secondsString(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64)
}

func (t *Toolset) bash(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"bash", call.Params}
	command, err := p.required("command")
	if err != nil {
		return registry.Result{}, err
	}
	timeout := t.opts.BashTimeout
	secs, asked, err := p.number("timeoutSeconds")
	if err != nil {
		return registry.Result{}, err
	} else if asked {
		if secs <= 0 {
			return registry.Result{}, fmt.Errorf("bash: timeoutSeconds must be a positive number of seconds, got %v", secs)
		}
		timeout = t.opts.MaxBashTimeout
		if secs < timeout.Seconds() {
			timeout = time.Duration(math.Ceil(secs * float64(time.Second)))
		}
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("bash: %w", err)
	}
	wanted := fmt.Sprintf("bash's default is %ss", secondsString(timeout))
	if asked {
		wanted = fmt.Sprintf("it asked for %ss", secondsString(timeout))
	}
	lowered := false
	if dl, ok := ctx.Deadline(); ok {
		if left := beforeDeadline(time.Until(dl)); left < timeout {
			timeout, lowered = left, true
		}
	}

	tctx, cancel := context.WithTimeoutCause(ctx, timeout, errBashTimeout)
	defer cancel()
	cmd := exec.Command(t.shell, "-c", command)
	cmd.Dir = t.abs
	cmd.Env = t.opts.Env // nil: this process's environment
	// One writer for stdout and stderr, so one pipe: their interleaving
	// stays exact.
	out := tail.New(t.opts.MaxOutputBytes)
	cmd.Stdout, cmd.Stderr = out, out
	if call.OnUpdate != nil {
		// The output streams to the caller as partial results while the
		// command runs, up to the output limit.
		both := io.MultiWriter(out, &updateWriter{call: call, room: t.opts.MaxOutputBytes})
		cmd.Stdout, cmd.Stderr = both, both
	}
	// The group is killed on timeout, on cancellation and when the shell
	// exits, with the processes that left it (setsid, a daemonising double
	// fork).
	g, err := procgroup.Start(tctx, cmd, procgroup.Options{KillEscaped: true, PipeGrace: pipeGrace})
	switch {
	case errors.Is(err, errors.ErrUnsupported): // the error names the requirement
		return registry.Result{}, fmt.Errorf("bash: %w", err)
	case err != nil:
		return registry.Result{}, fmt.Errorf("bash: start %s: %w", t.shell, err)
	}
	waitErr := g.Wait()

	text, notice := tailText(out)
	text = prependNotice(notice, text)
	soFar := "; output so far:\n" + text
	if text == "" {
		soFar = "; it printed nothing"
	}
	details := map[string]any{"truncated": notice != "", "outputBytes": out.Total()}

	if tctx.Err() != nil && waitErr != nil {
		if cerr := ctx.Err(); cerr != nil && context.Cause(tctx) != errBashTimeout {
			return registry.Result{}, fmt.Errorf("bash: cancelled (%w); the command and its process group were killed%s", cerr, soFar)
		}
		if lowered {
			return registry.Result{}, fmt.Errorf("bash: command timed out after %ss, all that was left of the snippet's own time limit (%s), and was killed with its whole process group; split the work over several snippets%s",
				secondsString(timeout), wanted, soFar)
		}
		return registry.Result{}, fmt.Errorf("bash: command timed out after %ss and was killed with its whole process group; pass { timeoutSeconds: N } (at most %s) for a longer run%s",
			secondsString(timeout), secondsString(t.opts.MaxBashTimeout), soFar)
	}
	code := 0
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return registry.Result{}, fmt.Errorf("bash: %w", waitErr)
		}
		code, _ = procgroup.ExitStatus(ee)
	}
	details["exitCode"] = code
	if code != 0 {
		text = appendNotice(text, "exit code "+strconv.Itoa(code))
	}
	return registry.Result{Content: []registry.Content{registry.TextContent(text)}, Details: details}, nil
}

// updateWriter reports what a command prints as partial results of its
// call, each chunk as it comes, until room bytes have been reported; then
// one last update says that the rest comes with the result. stdout and
// stderr share one writer, so one pipe and one goroutine copy the output:
// Write is never called concurrently.
type updateWriter struct {
	call registry.Call
	room int
}

func (w *updateWriter) Write(p []byte) (int, error) {
	switch {
	case w.room <= 0:
	case len(p) <= w.room:
		w.room -= len(p)
		w.call.Update(registry.TextResult(string(p)))
	default:
		w.room = 0
		w.call.Update(registry.TextResult("[more output than the limit: the rest is in the result]"))
	}
	return len(p), nil
}
