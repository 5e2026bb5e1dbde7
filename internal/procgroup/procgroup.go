// Package procgroup runs a command as the leader of a process group of its
// own, so that the command and everything it started can be killed
// together, and reaps it without leaving anything behind: the one place
// where builtin's bash tool, external tools and isolation's workers start
// and kill processes.
//
// A Group kills its whole process group when its context ends, when Kill
// is called, and, always, once the leader has exited: nothing a command
// leaves running in the background outlives Wait. With
// Options.KillEscaped it also kills the processes that left the group
// (setsid, a daemonising double fork), however they did it (see Systems).
//
// The command's standard streams that are not *os.File are connected
// through pipes the Group owns rather than exec's, so that Wait notices
// the leader's exit at once even when a process that escaped still holds a
// pipe; after the group is killed, Wait gives the pipes Options.PipeGrace
// to be drained and then closes them.
//
// # Systems
//
// On Linux every promise holds: the leader is not reaped until Wait, so
// its pid, and with it the process group id, cannot be reused by another
// process while the group may still be signalled. The first Start with
// KillEscaped makes this process a child subreaper (PR_SET_CHILD_SUBREAPER,
// Linux 3.4), so that a process whose parent dies is reparented to this
// process instead of init, whatever it did to its session, process group
// or environment: a process cannot leave this process's tree. Wait then
// finds what the command left behind as follows, and kills it with
// everything it started:
//
//   - every process, anywhere, whose environment holds the Group's marker
//     (Start adds a unique variable to every command's environment);
//   - among the children this process adopted, those in the Group's
//     process group, marked by it, or holding a pipe Start made for it;
//   - among the adopted children that carry no marker (`env -i`), those
//     that started after the Group's leader, when no other live Group
//     started before them (Groups started with Options.StartsNothing do
//     not count). An adopted child that could belong to two live Groups
//     is left to the last of them to end, so that a Group never kills
//     what may be another's: while a long-lived Group runs (an MCP
//     server), the unmarked processes that later Groups leave holding
//     none of their pipes live on until it ends.
//
// Wait reaps every adopted child that has exited (this process being the
// parent of what it adopted); what it kills it reaps by the next rounds of
// its sweep. Children this process started without procgroup stay in
// its own process group and are never touched; one started so that it
// leaves that group (Setpgid, Setsid) and then exits while a sweep runs
// may be reaped by the sweep, and its own Wait then fails. Adopted
// processes that a Group without KillEscaped left behind keep running,
// as do the ones of a Group with KillEscaped that the sweep cannot
// attribute to any Group (an unmarked process that started before the
// Group ending).
//
// On other Unix systems the leader is reaped as soon as it exits, and the
// group is then killed by its id, which the kernel does not hand out again
// while any member of the group lives (when none does, the kill could only
// reach a new group that took the same id in between). There are no child
// subreapers, so KillEscaped finds processes by the marker only, and only
// where /proc exists: processes that left the group survive elsewhere,
// and so do ones that cleared their environment.
//
// Elsewhere (Windows) there are no process groups to kill: Start fails
// with an error that wraps errors.ErrUnsupported and names the
// requirement.
package procgroup

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// DefaultPipeGrace is the PipeGrace used when Options.PipeGrace is zero.
const DefaultPipeGrace = time.Second

// markerVar is the environment variable that marks every process a Group
// started with KillEscaped, so that Wait can find the ones that left the
// group.
const markerVar = "CODEEXEC_PROCGROUP"

// Options tune a Group. The zero value kills the group only and drains
// pipes for DefaultPipeGrace.
type Options struct {
	// KillEscaped also kills, once the leader has exited, the processes
	// the command started that left its process group: on Linux, those
	// that carry the Group's marker in their environment and those that
	// this process adopted as a child subreaper and can tell are the
	// Group's (see the package doc); elsewhere, where /proc exists, the
	// marked ones only. Start adds the marker to cmd.Env (to os.Environ()
	// when cmd.Env is nil), with or without KillEscaped.
	KillEscaped bool
	// StartsNothing says that the command starts no process of its own
	// (an isolation worker): on Linux, a sweep then never counts the
	// Group as a possible owner of an unmarked process this process
	// adopted, so that a long-lived Group of this kind does not leave
	// the other Groups unable to tell whose such a process is (see the
	// package doc). Should the command start one after all, another
	// Group's Wait may kill it.
	StartsNothing bool
	// PipeGrace is how long Wait waits, after killing the group, for the
	// pipes Start made to be closed by every process holding them; then
	// it closes its own ends, so that a process that escaped and kept a
	// pipe open cannot make Wait hang. Zero means DefaultPipeGrace.
	PipeGrace time.Duration
}

// Group is a started command, the leader of its own process group. Its
// methods are safe for concurrent use.
type Group struct {
	cmd         *exec.Cmd
	pid         int
	marker      string // markerVar's "NAME=value" entry
	killEscaped bool   // Options.KillEscaped
	noChildren  bool   // Options.StartsNothing
	grace       time.Duration
	exited      chan struct{} // closed once the leader has exited

	// peek waits for the leader to exit without reaping it; nil where the
	// system cannot, and then the leader is reaped as soon as it exits.
	peek      func(pid int)
	earlyWait error // cmd.Wait's error when the leader was reaped early

	copies sync.WaitGroup // the goroutines that move data through the pipes
	ends   []*os.File     // this process's ends of those pipes

	mu   sync.Mutex
	done bool // Wait is past its last kill: the group id may be reused

	start  uint64   // the leader's start time, in clock ticks after boot
	inodes []uint64 // the inodes of the pipes Start made
	swept  bool     // a sweep has begun for g; guarded by registry

	once    sync.Once
	waitErr error
}

// Start starts cmd as the leader of a new process group. When ctx ends
// before the leader exits, the whole group is killed.
//
// cmd must be unstarted and made by exec.Command (not CommandContext: pass
// the context to Start instead). Start sets cmd.SysProcAttr's process
// group fields, and replaces cmd.Stdin, cmd.Stdout and cmd.Stderr that
// are not *os.File by pipes it copies from and to them until Wait
// returns; a Stdout and Stderr that are the same writer share one pipe,
// which keeps their interleaving exact. A Stdin reader that blocks makes
// Wait wait for it, as with exec.
//
// A Group that Start returned must be waited for with Wait, or the leader
// is never reaped.
func Start(ctx context.Context, cmd *exec.Cmd, opts Options) (*Group, error) {
	return start(ctx, cmd, opts, waitWithoutReaping)
}

// start is Start with the way of waiting for the leader's exit; tests pass
// nil to exercise, on Linux, what other systems do.
func start(ctx context.Context, cmd *exec.Cmd, opts Options, peek func(pid int)) (*Group, error) {
	switch {
	case cmd.Process != nil:
		return nil, errors.New("procgroup: the command was already started")
	case cmd.Cancel != nil:
		return nil, errors.New("procgroup: the command has a Cancel function (was it made by exec.CommandContext?); pass the context to Start instead")
	}
	if err := setGroup(cmd); err != nil {
		return nil, err
	}
	g := &Group{cmd: cmd, grace: opts.PipeGrace, exited: make(chan struct{}), peek: peek}
	if g.grace <= 0 {
		g.grace = DefaultPipeGrace
	}
	// Every group is marked: on Linux, a sweep tells by the marker which
	// adopted processes belong to which group, whether it kills them or
	// not.
	g.killEscaped, g.noChildren = opts.KillEscaped, opts.StartsNothing
	g.marker = newMarker()
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], g.marker)

	if opts.KillEscaped {
		subreaper() // from now on, orphans are adopted by this process
	}

	copies, childEnds, err := g.pipes()
	if err == nil {
		g.inodes = pipeInodes(g.ends)
		forking.RLock()
		err = cmd.Start()
		if err == nil {
			g.pid = cmd.Process.Pid
			g.start = startTime(g.pid)
			register(g)
		}
		forking.RUnlock()
	}
	closeAll(childEnds)
	if err != nil {
		closeAll(g.ends)
		return nil, err
	}
	for _, c := range copies {
		g.copies.Go(c)
	}
	go g.watch()
	if ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				g.Kill()
			case <-g.exited:
			}
		}()
	}
	return g, nil
}

// pipes replaces the command's standard streams that are not files by
// pipes. It returns the copies to run once the command has started and
// the child's ends of the pipes, which the caller closes after starting
// the command; it records this process's ends in g.ends. On error, the
// caller closes both.
func (g *Group) pipes() (copies []func(), childEnds []*os.File, err error) {
	cmd := g.cmd
	if r := cmd.Stdin; r != nil && !isFile(r) {
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, childEnds, fmt.Errorf("procgroup: stdin pipe: %w", err)
		}
		cmd.Stdin = pr
		childEnds, g.ends = append(childEnds, pr), append(g.ends, pw)
		copies = append(copies, func() {
			_, _ = io.Copy(pw, r) // EPIPE when the command does not read it all
			pw.Close()
		})
	}
	output := func(w io.Writer) (*os.File, error) {
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("procgroup: output pipe: %w", err)
		}
		childEnds, g.ends = append(childEnds, pw), append(g.ends, pr)
		copies = append(copies, func() {
			_, _ = io.Copy(w, pr) // ends at EOF, or when Wait closes pr
		})
		return pw, nil
	}
	shared := sameWriter(cmd.Stdout, cmd.Stderr)
	if w := cmd.Stdout; w != nil && !isFile(w) {
		f, err := output(w)
		if err != nil {
			return nil, childEnds, err
		}
		cmd.Stdout = f
	}
	if w := cmd.Stderr; w != nil && !isFile(w) {
		if shared {
			cmd.Stderr = cmd.Stdout
		} else {
			f, err := output(w)
			if err != nil {
				return nil, childEnds, err
			}
			cmd.Stderr = f
		}
	}
	return copies, childEnds, nil
}

// watch closes g.exited once the leader has exited.
func (g *Group) watch() {
	if g.peek != nil {
		g.peek(g.pid)
	} else {
		g.earlyWait = g.cmd.Wait()
		unregister(g)
	}
	close(g.exited)
}

// Pid returns the leader's process id, which is also the process group id.
func (g *Group) Pid() int { return g.pid }

// Exited returns a channel that is closed once the leader has exited (on
// Linux, before it is reaped).
func (g *Group) Exited() <-chan struct{} { return g.exited }

// HasExited reports whether the leader has exited by now: on Linux from
// the kernel at the call (the Exited channel may close a moment later),
// elsewhere as Exited says. Safe for concurrent use.
func (g *Group) HasExited() bool {
	select {
	case <-g.exited:
		return true
	default:
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	// Past Wait's last kill the leader is reaped: its pid may be another's.
	return !g.done && g.peek != nil && exitedNow != nil && exitedNow(g.pid)
}

// Kill sends SIGKILL to every process in the group. Once Wait has killed
// the group for the last time, Kill does nothing, since the group id may
// then belong to another process. Errors (a group already gone) are
// ignored: Kill's only promise is that the group is dead or dying.
func (g *Group) Kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.done {
		_ = killGroup(g.pid)
	}
}

// Wait waits for the leader to exit, then kills what is left of its group
// (and, with KillEscaped, the processes that left it), lets the pipes
// drain for at most PipeGrace, closes them, reaps the leader and returns
// what exec.Cmd.Wait returned: nil, an *exec.ExitError, or another error.
// When Wait returns, every goroutine the Group started has finished. Only
// the first call waits; later calls return the same error.
func (g *Group) Wait() error {
	g.once.Do(func() {
		<-g.exited
		g.Kill()
		if g.killEscaped {
			killMarked(g.marker)
		}
		sweep(g)
		g.drain()
		g.mu.Lock()
		g.done = true
		g.mu.Unlock()
		if g.peek != nil {
			g.waitErr = g.cmd.Wait()
			unregister(g)
		} else {
			g.waitErr = g.earlyWait
		}
	})
	return g.waitErr
}

// drain waits for the copies for at most the grace, closes this process's
// pipe ends, which ends the copies still running, and waits for them.
func (g *Group) drain() {
	finished := make(chan struct{})
	go func() {
		g.copies.Wait()
		close(finished)
	}()
	timer := time.NewTimer(g.grace)
	select {
	case <-finished:
	case <-timer.C:
	}
	timer.Stop()
	closeAll(g.ends)
	<-finished
}

// newMarker returns a fresh "CODEEXEC_PROCGROUP=<random>" entry.
func newMarker() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return markerVar + "=" + hex.EncodeToString(b[:])
}

// unsupportedError is Start's error on a system without process groups. It
// is meant to be shown as it is, after the caller's own prefix.
func unsupportedError(goos string) error {
	return fmt.Errorf("running a command so that everything it starts can be killed needs process groups (Linux, macOS or another Unix system), which %s lacks: %w",
		goos, errors.ErrUnsupported)
}

func isFile(v any) bool {
	_, ok := v.(*os.File)
	return ok
}

// sameWriter reports whether a and b are the same writer; writers of
// types that cannot be compared are not.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() { _ = recover() }() // a == b panics on uncomparable types
	return a == b
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
