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

// exitedNow reports, without blocking or reaping, whether the child pid
// has exited.
var exitedNow = func(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
	// A child that has not exited leaves the siginfo zeroed.
	return err == nil && info.Signo != 0
}
