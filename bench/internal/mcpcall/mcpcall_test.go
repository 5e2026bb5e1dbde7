package mcpcall

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCaller: the second call carries the handle the first result gave,
// and a result that is an error is an error quoting its text.
func TestCaller(t *testing.T) {
	ctx := context.Background()
	var got []any
	s := sdk.NewServer(&sdk.Implementation{Name: "test"}, nil)
	s.AddTool(&sdk.Tool{Name: "code_execution", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args map[string]any
			if err := json.Unmarshal(r.Params.Arguments, &args); err != nil {
				return nil, err
			}
			got = append(got, args["session"])
			if args["code"] == "fail" {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "boom"}}}, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}, StructuredContent: map[string]any{"session": "h1"}}, nil
		})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	c := Caller{CS: cs}
	for _, code := range []string{"1", "2"} {
		if err := c.Call(ctx, code); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Call(ctx, "fail"); err == nil || !strings.Contains(err.Error(), "the call failed: boom") {
		t.Errorf("a result that is an error: %v", err)
	}
	if len(got) != 3 || got[0] != nil || got[1] != "h1" || got[2] != "h1" {
		t.Errorf("session arguments %v, want [<nil> h1 h1]", got)
	}
}
