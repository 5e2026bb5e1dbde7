package procgroup

import "golang.org/x/sys/unix"

// waitWithoutReaping blocks until the child pid has exited, without
// reaping it: its pid, and so its process group id, stay reserved until
// exec.Cmd.Wait.
var waitWithoutReaping = func(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}
