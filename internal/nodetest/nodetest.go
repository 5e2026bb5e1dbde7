// Package nodetest finds node for the tests that compare codeexec's output
// with Node.js's on a corpus. Such a comparison starts node for hundreds
// of cases and takes seconds, more than a contributor should wait for
// before every commit, so it runs under `make test-node` (which sets
// EnvVar, and which CI runs too) and is skipped by a plain `make test`.
package nodetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/codeexec/codeexec/internal/peertest"
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
		peertest.Missing(t, fmt.Sprintf("a comparison with node: %v", err))
	}
	return node
}

// ModulesEnv names a node_modules directory that holds the MCP packages
// of the interoperability tests, in place of .ci/node_modules.
const ModulesEnv = "CODEEXEC_NODE_MODULES"

// MCPModules returns the absolute path of the node_modules directory that
// holds the MCP packages the interoperability tests run under node
// (installed by `npm ci --prefix .ci`): $CODEEXEC_NODE_MODULES, else
// .ci/node_modules under root, the module's root relative to the test's
// package. It skips t when node or a package is missing, except under
// CI (CI=true), where it fails. It skips t under -short (make test): each
// test starts node and the SDK, seconds of CPU in all; `make interop`,
// which CI runs, runs the packages that call it (mcp, registry/mcptools,
// cmd/codeexec: a new caller's package goes there too).
func MCPModules(t testing.TB, root string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("MCP interop with node: -short leaves it to `make interop`")
	}
	dir := os.Getenv(ModulesEnv)
	if dir == "" {
		dir = filepath.Join(root, ".ci", "node_modules")
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else {
		for _, pkg := range []string{"@modelcontextprotocol/sdk", "@modelcontextprotocol/server-everything"} {
			if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
				missing = pkg + " is not in " + dir
				break
			}
		}
	}
	if missing != "" {
		peertest.Missing(t, "MCP interop: "+missing+" (run: npm ci --prefix .ci, or set "+ModulesEnv+")")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
