package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMCPHTTPShutdownEndsStreams runs `codeexec mcp --http` in process,
// opens MCP sessions with their SSE streams (GET) and interrupts it: the
// streams end, the log goes from "draining" to "stopped" with nothing
// between (no requests cut off at the shutdown's deadline) and the
// command exits 0.
func TestMCPHTTPShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		sessions int
	}{
		{"one session", 1},
		{"three sessions", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pr, pw := io.Pipe()
			interrupts := make(chan os.Signal, 1)
			a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: pw, interrupts: interrupts}
			done := make(chan int, 1)
			go func() {
				done <- a.main(context.Background(), []string{"mcp", "--http", "127.0.0.1:0", "--isolation", "none", "--no-builtins", "--log-format", "json"})
				pw.Close()
			}()
			lines := make(chan map[string]any, 64)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(pr)
				for sc.Scan() {
					var rec map[string]any
					if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
						rec = map[string]any{"msg": "not JSON: " + sc.Text()}
					}
					lines <- rec
				}
			}()
			start := <-lines
			url, _ := start["url"].(string)
			if start["msg"] != "serving MCP" || url == "" {
				t.Fatalf("first line: %v (exit %v)", start, <-done)
			}
			// Bounds a stream that is never ended: the test waits for
			// the events, not for this.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			var streams []io.ReadCloser
			for range tc.sessions {
				session := mcpPost(ctx, t, client, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
				mcpPost(ctx, t, client, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
				req.Header.Set("Accept", "text/event-stream")
				req.Header.Set("Mcp-Session-Id", session)
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				// The server writes a comment as the stream opens.
				if line, err := bufio.NewReader(resp.Body).ReadString('\n'); resp.StatusCode != http.StatusOK || !strings.HasPrefix(line, ":") {
					t.Fatalf("GET stream: %s, first line %q, %v", resp.Status, line, err)
				}
				streams = append(streams, resp.Body)
			}
			interrupts <- os.Interrupt
			for i, s := range streams {
				if _, err := io.Copy(io.Discard, s); err != nil {
					t.Errorf("stream %d: %v, want its end", i+1, err)
				}
			}
			if code := <-done; code != 0 {
				t.Errorf("exit code %d", code)
			}
			var msgs []string
			for rec := range lines {
				msgs = append(msgs, rec["msg"].(string))
			}
			if got := strings.Join(msgs, " | "); got != "draining | stopped" {
				t.Errorf("logged after the start: %s\nwant: draining | stopped", got)
			}
		})
	}
}

// mcpPost sends an MCP message to url in session (none when "") and returns
// the session id of the response.
func mcpPost(ctx context.Context, t *testing.T, client *http.Client, url, session, body string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("POST %.40s...: %s %v", body, resp.Status, err)
	}
	return resp.Header.Get("Mcp-Session-Id")
}
