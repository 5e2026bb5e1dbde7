// Package procfs reads the files of /proc. Its reads are system calls of
// its own, not the os package's: a /proc file says its size is 0, so
// os.ReadFile's stat buys nothing, and the os package records each file
// a test opens in the test log, which `go test` examines path by path
// when it caches the result. The process-table scans of procgroup and of
// the tests that check no process is left read thousands of files, which
// cost the go command 12 s of CPU over the suite.
package procfs
