package proctest

import (
	"os"
	"syscall"
)

// WriteExecutable writes an executable file (mode 0755) that this process
// may start at once. It holds syscall.ForkLock for reading while the file is
// open for writing, so that no process forked meanwhile by another goroutine
// inherits the write descriptor: a child holding it between its fork and its
// exec would make starting the file fail with ETXTBSY ("text file busy"),
// which parallel tests that fork all the time hit on a loaded machine
// (golang/go#22315). Errors are those of os.WriteFile.
func WriteExecutable(path string, content []byte) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return os.WriteFile(path, content, 0o755)
}
