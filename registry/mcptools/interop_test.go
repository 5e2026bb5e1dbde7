package mcptools_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/nodetest"
	"github.com/codeexec/codeexec/internal/peertest"
	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/mcptools"
)

// The interoperability test runs a real peer under node:
// @modelcontextprotocol/server-everything as a tool source, over stdio and
// HTTP (the other direction, the TypeScript SDK's client against
// codeexec's server, is tested in package mcp). .ci/run installs the
// pinned packages (.ci/package.json) into .ci/node_modules;
// CODEEXEC_NODE_MODULES names another node_modules directory. Without
// node or the packages the test skips, except under CI=true, where it
// fails.

// shared holds what the interop tests of one test binary share: one
// server-everything over stdio and one over HTTP, registered in one
// registry (namespaces everything and everything_http).
var shared struct {
	once    sync.Once
	reg     *registry.Registry
	clients mcptools.Clients
	http    *procgroup.Group
	err     string
}

// closeShared stops the shared servers; TestMain calls it.
func closeShared() {
	_ = shared.clients.Close()
	if shared.http != nil {
		shared.http.Kill()
		_ = shared.http.Wait()
	}
}

func everything(t *testing.T) *registry.Registry {
	modules := nodetest.MCPModules(t, filepath.Join("..", ".."))
	shared.once.Do(func() {
		main := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
		port, err := peertest.FreePort()
		if err != nil {
			shared.err = err.Error()
			return
		}
		cmd := exec.Command("node", main, "streamableHttp")
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
		if shared.http, err = procgroup.Start(context.Background(), cmd, procgroup.Options{}); err != nil {
			shared.err = err.Error()
			return
		}
		url := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
		// Wait until it listens.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				c.Close()
				break
			}
		}
		shared.reg = registry.New()
		cfg := &mcptools.Config{Servers: map[string]mcptools.ServerConfig{
			"everything":      {Command: "node", Args: []string{main, "stdio"}},
			"everything-http": {URL: url},
		}}
		var warnings []error
		shared.clients, warnings = mcptools.ConnectAll(context.Background(), shared.reg, cfg, mcptools.ClientOptions{StartTimeout: 20 * time.Second})
		for _, w := range warnings {
			if strings.Contains(w.Error(), "skipped") {
				continue // a tool the registry refuses; the three we call are checked below
			}
			shared.err += w.Error() + "\n"
		}
	})
	if shared.err != "" {
		t.Fatalf("server-everything: %s", shared.err)
	}
	return shared.reg
}

// TestInteropEverything calls server-everything's echo, get-sum and
// get-structured-content over stdio and HTTP: two texts and a
// structured result, whose type the signature declares.
func TestInteropEverything(t *testing.T) {
	t.Parallel()
	reg := everything(t)
	for _, ns := range []string{"everything", "everything_http"} {
		t.Run(ns, func(t *testing.T) {
			info, ok := reg.Lookup(ns + ".get-structured-content")
			if !ok {
				t.Fatalf("%s.get-structured-content is not registered", ns)
			}
			if !strings.Contains(info.CallSignature, "Promise<{") {
				t.Errorf("get-structured-content's signature %q does not return its output schema's type", info.CallSignature)
			}
			call := func(name string, params map[string]any) registry.Result {
				t.Helper()
				res, err := reg.CallTool(context.Background(), ns+"."+name, params, registry.CallOptions{})
				if err != nil || res.IsError {
					t.Fatalf("%s: %v %s", name, err, res.Text())
				}
				return res
			}
			if echo := call("echo", map[string]any{"message": "hi"}); !strings.Contains(echo.Text(), "hi") {
				t.Errorf("echo = %q, want it to hold hi", echo.Text())
			}
			if sum := call("get-sum", map[string]any{"a": 2, "b": 3}); !strings.Contains(sum.Text(), "5") {
				t.Errorf("get-sum = %q, want it to hold 5", sum.Text())
			}
			weather := call("get-structured-content", map[string]any{"location": "New York"})
			d, _ := weather.Details.(map[string]any)
			if _, ok := d["temperature"].(float64); !ok {
				t.Errorf("get-structured-content's details = %#v, want an object with a numeric temperature", weather.Details)
			}
		})
	}
}
