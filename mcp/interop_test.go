package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
)

// The interoperability tests run real peers under node: the official
// TypeScript SDK's client against codeexec's server, and
// @modelcontextprotocol/server-everything as a tool source. .ci/run
// installs the pinned packages (.ci/package.json) into .ci/node_modules;
// CODEEXEC_NODE_MODULES names another node_modules directory. Without
// node or the packages the tests skip, except under CI=true, where they
// fail.

// nodeModules returns the node_modules directory holding the MCP
// packages, or skips (fails under CI) when node or they are missing.
func nodeModules(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CODEEXEC_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", ".ci", "node_modules")
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
		msg := "MCP interop: " + missing + " (run: npm ci --prefix .ci, or set CODEEXEC_NODE_MODULES)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// shared holds what the interop tests of one test binary share: one
// server-everything over stdio and one over HTTP, registered in one
// registry (namespaces everything and everything_http).
var shared struct {
	once    sync.Once
	reg     *registry.Registry
	clients mcp.Clients
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
	modules := nodeModules(t)
	shared.once.Do(func() {
		main := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
		port, err := freePort()
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
		cfg := &mcp.Config{Servers: map[string]mcp.ServerConfig{
			"everything":      {Command: "node", Args: []string{main, "stdio"}},
			"everything-http": {URL: url},
		}}
		var warnings []error
		shared.clients, warnings = mcp.ConnectAll(context.Background(), shared.reg, cfg, mcp.ClientOptions{StartTimeout: 20 * time.Second})
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

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// TestInteropEverything calls server-everything's echo, get-sum and
// get-structured-content over stdio and HTTP: a string, a string and a
// typed object.
func TestInteropEverything(t *testing.T) {
	t.Parallel()
	reg := everything(t)
	for _, ns := range []string{"everything", "everything_http"} {
		info, ok := reg.Lookup(ns + ".get-structured-content")
		if !ok {
			t.Fatalf("%s.get-structured-content is not registered", ns)
		}
		if !strings.Contains(info.CallSignature, "Promise<{") {
			t.Errorf("get-structured-content's signature %q does not return its output schema's type", info.CallSignature)
		}
	}
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, ns := range []string{"everything", "everything_http"} {
		t.Run(ns, func(t *testing.T) {
			src := `
const echo = await NS.echo({ message: "hi" });
const sum = await NS.get_sum({ a: 2, b: 3 });
const weather = await NS.get_structured_content({ location: "New York" });
const raw = await callTool("NS_KEY.get-sum", { a: 1, b: 1 });
return [typeof echo, echo, typeof sum, sum, typeof weather, typeof weather.temperature, raw.isError];`
			src = strings.ReplaceAll(src, "NS_KEY", ns)
			src = strings.ReplaceAll(src, "NS", ns)
			res := r.Run(context.Background(), src, codeexec.RunOptions{})
			if res.Error != nil {
				t.Fatal(res.Error.Report())
			}
			var got []any
			if err := json.Unmarshal(res.Value, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 7 || got[0] != "string" || !strings.Contains(got[1].(string), "hi") ||
				got[2] != "string" || !strings.Contains(got[3].(string), "5") ||
				got[4] != "object" || got[5] != "number" || got[6] != false {
				t.Errorf("got %s", res.Value)
			}
		})
	}
}

// TestInteropTypeScriptClient runs the TypeScript SDK's client against
// codeexec's server over stdio (the test binary serving, as `codeexec mcp`
// does) and HTTP (in this process).
func TestInteropTypeScriptClient(t *testing.T) {
	t.Parallel()
	modules := nodeModules(t)
	var cancelled atomic.Int32
	reg, err := newTestRegistry(&cancelled)
	if err != nil {
		t.Fatal(err)
	}
	runner, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	server := mcp.NewServer(runner, reg, mcp.ServerOptions{})
	srv := httptest.NewServer(server.Handler(mcp.HTTPOptions{Token: "tok"}))
	defer srv.Close()
	// The TypeScript client ends without deleting its HTTP session.
	defer server.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	command, _ := json.Marshal([]string{exe})
	env, _ := json.Marshal(map[string]string{fakeEnv: "serve-code"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("testdata", "ts_client.mjs"))
	cmd.Env = append(os.Environ(), "MODULES="+modules, "STDIO_COMMAND="+string(command), "STDIO_ENV="+string(env),
		"HTTP_URL="+srv.URL, "TOKEN=tok")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ts client: %v\n%s", err, stderr.String())
	}
	var report map[string]struct {
		Tools           []string
		DescribesTwice  bool
		HasOutputSchema bool
		OK              struct {
			IsError bool
			Text    string
			Value   any
		}
		Bad struct {
			IsError bool
			Text    string
			OK      bool
			Line    int
		}
		Session struct {
			Carried    any
			AfterReset any
		}
		Concurrent struct {
			Values []any
			Ms     float64
		}
		Cancel struct {
			Error *string
			Ms    float64
		}
		After    any
		Progress []string
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	for _, transport := range []string{"stdio", "http"} {
		r, ok := report[transport]
		if !ok {
			t.Fatalf("no %s report in %s", transport, out)
		}
		t.Run(transport, func(t *testing.T) {
			if len(r.Tools) != 1 || r.Tools[0] != "code_execution" || !r.DescribesTwice || !r.HasOutputSchema {
				t.Errorf("listed %v (describes twice: %v, output schema: %v)", r.Tools, r.DescribesTwice, r.HasOutputSchema)
			}
			if r.OK.IsError || r.OK.Text != "hi\nReturn value: 42" || r.OK.Value != 42.0 {
				t.Errorf("ok call: %+v", r.OK)
			}
			if !r.Bad.IsError || r.Bad.OK || r.Bad.Line != 2 || !strings.Contains(r.Bad.Text, "Error: boom") {
				t.Errorf("error call: %+v", r.Bad)
			}
			if r.Session.Carried != 42.0 || r.Session.AfterReset != "undefined" {
				t.Errorf("session: %+v, want a declaration carried to the next call (42) and gone after reset", r.Session)
			}
			if len(r.Concurrent.Values) != 3 || r.Concurrent.Ms > 1100 {
				t.Errorf("three 400 ms calls in three sessions: %+v (sequential would take 1200 ms)", r.Concurrent)
			}
			if r.Cancel.Error == nil || r.Cancel.Ms > 5000 {
				t.Errorf("cancellation: %+v", r.Cancel)
			}
			if r.After != 1.0 {
				t.Errorf("call after the cancellation returned %v", r.After)
			}
			if got := strings.Join(r.Progress, "|"); !strings.Contains(got, "stdout: p") || !strings.Contains(got, "twice started") {
				t.Errorf("progress = %q", got)
			}
		})
	}
	// The HTTP cancellation reached the tool call in this process.
	deadline := time.Now().Add(5 * time.Second)
	for cancelled.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if cancelled.Load() != 1 {
		t.Errorf("%d tool calls saw the HTTP cancellation, want 1", cancelled.Load())
	}
}
