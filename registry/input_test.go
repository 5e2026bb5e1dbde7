package registry

import (
	"context"
	"errors"
	"testing"
)

// TestCallsThatNeedInput checks Ask, Approved and caller-served tools: a
// call that needs input runs nothing and says what it waits for.
func TestCallsThatNeedInput(t *testing.T) {
	ran := 0
	reg := New()
	mustRegister := func(tool Tool) {
		t.Helper()
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	params := map[string]any{"type": "object", "properties": map[string]any{}}
	mustRegister(Tool{Name: "write", Description: "Write.", Parameters: params, Execute: func(context.Context, Call) (Result, error) {
		ran++
		return Result{Content: []Content{TextContent("written")}}, nil
	}})
	mustRegister(Tool{Name: "lookup", Description: "Served by the caller.", Parameters: params, CallerServed: true})
	reg.OnToolCall(func(_ context.Context, ev ToolCallEvent) string {
		if ev.Name == "write" {
			return Ask
		}
		return ""
	})
	tests := []struct {
		name     string
		tool     string
		opts     CallOptions
		wantKind InputKind
		wantText string
	}{
		{"asked", "write", CallOptions{EmitEvents: true}, InputApproval, ""},
		{"approved", "write", CallOptions{EmitEvents: true, Approved: true}, "", "written"},
		{"no hooks", "write", CallOptions{}, "", "written"},
		{"caller-served", "lookup", CallOptions{EmitEvents: true}, InputTool, ""},
		{"caller-served approved", "lookup", CallOptions{Approved: true}, InputTool, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := ran
			res, err := reg.CallTool(context.Background(), tt.tool, nil, tt.opts)
			if tt.wantKind != "" {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Kind != tt.wantKind || ie.Name != tt.tool || !errors.Is(err, ErrNeedsInput) {
					t.Fatalf("error %v, want an InputError of kind %s", err, tt.wantKind)
				}
				if ran != before {
					t.Errorf("the tool ran")
				}
				return
			}
			if err != nil || res.Text() != tt.wantText {
				t.Fatalf("result %q, %v; want %q", res.Text(), err, tt.wantText)
			}
		})
	}
	for _, bad := range []Tool{
		{Name: "both", Description: "x", Parameters: params, CallerServed: true, Execute: func(context.Context, Call) (Result, error) { return Result{}, nil }},
		{Name: "neither", Description: "x", Parameters: params},
	} {
		if err := reg.Register(bad); err == nil {
			t.Errorf("Register(%s) succeeded", bad.Name)
		}
	}
}
