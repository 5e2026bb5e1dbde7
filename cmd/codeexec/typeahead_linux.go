package main

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// dropTypeahead discards the input that waits unread in tty, a terminal
// that the first question has just opened, and reports whether it held a
// whole line. A tty that is not a file (a test's pipe) is left as it is.
// It goes through SyscallConn, not Fd, which would make the file blocking
// and keep close from ending the reader.
func dropTypeahead(tty any) bool {
	sc, ok := tty.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	lines := 0
	_ = raw.Control(func(fd uintptr) {
		// In canonical mode, TIOCINQ counts the bytes of whole lines.
		lines, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
		_ = unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIFLUSH)
	})
	return lines > 0
}
