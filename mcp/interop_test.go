package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/nodetest"
	"github.com/codeexec/codeexec/mcp"
)

// The interoperability test runs a real peer under node: the official
// TypeScript SDK's client against codeexec's server (the other direction,
// @modelcontextprotocol/server-everything as a tool source, is tested in
// registry/mcptools). .ci/run installs the pinned packages
// (.ci/package.json) into .ci/node_modules; CODEEXEC_NODE_MODULES names
// another node_modules directory. Without node or the packages the test
// skips, except under CI=true, where it fails.

// TestInteropTypeScriptClient runs the TypeScript SDK's client against
// codeexec's server over stdio (the test binary serving, as `codeexec mcp`
// does) and HTTP (in this process).
func TestInteropTypeScriptClient(t *testing.T) {
	t.Parallel()
	modules := nodetest.MCPModules(t, "..")
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
	env, _ := json.Marshal(map[string]string{serveEnv: "serve-code"})
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
		After     any
		Approved  any
		Questions []string
		Progress  []string
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
			if r.Approved != "done" || len(r.Questions) != 1 || r.Questions[0] != "allow guarded?" {
				t.Errorf("a call approved through elicitation: value %v, questions %q", r.Approved, r.Questions)
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
