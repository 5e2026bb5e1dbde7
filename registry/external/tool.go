package external

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

// The error codes of a failed call, as in the failure envelope.
const (
	// CodeTimeout: the tool did not finish within the call timeout and was
	// killed with its process group.
	CodeTimeout = "TOOL_TIMEOUT"
	// CodeCrashed: the tool exited with a non-zero status, was killed by a
	// signal it did not get from codeexec, or could not be started.
	CodeCrashed = "TOOL_CRASHED"
	// CodeInvalidOutput: the tool exited 0 but its stdout is not one JSON
	// value, or it printed more than Options.MaxOutputBytes.
	CodeInvalidOutput = "INVALID_OUTPUT"
	// CodeNotFound: the executable no longer exists.
	CodeNotFound = "TOOL_NOT_FOUND"
)

// Sizes of the excerpts of a failed call's output.
const (
	// envelopeStdoutBytes caps the stdout kept in a failure envelope.
	envelopeStdoutBytes = 64 << 10
	// messageStdoutBytes caps the start of stdout quoted in a message.
	messageStdoutBytes = 200
	// messageStderrBytes caps the tail of stderr quoted in a message.
	messageStderrBytes = 2 << 10
)

// ToolFailure is the error an external tool's Execute returns when the call
// failed (every outcome but success and cancellation). Its Error text is
// "CODE: MESSAGE", for example
// "TOOL_TIMEOUT: word_count did not finish within 2s; it was killed with its
// process group", and ErrorDetails gives the failure envelope that should
// become the error result's details.
type ToolFailure struct {
	Tool     string // the tool's name
	Code     string // one of CodeTimeout, CodeCrashed, CodeInvalidOutput, CodeNotFound
	Message  string // what happened, without the code
	ExitCode int    // the exit status; 128+N when killed by signal N; -1 when the tool did not exit by itself or never ran
	Stdout   string // the start of what the tool printed on stdout (at most 64 KiB, valid UTF-8)
	Stderr   string // the end of what it printed on stderr (at most Options.MaxStderrBytes, valid UTF-8)
}

// Error returns "CODE: MESSAGE".
func (f *ToolFailure) Error() string { return f.Code + ": " + f.Message }

// ErrorDetails returns the failure envelope as decoded JSON:
// {"tool_success": false, "error": MESSAGE, "error_code": CODE,
// "exit_code": N, "stdout": "...", "stderr": "..."}. It returns a new map
// on each call.
func (f *ToolFailure) ErrorDetails() any {
	return map[string]any{
		"tool_success": false,
		"error":        f.Message,
		"error_code":   f.Code,
		"exit_code":    f.ExitCode,
		"stdout":       f.Stdout,
		"stderr":       f.Stderr,
	}
}

// successEnvelope is the text content of a successful call.
type successEnvelope struct {
	ToolSuccess bool            `json:"tool_success"`
	Result      json.RawMessage `json:"result"`
}

// tool runs one discovered executable. It is immutable.
type tool struct {
	name string
	path string
	opts Options
}

// execute runs the executable with the params as JSON on stdin and turns
// its outcome into a result or a *ToolFailure.
func (t *tool) execute(ctx context.Context, call registry.Call) (registry.Result, error) {
	params := call.Params
	if params == nil {
		params = map[string]any{}
	}
	input, err := json.Marshal(params)
	if err != nil {
		return registry.Result{}, fmt.Errorf("%s: params cannot be encoded as JSON: %w", t.name, err)
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("%s: not run: %w", t.name, err)
	}
	r := run(ctx, runSpec{
		path:      t.path,
		stdin:     input,
		timeout:   t.opts.CallTimeout,
		maxStdout: t.opts.MaxOutputBytes,
		maxStderr: t.opts.MaxStderrBytes,
		env:       t.opts.Env,
		dir:       t.opts.Dir,
	})
	fail := func(code string, exitCode int, format string, args ...any) (registry.Result, error) {
		return registry.Result{}, &ToolFailure{
			Tool:     t.name,
			Code:     code,
			Message:  fmt.Sprintf(format, args...),
			ExitCode: exitCode,
			Stdout:   textHead(string(r.stdout), envelopeStdoutBytes),
			Stderr:   validUTF8(r.stderr),
		}
	}

	switch {
	case r.startErr != nil && ctx.Err() != nil:
		return registry.Result{}, fmt.Errorf("%s: not run: %w", t.name, context.Cause(ctx))
	case r.startErr != nil:
		if _, err := os.Stat(t.path); errors.Is(err, fs.ErrNotExist) {
			return fail(CodeNotFound, -1, "%s: its executable %s no longer exists", t.name, t.path)
		}
		return fail(CodeCrashed, -1, "%s could not be started: %v", t.name, r.startErr)
	case r.overflow:
		return fail(CodeInvalidOutput, -1, "%s printed more than %s on stdout and was stopped; a tool must print one JSON value of at most that size",
			t.name, tail.Size(int64(t.opts.MaxOutputBytes)))
	case r.timedOut:
		return fail(CodeTimeout, -1, "%s did not finish within %s; it was killed with its process group%s",
			t.name, durationString(t.opts.CallTimeout), stderrTail(r.stderr, r.stderrCut, "; stderr"))
	case r.cancelled != nil:
		return registry.Result{}, fmt.Errorf("%s: cancelled (%w); it was killed with its process group", t.name, r.cancelled)
	case r.waitErr != nil:
		var ee *exec.ExitError
		if !errors.As(r.waitErr, &ee) {
			return fail(CodeCrashed, -1, "%s failed: %v", t.name, r.waitErr)
		}
		code, what := exitStatus(ee)
		if r.stderr == "" {
			return fail(CodeCrashed, code, "%s %s and printed nothing on stderr", t.name, what)
		}
		return fail(CodeCrashed, code, "%s %s%s", t.name, what, stderrTail(r.stderr, r.stderrCut, ""))
	}

	out := bytes.TrimSpace(r.stdout)
	if len(out) == 0 {
		return fail(CodeInvalidOutput, 0, "%s printed nothing on stdout; a tool must print one JSON value", t.name)
	}
	var value any
	if err := json.Unmarshal(out, &value); err != nil {
		return fail(CodeInvalidOutput, 0, "%s printed output that is not JSON: %s (%v)",
			t.name, strconv.Quote(textHead(string(out), messageStdoutBytes)), err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, out); err != nil {
		return fail(CodeInvalidOutput, 0, "%s printed output that is not JSON: %v", t.name, err)
	}
	envelope, err := json.Marshal(successEnvelope{ToolSuccess: true, Result: compact.Bytes()})
	if err != nil {
		return fail(CodeInvalidOutput, 0, "%s printed output that cannot be wrapped: %v", t.name, err)
	}
	var details any = value
	if value == nil {
		// A nil Details means "no details" to the bindings; the tool's
		// output is the JSON value null.
		details = json.RawMessage("null")
	}
	return registry.Result{Content: []registry.Content{registry.TextContent(string(envelope))}, Details: details}, nil
}

// stderrTail formats the end of stderr for a message: ": TEXT" after label,
// or "" when stderr is empty. cut says stderr was already cut at its start.
func stderrTail(stderr string, cut bool, label string) string {
	s := strings.TrimRight(stderr, " \t\r\n")
	if s == "" {
		return ""
	}
	s, more := tail.Suffix(s, messageStderrBytes, tail.AtRune)
	s = validUTF8(s)
	if cut || more {
		s = "…" + s
	}
	return label + ": " + s
}

// textHead returns at most the first n bytes of s, cut between UTF-8
// sequences, as valid UTF-8 text.
func textHead(s string, n int) string {
	s, _ = tail.Prefix(s, n, tail.AtRune)
	return validUTF8(s)
}

// validUTF8 returns s with invalid UTF-8 replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// durationString formats d for messages: "2s", "90s", "1.5s", "250ms".
func durationString(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}
