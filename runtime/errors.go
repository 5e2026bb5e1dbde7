package runtime

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/eventloop"
	"github.com/codeexec/codeexec/runtime/internal/js"
	"github.com/codeexec/codeexec/runtime/transform"
)

// NewError returns a plain JavaScript error object of the given constructor
// name ("Error", "TypeError", ...) carrying msg; unknown names give an Error
// whose name property is set to name. Loop goroutine only.
func NewError(vm *goja.Runtime, name, msg string) *goja.Object {
	return js.NewError(vm, name, msg)
}

// sourceLine returns line n (1-based) of the original source, or "".
func (r *run) sourceLine(n int) string {
	if r.code == nil {
		return ""
	}
	lines := r.code.SourceLines() // split once per program, on first use
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// compile compiles the snippet and keeps the program, which maps positions
// in stacks back to the snippet.
func (r *run) compile(source string) (*transform.Program, *Error) {
	var (
		p *transform.Program
		d *transform.Diagnostic
	)
	if r.sess != nil {
		p, d = r.sess.compile(source, r.opts.Filename, r.opts.Echo)
	} else {
		p, d = transform.Compile(source, r.opts.Filename)
	}
	if d != nil {
		return nil, compileError(*d)
	}
	r.code = p
	r.features = p.Features()
	return p, nil
}

func compileError(d transform.Diagnostic) *Error {
	return &Error{
		Name: "SyntaxError", Message: d.Message, Kind: KindCompile,
		Stack: d.String(), File: d.File, Line: d.Line, Column: d.Column, SourceLine: d.LineText,
	}
}

// limitError is the Error of a limit; like every Error of KindLimit it
// unwraps to a *LimitError.
func limitError(msg string) *Error {
	return &Error{Name: "LimitError", Message: msg, Stack: "LimitError: " + msg, Kind: KindLimit, cause: NewLimitError(msg, nil)}
}

// toError converts what ended the loop or the first execution into an Error.
func (r *run) toError(err error) *Error {
	var (
		interrupted *goja.InterruptedError
		exception   *goja.Exception
		unhandled   *unhandledRejection
		limit       *LimitError
	)
	switch {
	case errors.As(err, &interrupted):
		cause, ok := interrupted.Value().(error)
		if !ok {
			return limitError(fmt.Sprint(interrupted.Value()))
		}
		if r.ctx != nil && r.ctx.Err() != nil && cause == context.Cause(r.ctx) && !errors.As(cause, &limit) {
			// The interrupt of the run's context, which its caller
			// cancelled with this cause: a cancellation, as when the loop
			// sees the context end.
			return r.toError(r.ctx.Err())
		}
		return r.toError(cause)
	case errors.As(err, &limit):
		e := limitError(limit.Message)
		e.cause = limit
		return e
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		cause := context.Cause(r.ctx)
		if errors.As(cause, &limit) {
			return r.toError(cause)
		}
		msg := "the run was cancelled by its caller"
		switch {
		case cause == nil:
			cause = err
		case cause != context.Canceled:
			msg += ": " + cause.Error()
		}
		return &Error{Name: "CanceledError", Message: msg, Kind: KindCanceled, cause: cause}
	case errors.As(err, &unhandled):
		e := r.errorFromValue(unhandled.value)
		e.Message += " (an unhandled promise rejection: await the promise or add .catch)"
		return e
	case errors.As(err, &exception):
		return r.errorFromValue(exception.Value())
	case errors.Is(err, eventloop.ErrNeverSettled):
		return &Error{Name: "Error", Message: err.Error(), Kind: KindException}
	}
	return &Error{Name: "InternalError", Message: err.Error(), Kind: KindInternal, cause: err}
}

// errorFromValue describes a thrown or rejected JavaScript value.
func (r *run) errorFromValue(v goja.Value) *Error {
	e := &Error{Name: "Error", Kind: KindException}
	obj, isObj := v.(*goja.Object)
	if !isObj || obj.ClassName() != "Error" {
		// Like Node: "Uncaught 'text'" for a thrown non-error value.
		e.Message = "uncaught " + r.console().Format(v) + " (throw an Error to get a stack)"
		e.Stack = e.Name + ": " + e.Message
		return e
	}
	// The error's properties may be getters that throw or never return:
	// read each under the VM's guard. A limit that fires while reading
	// them (the timeout in a looping getter) is the run's error, reported
	// as that limit; what a getter throws leaves that property out.
	var limit error
	guard := func(f func()) {
		err := js.Try(r.vm, f)
		var ie *goja.InterruptedError
		if errors.As(err, &ie) && limit == nil {
			limit = err
		}
	}
	get := func(key string) goja.Value {
		var v goja.Value
		guard(func() { v = obj.Get(key) })
		return v
	}
	text := func(key string) string {
		var s string
		if v := get(key); v != nil && !goja.IsUndefined(v) {
			guard(func() { s = v.String() })
		}
		return s
	}
	if n := text("name"); n != "" {
		e.Name = n
	}
	e.Message = text("message")
	// Say which tool failed when the tool's own message does not.
	if e.Name == "ToolError" {
		if t := get("tool"); t != nil && goja.IsString(t) && !strings.Contains(e.Message, t.String()) {
			e.Message = "tool " + t.String() + " failed: " + e.Message
		}
	}
	stack := text("stack")
	if limit != nil {
		return r.toError(limit)
	}
	e.Stack = r.rewriteStack(stack)
	if !strings.HasPrefix(e.Stack, e.Name) {
		e.Stack = e.Name + ": " + e.Message + "\n" + stackFrames(e.Stack)
	}
	r.position(e, e.Stack)
	var hinted string
	switch e.Name {
	case "ReferenceError":
		hinted = r.withHint(e.Message)
	case "TypeError":
		hinted = r.memberHint(e.Message, e.SourceLine, e.Column)
	}
	if hinted != "" && hinted != e.Message {
		// The report's words; the snippet saw the engine's.
		if first := e.Name + ": " + e.Message; strings.HasPrefix(e.Stack, first) {
			e.Stack = e.Name + ": " + hinted + e.Stack[len(first):]
		}
		e.Message = hinted
	}
	if r.isOverflow(obj, e) {
		// The call-stack limit's RangeError, which the snippet did not
		// catch: the run ends as that limit, naming its value (the
		// native recursion limit's message does not).
		msg := overflowMessage(r.opts.MaxStackDepth)
		if first := e.Name + ": " + e.Message; strings.HasPrefix(e.Stack, first) {
			e.Stack = e.Name + ": " + msg + e.Stack[len(first):]
		}
		e.Message = msg
		e.Kind, e.cause = KindLimit, NewLimitError(msg, nil)
	}
	return e
}

// maxFrames is how many stack frames an error shows, as Node's default
// Error.stackTraceLimit.
const maxFrames = 10

// frameRE matches one frame of a goja stack, which always ends its
// position with the program counter: "at fn (file:1:2(3))" or
// "at file:1:2(3)".
var frameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*at (?:(.*) \()?([^()\s]+):(\d+):(\d+)\(\d+\)\)?$`)
})

// rewriteStack turns goja's stack text into Node's form (see stack.go)
// for printing and reporting: nodeStack's lines, with a run of identical
// frames collapsed.
func (r *run) rewriteStack(stack string) string {
	return strings.Join(collapseRepeats(r.nodeStack(stack)), "\n")
}

// nodeStack returns the lines of goja's stack text in Node's form:
// four-space "at" frames without goja's program counters, positions
// mapped to the snippet, at most maxFrames of them, and neither the
// wrapper's closing call nor Go host functions. A frame already in Node's
// form (no program counter) is kept as it is, so that rewriting a stack
// twice changes nothing: the snippet may have read it (see stackOf)
// before it is printed or reported.
func (r *run) nodeStack(stack string) []string {
	var out []string
	frames := 0
	for _, l := range strings.Split(strings.TrimRight(stack, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			if frames == maxFrames {
				continue
			}
			frames++
		}
		t := strings.TrimSpace(l)
		m := frameRE().FindStringSubmatch(l)
		switch {
		case m == nil && nodeFrameRE().MatchString("    "+t):
			out = append(out, "    "+t)
			continue
		case m == nil && strings.HasPrefix(t, "at "):
			// A native frame; those of Go host functions name Go symbols,
			// which mean nothing to the snippet's author.
			if !strings.Contains(t, "/") {
				out = append(out, "    "+t)
			}
			continue
		case m == nil:
			out = append(out, l)
			continue
		}
		fn, file := m[1], m[2]
		if file == macrotaskFile {
			continue // the entry that drains nextTick's queue
		}
		line, _ := strconv.Atoi(m[3])
		col, _ := strconv.Atoi(m[4])
		if code, name := r.codeNamed(file); code != nil {
			line, col = code.Position(line, col)
			if line > code.Lines() {
				continue // the wrapper's closing call
			}
			file = name
		}
		loc := fmt.Sprintf("%s:%d:%d", file, line, col)
		if fn == "" {
			out = append(out, "    at "+loc)
		} else {
			out = append(out, "    at "+fn+" ("+loc+")")
		}
	}
	return out
}

// codeNamed returns the program whose code goja's stacks name name, and
// the name its frames show: the run's own (the filename), or in a session
// one an earlier run compiled (see Session.program); nil for any other.
func (r *run) codeNamed(name string) (*transform.Program, string) {
	switch {
	case r.code != nil && name == r.code.Name():
		return r.code, r.opts.Filename
	case r.sess != nil:
		return r.sess.program(name)
	}
	return nil, ""
}

// collapseRepeats replaces a run of identical frames (deep recursion) by
// the first and one line saying how often it repeats.
func collapseRepeats(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j] == lines[i] && strings.HasPrefix(lines[i], "    at ") {
			j++
		}
		out = append(out, lines[i])
		switch n := j - i - 1; {
		case n == 1:
			out = append(out, "    ... the frame above repeats 1 more time")
		case n > 1:
			out = append(out, fmt.Sprintf("    ... the frame above repeats %d more times", n))
		}
		i = j
	}
	return out
}

// nodeFrameRE matches a rewritten frame's location.
var nodeFrameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^    at (?:.* \()?([^()\s]+):(\d+):(\d+)\)?$`) })

// position sets e's file, line, column and source line from the first stack
// frame that is in the snippet.
func (r *run) position(e *Error, stack string) {
	for _, l := range strings.Split(stack, "\n") {
		m := nodeFrameRE().FindStringSubmatch(l)
		if m == nil || m[1] != r.opts.Filename {
			continue
		}
		e.File = m[1]
		e.Line, _ = strconv.Atoi(m[2])
		e.Column, _ = strconv.Atoi(m[3])
		e.SourceLine = r.sourceLine(e.Line)
		return
	}
}

// byteColumn converts a 1-based UTF-16 column in line into a 1-based byte
// column; the inverse of utf16Column.
func byteColumn(line string, col16 int) int {
	units := 1
	for i, r := range line {
		if units >= col16 {
			return i + 1
		}
		units++
		if r >= 0x10000 {
			units++
		}
	}
	return len(line) + 1 + (col16 - units)
}

// NamedFunction returns a native function whose name is name: the name a
// snippet sees (console.log prints [Function: name]) and the one its
// stack frames show, never the Go function's symbol. Loop goroutine only.
func NamedFunction(vm *goja.Runtime, name string, fn func(goja.FunctionCall) goja.Value) goja.Value {
	return js.NamedFunction(vm, name, fn)
}
