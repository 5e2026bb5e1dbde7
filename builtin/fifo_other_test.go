//go:build !unix

package builtin

import "errors"

// mkfifo fails: this system has no FIFOs in its file system.
func mkfifo(string) error { return errors.ErrUnsupported }
