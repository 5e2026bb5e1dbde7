package mcp_test

import (
	"context"
	"errors"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
)

// TestConfirm checks mcp.Confirm from a tool_call hook: it asks the client
// of the code_execution call through elicitation, allows on an accepted
// form with allow checked, denies otherwise, and reports a client that
// cannot be asked.
func TestConfirm(t *testing.T) {
	tests := []struct {
		name    string
		handler func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
		version string // the client's protocol version
		want    string // the snippet's value
	}{
		{"accepted", func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			if req.Params.Message != "allow twice?" {
				return nil, errors.New("unexpected message " + req.Params.Message)
			}
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": true}}, nil
		}, "2025-11-25", "6"},
		{"unchecked", func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": false}}, nil
		}, "2025-06-18", "Tool call twice blocked: denied"},
		{"declined", func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "decline"}, nil
		}, "2025-11-25", "Tool call twice blocked: denied"},
		{"no elicitation", nil, "2025-11-25", "Tool call twice blocked: cannot ask"},
		{"multi round-trip protocol", func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": true}}, nil
		}, "2026-07-28", "6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := testRegistry(t)
			reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
				ok, err := mcp.Confirm(ctx, "allow "+ev.Name+"?")
				switch {
				case errors.Is(err, mcp.ErrNoElicitation):
					return "cannot ask"
				case errors.Is(err, mcp.ErrPause):
					return registry.Ask
				case err != nil:
					return err.Error()
				case !ok:
					return "denied"
				}
				return ""
			})
			r, err := codeexec.New(reg, codeexec.Options{Store: memoryStore(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s := mcp.NewServer(r, reg, mcp.ServerOptions{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ct, st := sdk.NewInMemoryTransports()
			served := make(chan error, 1)
			go func() { served <- s.ServeTransport(ctx, st) }()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{ElicitationHandler: tt.handler}).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			res, err := callCode(ctx, cs, `try { return String(await twice(3)) } catch (e) { return (e as Error).message }`)
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			if got := sc["value"]; got != tt.want {
				t.Errorf("value %v, want %q (%s)", got, tt.want, text(res))
			}
			cs.Close()
			cancel()
			<-served
		})
	}
}
