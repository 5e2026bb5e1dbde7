//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPApprovalAcrossProcesses runs two `codeexec mcp --http
// --stateless` processes with one state key behind a client, speaking
// protocol 2026-07-28, whose transport sends a call's retry (the request
// that carries a request state) to the second process and every other
// request to the first: the run that pauses for the approval of a write
// in the first process is resumed by the second, which writes the file
// once when approved, and not at all when denied.
func TestMCPApprovalAcrossProcesses(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{true, false} {
		t.Run(map[bool]string{true: "approve", false: "deny"}[allow], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			env := []string{stateKeyEnv + "=a state key that the two replicas share"}
			var hosts []string
			for range 2 {
				cli := startCLIEnv(t, dir, env, "mcp", "--http", "127.0.0.1:0", "--stateless", "--isolation", "none", "--confirm", "write", "--root", dir)
				// The start line: msg="serving MCP" url=http://HOST:PORT/mcp ...
				line := cli.waitStderr(t, "url=http://")
				addr, _, _ := strings.Cut(line[strings.Index(line, "url=http://")+len("url=http://"):], "/mcp")
				hosts = append(hosts, addr)
			}
			// calls[i] are the tools/call requests process i served, each
			// "call" or "retry" (with a request state).
			var mu sync.Mutex
			var calls [2][]string
			client := &http.Client{Transport: roundTripper(func(req *http.Request) (*http.Response, error) {
				var body []byte
				if req.Body != nil {
					var err error
					if body, err = io.ReadAll(req.Body); err != nil {
						return nil, err
					}
					req.Body.Close()
				}
				i, what := 0, ""
				switch {
				case bytes.Contains(body, []byte(`"tools/call"`)) && bytes.Contains(body, []byte(`"requestState"`)):
					i, what = 1, "retry"
				case bytes.Contains(body, []byte(`"tools/call"`)):
					what = "call"
				}
				if what != "" {
					mu.Lock()
					calls[i] = append(calls[i], what)
					mu.Unlock()
				}
				req = req.Clone(req.Context())
				req.Body = io.NopCloser(bytes.NewReader(body))
				u := *req.URL
				u.Host, req.Host = hosts[i], hosts[i]
				req.URL = &u
				return http.DefaultTransport.RoundTrip(req)
			})}
			var asked atomic.Int32
			ctx := context.Background()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					asked.Add(1)
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": allow && strings.Contains(req.Params.Message, "notes.txt")}}, nil
				},
			}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + hosts[0] + "/mcp", HTTPClient: client}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{
				"code": `console.log("before");
try { await write("notes.txt", "approved " + Math.random()); } catch (e: any) { return e.message; }
return (await read("notes.txt")).startsWith("approved")`,
			}})
			if err != nil {
				t.Fatal(err)
			}
			var want any = true
			if !allow {
				want = "Tool call write blocked: denied by the user"
			}
			sc, _ := res.StructuredContent.(map[string]any)
			if sc["value"] != want || sc["stdout"] != "before\n" || asked.Load() != 1 {
				t.Fatalf("value %v, stdout %q, asked %d times; want %v, before, once: %+v", sc["value"], sc["stdout"], asked.Load(), want, sc)
			}
			data, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
			if allow && (err != nil || !strings.HasPrefix(string(data), "approved 0.")) || !allow && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("notes.txt: %q, %v", data, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(calls[0], ",") != "call" || strings.Join(calls[1], ",") != "retry" {
				t.Errorf("process 1 served the calls %q, process 2 %q; want the call, then its retry in the other process", calls[0], calls[1])
			}
		})
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestMCPApprovalOverStdio runs `codeexec mcp --confirm write` over stdio
// for a client that speaks protocol 2026-07-28: its session run waits for
// the answers of input-required results; an approved write runs once, a
// denied one is a ToolError the snippet catches.
func TestMCPApprovalOverStdio(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("codeexec")
	if err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{true, false} {
		t.Run(map[bool]string{true: "approve", false: "deny"}[allow], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var asked atomic.Int32
			ctx := context.Background()
			cmd := exec.Command(bin, "mcp", "--isolation", "none", "--confirm", "write", "--root", dir)
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{
				ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					asked.Add(1)
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": allow}}, nil
				},
			}).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{
				"code": `try { await write("notes.txt", "yes"); return "wrote" } catch (e: any) { return e.message }`,
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := "wrote"
			if !allow {
				want = "Tool call write blocked: denied by the user"
			}
			sc, _ := res.StructuredContent.(map[string]any)
			data, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
			if sc["value"] != want || asked.Load() != 1 || (string(data) == "yes") != allow {
				t.Errorf("value %v, asked %d, notes.txt %q; want %q, 1", sc["value"], asked.Load(), data, want)
			}
		})
	}
}
