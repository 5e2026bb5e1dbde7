//go:build !linux

package procgroup

import "os"

// subreaper reports false: only Linux has child subreapers, so processes
// that leave a group are reparented to init and found by their marker
// alone (where /proc exists).
func subreaper() bool { return false }

// startTime returns 0: nothing here compares start times.
func startTime(int) uint64 { return 0 }

// pipeInodes returns nil: nothing here looks for the holders of a pipe.
func pipeInodes([]*os.File) []uint64 { return nil }

// sweep does nothing: without a subreaper nothing is adopted.
func sweep(*Group) {}
