package mcp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
)

// lineWriter hands each line written to it (a log record) to lines.
type lineWriter struct{ lines chan string }

func (w lineWriter) Write(p []byte) (int, error) {
	for _, l := range strings.SplitAfter(string(p), "\n") {
		if l != "" {
			w.lines <- strings.TrimSuffix(l, "\n")
		}
	}
	return len(p), nil
}

// logVariable are the parts of a log line that change from run to run:
// the time and the client's port.
var logVariable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^time=\S+ `), "time=T "},
	{regexp.MustCompile(`remote=127\.0\.0\.1:\d+`), "remote=127.0.0.1:PORT"},
	{regexp.MustCompile(`duration=\S+`), "duration=D"},
}

func normalizeLog(line string) string {
	for _, v := range logVariable {
		line = v.re.ReplaceAllString(line, v.with)
	}
	return line
}

// TestRefusedRequestLog makes each kind of request the HTTP face refuses
// against the real handler and compares the line it logs with its golden
// line: the reason and the remote address, never the token.
func TestRefusedRequestLog(t *testing.T) {
	t.Parallel()
	lines := make(chan string, 16)
	log := slog.New(slog.NewTextHandler(lineWriter{lines}, nil))
	reg := testRegistry(t)
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s := mcp.NewServer(r, reg, mcp.ServerOptions{Logger: log})
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.Handler(mcp.HTTPOptions{Token: "sekrit"}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	tests := []struct {
		name   string
		header map[string]string
		body   string
		status int
		golden string
	}{
		{"401 token required", nil, init, 401,
			`time=T level=WARN msg="refused request" status=401 reason=token_required remote=127.0.0.1:PORT method=POST path=/mcp`},
		{"401 invalid token", map[string]string{"Authorization": "Bearer not-the-token"}, init, 401,
			`time=T level=WARN msg="refused request" status=401 reason=invalid_token remote=127.0.0.1:PORT method=POST path=/mcp`},
		{"403 host", map[string]string{"Authorization": "Bearer sekrit", "Host": "evil.example:80"}, init, 403,
			`time=T level=WARN msg="refused request" status=403 reason=host remote=127.0.0.1:PORT method=POST path=/mcp host=evil.example:80`},
		{"403 origin", map[string]string{"Authorization": "Bearer sekrit", "Origin": "http://evil.example"}, init, 403,
			`time=T level=WARN msg="refused request" status=403 reason=origin remote=127.0.0.1:PORT method=POST path=/mcp origin=http://evil.example`},
		{"400", map[string]string{"Authorization": "Bearer sekrit"}, `{"jsonrpc":`, 400,
			`time=T level=WARN msg="refused request" status=400 reason=bad_request remote=127.0.0.1:PORT method=POST path=/mcp error="Parse error: the body is not JSON"`},
		{"400 invalid request", map[string]string{"Authorization": "Bearer sekrit"}, `{"jsonrpc":"2.0","id":1}`, 400,
			`time=T level=WARN msg="refused request" status=400 reason=bad_request remote=127.0.0.1:PORT method=POST path=/mcp error="Invalid Request: a request needs a \"method\" (and a response a \"result\" or an \"error\")"`},
		{"413", map[string]string{"Authorization": "Bearer sekrit"}, `[` + strings.Repeat(" ", sdk.DefaultMaxRequestBodyBytes) + `]`, 413,
			`time=T level=WARN msg="refused request" status=413 reason=too_large remote=127.0.0.1:PORT method=POST path=/mcp limit=4194304`},
		{"404 unknown session", map[string]string{"Authorization": "Bearer sekrit", "Mcp-Session-Id": "gone", "Mcp-Protocol-Version": "2025-06-18"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, 404,
			`time=T level=WARN msg="refused request" status=404 reason=unknown_session remote=127.0.0.1:PORT method=POST path=/mcp`},
	}
	for _, tc := range tests {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", ts.URL+"/mcp", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range tc.header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
		// The line is written before the response: it is there now.
		select {
		case line := <-lines:
			if got := normalizeLog(line); got != tc.golden {
				t.Errorf("%s: logged\n%s\nwant\n%s", tc.name, got, tc.golden)
			}
			if strings.Contains(line, "sekrit") || strings.Contains(line, "not-the-token") {
				t.Errorf("%s: the log line holds a token: %s", tc.name, line)
			}
		default:
			t.Errorf("%s: nothing logged", tc.name)
		}
	}
	select {
	case line := <-lines:
		t.Errorf("logged more: %s", line)
	default:
	}
}

// TestRunLog checks the debug line of a run's end.
func TestRunLog(t *testing.T) {
	t.Parallel()
	lines := make(chan string, 16)
	log := slog.New(slog.NewTextHandler(lineWriter{lines}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	reg := testRegistry(t)
	r, err := codeexec.New(reg, codeexec.Options{Limits: codeexec.Limits{Timeout: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s := mcp.NewServer(r, reg, mcp.ServerOptions{Logger: log, NoSessions: true})
	cs := connect(t, s, nil)
	if _, err := callCode(context.Background(), cs, `await twice(1); return await twice(2)`); err != nil {
		t.Fatal(err)
	}
	if _, err := callCode(context.Background(), cs, `while (true) {}`); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`time=T level=DEBUG msg="run ended" run=1 outcome=ok duration=D tool_calls=2`,
		`time=T level=DEBUG msg="run ended" run=2 outcome=limit duration=D tool_calls=0 limit=timeout error_kind=limit`,
	}
	for _, w := range want {
		if got := normalizeLog(<-lines); got != w {
			t.Errorf("logged\n%s\nwant\n%s", got, w)
		}
	}
}
