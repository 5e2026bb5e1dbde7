package codeexec

import (
	"io"
	"sync"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/toolcall"
)

// EventKind says what an Event reports.
type EventKind string

// The kinds of run events, in the order a run can report them.
const (
	// EventOutput: a chunk of console output (Stream, Text), as it was
	// printed and within the output limit.
	EventOutput EventKind = "output"
	// EventToolStart: the snippet made a tool call (CallID, Tool, Params).
	EventToolStart EventKind = "tool_start"
	// EventToolUpdate: a running tool reported a partial result (CallID,
	// Tool, Update), through registry.Call.Update.
	EventToolUpdate EventKind = "tool_update"
	// EventToolEnd: a tool call ended (CallID, Tool, IsError, Duration).
	EventToolEnd EventKind = "tool_end"
	// EventEnd: the run ended (Result); always the last event of a run.
	EventEnd EventKind = "end"
)

// Stream names a console stream.
type Stream string

// The console streams: log, info and debug print to Stdout; warn and
// error to Stderr.
const (
	Stdout Stream = "stdout"
	Stderr Stream = "stderr"
)

// Event is one thing that happened during a run, reported to
// RunOptions.OnEvent as it happens. Only the fields of its Kind are set.
type Event struct {
	Kind EventKind
	// Stream and Text: EventOutput.
	Stream Stream
	Text   string
	// CallID ("call_N", as in the trace) and Tool: the tool events.
	CallID string
	Tool   string
	// Params: EventToolStart, the params as the tool receives them.
	Params map[string]any
	// Update: EventToolUpdate.
	Update *registry.Result
	// IsError and Duration: EventToolEnd.
	IsError  bool
	Duration time.Duration
	// Result: EventEnd.
	Result *Result
}

// emitter delivers a run's events to its callback one at a time, in the
// order they happen: output and call starts in the snippet's order (both
// are reported from the run's loop in process, and from the one goroutine
// that reads the worker in Process isolation), call ends and updates as
// they come from the goroutines that run the tools.
type emitter struct {
	mu sync.Mutex
	fn func(Event)
}

func newEmitter(fn func(Event)) *emitter { return &emitter{fn: fn} }

// emit delivers e; safe for concurrent use. The callback is never called
// concurrently with itself.
func (e *emitter) emit(ev Event) {
	if e.fn == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fn(ev)
}

// callHooks are the call events of a run's Dispatcher, as Events.
func (e *emitter) callHooks() toolcall.Hooks {
	if e.fn == nil {
		return toolcall.Hooks{}
	}
	return toolcall.Hooks{
		Start: func(id, name string, params map[string]any) {
			e.emit(Event{Kind: EventToolStart, CallID: id, Tool: name, Params: params})
		},
		Update: func(id, name string, u registry.Result) {
			e.emit(Event{Kind: EventToolUpdate, CallID: id, Tool: name, Update: &u})
		},
		End: func(id, name string, isError bool, d time.Duration) {
			e.emit(Event{Kind: EventToolEnd, CallID: id, Tool: name, IsError: isError, Duration: d})
		},
	}
}

// writer returns the live writer of one console stream: it reports each
// chunk as an event, then passes it on to next (when set). It returns nil
// when there is nobody to tell, so that the engine skips the live output.
func (e *emitter) writer(s Stream, next io.Writer) io.Writer {
	if e.fn == nil {
		return next
	}
	return &eventWriter{e: e, stream: s, next: next}
}

type eventWriter struct {
	e      *emitter
	stream Stream
	next   io.Writer
}

func (w *eventWriter) Write(p []byte) (int, error) {
	w.e.emit(Event{Kind: EventOutput, Stream: w.stream, Text: string(p)})
	if w.next != nil {
		return w.next.Write(p)
	}
	return len(p), nil
}
