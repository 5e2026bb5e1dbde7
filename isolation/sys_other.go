//go:build !linux

package isolation

import (
	"errors"
	"os"
)

// supported reports whether process isolation works on this system: it
// needs Linux (RLIMIT_AS accounting, waitid without reaping).
const supported = false

func limitMemory(int64) error {
	return errors.New("process isolation is only supported on Linux")
}

func inheritedPipe(int, string) *os.File { return nil }

// spinReader reads a pipe; it polls only on Linux (see spin.go).
type spinReader struct {
	f    *os.File
	spin func() bool
}

func (s *spinReader) kick() {}

func (s *spinReader) Read(p []byte) (int, error) { return s.f.Read(p) }
