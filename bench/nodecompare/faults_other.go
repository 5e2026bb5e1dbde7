//go:build !unix

package main

import "os"

// minorFaults reports that this system gives no page faults of a process.
func minorFaults(*os.ProcessState) (float64, bool) { return 0, false }
