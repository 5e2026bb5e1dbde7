package external

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/codeexec/codeexec/internal/tail"
)

// pipeGrace is how long a run waits for the output pipes to close after the
// process group was killed. Only a process that left the group (setsid) and
// kept a pipe open can make it wait that long; the pipes are then closed.
const pipeGrace = 500 * time.Millisecond

// waitDelay bounds cmd.Wait after the context is done. The standard streams
// are our own pipes, so Wait never waits for them; this is a safety net.
const waitDelay = time.Second

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
	waitErr   error  // from cmd.Wait: nil, *exec.ExitError or another error
	stdout    []byte // at most maxStdout bytes
	overflow  bool   // stdout went over maxStdout; the process was killed
	stderr    string // the last maxStderr bytes of stderr
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

	cmd := exec.CommandContext(cctx, s.path, s.args...)
	cmd.Env = s.env
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay

	// The pipes are ours rather than exec's, so that Wait returns as soon as
	// the process exits even if something it started still holds them.
	var parentEnds, childEnds []*os.File
	closeAll := func(files []*os.File) {
		for _, f := range files {
			f.Close()
		}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		res.startErr = fmt.Errorf("create pipe: %w", err)
		return res
	}
	parentEnds, childEnds = append(parentEnds, outR), append(childEnds, outW)
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(append(parentEnds, childEnds...))
		res.startErr = fmt.Errorf("create pipe: %w", err)
		return res
	}
	parentEnds, childEnds = append(parentEnds, errR), append(childEnds, errW)
	var inW *os.File
	if s.stdin != nil {
		inR, w, err := os.Pipe()
		if err != nil {
			closeAll(append(parentEnds, childEnds...))
			res.startErr = fmt.Errorf("create pipe: %w", err)
			return res
		}
		inW = w
		parentEnds, childEnds = append(parentEnds, inW), append(childEnds, inR)
		cmd.Stdin = inR
	}
	cmd.Stdout, cmd.Stderr = outW, errW

	if err := cmd.Start(); err != nil {
		closeAll(append(parentEnds, childEnds...))
		res.startErr = err
		return res
	}
	closeAll(childEnds)

	stdout := tail.NewHead(s.maxStdout, func() { ccancel(errOutputFull) })
	stderr := tail.New(s.maxStderr)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(stdout, outR) // ends at EOF, or when outR is closed below
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(stderr, errR)
	}()
	if inW != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = inW.Write(s.stdin) // EPIPE when the tool does not read it all
			inW.Close()
		}()
	}

	res.waitErr = cmd.Wait()
	// Kill whatever the process left running in its group; that also closes
	// the pipes those processes hold.
	_ = killGroup(cmd.Process.Pid)
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	timer := time.NewTimer(pipeGrace)
	select {
	case <-done:
	case <-timer.C:
	}
	timer.Stop()
	closeAll(parentEnds) // unblocks the copies and the stdin writer, if still running
	<-done

	res.stdout, res.overflow = stdout.Bytes(), stdout.Overflowed()
	res.stderr = string(stderr.Bytes())
	res.stderrCut = stderr.Total() > int64(len(res.stderr))
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

// killGroup sends SIGKILL to every process in the process group pgid. It
// returns os.ErrProcessDone when the group is already gone.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// exitStatus describes how a process that ran ended: its exit code, or
// 128+N and the signal when it was killed by signal N.
func exitStatus(ee *exec.ExitError) (code int, signal string) {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), fmt.Sprintf("%d (%v)", int(ws.Signal()), ws.Signal())
	}
	return ee.ExitCode(), ""
}
