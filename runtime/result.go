package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/tail"
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
	// Stdout and Stderr are the captured console output (its head and tail
	// with a notice between, when over the output limit).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Error describes why the run failed; nil on success.
	Error *Error `json:"error"`
	// Duration is the run's wall time.
	Duration time.Duration `json:"-"`
	// Truncated is set when console output went over the output limit.
	Truncated bool `json:"truncated"`
	// Sources are the clock readings and the random seed the run used
	// (nil when it did not start): given to a run of the same source as
	// Options.Sources, they make it read the same values.
	Sources *Sources `json:"-"`
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
	line, col := excerpt(e.SourceLine, byteColumn(e.SourceLine, e.Column)-1)
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, prefixRunes(line, col))
	return fmt.Sprintf("\n\n%s:%d\n%s\n%s^", e.File, e.Line, line, pad)
}

// excerptBytes bounds the source line an error report shows.
const excerptBytes = 160

// excerpt returns the part of a source line a report shows, and the byte
// offset of col in it: the whole line when it is short, else a window of
// about excerptBytes around col, each cut end marked with "...", so that a
// minified or generated line of a megabyte prints a line, not the file.
func excerpt(line string, col int) (string, int) {
	if len(line) <= excerptBytes {
		return line, col
	}
	col = min(max(col, 0), len(line))
	start := max(col-excerptBytes/2, 0)
	end := min(start+excerptBytes, len(line))
	start = max(end-excerptBytes, 0)
	for start > 0 && start < len(line) && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	out, col := line[start:end], col-start
	if start > 0 {
		out, col = "..."+out, col+3
	}
	if end < len(line) {
		out += "..."
	}
	return out, col
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

// output captures one console stream within its limit: while the text
// fits, all of it; beyond, its head (at most the first half of the limit,
// cut at a line end when there is one) and its tail (at most what the head
// left of the limit, from a line start), with one notice line between
// saying what was cut. The live
// writer gets exactly that: the head as it is printed, and at the end the
// notice and the tail (output past the head is held until the run ends), so
// plain mode and the Result show the same text.
type output struct {
	live     io.Writer
	limit    int
	head     []byte // the first text, at most limit/2
	headFull bool   // head takes no more
	rest     []byte // what came after the head: at most 2*(limit-limit/2) before compaction
	dropped  int    // bytes dropped from the front of rest
	prev     byte   // the last byte dropped, to tell whether rest starts a line
	// finished: the run is over. Later writes (a console function that a
	// session snippet kept and called in a later run) are dropped.
	finished bool
}

func newOutput(live io.Writer, limit int) *output {
	return &output{live: live, limit: limit}
}

// tailLimit is what the tail may keep: what the head left of the limit.
func (o *output) tailLimit() int { return o.limit - len(o.head) }

// write appends s, a complete line or more.
func (o *output) write(s string) {
	if o.finished {
		return
	}
	if !o.headFull {
		room := o.limit/2 - len(o.head)
		if len(s) <= room {
			o.head = append(o.head, s...)
			o.writeLive(s)
			return
		}
		// The head ends at the last line end that fits (or, when the head
		// is empty, at a rune boundary); the rest of s starts the tail.
		fit, _ := tail.Prefix(s, room, tail.AtLine)
		if len(o.head) > 0 && !strings.HasSuffix(fit, "\n") {
			fit = ""
		}
		o.head = append(o.head, fit...)
		o.writeLive(fit)
		o.headFull = true
		if h, ok := o.live.(OutputHolder); ok {
			h.Held()
		}
		s = s[len(fit):]
	}
	o.rest = append(o.rest, s...)
	if len(o.rest) > 2*o.tailLimit() {
		o.drop(len(o.rest) - o.tailLimit())
	}
}

// drop removes the first n bytes of rest.
func (o *output) drop(n int) {
	o.prev = o.rest[n-1]
	o.dropped += n
	o.rest = append(o.rest[:0], o.rest[n:]...)
}

func (o *output) writeLive(s string) {
	if o.live != nil && s != "" {
		_, _ = io.WriteString(o.live, s)
	}
}

// cut reports whether text was dropped.
func (o *output) cut() bool { return o.dropped+len(o.rest) > o.tailLimit() }

// finish returns the kept text and sends the live writer what it has not
// had yet; call it once, when the run is over.
func (o *output) finish() string {
	o.finished = true
	if !o.cut() {
		o.writeLive(string(o.rest))
		return string(o.head) + string(o.rest)
	}
	if len(o.rest) > o.tailLimit() {
		o.drop(len(o.rest) - o.tailLimit())
	}
	text := o.rest
	// Start at a line boundary so the first kept line is whole; keep the
	// tail's UTF-8 sequences whole.
	if o.prev != '\n' {
		if i := bytes.IndexByte(text, '\n'); i >= 0 && i < len(text)-1 {
			text = text[i+1:]
		}
	}
	for len(text) > 0 && !utf8.RuneStart(text[0]) {
		text = text[1:]
	}
	cut := o.dropped + len(o.rest) - len(text)
	notice := fmt.Sprintf("%s%d bytes cut here; the first %d and the last %d bytes are shown]\n", NoticePrefix, cut, len(o.head), len(text))
	if len(o.head) > 0 && o.head[len(o.head)-1] != '\n' {
		notice = "\n" + notice
	}
	o.writeLive(notice + string(text))
	return string(o.head) + notice + string(text)
}

// OutputHolder is a live console writer (Options.Stdout or Stderr) that
// wants to know when the run starts holding output back: Held is called
// once, on the run's goroutine, when the head of the output is full and
// what follows waits for the run's end (the notice and the tail, or the
// rest when it fits after all). Whoever has only the live output then
// knows that it lacks whatever was printed after it, should the run never
// end (an isolated worker that dies).
type OutputHolder interface {
	Held()
}

// NoticePrefix starts the notice a bounded text (console output, a printed
// value, an error's message) carries where it was cut.
const NoticePrefix = "[output truncated: "

// Bound returns s within limit bytes as console output is kept: whole when
// it fits, else its head and its tail with a notice between that says what
// was cut; cut reports whether anything was.
func Bound(s string, limit int) (bounded string, cut bool) {
	if len(s) <= limit {
		return s, false
	}
	o := newOutput(nil, limit)
	o.write(s)
	return o.finish(), true
}

// boundValue bounds what the result prints besides the console (the
// returned value as printed and as JSON, the error's message and stack)
// by the output limit, as console output is, and reports whether it cut
// anything. A value whose JSON is over the limit becomes the JSON string
// of its bounded printed form.
func (r *Result) boundValue(limit int) bool {
	cut := false
	if len(r.ValueText) > limit || len(r.Value) > limit {
		r.ValueText, _ = Bound(r.ValueText, limit)
		if len(r.Value) > limit {
			r.Value, _ = json.Marshal(r.ValueText)
		}
		cut = true
	}
	if e := r.Error; e != nil {
		var c1, c2 bool
		e.Message, c1 = Bound(e.Message, limit)
		e.Stack, c2 = Bound(e.Stack, limit)
		cut = cut || c1 || c2
	}
	return cut
}
