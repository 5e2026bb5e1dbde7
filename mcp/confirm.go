package mcp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoElicitation is the error of Confirm when the call was not made
// through a Server, or its client cannot be asked during a call: it does
// not support elicitation, or it speaks protocol 2026-07-28 or later, where
// a server may not send requests while it serves one (SEP-2322 replaces
// them with multi round-trip input requests, which a running snippet
// cannot make: it would have to stop and resume across calls).
var ErrNoElicitation = errors.New("the MCP client does not support elicitation during a call")

// mrtrVersion is the first protocol version that takes no server requests
// during a call.
const mrtrVersion = "2026-07-28"

// sessionKey keys the MCP session of a code_execution call in the run's
// context, which reaches the registry's hooks of every tool call it makes.
type sessionKey struct{}

// Confirm asks the MCP client that made the code_execution call behind ctx
// to allow an action, through elicitation: a form with one boolean,
// "allow", under message. It returns true only when the user accepted the
// form with allow checked; false, nil when they declined, cancelled or
// left it unchecked; and ErrNoElicitation (wrapped) when the client cannot
// be asked. Call it from a registry tool_call hook: the hook's context
// comes from the run of the code_execution call.
func Confirm(ctx context.Context, message string) (bool, error) {
	ss, _ := ctx.Value(sessionKey{}).(*sdk.ServerSession)
	if ss == nil {
		return false, fmt.Errorf("confirm: %w (not a code_execution call)", ErrNoElicitation)
	}
	p := ss.InitializeParams()
	switch {
	case p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil:
		return false, fmt.Errorf("confirm: %w", ErrNoElicitation)
	case p.ProtocolVersion >= mrtrVersion:
		return false, fmt.Errorf("confirm: %w (protocol %s)", ErrNoElicitation, p.ProtocolVersion)
	}
	res, err := ss.Elicit(ctx, &sdk.ElicitParams{
		Message: message,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"allow": map[string]any{"type": "boolean", "title": "Allow", "description": "Allow this tool call"},
			},
			"required": []any{"allow"},
		},
	})
	if err != nil {
		return false, fmt.Errorf("confirm: %w", err)
	}
	allow, _ := res.Content["allow"].(bool)
	return res.Action == "accept" && allow, nil
}
