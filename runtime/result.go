package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Result is what a run produced.
type Result struct {
	// Value is the snippet's return value as JSON, keeping the order of
	// object keys; nil when it returned nothing or undefined. Beyond
	// JSON.stringify, a Map becomes an object (or an array of [key, value]
	// pairs when a key is not a string), a Set an array, a BigInt a number,
	// and a circular reference the string "[Circular]".
	Value json.RawMessage `json:"value"`
	// ValueText is the return value formatted as console.log would print it
	// (a string bare); empty when the snippet returned undefined, and then
	// Value is nil.
	ValueText string `json:"-"`
	// Stdout and Stderr are the captured console output (the tail, when
	// over the output limit).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Error describes why the run failed; nil on success.
	Error *Error `json:"error"`
	// ToolCalls traces every host call in the order it started.
	ToolCalls []CallRecord `json:"toolCalls"`
	// Duration is the run's wall time.
	Duration time.Duration `json:"-"`
	// Truncated is set when console output went over the output limit.
	Truncated bool `json:"truncated"`
}

// OK reports whether the run succeeded.
func (r *Result) OK() bool { return r.Error == nil }

// Text renders the result for a model: the output, then "Return value: ..."
// when the snippet returned something, then the error report ("Error: ...",
// "TypeError: ...", with stack and source line) when it failed, or
// "(no output)" when there is nothing at all.
func (r *Result) Text() string {
	var parts []string
	for _, s := range []string{r.Stdout, r.Stderr} {
		if s = strings.TrimRight(s, "\n"); s != "" {
			parts = append(parts, s)
		}
	}
	if r.Value != nil {
		parts = append(parts, "Return value: "+r.ValueText)
	}
	if r.Error != nil {
		parts = append(parts, r.Error.Report())
	}
	if len(parts) == 0 {
		return "(no output)"
	}
	return strings.Join(parts, "\n")
}

// CallRecord is one host call in a run's trace.
type CallRecord struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Params  any    `json:"params"`
	IsError bool   `json:"isError"`
	// Updates counts the partial results the tool reported while it ran.
	Updates  int           `json:"updates"`
	Duration time.Duration `json:"-"`
}

// ErrorKind classifies a run's failure.
type ErrorKind string

// The kinds of run failure.
const (
	// KindCompile: the source does not compile (syntax error, import).
	KindCompile ErrorKind = "compile"
	// KindException: the snippet threw, or a promise rejected unhandled.
	KindException ErrorKind = "exception"
	// KindLimit: the run hit a limit (timeout, tool calls, source size...).
	KindLimit ErrorKind = "limit"
	// KindCanceled: the caller's context was cancelled.
	KindCanceled ErrorKind = "canceled"
	// KindInternal: codeexec itself failed; a bug to report.
	KindInternal ErrorKind = "internal"
)

// Error describes a failed run. File, Line and Column point into the
// original source when the failure has a position there: 1-based, the
// column in UTF-16 code units as in Node's stacks.
type Error struct {
	Name       string    `json:"name"`
	Message    string    `json:"message"`
	Stack      string    `json:"stack"`
	File       string    `json:"file,omitempty"`
	Line       int       `json:"line,omitempty"`
	Column     int       `json:"column,omitempty"`
	SourceLine string    `json:"sourceLine,omitempty"`
	Kind       ErrorKind `json:"kind"`
	// cause is the Go error behind the failure, when there is one (a
	// *LimitError, the caller's context error, a closed pool's sentinel).
	cause error
}

// Error returns "Name: message".
func (e *Error) Error() string { return e.Name + ": " + e.Message }

// Unwrap returns the Go error behind the failure, so that errors.Is and
// errors.As see it: a cancelled run unwraps to context.Canceled (or the
// cause its caller gave), every limit to a *LimitError (a timeout's
// unwraps in turn to context.DeadlineExceeded). A JavaScript exception
// has no Go cause.
func (e *Error) Unwrap() error { return e.cause }

// WithCause returns a copy of e whose Unwrap returns cause: for code that
// builds an Error outside a run (a worker pool that was closed, a worker
// that died) and must keep what caused it.
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.cause = cause
	return &c
}

// Report renders the error for a person or a model: "Name: message", the
// stack frames, and the offending source line with a caret under the column.
func (e *Error) Report() string {
	if e.Kind == KindCompile {
		s := fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Line, e.Column, e.Message)
		return s + e.caret()
	}
	var b strings.Builder
	b.WriteString(e.Name + ": " + e.Message)
	if frames := stackFrames(e.Stack); frames != "" {
		b.WriteString("\n" + frames)
	}
	b.WriteString(e.caret())
	return b.String()
}

// caret renders the source line with a caret under the error's column.
func (e *Error) caret() string {
	if e.SourceLine == "" || e.Column < 1 {
		return ""
	}
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, prefixRunes(e.SourceLine, byteColumn(e.SourceLine, e.Column)-1))
	return fmt.Sprintf("\n\n%s:%d\n%s\n%s^", e.File, e.Line, e.SourceLine, pad)
}

// prefixRunes returns the first n bytes of s, cut back to a rune boundary.
func prefixRunes(s string, n int) string {
	n = min(n, len(s))
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// stackFrames returns the "    at ..." lines of a stack.
func stackFrames(stack string) string {
	var frames []string
	for _, l := range strings.Split(stack, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			frames = append(frames, l)
		}
	}
	return strings.Join(frames, "\n")
}

// output captures one console stream: the whole text while it fits, then
// the tail, and optionally forwards it live up to the same limit.
type output struct {
	live     io.Writer
	limit    int
	buf      []byte // the kept text; at most 2*limit before compaction
	dropped  int    // bytes dropped from the front of buf
	prev     byte   // the last byte dropped, to tell whether buf starts a line
	liveLeft int
	liveDone bool // the live writer got the limit notice
	// finished: the run is over. Later writes (a console function that a
	// session snippet kept and called in a later run) are dropped.
	finished bool
}

func newOutput(live io.Writer, limit int) *output {
	return &output{live: live, limit: limit, liveLeft: limit}
}

// write appends s, a complete line or more.
func (o *output) write(s string) {
	if o.finished {
		return
	}
	if o.live != nil && !o.liveDone {
		if len(s) <= o.liveLeft {
			_, _ = io.WriteString(o.live, s)
			o.liveLeft -= len(s)
		} else {
			o.liveDone = true
			_, _ = fmt.Fprintf(o.live, "[output limit of %d bytes reached: further output is not shown here]\n", o.limit)
		}
	}
	o.buf = append(o.buf, s...)
	if len(o.buf) > 2*o.limit {
		o.drop(len(o.buf) - o.limit)
	}
}

// drop removes the first n bytes of buf.
func (o *output) drop(n int) {
	o.prev = o.buf[n-1]
	o.dropped += n
	o.buf = append(o.buf[:0], o.buf[n:]...)
}

// finish trims buf to the kept text and returns it (call it once, when the
// run is over): at most limit bytes, starting at a line
// boundary, led by a notice when bytes were dropped.
func (o *output) finish() string {
	o.finished = true
	if len(o.buf) > o.limit {
		o.drop(len(o.buf) - o.limit)
	}
	if o.dropped == 0 {
		return string(o.buf)
	}
	text := o.buf
	// Start at a line boundary so the first kept line is whole.
	if o.prev != '\n' {
		if i := bytes.IndexByte(text, '\n'); i >= 0 && i < len(text)-1 {
			text = text[i+1:]
		}
	}
	dropped := o.dropped + len(o.buf) - len(text)
	return fmt.Sprintf("[output truncated: the first %d bytes were dropped; the last %d bytes follow]\n", dropped, len(text)) + string(text)
}
