package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/meettest"
)

// testRegistry has two tools: twice (doubles n, reporting one update) and
// wait (blocks until its context is done or ms milliseconds passed).
func testRegistry(t testing.TB) *registry.Registry {
	reg, err := newTestRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// newTestRegistry is testRegistry for TestMain; cancelled, when set,
// counts the waits whose context ended first.
func newTestRegistry(cancelled *atomic.Int32) (*registry.Registry, error) {
	reg := registry.New()
	for _, tool := range []registry.Tool{{
		Name: "twice", Description: "Doubles n.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`),
		CallSignature: "async function twice(n: number): Promise<number>",
		Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
			c.Update(registry.TextResult("halfway"))
			return registry.Result{Details: c.Params["n"].(float64) * 2}, nil
		},
	}, {
		Name: "wait", Description: "Waits ms milliseconds.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"ms":{"type":"number"}},"required":["ms"]}`),
		CallSignature: "async function wait(ms: number): Promise<string>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			select {
			case <-ctx.Done():
				if cancelled != nil {
					cancelled.Add(1)
				}
				return registry.Result{}, ctx.Err()
			case <-time.After(time.Duration(c.Params["ms"].(float64)) * time.Millisecond):
				return registry.TextResult("waited"), nil
			}
		},
	}, {
		Name: "guarded", Description: "Needs the client's approval.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function guarded(): Promise<string>",
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.TextResult("done"), nil
		},
	}} {
		if err := reg.Register(tool); err != nil {
			return nil, err
		}
	}
	// guarded asks the MCP client first, as codeexec mcp --confirm does.
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if ev.Name != "guarded" {
			return ""
		}
		ok, err := mcp.Confirm(ctx, "allow guarded?")
		switch {
		case errors.Is(err, mcp.ErrPause):
			return registry.Ask
		case err != nil:
			return err.Error()
		case !ok:
			return "denied by the user"
		}
		return ""
	})
	return reg, nil
}

func newServer(t *testing.T) *mcp.Server {
	t.Helper()
	reg := testRegistry(t)
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return mcp.NewServer(r, reg, mcp.ServerOptions{})
}

// connect serves s in memory and returns a connected client session;
// onProgress, when set, receives the progress notifications.
func connect(t *testing.T, s *mcp.Server, onProgress func(*sdk.ProgressNotificationParams)) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ct, st := sdk.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- s.ServeTransport(ctx, st) }()
	opts := &sdk.ClientOptions{}
	if onProgress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			onProgress(req.Params)
		}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-served
	})
	return cs
}

func callCode(ctx context.Context, cs *sdk.ClientSession, code string) (*sdk.CallToolResult, error) {
	return cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": code}})
}

func text(r *sdk.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestServerStatesLimits checks that code_execution's description states
// the limits of the runner that serves it.
func TestServerStatesLimits(t *testing.T) {
	t.Parallel()
	reg := testRegistry(t)
	r, err := codeexec.New(reg, codeexec.Options{Limits: codeexec.Limits{Timeout: 45 * time.Second, MaxCalls: 12, MaxOutputBytes: 2 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	cs := connect(t, mcp.NewServer(r, reg, mcp.ServerOptions{}), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "\n" + promptgen.LimitsNote(promptgen.Limits{Timeout: 45 * time.Second, MaxCalls: 12, MaxOutputBytes: 2 << 20}) + "\n"
	if !strings.Contains(res.Tools[0].Description, want) || !strings.Contains(want, "45 s") {
		t.Errorf("description lacks %q:\n%s", want, res.Tools[0].Description)
	}
}

func TestServerListsCodeExecution(t *testing.T) {
	t.Parallel()
	cs := connect(t, newServer(t), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "code_execution" {
		t.Fatalf("tools = %+v, want code_execution alone", res.Tools)
	}
	tool := res.Tools[0]
	for _, want := range []string{"async function twice(n: number): Promise<number>", "// Doubles n.", "```ts"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("description lacks %q:\n%s", want, tool.Description)
		}
	}
	in, _ := json.Marshal(tool.InputSchema)
	if !strings.Contains(string(in), `"required":["code"]`) {
		t.Errorf("input schema = %s, want code required", in)
	}
	if tool.OutputSchema == nil {
		t.Error("no output schema")
	}
}

func TestServerCall(t *testing.T) {
	t.Parallel()
	cs := connect(t, newServer(t), nil)
	tests := []struct {
		name, code string
		isError    bool
		text       string
		structured map[string]any // fields of structuredContent that must match
	}{
		{"value", `console.log("hi"); return await twice(21)`, false, "hi\nReturn value: 42",
			map[string]any{"ok": true, "value": 42.0, "stdout": "hi\n"}},
		{"throw", "const x = 1;\nthrow new Error(\"boom\")", true, "Error: boom",
			map[string]any{"ok": false}},
		{"compile", `let = ;`, true, "snippet.ts:1:7: error: Unexpected", map[string]any{"ok": false}},
		{"no output", `1`, false, "(no output)", map[string]any{"ok": true, "value": nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := callCode(context.Background(), cs, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError {
				t.Errorf("isError = %v, want %v (%s)", res.IsError, tc.isError, text(res))
			}
			if !strings.Contains(text(res), tc.text) {
				t.Errorf("text = %q, want it to contain %q", text(res), tc.text)
			}
			sc, ok := res.StructuredContent.(map[string]any)
			if !ok {
				t.Fatalf("structuredContent = %#v, want an object", res.StructuredContent)
			}
			for k, want := range tc.structured {
				if got := sc[k]; got != want {
					t.Errorf("structuredContent.%s = %#v, want %#v", k, got, want)
				}
			}
		})
	}
}

func TestServerProgress(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var msgs []string
	cs := connect(t, newServer(t), func(p *sdk.ProgressNotificationParams) {
		mu.Lock()
		msgs = append(msgs, p.Message)
		mu.Unlock()
	})
	params := &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": `console.log("a"); await twice(1)`}}
	params.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	// Notifications may trail the response a little.
	want := []string{"stdout: a\n", "call_1: twice started", "call_1: twice: halfway", "call_1: twice done in"}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(msgs, "|")
		mu.Unlock()
		missing := ""
		for _, w := range want {
			if !strings.Contains(got, w) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress messages %q lack %q", got, missing)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServerConcurrentAndCancel(t *testing.T) {
	t.Parallel()
	// Without sessions, the calls of one client run concurrently: each of
	// three calls of meet waits until all three have started, which calls
	// that ran one after another could not do before their (liveness)
	// timeout.
	reg := testRegistry(t)
	if err := reg.Register(meettest.Tool(3)); err != nil {
		t.Fatal(err)
	}
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	cs := connect(t, mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: true}), nil)
	var wg sync.WaitGroup
	errs := make(chan string, 3)
	for range 3 {
		wg.Go(func() {
			res, err := callCode(context.Background(), cs, `return await meet()`)
			if err != nil || res.IsError || !strings.Contains(text(res), "met") {
				errs <- fmt.Sprintf("a concurrent call failed (did the calls run one after another?): %v %v", text(res), err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	if _, err := callCode(ctx, cs, `return await wait(60000)`); err == nil {
		t.Error("a cancelled call returned no error")
	}
	// A liveness bound, well under the minute the call would wait.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("cancellation took %s", d)
	}
	// The session is still usable.
	if res, err := callCode(context.Background(), cs, `return 1`); err != nil || res.IsError {
		t.Errorf("call after a cancellation: %v", err)
	}
}

func TestServerHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ts := httptest.NewServer(s.Handler(mcp.HTTPOptions{Token: "sekrit"}))
	t.Cleanup(ts.Close)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	tests := []struct {
		name    string
		header  map[string]string
		body    string
		status  int
		contain string
	}{
		{"no token", nil, init, http.StatusUnauthorized, "Unauthorized: token required"},
		{"another scheme", map[string]string{"Authorization": "Basic c2Vrcml0"}, init, http.StatusUnauthorized, "Unauthorized: token required"},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, init, http.StatusUnauthorized, "Unauthorized: invalid token"},
		{"scheme in lower case", map[string]string{"Authorization": "bearer sekrit"}, init, http.StatusOK, `"serverInfo"`},
		{"rebinding host", map[string]string{"Authorization": "Bearer sekrit", "Host": "evil.example:80"}, init, http.StatusForbidden, "host"},
		{"foreign origin", map[string]string{"Authorization": "Bearer sekrit", "Origin": "http://evil.example"}, init, http.StatusForbidden, "origin"},
		{"bad json", map[string]string{"Authorization": "Bearer sekrit"}, `{"jsonrpc":`, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not JSON"}}`},
		{"not initialized", map[string]string{"Authorization": "Bearer sekrit"}, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, http.StatusOK, `"error":{"code":0,"message":"method \"tools/list\" is invalid during session initialization"}`},
		{"ok", map[string]string{"Authorization": "Bearer sekrit", "Origin": "http://localhost:3000"}, init, http.StatusOK, `"serverInfo"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(tc.body))
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
			defer resp.Body.Close()
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				t.Cleanup(func() { deleteSession(t, ts.URL, id, tc.header) })
			}
			var b strings.Builder
			buf := make([]byte, 4096)
			n, _ := resp.Body.Read(buf)
			b.Write(buf[:n])
			if resp.StatusCode != tc.status || !strings.Contains(b.String(), tc.contain) {
				t.Errorf("status %d body %q, want %d containing %q", resp.StatusCode, b.String(), tc.status, tc.contain)
			}
			// RFC 6750: a challenge on every 401, with an error code only
			// for a token that was sent.
			want := ""
			switch {
			case tc.status != http.StatusUnauthorized:
			case strings.Contains(tc.contain, "invalid"):
				want = `Bearer realm="codeexec", error="invalid_token", error_description="the token is not this server's"`
			default:
				want = `Bearer realm="codeexec"`
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != want {
				t.Errorf("WWW-Authenticate %q, want %q", got, want)
			}
		})
	}

	// A real client over HTTP.
	client := &http.Client{Transport: bearer{"sekrit"}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := callCode(context.Background(), cs, `return await twice(2)`)
	if err != nil || res.IsError || text(res) != "Return value: 4" {
		t.Fatalf("call over HTTP: %v %q", err, text(res))
	}
}

// deleteSession ends the MCP session id of the HTTP server at url.
func deleteSession(t *testing.T, url, id string, header map[string]string) {
	req, _ := http.NewRequest("DELETE", url, nil)
	req.Header.Set("Mcp-Session-Id", id)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	resp.Body.Close()
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestIsLoopback(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:1": true, "[::1]:9": true,
		":8080": false, "0.0.0.0:80": false, "10.0.0.1:80": false, "nonsense": false,
	} {
		if got := mcp.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestServerSessions checks that each MCP session is one codeexec session:
// a declaration carries to the next call of the same session, reset starts
// it afresh, another session does not see it, and the calls of one session
// run in turn.
func TestServerSessions(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	a, b := connect(t, s, nil), connect(t, s, nil)
	ctx := context.Background()
	value := func(cs *sdk.ClientSession, args map[string]any) any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("call %v: %v %s", args, err, text(res))
		}
		return res.StructuredContent.(map[string]any)["value"]
	}
	value(a, map[string]any{"code": "const n = 20"})
	if got := value(a, map[string]any{"code": "return n + 1"}); got != 21.0 {
		t.Errorf("the next call of the session: %v, want 21", got)
	}
	if got := value(b, map[string]any{"code": "return typeof n"}); got != "undefined" {
		t.Errorf("another session sees %v, want undefined", got)
	}
	// Two calls at once in one session run in turn, each seeing the other's
	// effect in order: the counter ends at 2 whichever ran first.
	value(a, map[string]any{"code": "globalThis.count = 0"})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { value(a, map[string]any{"code": "const c = count; await wait(50); count = c + 1"}) })
	}
	wg.Wait()
	if got := value(a, map[string]any{"code": "return count"}); got != 2.0 {
		t.Errorf("count after two calls = %v, want 2 (the calls of a session run in turn)", got)
	}
	if got := value(a, map[string]any{"code": "return typeof n", "reset": true}); got != "undefined" {
		t.Errorf("after reset: %v, want undefined", got)
	}
}

// TestServerBadArguments checks that a code_execution call with wrong
// arguments gets an error result that says what is wrong in JSON's words.
func TestServerBadArguments(t *testing.T) {
	t.Parallel()
	cs := connect(t, newServer(t), nil)
	const takes = `code_execution takes {"code": string}: `
	tests := []struct {
		args any
		want string
	}{
		{map[string]any{"code": 1}, takes + `"code" must be a string, got a JSON number`},
		{map[string]any{"code": nil}, takes + `"code" must be a string, got null`},
		{map[string]any{}, takes + `"code" is missing`},
		{map[string]any{"source": "1"}, takes + `"code" is missing`},
		{map[string]any{"code": "return 1", "reset": "yes"}, takes + `"reset" must be a boolean, got a JSON string`},
		{[]any{1}, takes + `the arguments are a JSON array, not an object`},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "code_execution", Arguments: tt.args})
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if !res.IsError || text(res) != tt.want {
			t.Errorf("%v: %q (isError %v), want %q", tt.args, text(res), res.IsError, tt.want)
		}
	}
}

// TestServerHTTPMalformed checks that malformed JSON-RPC gets a JSON-RPC
// error response (parse error or invalid request, with the message's id
// when it has a valid one) whose message names no Go type.
func TestServerHTTPMalformed(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(newServer(t).Handler(mcp.HTTPOptions{}))
	t.Cleanup(ts.Close)
	tests := []struct {
		name, body, protocol, want string
	}{
		{"not JSON", `{"jsonrpc":`, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not JSON"}}`},
		{"empty batch", `[]`, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}`},
		{"batch of numbers", `[1,2]`, "", `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message 1 of the batch: a message must be a JSON object, not a number"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message 2 of the batch: a message must be a JSON object, not a number"}}]`},
		{"batch with one bad message", `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":7}]`, "", `[{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: message 1 was not run, as the batch holds an invalid message"}},{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: message 3 of the batch: a request needs a \"method\" (and a response a \"result\" or an \"error\")"}}]`},
		{"batch in a later protocol", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "2025-06-18", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: protocol 2025-06-18 has no batches (they ended with 2025-06-18)"}}`},
		{"no method", `{"jsonrpc":"2.0","id":1}`, "", `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: a request needs a \"method\" (and a response a \"result\" or an \"error\")"}}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or a number, not an object"}}`},
		{"string", `"hello"`, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object, not a string"}}`},
		{"no version", `{"id":"x","method":"ping"}`, "", `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"numeric method", `{"jsonrpc":"2.0","id":2,"method":5}`, "", `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not a number"}}`},
		{"array params", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":[1]}`, "", `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: the params must be an object, not an array"}}`},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a response needs the id of its request"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":5,"method":"nope"}`, "", `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found: \"nope\" unsupported"}}`},
		{"notification with an id", `{"jsonrpc":"2.0","id":6,"method":"notifications/initialized"}`, "", `{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"Invalid Request: unexpected id for \"notifications/initialized\""}}`},
		{"malformed error", `{"jsonrpc":"2.0","id":4,"error":"boom"}`, "", `{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: a response's \"error\" must be an object with a numeric \"code\" and a string \"message\""}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.protocol != "" {
				req.Header.Set("Mcp-Protocol-Version", tc.protocol)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != "application/json" || strings.TrimSpace(string(body)) != tc.want {
				t.Errorf("status %d, %s: %s\nwant 400, application/json: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.want)
			}
		})
	}
}

// initSession opens an MCP session on the HTTP server at url and returns
// the response's status, body and session id.
func initSession(t *testing.T, url string) (int, string, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Mcp-Session-Id")
}

// pingStatus is the status of a ping in the session id.
func pingStatus(t *testing.T, url, id string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServerHTTPMaxSessions checks that sessions beyond the limit are
// refused with a JSON-RPC error until one ends.
func TestServerHTTPMaxSessions(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(newServer(t).Handler(mcp.HTTPOptions{MaxSessions: 2, SessionIdle: time.Hour}))
	t.Cleanup(ts.Close)
	var ids []string
	for range 2 {
		status, body, id := initSession(t, ts.URL)
		if status != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %s", status, body)
		}
		ids = append(ids, id)
		t.Cleanup(func() { deleteSession(t, ts.URL, id, nil) })
	}
	status, body, id := initSession(t, ts.URL)
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Server busy: 2 MCP sessions are open, the limit; end one (DELETE) or wait for one to be closed after 1h0m0s idle"}}`
	if status != http.StatusServiceUnavailable || strings.TrimSpace(body) != want || id != "" {
		t.Errorf("a third session: %d %s (session %q)\nwant 503 %s", status, body, id, want)
	}
	deleteSession(t, ts.URL, ids[0], nil)
	status, body, id = initSession(t, ts.URL)
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize after a session ended: %d %s", status, body)
	}
	deleteSession(t, ts.URL, id, nil)
}

// TestServerHTTPSessionIdle checks that a session that never ran anything
// is closed once idle, and no longer counts against the limit.
func TestServerHTTPSessionIdle(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(newServer(t).Handler(mcp.HTTPOptions{MaxSessions: 1, SessionIdle: 100 * time.Millisecond}))
	t.Cleanup(ts.Close)
	status, body, first := initSession(t, ts.URL)
	if status != http.StatusOK || first == "" {
		t.Fatalf("initialize: %d %s", status, body)
	}
	// A request in the session would keep it open: wait for the slot it
	// holds instead. Liveness bound, not a timing assertion: the session
	// must be closed well within it.
	deadline := time.Now().Add(30 * time.Second)
	var id string
	for {
		status, body, id = initSession(t, ts.URL)
		if status == http.StatusOK {
			break
		}
		if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("a second session: %d %s (30s after the first)", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := pingStatus(t, ts.URL, first); got != http.StatusNotFound {
		t.Errorf("a ping in the idle session: status %d, want 404 (closed)", got)
	}
	deleteSession(t, ts.URL, id, nil)
}
