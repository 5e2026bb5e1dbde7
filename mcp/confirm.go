package mcp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoElicitation is the error of Confirm when the call was not made
// through a Server, or its client cannot be asked: it does not support
// elicitation.
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
// be asked. A client that speaks protocol 2026-07-28 or later is asked
// through an input-required result (see pause.go): Confirm returns
// ErrPause (wrapped), on which the hook answers registry.Ask and the run
// pauses.
// Call it from a registry tool_call hook: the hook's context comes from
// the run of the code_execution call.
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
		// Asked through an input-required result (see pause.go): the
		// run pauses.
		return false, fmt.Errorf("confirm: %w", ErrPause)
	}
	res, err := ss.Elicit(ctx, approvalForm(message))
	if err != nil {
		return false, fmt.Errorf("confirm: %w", err)
	}
	return allowed(res), nil
}
