// Package peertest is the one rule of the tests that need a real peer (a
// program from Debian's packages, node and its packages from npm): where
// the peer is missing the test skips, saying how to install it, except
// under CI=true, where it fails, since .ci/run installs every peer. It
// also picks the loopback port a peer is told to listen on (FreePort),
// for the tests and the bench harnesses that start one.
package peertest

import (
	"net"
	"os"
	"os/exec"
	"testing"
)

// Missing reports to t that a peer it needs is missing, why saying which
// and how to install it: it skips t, or fails it under CI=true.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, under CI=true (.ci/run installs it)", why)
	}
	t.Skipf("%s; under CI=true this test fails instead", why)
}

// Program returns the path of the program name, from Debian's package
// pkg, or reports it Missing.
func Program(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not installed (apt-get install "+pkg+")")
	}
	return path
}

// FreePort returns a loopback TCP port that was free a moment ago, for a
// process to be told to listen on: another may take it in between, so a
// caller that must not fail starts the process again on another port.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
