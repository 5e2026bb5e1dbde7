package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// Entry is one call of a run's call log, at its position in the order the
// snippet made the calls. An entry has an Outcome when the call ended and
// its outcome reached the snippet (or cannot be undone: a result without
// a finalizer, an error), a Request when the run paused waiting for input
// for it, and neither when it must run again on a replay (a stateful
// tool's result that was never delivered, so never committed).
type Entry struct {
	Name   string          `json:"name"`
	Params json.RawMessage `json:"params"`
	// params are the call's params until Params is encoded from them
	// (see Dispatcher.Log).
	params map[string]any
	// Outcome is what the call gave the snippet.
	Outcome *Outcome `json:"outcome,omitempty"`
	// Request is what the call waits for, when the run paused on it.
	Request registry.InputKind `json:"request,omitempty"`
}

// Outcome is how a logged call ended: a result, or an error (Error, and
// NotFound when the tool did not exist).
type Outcome struct {
	Content  []registry.Content `json:"content,omitempty"`
	Details  json.RawMessage    `json:"details,omitempty"`
	IsError  bool               `json:"isError,omitempty"`
	Error    string             `json:"error,omitempty"`
	NotFound bool               `json:"notFound,omitempty"`
}

// outcomeOf is the outcome of a call that returned res, err.
func outcomeOf(res registry.Result, err error) *Outcome {
	if err != nil {
		return &Outcome{Error: err.Error(), NotFound: errors.Is(err, registry.ErrToolNotFound)}
	}
	o := &Outcome{Content: res.Content, IsError: res.IsError}
	if raw, derr := res.DetailsJSON(); derr == nil {
		o.Details = raw
	}
	return o
}

// replay returns what the call gave the snippet, again.
func (o *Outcome) replay(name string) (registry.Result, error) {
	switch {
	case o.NotFound:
		return registry.Result{}, &replayedNotFound{msg: o.Error}
	case o.Error != "":
		return registry.Result{}, errors.New(o.Error)
	}
	res := registry.Result{Content: o.Content, IsError: o.IsError}
	if len(o.Details) > 0 {
		res.Details = o.Details
	}
	return res, nil
}

// replayedNotFound is a logged "Tool not found" error, as it read.
type replayedNotFound struct{ msg string }

func (e *replayedNotFound) Error() string { return e.msg }
func (e *replayedNotFound) Unwrap() error { return registry.ErrToolNotFound }

// Answer answers the input request of one call of a paused run: a
// person's decision on an approval (Approved, or denied with Reason), or
// the outcome of a caller-served tool (Result, or Error).
type Answer struct {
	Approved bool
	// Reason is why an approval was denied ("denied by the user" when
	// empty).
	Reason string
	// Result is a caller-served tool's result; Error its failure, when
	// not empty.
	Result registry.Result
	Error  string
}

// outcome is what an answer of a request of kind gives the snippet: nil
// for an approved call, which runs.
func (a Answer) outcome(kind registry.InputKind, name string) *Outcome {
	switch {
	case kind == registry.InputApproval && a.Approved:
		return nil
	case kind == registry.InputApproval:
		reason := a.Reason
		if reason == "" {
			reason = "denied by the user"
		}
		// As the registry words a call a hook blocked.
		return &Outcome{Content: []registry.Content{registry.TextContent(fmt.Sprintf("Tool call %s blocked: %s", name, reason))}, Details: json.RawMessage("{}"), IsError: true}
	case a.Error != "":
		return &Outcome{Content: []registry.Content{registry.TextContent(a.Error)}, Details: json.RawMessage("{}"), IsError: true}
	}
	return outcomeOf(a.Result, nil)
}

// ErrDiverged is what the error of a replay that went another way than
// its log unwraps to (errors.Is): see DivergenceError.
var ErrDiverged = errors.New("the replay diverged from the call log")

// DivergenceError is the error that ends a replayed run whose snippet made
// another call, at a logged position, than the log says it made: the
// tools are never called for a logged position.
type DivergenceError struct {
	// Position is the call's (1 for the first call).
	Position int
	// Logged and Made are the two calls, as name(params JSON).
	Logged, Made string
}

// Error names the position and both calls, and what a replayed snippet
// must not do.
func (e *DivergenceError) Error() string {
	return fmt.Sprintf("the replay diverged from the run's call log at call %d: the log has %s, the snippet now made %s (a snippet that is replayed must make the same calls in the same order: no racing calls against each other or against timers, no reading what changes between runs outside the tools)", e.Position, e.Logged, e.Made)
}

// Unwrap returns ErrDiverged.
func (e *DivergenceError) Unwrap() error { return ErrDiverged }

// paramsJSON is params as canonical JSON (object keys sorted), the form
// the log keeps and a replay compares.
func paramsJSON(params map[string]any) json.RawMessage {
	if params == nil {
		params = map[string]any{}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		// Params come from the snippet as JSON data; this cannot happen.
		raw, _ = json.Marshal(err.Error())
	}
	return raw
}

// sameCall reports whether logged is the call name(params).
func sameCall(logged Entry, name string, params json.RawMessage) bool {
	return logged.Name == name && bytes.Equal(logged.Params, params)
}

// EndsRun reports whether a call's error ends its whole run rather than
// rejecting the call: a limit (*runtime.LimitError), a replay that
// diverged from its log (ErrDiverged), or a pause (ErrPaused). The
// bindings end a run on it, and the worker protocol carries which it is.
func EndsRun(err error) bool {
	var limit *runtime.LimitError
	return errors.As(err, &limit) || errors.Is(err, ErrDiverged) || errors.Is(err, ErrPaused)
}

// ErrPaused is what the error of a call that waits for input, or was held
// back because its run pauses, unwraps to (errors.Is): it ends the run
// (see Config.Pausable), which a resume runs again.
var ErrPaused = errors.New("the run paused to wait for input")

// waitPaused waits until the run stops to wait for input, and returns the
// error that ends it there, or until ctx ends.
func (c *Dispatcher) waitPaused(ctx context.Context, name string) error {
	select {
	case <-c.stop:
		return fmt.Errorf("%s: %w", name, ErrPaused)
	case <-ctx.Done():
		return fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
	}
}
