package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/mcptools"
)

// The tests here put the MCP client (registry/mcptools, a tool source
// below the root package) together with the Runner, which that package
// cannot import: its own tests call the tools through the registry, and
// these check that the tools it registers bind in snippets as their
// signatures say, and that codeexec's own server is a tool source too.

// TestDefaultMaxMessageBytes checks that the client's default limit on a
// message is the root package's default limit on a tool result, which
// mcptools restates rather than imports.
func TestDefaultMaxMessageBytes(t *testing.T) {
	if mcptools.DefaultMaxMessageBytes != codeexec.DefaultMaxResultBytes {
		t.Errorf("mcptools.DefaultMaxMessageBytes = %d, codeexec.DefaultMaxResultBytes = %d: they must agree",
			mcptools.DefaultMaxMessageBytes, codeexec.DefaultMaxResultBytes)
	}
}

// TestToolSourceInSnippets serves echo (text), get-sum (structured, with
// an output schema), slow (progress, then a text and an image) and fail
// (isError) over streamable HTTP, and calls them from snippets under the
// server's namespace.
func TestToolSourceInSnippets(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "fake"}, nil)
	type msg struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes back the input."},
		func(_ context.Context, _ *sdk.CallToolRequest, in msg) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	type addIn struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	type addOut struct {
		Sum float64 `json:"sum"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "get-sum", Description: "Adds a and b."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	// slow's progress is reported while it works, not with its result:
	// asked to wait, it answers once the run's events showed both updates (the SDK hands
	// notifications to their handler on goroutines of their own), or after
	// a liveness bound.
	updated := make(chan struct{}, 2)
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Reports progress."},
		func(ctx context.Context, req *sdk.CallToolRequest, in struct {
			Wait bool `json:"wait,omitempty"`
		}) (*sdk.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 2; i++ {
					_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 2, Message: fmt.Sprintf("step %d", i)})
				}
				for i := 0; in.Wait && i < 2; i++ {
					select {
					case <-updated:
					case <-ctx.Done():
					case <-time.After(time.Minute):
					}
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "done"},
				&sdk.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "image/png"},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the fake fails")
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()

	reg := registry.New()
	c, warnings, err := mcptools.Connect(context.Background(), reg, "my-fake", mcptools.ServerConfig{URL: srv.URL}, mcptools.ClientOptions{})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Connect: %v %v", err, warnings)
	}
	defer c.Close()
	runner, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	tests := []struct {
		name, src, value string
	}{
		{"text", `return await my_fake.echo({ message: "hi" })`, `"Echo: hi"`},
		{"structured", `const r = await my_fake.get_sum({ a: 1, b: 2 }); return r.sum`, `3`},
		{"callTool keeps images", `const r = await callTool("my_fake.slow", {}); return r.content.map((c) => c.type)`, `["text","image"]`},
		{"isError rejects with a ToolError", `try { await my_fake.fail() } catch (e) { return [e.name, e.message] }`, `["ToolError","the fake fails"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runner.Run(context.Background(), tc.src, codeexec.RunOptions{})
			if res.Error != nil {
				t.Fatalf("run: %s", res.Error.Report())
			}
			if string(res.Value) != tc.value {
				t.Errorf("value = %s, want %s", res.Value, tc.value)
			}
		})
	}
	t.Run("progress becomes tool updates", func(t *testing.T) {
		var updates []string
		res := runner.Run(context.Background(), `await my_fake.slow({ wait: true })`, codeexec.RunOptions{OnEvent: func(ev codeexec.Event) {
			if ev.Kind == codeexec.EventToolUpdate {
				updates = append(updates, ev.Update.Text())
				updated <- struct{}{}
			}
		}})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		if got := strings.Join(updates, "|"); got != "step 1|step 2" {
			t.Errorf("updates = %q, want step 1|step 2", got)
		}
	})
}

// TestClientHTTPHeaders consumes codeexec's own HTTP face as a tool source:
// the configured headers carry its bearer token, and without them the
// start fails with an error naming the server. A stateless server serves
// the same calls.
func TestClientHTTPHeaders(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(newServer(t).Handler(mcp.HTTPOptions{Token: "tok", Stateless: stateless}))
			defer srv.Close()

			reg := registry.New()
			c, warnings, err := mcptools.Connect(context.Background(), reg, "loop", mcptools.ServerConfig{
				URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer tok"},
			}, mcptools.ClientOptions{})
			if err != nil || len(warnings) > 0 {
				t.Fatalf("Connect: %v %v", err, warnings)
			}
			defer c.Close()
			r, err := codeexec.New(reg, codeexec.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			res := r.Run(context.Background(), `const o = await loop.code_execution({ code: "return await twice(4)" }); return o.value`, codeexec.RunOptions{})
			if res.Error != nil || string(res.Value) != "8" {
				t.Fatalf("run: %v %s", res.Error, res.Value)
			}

			_, _, err = mcptools.Connect(context.Background(), registry.New(), "loop", mcptools.ServerConfig{URL: srv.URL}, mcptools.ClientOptions{})
			if err == nil || !strings.Contains(err.Error(), "MCP server loop: start:") || !strings.Contains(err.Error(), "Unauthorized") {
				t.Fatalf("Connect without the token: %v", err)
			}
		})
	}
}
