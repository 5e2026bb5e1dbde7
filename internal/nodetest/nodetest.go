// Package nodetest finds node for the tests that compare codeexec's output
// with Node.js's on a corpus. Such a comparison starts node for hundreds
// of cases and takes seconds, more than a contributor should wait for
// before every commit, so it runs under `make test-node` (which sets
// EnvVar, and which CI runs too) and is skipped by a plain `make test`.
package nodetest

import (
	"os"
	"os/exec"
	"testing"
)

// EnvVar, set to 1, turns the comparisons with node on.
const EnvVar = "CODEEXEC_TEST_NODE"

// Path returns the path of node for a comparison test. It skips t unless
// EnvVar is 1, and then also when node is not on PATH, except under CI
// (CI=true), where a comparison that cannot run fails.
func Path(t testing.TB) string {
	t.Helper()
	if os.Getenv(EnvVar) != "1" {
		t.Skip("a comparison with node: run it with `make test-node` (" + EnvVar + "=1)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("a comparison with node under CI: %v", err)
		}
		t.Skipf("a comparison with node: %v", err)
	}
	return node
}
