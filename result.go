package codeexec

import (
	"encoding/json"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Tools is what a Runner's snippets call: a *registry.Registry, or any
// Caller of the same contract (Tools describes the tools, in the order
// they are bound, and a list once returned must not change; CallTool has
// the contract of registry.Registry.CallTool).
type Tools = toolcall.Caller

var _ Tools = (*registry.Registry)(nil)

// Result is what a run produced: the return value, the console output,
// the error (with positions in the snippet), the trace of tool calls and
// the wall time. Text is what a model should see.
type Result struct {
	// Value is the snippet's return value as JSON, keeping the order of
	// object keys; nil when it returned nothing or undefined (see
	// runtime.Result.Value for how values beyond JSON are written).
	Value json.RawMessage
	// ValueText is the return value formatted as console.log would print
	// it (a string bare); empty when Value is nil.
	ValueText string
	// Stdout and Stderr are the captured console output (its head and
	// tail with a notice between, when over the output limit).
	Stdout, Stderr string
	// Error describes why the run failed; nil on success.
	Error *Error
	// ToolCalls traces every tool call in the order the snippet made it.
	ToolCalls []CallRecord
	// Duration is the run's wall time.
	Duration time.Duration
	// Truncated is set when output went over the output limit.
	Truncated bool
	// Pause, when set, says the run stopped to wait for input: Error is
	// nil, Value too, and Resume goes on (see Pause).
	Pause *Pause
}

// OK reports whether the run ended, without an error: false for a run
// that failed and for one that paused.
func (r *Result) OK() bool { return r.Error == nil && r.Pause == nil }

// Text renders the result for a model: the output, then "Return value:
// ..." when the snippet returned something, then the error report
// ("TypeError: ...", with stack and source line) when it failed, or "(no
// output)" when there is nothing at all.
func (r *Result) Text() string { return r.engine().Text() }

// engine is r as the engine's result, without the trace.
func (r *Result) engine() *runtime.Result {
	return &runtime.Result{
		Value: r.Value, ValueText: r.ValueText, Stdout: r.Stdout, Stderr: r.Stderr,
		Error: r.Error, Duration: r.Duration, Truncated: r.Truncated,
	}
}

// newResult is the engine's result res with the trace calls.
func newResult(res *runtime.Result, calls []CallRecord) *Result {
	return &Result{
		Value: res.Value, ValueText: res.ValueText, Stdout: res.Stdout, Stderr: res.Stderr,
		Error: res.Error, ToolCalls: calls, Duration: res.Duration, Truncated: res.Truncated,
	}
}

// CallRecord is one tool call in a run's trace.
type CallRecord = toolcall.Record

// Error describes why a run failed: its JavaScript name, message and
// stack, the position in the snippet (file, line, column and the source
// line) where there is one, and its Kind. Its Unwrap gives the Go cause
// where there is one (context.Canceled, ErrClosed, a *LimitError).
type Error = runtime.Error

// ErrorKind classifies a run's failure.
type ErrorKind = runtime.ErrorKind

// The kinds of run failure.
const (
	// KindCompile: the snippet does not compile (syntax error, import).
	KindCompile = runtime.KindCompile
	// KindException: the snippet threw, or a promise rejected unhandled.
	KindException = runtime.KindException
	// KindLimit: the run hit a limit; its error unwraps to a *LimitError.
	KindLimit = runtime.KindLimit
	// KindCanceled: the caller's context was cancelled, or the Runner
	// closed.
	KindCanceled = runtime.KindCanceled
	// KindInternal: codeexec itself failed (a worker crashed, for
	// example); a bug to report.
	KindInternal = runtime.KindInternal
)

// LimitError is the cause of a run that hit a limit: errors.As finds it
// in the Error of every KindLimit failure.
type LimitError = runtime.LimitError

// ErrMemoryLimit is what the error of a run that exceeded its memory limit
// unwraps to (errors.Is), in both isolation modes.
var ErrMemoryLimit = runtime.ErrMemoryLimit

// ProcessOptions are what a snippet's process global shows: process.env
// holds only Env (never the host's environment), process.cwd() returns
// Cwd, and process.argv is Argv.
type ProcessOptions = runtime.ProcessOptions
