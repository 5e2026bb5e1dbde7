//go:build unix && !aix

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPDrain runs `codeexec mcp --http` as a real process, starts a call
// whose snippet waits in a tool (bash reading a FIFO the test holds), and
// sends SIGTERM. With a long grace, /readyz turns to "not ready: draining"
// while /healthz stays "ok", a new request gets 503 with Retry-After and a
// JSON-RPC error naming the drain, and the call in progress ends well once
// the test lets it; with a short one that the call outlasts, the call is
// cancelled when the grace is over. Either way the call gets its answer
// and the process exits 0, having said so in its log.
func TestMCPDrain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		isolation string
		grace     string
		// release: the test checks the endpoints while the server drains,
		// then lets the tool end, well within the grace.
		release bool
		log     string // what the log says between the drain and the stop
	}{
		{"the call ends within the grace", "process", "10m", true, ""},
		{"the grace ends first", "none", "2s", false, `msg="drain grace over: cancelling the runs in progress" requests=1 runs=1 grace=2s`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			gate := filepath.Join(dir, "gate")
			if err := syscall.Mkfifo(gate, 0o600); err != nil {
				t.Fatal(err)
			}
			cli := startCLI(t, dir, "mcp", "--http", "127.0.0.1:0", "--isolation", tc.isolation, "--root", dir,
				"--timeout", "10m", "--drain-grace", tc.grace)
			line := cli.waitStderr(t, "url=http://")
			addr, _, _ := strings.Cut(line[strings.Index(line, "url=http://")+len("url=http://"):], "/mcp")
			base := "http://" + addr
			if !strings.Contains(line, "drain_grace="+tc.grace) {
				t.Errorf("the start line does not state the grace: %s", line)
			}

			// A session whose call waits in bash until the FIFO is opened
			// for writing; its tool's start is the event that it is in
			// progress.
			ctx := context.Background()
			started := make(chan struct{}, 16)
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
					if strings.HasSuffix(req.Params.Message, "bash started") {
						started <- struct{}{}
					}
				},
			}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			type outcome struct {
				res *sdk.CallToolResult
				err error
			}
			called := make(chan outcome, 1)
			go func() {
				params := &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{
					"code": `return await bash("cat gate", { timeoutSeconds: 600 })`,
				}}
				params.SetProgressToken("drain")
				res, err := cs.CallTool(ctx, params)
				called <- outcome{res, err}
			}()
			select {
			case <-started:
			case out := <-called:
				t.Fatalf("the call ended before its tool started: %v %+v", out.err, out.res)
			case <-time.After(livenessBound):
				t.Fatal("the call's tool did not start")
			}
			if status, body := httpGet(t, base+"/readyz"); status != http.StatusOK || body != "ok\n" {
				t.Errorf("/readyz before the signal: %d %q", status, body)
			}

			if err := cli.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			// The line counts what is in flight at the signal: the one run,
			// and sessions and requests, which count the client's own
			// traffic too (its initialized notification, seen there once in
			// ten runs): only the run's count is certain.
			if line := cli.waitStderr(t, "msg=draining sessions="); !strings.Contains(line, " runs=1 grace="+tc.grace) {
				t.Errorf("the drain's line: %s, want runs=1 grace=%s", line, tc.grace)
			}

			if tc.release {
				if status, body := httpGet(t, base+"/readyz"); status != http.StatusServiceUnavailable || body != "not ready: draining\n" {
					t.Errorf("/readyz while draining: %d %q, want 503 not ready: draining", status, body)
				}
				if status, body := httpGet(t, base+"/healthz"); status != http.StatusOK || body != "ok\n" {
					t.Errorf("/healthz while draining: %d %q, want 200 ok", status, body)
				}
				// A new client's first request is refused, retryably.
				req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var rpc struct {
					ID    any `json:"id"`
					Error struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				_ = json.Unmarshal(b, &rpc)
				if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || rpc.ID != 1.0 || rpc.Error.Code != -32000 || !strings.HasPrefix(rpc.Error.Message, "Server draining: ") {
					t.Errorf("a new request while draining: %d, Retry-After %q: %s\nwant 503, 1, a JSON-RPC error -32000 for id 1 saying Server draining", resp.StatusCode, resp.Header.Get("Retry-After"), b)
				}
				cli.waitStderr(t, `msg="refused request" status=503 reason=draining`)

				f, err := os.OpenFile(gate, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				_, err = f.WriteString("released\n")
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
			} else {
				cli.waitStderr(t, tc.log)
			}
			var out outcome
			select {
			case out = <-called:
			case <-time.After(livenessBound):
				t.Fatal("the call in progress got no answer")
			}
			if out.err != nil {
				t.Fatalf("the call in progress: %v", out.err)
			}
			sc, _ := out.res.StructuredContent.(map[string]any)
			if tc.release {
				if out.res.IsError || !strings.Contains(jsonText(sc["value"]), "released") {
					t.Errorf("the call in progress did not end well: %+v", sc)
				}
			} else {
				errObj, _ := sc["error"].(map[string]any)
				if !out.res.IsError || errObj["name"] != "CanceledError" {
					t.Errorf("the call past the grace was not cancelled: %+v", sc)
				}
			}
			cs.Close()
			cli.wait(t) // exit 0
			logged := strings.Join(cli.stderr, "\n")
			if !strings.Contains(logged, "msg=stopped") || strings.Contains(logged, "cut off") || strings.Contains(logged, "exiting without waiting") {
				t.Errorf("the log of the stop:\n%s", logged)
			}
		})
	}
}

// httpGet gets url and returns the status and body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// jsonText is v as JSON text.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
