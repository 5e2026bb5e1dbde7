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
)

// TestMCPHTTPObservability runs `codeexec mcp --http` in process and
// checks its JSON log (the start with the URLs, a refused request, the
// drain and the stop) and its /metrics behind the token.
func TestMCPHTTPObservability(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	interrupts := make(chan os.Signal, 1)
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: pw, interrupts: interrupts}
	done := make(chan int, 1)
	go func() {
		done <- a.main(context.Background(), []string{"mcp", "--http", "127.0.0.1:0", "--token", "t0k", "--isolation", "none", "--no-builtins", "--log-format", "json"})
		pw.Close()
	}()
	// The log is read as it is written: the server writes a line before
	// it answers the request the line is about.
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		line, ok := <-lines
		if !ok {
			t.Fatalf("the log ended (exit %v)", <-done)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line that is not JSON: %s", line)
		}
		return rec
	}
	start := next()
	metricsURL, _ := start["metrics"].(string)
	if start["msg"] != "serving MCP" || start["token"] != true || !strings.HasSuffix(metricsURL, "/metrics") {
		t.Fatalf("first line: %v", start)
	}
	get := func(token string) (int, string) {
		req, _ := http.NewRequest("GET", metricsURL, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, _ := get(""); status != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d", status)
	}
	if rec := next(); rec["msg"] != "refused request" || rec["reason"] != "token_required" || rec["path"] != "/metrics" || rec["level"] != "WARN" {
		t.Errorf("log line of the refusal: %v", rec)
	}
	status, body := get("t0k")
	if status != http.StatusOK || !strings.Contains(body, `codeexec_http_refused_total{reason="token_required"} 1`) || !strings.Contains(body, "codeexec_mcp_sessions 0") {
		t.Errorf("/metrics: %d\n%s", status, body)
	}
	interrupts <- os.Interrupt
	if rec := next(); rec["msg"] != "draining" {
		t.Errorf("after the interrupt: %v", rec)
	}
	if rec := next(); rec["msg"] != "stopped" {
		t.Errorf("at the end: %v", rec)
	}
	if code := <-done; code != 0 {
		t.Errorf("exit code %d", code)
	}
	for line := range lines {
		t.Errorf("logged more: %s", line)
	}
	http.DefaultClient.CloseIdleConnections()
}
