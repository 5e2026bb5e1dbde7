package main

import (
	"os/exec"
	"syscall"
)

// dieWithTest has cmd killed (SIGKILL) if the test process dies before
// it could stop cmd, as when `go test -timeout` panics: cleanups do not
// run then.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
