package isolation

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/internal/workerproc"
	"github.com/codeexec/codeexec/runtime"
)

// readBuffer is the size of the buffers that read protocol frames.
const readBuffer = 64 << 10

// process is a worker process as its parent sees it. kill and discard are
// safe for concurrent use; send too.
type process struct {
	proc *workerproc.Proc // the worker leads its Group; nothing else should be in it
	pid  int
	rd   *bufio.Reader // reads proc.FromChild through spin; one frame usually takes one read(2)
	spin *spinReader
	// answeredAt is when the parent last answered a call, in UnixNano
	// (see answered).
	answeredAt atomic.Int64

	frames frameWriter // to proc.ToChild

	// started is closed when the worker's start ended: its ready message
	// was read, or startErr says why it was not (the worker is then
	// discarded). A run may take a worker before (see Pool.take).
	started  chan struct{}
	startErr error
	// claimed: a run took the worker while it started (guarded by the
	// pool's lock).
	claimed bool

	// Owned by the run that holds the worker, and by the pool (under its
	// lock) while it is idle.
	runs  int    // runs taken, not counting a session's
	tools string // the tools of those runs, as JSON

	once    sync.Once
	waitErr error
}

// launch starts exe as a worker with env, in a process group of its own,
// with the protocol pipes as its fds 3 and 4, its stdin and stdout on
// /dev/null and its stderr captured (see workerproc.Start). Until
// discard reaps the worker, its pid (and so its group id) stays
// reserved, so kill cannot reach another process.
func launch(exe string, env []string) (*process, error) {
	pr, err := workerproc.Start(exe, env)
	if err != nil {
		return nil, err
	}
	return adopt(pr), nil
}

// adopt makes a process of a started worker.
func adopt(pr *workerproc.Proc) *process {
	p := &process{
		proc: pr, pid: pr.Group.Pid(), frames: frameWriter{w: pr.ToChild},
		started: make(chan struct{}),
	}
	p.spin = &spinReader{f: pr.FromChild, spin: p.awaiting}
	p.rd = bufio.NewReaderSize(p.spin, readBuffer)
	return p
}

// ready waits until the worker's start has ended and returns why it
// failed (nil: the worker is ready). A run calls it before it reads the
// worker's messages; a worker killed meanwhile ends its start.
func (p *process) ready() error {
	<-p.started
	return p.startErr
}

// awaitReady reads the worker's ready message, for at most timeout.
func (p *process) awaitReady(timeout time.Duration) error {
	if err := p.proc.FromChild.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	m, err := readMessage(p.rd)
	if err := p.proc.FromChild.SetReadDeadline(time.Time{}); err != nil {
		return err
	}
	switch {
	case os.IsTimeout(err):
		return fmt.Errorf("the worker did not report ready within %s (does the executable's main call isolation.Main first?)", timeout)
	case err != nil:
		return fmt.Errorf("the worker exited before it was ready (does the executable's main call isolation.Main first?)")
	case m.Type != msgReady:
		return fmt.Errorf("the worker sent %q before ready", m.Type)
	case m.Error != "":
		return fmt.Errorf("the worker could not start: %s", m.Error)
	case m.Version != protocolVersion:
		return fmt.Errorf("the worker speaks protocol version %d, not %d (is the executable another build?)", m.Version, protocolVersion)
	}
	return nil
}

// exited reports whether the process has exited.
func (p *process) exited() bool {
	select {
	case <-p.proc.Group.Exited():
		return true
	default:
		return false
	}
}

// send writes one message to the worker.
func (p *process) send(m *message) error { return p.frames.send(m) }

// spinFor is how long a protocol reader polls its pipe before it parks
// (on Linux; see spinReader). 100 us measured no faster round trips than
// 50.
const spinFor = 50 * time.Microsecond

// answered notes that a call's answer was sent: the parent's reader then
// polls the pipe for spinFor (see spinReader), since the worker, which was
// waiting for that answer, often sends its next message (another call, or
// its result) within that time, which then needs no wake-up. Measured on
// the 2-core machine, paired with a parent that does not poll:
// BenchmarkPoolToolCallRoundTrip's median call 35 -> 30 us and its 90th
// percentile 68 -> 53 us (3 pairs, each better); the cached 30-line
// snippet back to back about the same, isolated against in process (2.17
// against 2.25 times, medians of 15 pairs, 10 faster), and with two
// callers 0.67 against 0.63 of in-process throughput (13 of 15 pairs
// better). Not after sending a run request: the worker's first message
// then comes later than that, and polling for it made back-to-back runs
// slower.
func (p *process) answered() {
	p.answeredAt.Store(time.Now().UnixNano())
	p.spin.kick()
}

// awaiting reports whether the parent answered a call within spinFor.
func (p *process) awaiting() bool {
	return time.Now().UnixNano()-p.answeredAt.Load() < int64(spinFor)
}

// kill kills the worker's process group, unless it has been reaped.
func (p *process) kill() { p.proc.Group.Kill() }

// discard kills the worker's process group, reaps the worker, and closes
// the pipes. Only the first call has an effect; later calls wait for it.
func (p *process) discard() {
	p.once.Do(func() { p.waitErr = p.proc.Discard() })
}

// state describes how the reaped worker ended: "exit status 2", "signal:
// killed".
func (p *process) state() string {
	if p.proc.Cmd.ProcessState == nil {
		if p.waitErr != nil {
			return p.waitErr.Error()
		}
		return "unknown state"
	}
	return p.proc.Cmd.ProcessState.String()
}

// crashKind is what a worker's crash dump says it died of.
type crashKind int

const (
	crashOther crashKind = iota
	crashMemory
	crashStack
)

// Marks of the Go runtime's (and the race detector's) fatal errors in a
// crash dump.
var (
	memoryMarks = []string{
		"fatal error: out of memory",
		"runtime: out of memory",
		"fatal error: runtime: out of memory",
		"fatal error: runtime: cannot allocate memory",
		"out of memory allocating",
		"failed to create new OS thread",
		"too many address space collisions for -race mode",
		"ThreadSanitizer failed to allocate",
		"ThreadSanitizer: out of memory",
	}
	stackMarks = []string{
		"goroutine stack exceeds",
		"fatal error: stack overflow",
	}
	// causeRE matches the line of a dump that says what happened.
	causeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(fatal error: |panic: |SIG[A-Z]+: |unexpected (signal|fault address)|runtime: |==\d+==ERROR: |WARNING: DATA RACE)`)
	})
)

// classifyDump reads a worker's stderr: what it died of, and the one line
// that says so (empty when there is no line to show).
func classifyDump(dump string) (crashKind, string) {
	for _, m := range memoryMarks {
		if strings.Contains(dump, m) {
			return crashMemory, firstCause(dump)
		}
	}
	for _, m := range stackMarks {
		if strings.Contains(dump, m) {
			return crashStack, firstCause(dump)
		}
	}
	return crashOther, firstCause(dump)
}

// firstCause returns the first line of dump that names a cause, or its
// first non-empty line, cut to 200 bytes.
func firstCause(dump string) string {
	first := ""
	for _, l := range strings.Split(dump, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		if causeRE().MatchString(l) {
			first = l
			break
		}
	}
	if s, cut := tail.Prefix(first, 200, tail.AtRune); cut {
		first = s + "..."
	}
	return first
}

// crashError describes a worker that died on its own, without a result:
// of its memory limit when its crash dump says so or it exited with
// exitMemory, of its stack limit when the dump says so.
func crashError(p *process, memoryLimit int64) *runtime.Error {
	kind, line := classifyDump(p.proc.Stderr.String())
	if st := p.proc.Cmd.ProcessState; st != nil && st.ExitCode() == exitMemory {
		kind = crashMemory
	}
	switch kind {
	case crashMemory:
		e := runtime.MemoryLimitError(memoryLimit)
		return limitError(e.Message).WithCause(e)
	case crashStack:
		return limitError(fmt.Sprintf("the run overflowed the engine's stack limit of %s: code nested or recursed too deeply", runtime.FormatBytes(stackLimit(memoryLimit))))
	}
	state := p.state()
	switch {
	case line != "":
		return internalError(fmt.Sprintf("the isolated worker crashed (%s): %s", state, line))
	case strings.Contains(state, "killed"):
		return internalError(fmt.Sprintf("the isolated worker was killed (%s) before it finished; the system may be out of memory", state))
	}
	return internalError(fmt.Sprintf("the isolated worker exited (%s) without a result", state))
}

// limitError is the run error of a limit the parent saw (the worker died of
// it, or the parent stopped it); it unwraps to a *runtime.LimitError.
func limitError(msg string) *runtime.Error {
	return (&runtime.Error{Name: "LimitError", Message: msg, Stack: "LimitError: " + msg, Kind: runtime.KindLimit}).WithCause(runtime.NewLimitError(msg, nil))
}

func internalError(msg string) *runtime.Error {
	return &runtime.Error{Name: "InternalError", Message: msg, Stack: "InternalError: " + msg, Kind: runtime.KindInternal}
}

func canceledError(msg string) *runtime.Error {
	return &runtime.Error{Name: "CanceledError", Message: msg, Kind: runtime.KindCanceled}
}
