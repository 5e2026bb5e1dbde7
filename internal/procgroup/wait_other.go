//go:build !linux

package procgroup

// waitWithoutReaping is nil: this system has no portable way to wait for a
// child's exit without reaping it, so the leader is reaped when it exits.
var waitWithoutReaping func(pid int)

// exitedNow is nil: Exited's channel says it, as soon as the leader is
// reaped.
var exitedNow func(pid int) bool
