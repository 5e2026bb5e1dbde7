package external

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"time"

	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/tail"
)

// pipeGrace is how long a run waits for the output pipes to close after the
// process group was killed. Only a process that left the group (setsid) and
// kept a pipe open can make it wait that long; the pipes are then closed.
const pipeGrace = 500 * time.Millisecond

// Causes of an ended run context.
var (
	errTimedOut   = errors.New("timed out")
	errOutputFull = errors.New("output limit exceeded")
)

// runSpec describes one run of an executable.
type runSpec struct {
	path      string
	args      []string
	stdin     []byte // nil: stdin is /dev/null
	timeout   time.Duration
	maxStdout int
	maxStderr int
	env       []string
	dir       string
}

// runResult is what a run produced.
type runResult struct {
	startErr  error  // the process could not be started
	waitErr   error  // nil, *exec.ExitError or another error
	stdout    []byte // at most maxStdout bytes
	overflow  bool   // stdout went over maxStdout; the process was killed
	stderr    string // the last maxStderr bytes of stderr, from a rune boundary
	stderrCut bool   // stderr had more than that
	timedOut  bool   // the timeout killed the process
	cancelled error  // the parent context killed the process: its cause
}

// run runs the executable in a process group of its own, feeding stdin and
// capturing stdout (head, capped) and stderr (tail, capped). The timeout,
// the parent context and a stdout overflow kill the whole process group;
// so does the process's own exit, so that nothing it started outlives the
// run. run returns only when every goroutine it started has finished.
func run(ctx context.Context, s runSpec) (res runResult) {
	tctx, tcancel := context.WithTimeoutCause(ctx, s.timeout, errTimedOut)
	defer tcancel()
	cctx, ccancel := context.WithCancelCause(tctx)
	defer ccancel(nil)

	cmd := exec.Command(s.path, s.args...)
	cmd.Env = s.env
	cmd.Dir = s.dir
	if s.stdin != nil {
		cmd.Stdin = bytes.NewReader(s.stdin)
	}
	stdout := tail.NewHead(s.maxStdout, func() { ccancel(errOutputFull) })
	stderr := tail.New(s.maxStderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The group is killed when the tool exits, with the processes that
	// left it (setsid, a daemonising double fork, even with `env -i`).
	g, err := procgroup.Start(cctx, cmd, procgroup.Options{KillEscaped: true, PipeGrace: pipeGrace})
	if err != nil {
		res.startErr = err
		return res
	}
	res.waitErr = g.Wait()

	res.stdout, res.overflow = stdout.Bytes(), stdout.Overflowed()
	res.stderr, res.stderrCut = stderr.Text(tail.AtRune)
	if cctx.Err() != nil && res.waitErr != nil {
		switch cause := context.Cause(cctx); {
		case errors.Is(cause, errOutputFull):
		case errors.Is(cause, errTimedOut) && ctx.Err() == nil:
			res.timedOut = true
		default:
			res.cancelled = cause
		}
	}
	return res
}

// exitStatus describes how a process that ran ended: its exit code (128+N
// when signal N killed it), and "exited with status N" or "was killed by
// signal N (name)".
func exitStatus(ee *exec.ExitError) (code int, what string) {
	code, sig := procgroup.ExitStatus(ee)
	if sig != 0 {
		return code, fmt.Sprintf("was killed by signal %d (%v)", int(sig), sig)
	}
	return code, "exited with status " + strconv.Itoa(code)
}
