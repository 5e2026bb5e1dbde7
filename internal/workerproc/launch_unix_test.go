//go:build unix

package workerproc

import (
	"os"
	"syscall"
	"testing"
)

// TestLaunchTakeDiscard checks the early worker: Take hands it only to a
// pool that would start the same worker, once; Discard kills and reaps
// one nobody took.
func TestLaunchTakeDiscard(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := Env(nil, DefaultMemoryLimit)
	Launch()
	if Take(exe, Env(nil, 64<<20)) != nil || Take("/bin/true", env) != nil {
		t.Fatal("Take handed the early worker to a pool that starts another")
	}
	p := Take(exe, env)
	if p == nil {
		t.Fatal("Take did not hand the early worker to a pool that starts the same")
	}
	if Take(exe, env) != nil {
		t.Error("Take handed the early worker out twice")
	}
	pid := p.Group.Pid()
	if err := syscall.Kill(pid, 0); err != nil {
		t.Errorf("the early worker is not running: %v", err)
	}
	p.Discard()
	if err := syscall.Kill(pid, 0); err == nil {
		t.Error("Proc.Discard left the worker")
	}

	Launch()
	early.mu.Lock()
	pid = early.p.Group.Pid()
	early.mu.Unlock()
	Discard()
	if err := syscall.Kill(pid, 0); err == nil {
		t.Error("Discard left the early worker")
	}
	Discard() // nothing left: a no-op
}
