package mcp_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/mcp"
)

// openStream opens the standalone SSE stream (GET) of an MCP session at
// url and returns its response once the stream is established (the
// server's first comment line read). ctx bounds the request: a stream
// that never ends fails the test at its deadline instead of hanging it.
func openStream(ctx context.Context, t *testing.T, url, session string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET stream: %s", resp.Status)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, ":") {
		t.Fatalf("the stream's first line %q, %v", line, err)
	}
	return resp
}

// TestEndStreams checks that EndStreams ends the open SSE streams of MCP
// sessions and refuses new ones, so that the HTTP server's Shutdown
// returns without waiting for them, while a request in progress is
// answered.
func TestEndStreams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		sessions int
	}{
		{"one stream", 1},
		{"three sessions' streams", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			ts := httptest.NewServer(s.Handler(mcp.HTTPOptions{}))
			defer ts.Close()
			defer s.Close()
			// Bounds a stream that never ends, or a Shutdown that never
			// returns: what the test waits for are the events.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var ids []string
			var bodies []io.ReadCloser
			for range tc.sessions {
				status, body, id := initSession(t, ts.URL)
				if status != http.StatusOK || id == "" {
					t.Fatalf("initialize: %d %s", status, body)
				}
				ids = append(ids, id)
				resp := openStream(ctx, t, ts.URL, id)
				defer resp.Body.Close()
				bodies = append(bodies, resp.Body)
			}
			s.EndStreams()
			for i, b := range bodies {
				if _, err := io.Copy(io.Discard, b); err != nil {
					t.Errorf("stream %d: %v, want its end", i+1, err)
				}
			}
			req, _ := http.NewRequest("GET", ts.URL, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", ids[0])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("a GET after EndStreams: %s, want 503", resp.Status)
			}
			// The sessions still serve requests.
			if status := pingStatus(t, ts.URL, ids[0]); status != http.StatusOK {
				t.Errorf("ping after EndStreams: %d", status)
			}
			if err := ts.Config.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
		})
	}
}
