package mcptools_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/mcptools"
)

// deepSchema is an object schema nesting n object schemas (2n+1 JSON
// levels).
func deepSchema(n int) string {
	return strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{"type":"string"}` + strings.Repeat(`}}`, n)
}

// hostileServer serves, as the stdio MCP server of mode, a server that
// misbehaves; it reports whether mode is one of these:
//
//   - "stray": writes a line that is not JSON before it serves;
//   - "hangup": closes its stdout at once, then exits with status 120
//     when its stdin ends (as Python does when it cannot flush);
//   - "deep": serves echo beside a tool whose schema nests 500 object
//     schemas and one that nests 40;
//   - "big": serves echo, big (a text of "n" bytes), stray (writes a
//     line that is not JSON, then answers) and hangup (as "hangup" does,
//     mid-call).
func hostileServer(mode string) bool {
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	echo := func(s *sdk.Server) {
		s.AddTool(&sdk.Tool{Name: "echo", Description: "Echoes.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`)},
			func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				var in struct{ Message string }
				_ = json.Unmarshal(req.Params.Arguments, &in)
				return text("Echo: " + in.Message), nil
			})
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "hostile"}, nil)
	switch mode {
	case "stray":
		fmt.Println("hello from the server, not JSON")
		echo(s)
	case "hangup":
		os.Stdout.Close()
		fmt.Fprintln(os.Stderr, "fake: hanging up")
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(120)
	case "deep":
		// The SDK's server refuses such a schema: answer by hand.
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			var req struct {
				ID     json.RawMessage
				Method string
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
				continue
			}
			result := `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"}}`
			if req.Method == "tools/list" {
				result = `{"tools":[` +
					`{"name":"deep","description":"Deep.","inputSchema":` + deepSchema(500) + `},` +
					`{"name":"echo","description":"Echoes.","inputSchema":{"type":"object"}},` +
					`{"name":"deepish","description":"Deep.","inputSchema":` + deepSchema(40) + `}]}`
			}
			fmt.Printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n", req.ID, result)
		}
		return true
	case "big":
		echo(s)
		s.AddTool(&sdk.Tool{Name: "big", Description: "A big text.", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`)},
			func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				var in struct{ N int }
				_ = json.Unmarshal(req.Params.Arguments, &in)
				return text(strings.Repeat("x", in.N)), nil
			})
		s.AddTool(&sdk.Tool{Name: "hangup", Description: "Hangs up.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				os.Stdout.Close()
				fmt.Fprintln(os.Stderr, "fake: hanging up")
				_, _ = io.Copy(io.Discard, os.Stdin)
				os.Exit(120)
				return nil, nil
			})
		s.AddTool(&sdk.Tool{Name: "stray", Description: "Writes a stray line.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				fmt.Println("oops")
				return text("stray"), nil
			})
	default:
		return false
	}
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
	return true
}

// TestClientReportsFirstCause checks that a server that breaks the
// protocol at start is reported by what it did, not by how codeexec then
// stopped it.
func TestClientReportsFirstCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode string
		want string
	}{
		{"stray", `MCP server bad: start: the server wrote a line that is not JSON: "hello from the server, not JSON"`},
		{"hangup", `MCP server bad: start: the process closed its stdout while still running; its stderr ends: fake: hanging up`},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			c, _, err := mcptools.Connect(context.Background(), registry.New(), "bad", fakeConfig(t, tc.mode), mcptools.ClientOptions{})
			if err == nil {
				c.Close()
				t.Fatal("Connect succeeded")
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q\nwant    %q", err, tc.want)
			}
		})
	}
}

// TestClientSkipsDeepSchemas checks that a tool whose schema nests too
// deeply is skipped on its own, with a warning, whether the SDK could
// decode the listing with it or not.
func TestClientSkipsDeepSchemas(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	c, warnings, err := mcptools.Connect(context.Background(), reg, "deep", fakeConfig(t, "deep"), mcptools.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []string
	for _, w := range warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"MCP server deep: tool deep skipped: parameters schema is nested 1001 levels deep, more than the 64 allowed (each object or array is a level)",
		"MCP server deep: tool deepish skipped: register tool \"deep.deepish\": parameters schema is nested 81 levels deep, more than the 64 allowed (each object or array is a level)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var names []string
	for _, info := range reg.Tools() {
		names = append(names, info.Name)
	}
	if strings.Join(names, " ") != "deep.echo" {
		t.Errorf("tools = %v, want deep.echo alone", names)
	}
}

// failure calls the tool name through reg and returns the text of its
// error result, failing the test when the call succeeds.
func failure(t *testing.T, reg *registry.Registry, name string, params map[string]any) string {
	t.Helper()
	res := call(t, reg, name, params)
	if !res.IsError {
		t.Fatalf("%s succeeded: %.200s", name, res.Text())
	}
	return res.Text()
}

// success calls the tool name through reg and returns its text, failing
// the test on an error result.
func success(t *testing.T, reg *registry.Registry, name string, params map[string]any) string {
	t.Helper()
	res := call(t, reg, name, params)
	if res.IsError {
		t.Fatalf("%s failed: %s", name, res.Text())
	}
	return res.Text()
}

// TestClientStdioLimits checks that a stdio server's results up to the
// limit arrive whole, that a message over it fails its call with the
// limit's error, a line that is not JSON or a hang-up with its own, and
// that the server serves the next call afresh after each.
func TestClientStdioLimits(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	reg := registry.New()
	c, warnings, err := mcptools.Connect(context.Background(), reg, "evil", fakeConfig(t, "big"), mcptools.ClientOptions{MaxMessageBytes: limit})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Connect: %v %v", err, warnings)
	}
	defer c.Close()
	if got := success(t, reg, "evil.big", map[string]any{"n": 1000000}); len(got) != 1000000 {
		t.Errorf("a result under the limit: length %d", len(got))
	}
	tooLarge := fmt.Sprintf(`MCP server evil: big failed: the server sent a message over %d bytes, the limit on one message from an MCP server (and on a tool result)`, limit)
	if got := failure(t, reg, "evil.big", map[string]any{"n": 2000000}); got != tooLarge {
		t.Errorf("a result over the limit: %s\nwant %s", got, tooLarge)
	}
	if got := success(t, reg, "evil.echo", map[string]any{"message": "again"}); got != "Echo: again" {
		t.Errorf("the call after: %s", got)
	}
	stray := `MCP server evil: stray failed: the server wrote a line that is not JSON: "oops"`
	if got := failure(t, reg, "evil.stray", nil); got != stray {
		t.Errorf("a stray line: %s\nwant %s", got, stray)
	}
	if got := success(t, reg, "evil.echo", map[string]any{"message": "once more"}); got != "Echo: once more" {
		t.Errorf("the call after: %s", got)
	}
	hungUp := `MCP server evil is gone (the process closed its stdout while still running; its stderr ends: fake: hanging up): hangup failed`
	if got := failure(t, reg, "evil.hangup", nil); got != hungUp {
		t.Errorf("a hang-up: %s\nwant %s", got, hungUp)
	}
	if got := success(t, reg, "evil.echo", map[string]any{"message": "and again"}); got != "Echo: and again" {
		t.Errorf("the call after: %s", got)
	}
}

// TestClientStdioDefaultLimit checks that a 17 MB result, over the SDK's
// own 16 MiB line limit (16.8 MB), arrives whole under the default limit.
func TestClientStdioDefaultLimit(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	c, _, err := mcptools.Connect(context.Background(), reg, "evil", fakeConfig(t, "big"), mcptools.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 17_000_000
	res, err := reg.CallTool(context.Background(), "evil.big", map[string]any{"n": n}, registry.CallOptions{})
	if err != nil || res.IsError || len(res.Text()) != n {
		t.Fatalf("a %d-byte result: %v %v %d bytes", n, err, res.IsError, len(res.Text()))
	}
}

// endless wraps an MCP HTTP handler: a tools/call of the tool "endless"
// is answered by an endless JSON body or an endless event, as mode says.
func endless(h http.Handler, sse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if !strings.Contains(string(body), `"name":"endless"`) {
			h.ServeHTTP(w, r)
			return
		}
		var req struct{ ID json.RawMessage }
		_ = json.Unmarshal(body, &req)
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"", req.ID)
		} else {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, req.ID)
		}
		chunk := []byte(strings.Repeat("x", 64<<10))
		bw := bufio.NewWriter(w)
		for {
			if _, err := bw.Write(chunk); err != nil {
				return
			}
			if r.Context().Err() != nil {
				return
			}
		}
	})
}

// TestClientHTTPEndless checks that an HTTP server's endless response
// (a JSON body, or one event) fails its call with the limit's error as
// soon as the limit is crossed, having read little more than the limit,
// and that the server serves the next call. It is not parallel, so that
// the allocation it measures is its own.
func TestClientHTTPEndless(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			srv := sdk.NewServer(&sdk.Implementation{Name: "endless"}, nil)
			for _, name := range []string{"endless", "echo"} {
				srv.AddTool(&sdk.Tool{Name: name, Description: "Answers.", InputSchema: json.RawMessage(`{"type":"object"}`)},
					func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
						return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "fine"}}}, nil
					})
			}
			ts := httptest.NewServer(endless(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil), sse))
			defer ts.Close()

			const limit = 4 << 20
			reg := registry.New()
			c, _, err := mcptools.Connect(context.Background(), reg, "evil", mcptools.ServerConfig{URL: ts.URL}, mcptools.ClientOptions{MaxMessageBytes: limit})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// The call has no deadline: it must end by the limit.
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got := failure(t, reg, "evil.endless", nil)
			runtime.ReadMemStats(&after)
			want := fmt.Sprintf(`MCP server evil: endless failed: the server sent a message over %d bytes, the limit on one message from an MCP server (and on a tool result)`, limit)
			if got != want {
				t.Errorf("error = %s\nwant    %s", got, want)
			}
			// Generous: the reader's buffer grows by doubling to the limit.
			if d := after.TotalAlloc - before.TotalAlloc; d > 8*limit {
				t.Errorf("the call allocated %d MiB, over 8 times the limit", d>>20)
			}
			if got := success(t, reg, "evil.echo", nil); got != "fine" {
				t.Errorf("the next call: %s", got)
			}
		})
	}
}
