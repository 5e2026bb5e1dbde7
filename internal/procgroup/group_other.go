//go:build !unix

package procgroup

import (
	"os/exec"
	"runtime"
	"syscall"
)

// setGroup refuses: this system has no process groups to kill.
func setGroup(*exec.Cmd) error { return unsupportedError(runtime.GOOS) }

// killGroup refuses: this system has no process groups to kill. Start
// never returns a Group here, so nothing calls it.
func killGroup(int) error { return unsupportedError(runtime.GOOS) }

// killMarked finds nothing: processes are never marked where Start
// refuses.
func killMarked(string) {}

// ExitStatus says how the process of ee ended: its exit code, and 0, since
// this system has no signals that kill a process.
func ExitStatus(ee *exec.ExitError) (code int, sig syscall.Signal) {
	return ee.ExitCode(), 0
}
