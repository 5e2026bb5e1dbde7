package redistest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has cmd killed (SIGKILL) if the test process dies before
// it could stop cmd, as when `go test -timeout` panics.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
