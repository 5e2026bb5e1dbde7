// Package registry is the bottom layer of codeexec: the Tool and Result types,
// the Registry that holds tools in registration order, and CallTool, the one
// way to run a tool. It knows nothing about JavaScript.
package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
)

// Content is one block of a tool result: text, or an image as base64 data.
type Content struct {
	// Type is "text" or "image".
	Type string `json:"type"`
	// Text is the text of a "text" block.
	Text string `json:"text,omitempty"`
	// Data is the base64-encoded bytes of an "image" block.
	Data string `json:"data,omitempty"`
	// MimeType is the media type of an "image" block, for example "image/png".
	MimeType string `json:"mimeType,omitempty"`
}

// TextContent returns a text block holding s.
func TextContent(s string) Content { return Content{Type: "text", Text: s} }

// ImageContent returns an image block holding base64 data of the given media type.
func ImageContent(data, mimeType string) Content {
	return Content{Type: "image", Data: data, MimeType: mimeType}
}

// Result is what a tool produced. Content is shown to a model; Details is any
// JSON-able value for renderers and programs. IsError is set only by CallTool,
// never by a tool: a tool reports failure by returning an error. A result
// may also carry a finalizer (see OnDelivered), which is not part of its
// JSON form; copies of a result share it.
type Result struct {
	Content []Content `json:"content"`
	Details any       `json:"details"`
	IsError bool      `json:"isError"`

	fin *finalizer
}

// finalizer is a result's delivery callback. The results copied from one
// share it, and it runs at most once whoever calls it.
type finalizer struct {
	done atomic.Bool
	f    func(delivered bool)
}

// run calls f with delivered unless it already ran; a panic in f is
// recovered and dropped (see Result.OnDelivered).
func (fin *finalizer) run(delivered bool) {
	if fin == nil || !fin.done.CompareAndSwap(false, true) {
		return
	}
	defer func() { _ = recover() }()
	fin.f(delivered)
}

// OnDelivered returns r with f as its finalizer. The call path runs f
// exactly once: with true once the snippet has the result (its JavaScript
// value was made and the call's promise is about to resolve with it, or a
// direct caller of Registry.CallTool got it back), and with false on every
// other path: the tool also returned an error, a tool_result hook replaced
// the result or panicked, the result was over the call's MaxResultBytes,
// it could not cross to an isolated worker or become a JavaScript value,
// or the run ended (timeout, memory limit, cancellation, process.exit, an
// error) before it was delivered. Delivered is about the snippet, not the
// run: a run that fails after its snippet got the result (a later
// exception, its timeout) does not take a true back.
//
// This is what makes a tool transactional: a tool that changes state keeps
// its change pending and applies it in f when delivered is true, so that a
// call that fails at any stage changes nothing and a model that retries it
// gets no duplicate (the planning tools of package builtin work so). Tools
// whose effect happens while they run (executable tools, MCP tools, bash,
// write, edit) cannot take back what they did and use no finalizer: for
// them a call that fails after the tool ran may have changed something.
//
// f runs on whichever goroutine settles the call (a run's event loop, the
// reader of an isolated worker's pipe, the caller of CallTool): it must be
// quick and must not block or call tools. A panic in f is recovered and
// dropped. When r already has a finalizer, the new one runs right after
// it, with the same value.
func (r Result) OnDelivered(f func(delivered bool)) Result {
	if f == nil {
		return r
	}
	if prev := r.fin; prev != nil {
		r.fin = &finalizer{f: func(delivered bool) {
			prev.run(delivered)
			f(delivered)
		}}
		return r
	}
	r.fin = &finalizer{f: f}
	return r
}

// Finalize runs r's finalizer with delivered, if r has one that has not
// run yet (see OnDelivered); it does nothing otherwise, so calling it
// again, or on a copy of r, is harmless. Whoever settles a call finalizes
// its result: CallTool itself unless CallOptions.DeferFinalize hands the
// result over, then the caller (package bindings, the codeexec Runner and
// its isolated workers do).
func (r Result) Finalize(delivered bool) { r.fin.run(delivered) }

// Finalizer returns the function that finalizes r as Finalize does, or nil
// when r has no finalizer or it already ran: for a caller that must keep
// the duty to finalize r without keeping r's content alive.
func (r Result) Finalizer() func(delivered bool) {
	fin := r.fin
	if fin == nil || fin.done.Load() {
		return nil
	}
	return fin.run
}

// sameFinalizer reports whether r and other carry the same finalizer.
func (r Result) sameFinalizer(other Result) bool { return r.fin != nil && r.fin == other.fin }

// TextResult returns a result with a single text block and no details.
func TextResult(s string) Result { return Result{Content: []Content{TextContent(s)}} }

// DetailsJSON returns the details as JSON text, nil for nil details:
// unchanged when they already are JSON text (a json.RawMessage, as a tool
// or a worker's frame may carry them), encoded once otherwise. The result
// shares the RawMessage's bytes; the caller must not change them.
func (r Result) DetailsJSON() (json.RawMessage, error) {
	switch d := r.Details.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return d, nil
	}
	return json.Marshal(r.Details)
}

// Text joins the result's text blocks with "\n", skipping other blocks.
func (r Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// errorResult is the result CallTool returns in place of a failed call.
func errorResult(msg string) Result {
	return Result{Content: []Content{TextContent(msg)}, Details: map[string]any{}, IsError: true}
}

// Call is what a tool's Execute receives besides its context.
type Call struct {
	// ID identifies this call in traces, events and telemetry.
	ID string
	// Params are the decoded JSON arguments, already validated against the
	// tool's Parameters schema.
	Params map[string]any
	// OnUpdate receives partial results while the tool runs. It may be nil;
	// call Update instead of calling it directly.
	OnUpdate func(Result)
	// MaxResultBytes is the most bytes the result may take as JSON (see
	// ResultSize) to be delivered; 0 means no limit. CallTool refuses a
	// larger result after the tool returned it: a tool that changes state
	// commits its change only when its result is delivered (see
	// Result.OnDelivered), and may check its result with CheckResult first
	// to fail with a message of its own (and return the result CheckResult
	// returns, whose details are then encoded once).
	MaxResultBytes int
}

// CheckResult measures r as CallTool will and returns it as the tool
// should return it: with its details as the JSON text encoded to measure
// them (a json.RawMessage, which CallTool and everything after it take as
// it is rather than encode again), and unchanged when there is no limit or
// r needed no encoding to fit. The error is a *ResultTooLargeError when
// r, as JSON, is larger than c.MaxResultBytes, or the error encoding r,
// wrapped.
func (c Call) CheckResult(r Result) (Result, error) {
	raw, err := c.checkResult(r)
	if err != nil {
		return r, err
	}
	if raw != nil {
		r.Details = raw
	}
	return r, nil
}

// checkResult is CheckResult that also returns the details as JSON, which
// CallTool passes on in place of the details so that they are not encoded
// again. A result that fits by sizeBound is not encoded to be measured.
func (c Call) checkResult(r Result) (json.RawMessage, error) {
	if c.MaxResultBytes <= 0 {
		return nil, nil
	}
	bound := sizeBound(r.Content)
	if r.Details == nil && bound <= c.MaxResultBytes {
		return nil, nil
	}
	raw, err := r.DetailsJSON()
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	// In the result, a byte of the details' JSON takes at most 6 (json
	// escapes <, > and & as \u003c and the like).
	if bound+6*len(raw) <= c.MaxResultBytes {
		return raw, nil
	}
	n, err := encodedSize(r, raw)
	if err != nil {
		return nil, err
	}
	if n > c.MaxResultBytes {
		return nil, &ResultTooLargeError{Size: n, Limit: c.MaxResultBytes}
	}
	return raw, nil
}

// ResultSize returns the size of r encoded as JSON, the measure of
// Call.MaxResultBytes. An error encoding the details is returned wrapped.
func ResultSize(r Result) (int, error) {
	raw, err := r.DetailsJSON()
	if err != nil {
		return 0, fmt.Errorf("encode result: %w", err)
	}
	return encodedSize(r, raw)
}

// encodedSize is the size of r encoded as JSON, its details encoded as
// raw.
func encodedSize(r Result, raw json.RawMessage) (int, error) {
	b, err := json.Marshal(struct {
		Content []Content       `json:"content"`
		Details json.RawMessage `json:"details"`
		IsError bool            `json:"isError"`
	}{r.Content, raw, r.IsError})
	if err != nil {
		return 0, fmt.Errorf("encode result: %w", err)
	}
	return len(b), nil
}

// sizeBound is at least the size of a result with content and no details
// encoded as JSON (what resultSize measures): each byte of a string takes
// at most 6 bytes in JSON (a \u escape), each field at most its name,
// quotes, colon and comma besides, each block its braces and comma, and
// the rest of the result less than 64 bytes.
func sizeBound(content []Content) int {
	const field = len(`"mimeType":"",`)
	n := 64
	for _, c := range content {
		n += 3 + 4*field + 6*(len(c.Type)+len(c.Text)+len(c.Data)+len(c.MimeType))
	}
	return n
}

// ResultTooLargeError is a result over Call.MaxResultBytes.
type ResultTooLargeError struct {
	Size, Limit int // bytes as JSON
	// AtLeast says that Size is a lower bound: the tool refused the result
	// before building it.
	AtLeast bool
}

// Error says how large the result is and the limit it is over.
func (e *ResultTooLargeError) Error() string {
	atLeast := ""
	if e.AtLeast {
		atLeast = "at least "
	}
	return fmt.Sprintf("the result is %s%d bytes as JSON, over the limit of %d bytes on a tool result", atLeast, e.Size, e.Limit)
}

// Update reports a partial result if the caller asked for updates; it is a
// no-op otherwise.
func (c Call) Update(partial Result) {
	if c.OnUpdate != nil {
		c.OnUpdate(partial)
	}
}

// ExecuteFunc runs a tool. The context is the abort signal: an implementation
// must pass it to everything that blocks. It returns a result, or an error
// whose message is shown to the model.
type ExecuteFunc func(ctx context.Context, call Call) (Result, error)

// Tool is a function a model can call, described by a JSON Schema and, for
// code execution, a TypeScript call signature.
//
// A tool with a Namespace (an MCP server's tools, for example) is bound in
// snippets as a method of one global object named Namespace,
// `await everything.echo({...})`, rather than as a global function. It is
// registered, looked up and called (CallTool, callTool) by its qualified
// name Namespace + "." + Name, and its CallSignature's function name need
// only be unique within the namespace. The namespace is the one mechanism
// for grouping tools: bindings installs one object per namespace, and
// promptgen renders it as a TypeScript `declare namespace`.
type Tool struct {
	// Name matches ^[a-z0-9_-]{1,64}$ (snake_case by convention). In a
	// Namespace it is the name as its source spells it: 1 to 128 ASCII
	// letters, digits, "_", "-" and ".", as MCP names tools.
	Name string
	// Namespace, when not empty, is the global object the tool is bound
	// under: a JavaScript identifier that is no global of the sandbox nor
	// another tool's function name.
	Namespace string
	// Label is a short human-readable name for user interfaces.
	Label string
	// Description is shown to the model; it must not be empty.
	Description string
	// Parameters is a JSON Schema of type "object" describing the params.
	Parameters map[string]any
	// CallSignature is an optional TypeScript function declaration, for
	// example `async function read(path: string): Promise<string>`: the
	// function a snippet calls and the prompt documents. Its parameters must
	// match Parameters (see Registry.Register). Without one, Register
	// generates one from Parameters.
	CallSignature string
	// Source says where the tool came from (for example "builtin" or the
	// path of an executable); it is informational.
	Source string
	// Execute runs the tool; it must not be nil unless CallerServed.
	Execute ExecuteFunc
	// CallerServed says that the tool runs in whoever called the run, not
	// here: it has no Execute, and CallTool returns an *InputError of
	// kind InputTool for each call (after validation and the hooks), on
	// which a codeexec run pauses until its caller resumes it with the
	// call's result or error.
	CallerServed bool
	// Examples are example calls shown to the model under the signature;
	// Register checks each one's input against Parameters and its output
	// against the signature's return type.
	Examples []Example
}

// Info describes a registered tool without giving access to its Execute.
// CallSignature is the signature in force, generated when the tool came
// without one; Parameters is the caller's own copy.
type Info struct {
	// Name is the tool's registered name: Namespace + "." + the tool's own
	// name for a namespaced tool.
	Name string `json:"name"`
	// Namespace is the tool's Namespace, empty for a global function.
	Namespace     string         `json:"namespace,omitempty"`
	Label         string         `json:"label,omitempty"`
	Description   string         `json:"description"`
	Parameters    map[string]any `json:"parameters"`
	CallSignature string         `json:"callSignature,omitempty"`
	Source        string         `json:"source,omitempty"`
	Examples      []Example      `json:"examples,omitempty"`
	// CallerServed is the tool's CallerServed.
	CallerServed bool `json:"callerServed,omitempty"`
}

// Summary is the text of a registered tool: its Info without the
// Parameters and Examples (see Registry.Summaries).
type Summary struct {
	Name          string
	Namespace     string
	Label         string
	Description   string
	CallSignature string
	Source        string
}

// Summary returns the text of i, sharing nothing mutable with it.
func (i Info) Summary() Summary {
	return Summary{Name: i.Name, Namespace: i.Namespace, Label: i.Label, Description: i.Description, CallSignature: i.CallSignature, Source: i.Source}
}

// ParseSchema decodes a JSON Schema written as JSON text.
func ParseSchema(text string) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	return m, nil
}

// MustParseSchema is ParseSchema for schemas written in Go source; it panics
// on malformed JSON, which is a programming error.
func MustParseSchema(text string) map[string]any {
	m, err := ParseSchema(text)
	if err != nil {
		panic(err)
	}
	return m
}
