//go:build unix

package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPApprovalAcrossProcesses runs two `codeexec mcp --http
// --stateless` processes with one state key behind a client, speaking
// protocol 2026-07-28, whose requests alternate between them: the run
// that pauses for the approval of a write in one process is resumed by
// the other, which writes the file once.
func TestMCPApprovalAcrossProcesses(t *testing.T) {
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
	var turn atomic.Int32
	var served [2]atomic.Int32
	client := &http.Client{Transport: roundTripper(func(req *http.Request) (*http.Response, error) {
		i := int(turn.Add(1)) % 2
		served[i].Add(1)
		req = req.Clone(req.Context())
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
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": strings.Contains(req.Params.Message, "notes.txt")}}, nil
		},
	}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + hosts[0] + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{
		"code": `console.log("before"); await write("notes.txt", "approved " + Math.random()); return (await read("notes.txt")).startsWith("approved")`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["value"] != true || sc["stdout"] != "before\n" || asked.Load() != 1 {
		t.Fatalf("value %v, stdout %q, asked %d times; want true, before, once: %+v", sc["value"], sc["stdout"], asked.Load(), sc)
	}
	data, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if err != nil || !strings.HasPrefix(string(data), "approved 0.") {
		t.Errorf("notes.txt: %q, %v", data, err)
	}
	if served[0].Load() == 0 || served[1].Load() == 0 {
		t.Errorf("requests served %d and %d: both processes must have served", served[0].Load(), served[1].Load())
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
