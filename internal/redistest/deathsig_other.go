//go:build !linux

package redistest

import "os/exec"

// dieWithParent does nothing where no parent-death signal exists.
func dieWithParent(*exec.Cmd) {}
