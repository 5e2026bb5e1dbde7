//go:build unix

package procgroup

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/codeexec/codeexec/internal/procfs"
)

// setGroup makes cmd the leader of a new process group when it starts.
func setGroup(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	return nil
}

// killGroup sends SIGKILL to every process in the process group pgid. It
// returns os.ErrProcessDone when the group is gone.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// killMarked sends SIGKILL to every process whose environment holds
// marker, found through /proc (where there is none, it does nothing). It
// scans until two scans in a row, a few milliseconds apart, find nothing
// (at most 20 scans): a process may fork while it is being killed, and one
// caught inside execve shows an empty environment for a moment, so a
// single empty scan proves nothing. Only processes this user may read are
// seen, which are the only ones a command run by this user can have
// started.
func killMarked(marker string) {
	needle := []byte(marker + "\x00")
	self := os.Getpid()
	for round, quiet := 0, 0; round < 20 && quiet < 2; round++ {
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
			env, err := procfs.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !bytes.Contains(append(env, 0), needle) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		if killed > 0 {
			quiet = 0
			continue
		}
		if quiet++; quiet < 2 {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// ExitStatus says how the process of ee ended, by the shell's convention:
// its exit code, or 128+N when signal N killed it, and then that signal
// (0 when it exited).
func ExitStatus(ee *exec.ExitError) (code int, sig syscall.Signal) {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), ws.Signal()
	}
	return ee.ExitCode(), 0
}
