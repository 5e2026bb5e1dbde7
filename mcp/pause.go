package mcp

import (
	"encoding/base64"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
)

// How a code_execution call asks a client that speaks protocol 2026-07-28
// or later (multi round-trip input, SEP-2322) to approve a tool call: the
// run pauses (see codeexec.Pause), and the call returns an input-required
// result, with one elicitation form per approval (the form Confirm shows)
// and the run's sealed state as the request state; the client retries the
// call with the answers and the state, and the retry resumes the run, on
// this server or on any other with the same tools and state key
// (codeexec.Options.StateKey): a fleet needs no sticky routing. A run of a
// session pauses too when the Runner keeps its sessions in a store
// (codeexec.Options.Store): the resume rebuilds the session where the run
// paused, in any process that shares the store; without a store a session
// run cannot pause, and the call that needs the approval fails saying so.
//
// Older clients are asked during the call (elicitation), as Confirm does.
// Caller-served tools (registry.Tool.CallerServed) are not offered over
// MCP: an input request can ask a client for an elicitation, a sampling or
// its roots, not for the result of a tool of its own.

// ErrPause is what Confirm returns (wrapped) when the client will be asked
// through a paused run's input-required result: the hook that called it
// answers registry.Ask.
var ErrPause = errors.New("the run pauses to ask the MCP client")

// stateResume prefixes a code_execution request state: a paused run's
// sealed state, base64url, follows.
const stateResume = "run:"

// approvalForm is the elicitation that asks for one approval.
func approvalForm(message string) *sdk.ElicitParams {
	return &sdk.ElicitParams{
		Message: message,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"allow": map[string]any{"type": "boolean", "title": "Allow", "description": "Allow this tool call"},
			},
			"required": []any{"allow"},
		},
	}
}

// allowed reports whether an elicitation's answer allows the call.
func allowed(r sdk.InputResponse) bool {
	res, ok := r.(*sdk.ElicitResult)
	if !ok || res == nil || res.Action != "accept" {
		return false
	}
	allow, _ := res.Content["allow"].(bool)
	return allow
}

// handleSep separates, in a request state, the paused run's state from
// the handle of its session (for the result of the resumed run; the
// sealed state says which session it resumes).
const handleSep = "~"

// pausedResult is the input-required result of a paused run of the
// session whose handle is handle ("" for none).
func pausedResult(p *codeexec.Pause, handle string) (*sdk.CallToolResult, error) {
	reqs := sdk.InputRequestMap{}
	for _, q := range p.Requests {
		if q.Kind != codeexec.InputApproval {
			return nil, fmt.Errorf("mcp: the run waits for the result of %s, a caller-served tool, which an MCP client cannot serve: an input request asks a client for an elicitation, a sampling or its roots, not for the result of a tool of its own", q.Tool)
		}
		reqs[q.ID] = approvalForm("codeexec: allow " + q.Text + " ?")
	}
	state := stateResume + base64.RawURLEncoding.EncodeToString(p.State)
	if handle != "" {
		state += handleSep + handle
	}
	return &sdk.CallToolResult{InputRequests: reqs, RequestState: state}, nil
}

// decodeState decodes a paused run's state from a request state; what is
// not base64url gives nothing, which Resume refuses as no state.
func decodeState(encoded string) []byte {
	state, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return nil
	}
	return state
}

// responses are a retry's answers to a paused run's approvals.
func responses(answers sdk.InputResponseMap) map[string]codeexec.Response {
	out := make(map[string]codeexec.Response, len(answers))
	for id, a := range answers {
		out[id] = codeexec.Response{Approved: allowed(a)}
	}
	return out
}

// errorResult is a failed code_execution result saying msg.
func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
}
