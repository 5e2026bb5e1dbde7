// Package peertest is the one rule of the tests that need a real peer (a
// program from Debian's packages, node and its packages from npm): where
// the peer is missing the test skips, saying how to install it, except
// under CI=true, where it fails, since .ci/run installs every peer.
package peertest

import (
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
