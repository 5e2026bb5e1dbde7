package proctest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestListFindsThisProcessAndAChild(t *testing.T) {
	if !Supported() {
		t.Skip("no /proc")
	}
	self := Where(func(p Proc) bool { return p.PID == os.Getpid() })
	if len(self) != 1 || self[0].PPID != os.Getppid() || !self[0].Live() || self[0].Cmdline == "" {
		t.Fatalf("this process: %+v", self)
	}
	cmd := exec.Command("sh", "-c", "sleep 30", "proctest-marker") // the marker is $0
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// Between fork and exec the child still shows this process's command
	// line, so wait for the exec.
	var kids []Proc
	for deadline := time.Now().Add(5 * time.Second); len(kids) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		kids = Where(func(p Proc) bool { return p.PPID == os.Getpid() && strings.Contains(p.Cmdline, "proctest-marker") })
	}
	if len(kids) != 1 || kids[0].PID != cmd.Process.Pid || kids[0].Cmdline != "sh -c sleep 30 proctest-marker" {
		t.Fatalf("child: %+v", kids)
	}
}
