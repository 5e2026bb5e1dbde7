//go:build unix && !aix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/peertest"
	"github.com/codeexec/codeexec/internal/proctest"
)

// The tests of stored sessions run codeexec beside real peers: Debian's
// redis-server and haproxy, and the official TypeScript SDK's client
// under node. Without one of them a test skips with a message that says
// how to install it, except under CI=true (.ci/run installs them), where
// it fails.

// freePort returns a loopback TCP port that was free a moment ago, for a
// process that must listen at the same address again after a restart.
func freePort(t *testing.T) int {
	t.Helper()
	port, err := peertest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// peerProc is a process a test started, whose output (stdout and stderr
// together) it keeps line by line, reading it as it comes, so that a
// chatty process never blocks on a full pipe.
type peerProc struct {
	name string
	cmd  *exec.Cmd

	mu      sync.Mutex
	lines   []string
	outDone bool          // the output ended
	grew    chan struct{} // closed, and replaced, when a line arrives or the output ends

	exited chan struct{} // closed once the process has exited and was waited for
}

// startPeer starts cmd, whose Stdout and Stderr it sets, as the peer
// called name; a cleanup of t kills it unless it has exited, and on Linux
// it dies with the test process. Files in extra are passed to it as
// descriptors 3, 4, ... and closed here once it started.
func startPeer(t *testing.T, name string, cmd *exec.Cmd, extra ...*os.File) *peerProc {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = w, w, extra
	dieWithTest(cmd)
	err = cmd.Start()
	w.Close()
	for _, f := range extra {
		f.Close()
	}
	if err != nil {
		r.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &peerProc{name: name, cmd: cmd, grew: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			close(p.grew)
			p.grew = make(chan struct{})
			p.mu.Unlock()
		}
		p.mu.Lock()
		p.outDone = true
		close(p.grew)
		p.mu.Unlock()
	}()
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// output is what the process wrote so far, for a failure's message.
func (p *peerProc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name + " (" + strings.Join(p.cmd.Args, " ") + ") said:\n" + strings.Join(p.lines, "\n")
}

// waitLine waits for a line of the output, from its start, that contains
// s, and returns the first one.
func (p *peerProc) waitLine(t *testing.T, s string) string {
	t.Helper()
	timeout := time.NewTimer(livenessBound)
	defer timeout.Stop()
	for {
		p.mu.Lock()
		for _, line := range p.lines {
			if strings.Contains(line, s) {
				p.mu.Unlock()
				return line
			}
		}
		done, grew := p.outDone, p.grew
		p.mu.Unlock()
		if done {
			t.Fatalf("%s ended its output without a line containing %q; %s", p.name, s, p.output())
		}
		select {
		case <-grew:
		case <-timeout.C:
			t.Fatalf("no line containing %q from %s within the liveness bound %s; %s", s, p.name, livenessBound, p.output())
		}
	}
}

// signal sends sig to the process.
func (p *peerProc) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %s: %v", p.name, err)
	}
}

// waitExit waits for the process to exit and returns its state.
func (p *peerProc) waitExit(t *testing.T) *os.ProcessState {
	t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState
	case <-time.After(livenessBound):
		t.Fatalf("%s did not exit within the liveness bound %s; %s", p.name, livenessBound, p.output())
		return nil
	}
}

// kill sends SIGKILL to the process and waits for it to exit.
func (p *peerProc) kill(t *testing.T) {
	t.Helper()
	p.signal(t, syscall.SIGKILL)
	if ws, _ := p.waitExit(t).Sys().(syscall.WaitStatus); ws.Signal() != syscall.SIGKILL {
		t.Fatalf("%s exited with %v, not killed by SIGKILL", p.name, p.cmd.ProcessState)
	}
}

// checkNoneLeft registers a cleanup, to run after those registered later
// (the processes' own), that fails t if a live process whose command line
// contains mark (a test's own directory) is still there: whatever a test's
// processes started must end with them.
func checkNoneLeft(t *testing.T, mark string) {
	t.Helper()
	if !proctest.Supported() {
		return
	}
	t.Cleanup(func() {
		left := proctest.Where(func(p proctest.Proc) bool { return p.Live() && strings.Contains(p.Cmdline, mark) })
		for _, p := range left {
			t.Errorf("process %d (%s) was left behind", p.PID, p.Cmdline)
		}
	})
}
