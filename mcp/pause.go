package mcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
)

// How a code_execution call asks a client that speaks protocol 2026-07-28
// or later (multi round-trip input, SEP-2322) to approve a tool call: the
// call returns an input-required result, with one elicitation form per
// approval (the form Confirm shows) and a request state, and the client
// retries the call with the answers and the state. There are two ways to
// go on from there:
//
//   - A run without a session (NoSessions, a stateless HTTP server)
//     pauses (see codeexec.Pause): the request state is the run's sealed
//     state, and the retry resumes it, on this server or on any other
//     with the same tools and state key (codeexec.Options.StateKey): a
//     fleet needs no sticky routing.
//   - A session run cannot pause (its global scope is in this process): it
//     waits for the answer where it is, parked, and the request state
//     names it; the retry must reach this process, and the run's time
//     limit keeps running while it waits.
//
// Older clients are asked during the call (elicitation), as Confirm does.
// Caller-served tools (registry.Tool.CallerServed) are not offered over
// MCP: an input request can ask a client for an elicitation, a sampling or
// its roots, not for the result of a tool of its own.

// ErrPause is what Confirm returns (wrapped) when the client will be asked
// through a paused run's input-required result: the hook that called it
// answers registry.Ask.
var ErrPause = errors.New("the run pauses to ask the MCP client")

// The prefixes of a code_execution request state.
const (
	stateResume = "run:"    // a paused run's sealed state, base64url
	stateParked = "parked:" // a parked session run's id
)

// runKey keys, in a run's context, how Confirm asks a multi round-trip
// client: through the parked run's questions, or by pausing (nil).
type runKey struct{}

// question is an approval a parked run's hook waits for.
type question struct {
	message string
	answer  chan bool
}

// parkedRun is a session run that waits, in this process, for its
// client's answers.
type parkedRun struct {
	id        string                  // under parking.mu: its id while parked
	questions chan question           // from the run's hooks
	done      chan *codeexec.Result   // the run's result, once
	asked     question                // the question of the last input-required result
	stop      context.CancelCauseFunc // cancels the run
}

// parkedQuestion is the id of a parked run's question in its
// input-required result: it asks one at a time.
const parkedQuestion = "approval"

// parking holds the parked runs of a Server, by id.
type parking struct {
	mu   sync.Mutex
	runs map[string]*parkedRun
}

func (p *parking) park(r *parkedRun) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	p.mu.Lock()
	if p.runs == nil {
		p.runs = map[string]*parkedRun{}
	}
	p.runs[id], r.id = r, id
	p.mu.Unlock()
	return id
}

// drop forgets r if it is still parked: its run ended while it waited.
func (p *parking) drop(r *parkedRun) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.runs[r.id] == r {
		delete(p.runs, r.id)
	}
}

func (p *parking) take(id string) *parkedRun {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.runs[id]
	delete(p.runs, id)
	return r
}

// askParked asks the question of message through the parked run behind
// ctx and waits for the answer.
func askParked(ctx context.Context, r *parkedRun, message string) (bool, error) {
	q := question{message: message, answer: make(chan bool, 1)}
	select {
	case r.questions <- q:
	case <-ctx.Done():
		return false, context.Cause(ctx)
	}
	select {
	case ok := <-q.answer:
		return ok, nil
	case <-ctx.Done():
		return false, context.Cause(ctx)
	}
}

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

// multiRoundTrip reports whether the client of ss takes input-required
// results instead of requests during a call.
func multiRoundTrip(ss *sdk.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= mrtrVersion
}

// pausedResult is the input-required result of a paused run.
func pausedResult(p *codeexec.Pause) (*sdk.CallToolResult, error) {
	reqs := sdk.InputRequestMap{}
	for _, q := range p.Requests {
		if q.Kind != codeexec.InputApproval {
			return nil, fmt.Errorf("mcp: the run waits for %s, which an MCP client cannot serve", q.Tool)
		}
		reqs[q.ID] = approvalForm("codeexec: allow " + q.Text + " ?")
	}
	return &sdk.CallToolResult{InputRequests: reqs, RequestState: stateResume + base64.RawURLEncoding.EncodeToString(p.State)}, nil
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

// callParked runs a session run of a multi round-trip client, or goes on
// with the parked one the request state names, until it ends or asks.
func (s *Server) callParked(ctx context.Context, req *sdk.CallToolRequest, run func(context.Context) *codeexec.Result) (*sdk.CallToolResult, *codeexec.Result) {
	var r *parkedRun
	if id, ok := strings.CutPrefix(req.Params.RequestState, stateParked); ok {
		if r = s.parked.take(id); r == nil {
			return errorResult("code_execution: the run this answer is for is gone: it ended (its time limit runs while it waits), or it waits in another server process, which a session run cannot leave"), nil
		}
		r.asked.answer <- allowed(req.Params.InputResponses[parkedQuestion])
	} else {
		// The run outlives this request when it asks: its context is
		// its own, cancelled when the run is given up.
		runCtx, stop := context.WithCancelCause(context.WithoutCancel(ctx))
		r = &parkedRun{questions: make(chan question), done: make(chan *codeexec.Result, 1), stop: stop}
		runCtx = context.WithValue(runCtx, runKey{}, r)
		go func() {
			defer stop(nil)
			r.done <- run(runCtx)
			s.parked.drop(r)
		}()
	}
	select {
	case res := <-r.done:
		return nil, res
	case q := <-r.questions:
		r.asked = q
		id := s.parked.park(r)
		return &sdk.CallToolResult{
			InputRequests: sdk.InputRequestMap{parkedQuestion: approvalForm(q.message)},
			RequestState:  stateParked + id,
		}, nil
	case <-ctx.Done():
		r.stop(context.Cause(ctx))
		return nil, <-r.done
	}
}

// errorResult is a failed code_execution result saying msg.
func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
}
