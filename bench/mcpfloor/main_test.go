package main

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAnswersConstant calls code_execution as the bench does and gets the
// constant answer, whatever the code.
func TestAnswersConstant(t *testing.T) {
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": "throw 1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("result %+v, want one text", res)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; got != answer {
		t.Errorf("answer %q, want %q", got, answer)
	}
}
