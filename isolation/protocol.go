package isolation

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// The protocol between a Pool and its workers.
//
// Each message is one frame: a 4-byte big-endian length N, with
// 1 <= N <= MaxFrameSize, then N bytes of payload: JSON, an object whose
// "type" field names the message, or, for console output, a raw payload:
// one byte, outStdout or outStderr, that says which stream, then the bytes
// printed, as they are (not escaped into JSON by the worker, nor decoded
// out of it by the parent). The first byte tells them apart: the JSON
// payloads start with '{', and no JSON text starts with either byte.
// The parent writes to the worker's fd 3 and reads the worker's fd 4; the
// worker's stdout and stderr are not part of it.
//
// Worker to parent:
//
//	ready   {version, pid, error?}    once, when the worker's limits are in place
//	call    {seq, name, params}       run a tool; seq is unique within the run.
//	                                  Sent when the snippet makes the call, in
//	                                  order with the output around it.
//	cancel  {seq}                     the run no longer waits for call seq
//	ack     {seq, delivered?}         what became of the result of call seq,
//	                                  sent only for a result whose ack the
//	                                  parent asked for: delivered, its value
//	                                  was made and the call's promise is
//	                                  about to resolve (the ack is written
//	                                  before it resolves, so the parent reads
//	                                  it before any call the snippet makes
//	                                  next); otherwise it will never be. A
//	                                  result left without an ack when the
//	                                  run ends was not delivered.
//	stdout, stderr                    console output, as it is printed,
//	                                  in raw payloads (above); a payload of
//	                                  outStdoutHeld or outStderrHeld alone
//	                                  says that the run holds that stream's
//	                                  further output back until it ends
//	                                  (runtime.OutputHolder)
//	done    {done: result, heap, ended?}  the run's result, and the memory
//	                                  the worker holds after it (see
//	                                  heldMemory); the worker then waits for
//	                                  the next run, unless ended says its
//	                                  session ended (then it exits). It has
//	                                  no trace: the parent accounts for the
//	                                  calls it was sent.
//
// Parent to worker:
//
//	run     {run: request}            after ready, and again after each done
//	                                  when the parent reuses the worker
//	result  {seq, result | error, notFound?, limit?, ack?}   the answer
//	                                  to call seq; limit: the error is a
//	                                  limit that ends the run; ack: the
//	                                  parent waits for an ack of the result
//	                                  (it has a finalizer: see
//	                                  registry.Result.OnDelivered)
//
// A worker serves runs one at a time until the parent closes the pipe
// between two runs (then it exits) or kills it: each run in a fresh VM,
// or, when the first request says session, every run of one session in
// one VM. Call seqs are unique for the worker's life, so that a late
// answer to a call of an earlier run reaches nobody, and a late cancel of
// one is ignored by the parent. Anything else (an unknown type, a
// malformed or oversized frame, a call after done, a run during a run, an
// ack the parent did not ask for) is a protocol error, on which the parent
// kills the worker, or the worker exits.

// protocolVersion is sent in ready; the parent refuses a worker that speaks
// another version (a different build of the executable). 6: reuse (done
// carries heap) and ack; 7: console output in raw payloads; 8: held
// output.
const protocolVersion = 8

// The first byte of a raw payload, which holds console output: which
// stream the bytes after it are of. Neither can start a JSON payload.
const (
	outStdout byte = 1
	outStderr byte = 2
	// A payload of one byte, outStdout or outStderr plus heldOffset: the
	// run holds that stream's further output back (see message.Held).
	heldOffset    = 2
	outStdoutHeld = outStdout + heldOffset
	outStderrHeld = outStderr + heldOffset
)

// MaxFrameSize bounds one protocol message: a run request, a tool call or
// result, a chunk of output, or a run's result. A tool result or a return
// value that would not fit is replaced by an error saying so.
const MaxFrameSize = 64 << 20

// Message types.
const (
	msgReady  = "ready"
	msgRun    = "run"
	msgCall   = "call"
	msgResult = "result"
	msgCancel = "cancel"
	msgAck    = "ack"
	msgStdout = "stdout"
	msgStderr = "stderr"
	msgDone   = "done"
)

// message is every protocol message; Type says which fields are set.
type message struct {
	Type string `json:"type"`

	// ready
	Version int    `json:"version,omitempty"`
	PID     int    `json:"pid,omitempty"`
	Error   string `json:"error,omitempty"` // also in result: the call failed

	// run
	Run *runRequest `json:"run,omitempty"`

	// call, result, cancel
	Seq      uint64         `json:"seq,omitempty"`
	Name     string         `json:"name,omitempty"`
	Params   map[string]any `json:"params,omitempty"`
	Result   *toolResult    `json:"result,omitempty"`
	NotFound bool           `json:"notFound,omitempty"` // the error is registry.ErrToolNotFound
	Limit    bool           `json:"limit,omitempty"`    // the error is a *runtime.LimitError
	// Ends says the error ends the run: "paused" (toolcall.ErrPaused) or
	// "diverged" (toolcall.ErrDiverged).
	Ends string `json:"ends,omitempty"`
	// Ack, in a result, asks the worker for an ack of it; Delivered, in
	// an ack, says the result was delivered.
	Ack       bool `json:"ack,omitempty"`
	Delivered bool `json:"delivered,omitempty"`
	// Tail is the length of the bytes that follow the message's JSON in
	// its frame: a result's details, as JSON text.
	Tail int `json:"tail,omitempty"`

	// stdout, stderr: the bytes printed (a raw payload; see
	// encodeFrame)
	Data string `json:"-"`
	// Held, on stdout or stderr with no Data, says that the run holds the
	// stream's further output back until it ends; a raw payload too.
	Held bool `json:"-"`

	// done
	Done *wireResult `json:"done,omitempty"`
	// Ended, in a session's done: why the worker's session ended (its VM
	// is unusable); the worker then exits.
	Ended string `json:"ended,omitempty"`
	// Heap, in done: the memory the worker holds after the run, in bytes
	// (see heldMemory); the parent retires a worker that holds too much.
	Heap uint64 `json:"heap,omitempty"`
}

// toolResult is a registry.Result on the wire. Its details stay JSON text
// all the way, so the snippet sees their keys in the order the host's tool
// produced them (a map decoded in between would sort them), and they are
// neither scanned nor copied by the frame's JSON: they travel as the
// frame's tail (see message.Tail).
type toolResult struct {
	Content []registry.Content `json:"content"`
	Details json.RawMessage    `json:"-"`
	IsError bool               `json:"isError"`
}

// wireToolResult prepares res for the wire.
func wireToolResult(res registry.Result) (*toolResult, error) {
	details, err := res.DetailsJSON()
	if err != nil {
		return nil, err
	}
	return &toolResult{Content: res.Content, Details: details, IsError: res.IsError}, nil
}

// result turns a wire result back into a registry.Result whose details
// (when there are any) are the JSON text the host sent.
func (tr *toolResult) result() registry.Result {
	res := registry.Result{Content: tr.Content, IsError: tr.IsError}
	if len(tr.Details) > 0 {
		res.Details = tr.Details
	}
	return res
}

// runRequest is what a worker needs for one run. Everything a run sees
// of its host comes with it: a reused worker keeps nothing of an earlier
// request but, when SameTools is set, its tool list.
type runRequest struct {
	Source string `json:"source"`
	// Options are the run's, as they cross as JSON (see runtime.Options):
	// its filename, limits, process global and flags.
	Options runtime.Options `json:"options"`
	Tools   []registry.Info `json:"tools,omitempty"`
	// SameTools says that the run's tools are those of the worker's
	// previous run (a pool reuses a worker only for the same tools), and
	// Tools is empty: the built-in tools' list is some 15 KB of JSON to
	// encode and decode per run otherwise.
	SameTools bool `json:"sameTools,omitempty"`
	// Session asks the worker to keep its VM for further runs (see
	// serveSession); it is read from the first request only.
	Session bool `json:"session,omitempty"`
}

// wireTools is what a worker needs of the tools it binds: each tool's
// name, namespace and call signature, and of its parameters schema only
// the properties, each as {} or, for a property whose type is "object",
// {"type": "object"} (what package bindings reads to map positional
// arguments onto parameters). Descriptions, examples, labels and the rest
// of the schemas stay in the parent, which validates every call itself:
// sending them would only cost encoding and decoding at every run.
func wireTools(tools []registry.Info) []registry.Info {
	out := make([]registry.Info, len(tools))
	for i, t := range tools {
		out[i] = registry.Info{Name: t.Name, Namespace: t.Namespace, CallSignature: t.CallSignature}
		props, ok := t.Parameters["properties"].(map[string]any)
		if !ok {
			continue
		}
		slim := make(map[string]any, len(props))
		for name, p := range props {
			prop, ok := p.(map[string]any)
			if !ok {
				continue
			}
			if prop["type"] == "object" {
				slim[name] = map[string]any{"type": "object"}
			} else {
				slim[name] = map[string]any{}
			}
		}
		out[i].Parameters = map[string]any{"properties": slim}
	}
	return out
}

// wireResult is a runtime.Result with the fields its JSON form leaves out.
type wireResult struct {
	Value     json.RawMessage `json:"value,omitempty"`
	ValueText string          `json:"valueText,omitempty"`
	Stdout    string          `json:"stdout,omitempty"`
	Stderr    string          `json:"stderr,omitempty"`
	Error     *runtime.Error  `json:"error,omitempty"`
	// Timeout says the error is the run's timeout, whose cause (lost in
	// JSON) is context.DeadlineExceeded.
	Timeout bool `json:"timeout,omitempty"`
	// Memory says the error is the run's memory limit (its cause is
	// runtime.ErrMemoryLimit).
	Memory    bool          `json:"memory,omitempty"`
	Duration  time.Duration `json:"duration,omitempty"`
	Truncated bool          `json:"truncated,omitempty"`
	// Streamed says that Stdout and Stderr are left out: the run's output
	// was not truncated, so it is exactly what the worker streamed, which
	// the parent kept whole (a flood of output would otherwise cross
	// twice).
	Streamed bool `json:"streamed,omitempty"`
	// Sources are what the run read of the clock and randomness.
	Sources *runtime.Sources `json:"sources,omitempty"`
}

func toWire(r *runtime.Result) *wireResult {
	w := &wireResult{
		Value: r.Value, ValueText: r.ValueText, Stdout: r.Stdout, Stderr: r.Stderr,
		Error: r.Error, Duration: r.Duration, Truncated: r.Truncated, Sources: r.Sources,
		Timeout: r.Error != nil && r.Error.Kind == runtime.KindLimit && errors.Is(r.Error, context.DeadlineExceeded),
		Memory:  r.Error != nil && r.Error.Kind == runtime.KindLimit && errors.Is(r.Error, runtime.ErrMemoryLimit),
	}
	return w
}

func (w *wireResult) result() *runtime.Result {
	r := &runtime.Result{
		Value: w.Value, ValueText: w.ValueText, Stdout: w.Stdout, Stderr: w.Stderr,
		Error: w.Error, Duration: w.Duration, Truncated: w.Truncated, Sources: w.Sources,
	}
	if e := r.Error; e != nil && e.Kind == runtime.KindLimit {
		// The Go cause does not cross the boundary; a limit is a limit.
		var cause error
		switch {
		case w.Timeout:
			cause = context.DeadlineExceeded
		case w.Memory:
			cause = runtime.ErrMemoryLimit
		}
		r.Error = e.WithCause(runtime.NewLimitError(e.Message, cause))
	}
	return r
}

// errFrameTooLarge is returned for a frame over MaxFrameSize.
var errFrameTooLarge = errors.New("frame too large")

// errEncode is returned for a message that cannot be encoded as JSON.
var errEncode = errors.New("cannot be encoded as JSON")

// encodeFrame returns the frame of m, or an error wrapping errFrameTooLarge
// when its payload is over max bytes. Console output (stdout, stderr) is a
// raw payload; every other message is JSON, and a result's details follow
// the JSON as they are (m.Tail is set to their length).
func encodeFrame(m *message, max int) ([]byte, error) {
	if kind, ok := outputKind(m.Type); ok {
		if m.Held {
			if m.Data != "" {
				return nil, fmt.Errorf("%s message: %w: a held mark carries no data", m.Type, errEncode)
			}
			kind += heldOffset
		}
		if n := 1 + len(m.Data); n > max {
			return nil, fmt.Errorf("%s message of %d bytes: %w (the limit is %d bytes)", m.Type, n, errFrameTooLarge, max)
		}
		frame := append(make([]byte, outputHeader, outputHeader+len(m.Data)), m.Data...)
		putOutputHeader(frame, kind)
		return frame, nil
	}
	var tail []byte
	if m.Result != nil {
		tail = m.Result.Details
		// Its JSON is at least as long as the text it carries: a result
		// whose text alone is over max is refused before it is encoded,
		// which would copy all of it twice first.
		n := len(tail)
		for _, c := range m.Result.Content {
			n += len(c.Text) + len(c.Data)
		}
		if n > max {
			return nil, fmt.Errorf("%s message of over %d bytes: %w (the limit is %d bytes)", m.Type, n, errFrameTooLarge, max)
		}
	}
	head := *m
	head.Tail = len(tail)
	var b bytes.Buffer
	b.Write([]byte{0, 0, 0, 0})
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&head); err != nil {
		return nil, fmt.Errorf("%s message %w: %w", m.Type, errEncode, err)
	}
	frame := append(bytes.TrimSuffix(b.Bytes(), []byte("\n")), tail...)
	n := len(frame) - 4
	if n > max {
		return nil, fmt.Errorf("%s message of %d bytes: %w (the limit is %d bytes)", m.Type, n, errFrameTooLarge, max)
	}
	binary.BigEndian.PutUint32(frame, uint32(n))
	return frame, nil
}

// outputHeader is the size of the header of a frame of console output:
// its length and the byte that says which stream.
const outputHeader = 5

// outputKind returns the first byte of a raw payload of console output of
// message type typ, and whether typ is such output.
func outputKind(typ string) (byte, bool) {
	switch typ {
	case msgStdout:
		return outStdout, true
	case msgStderr:
		return outStderr, true
	}
	return 0, false
}

// putOutputHeader fills in the header of frame, a frame of console output
// of kind (outStdout or outStderr) whose first outputHeader bytes are kept
// for it.
func putOutputHeader(frame []byte, kind byte) {
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	frame[4] = kind
}

// frameWriter sends messages as frames on one pipe; send is safe for
// concurrent use, each frame written whole.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// send encodes m and writes its frame.
func (f *frameWriter) send(m *message) error {
	frame, err := encodeFrame(m, MaxFrameSize)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err = f.w.Write(frame)
	return err
}

// write writes frame, a whole frame.
func (f *frameWriter) write(frame []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.w.Write(frame)
	return err
}

// readFrame reads one frame from r and returns its payload. It returns
// io.EOF when r ends cleanly before a frame, io.ErrUnexpectedEOF when it ends
// inside one, and an error wrapping errFrameTooLarge for a length of 0 or
// over max, before reading the payload. Memory grows with the bytes actually
// read, not with the announced length.
func readFrame(r io.Reader, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	switch {
	case n == 0:
		return nil, errors.New("empty frame")
	case uint64(n) > uint64(max):
		return nil, fmt.Errorf("frame of %d bytes: %w (the limit is %d bytes)", n, errFrameTooLarge, max)
	}
	const chunk = 1 << 20
	if n <= chunk {
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, eofInFrame(err)
		}
		return buf, nil
	}
	var buf bytes.Buffer
	buf.Grow(chunk)
	if _, err := io.CopyN(&buf, r, int64(n)); err != nil {
		return nil, eofInFrame(err)
	}
	return buf.Bytes(), nil
}

func eofInFrame(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readMessage reads and decodes one message.
func readMessage(r io.Reader) (*message, error) {
	payload, err := readFrame(r, MaxFrameSize)
	if err != nil {
		return nil, err
	}
	return decodeMessage(payload)
}

// decodeMessage decodes a frame's payload: console output in a raw
// payload, or the message's JSON, then its tail (a result's details).
func decodeMessage(payload []byte) (*message, error) {
	if len(payload) > 0 {
		switch payload[0] {
		case outStdout:
			return &message{Type: msgStdout, Data: string(payload[1:])}, nil
		case outStderr:
			return &message{Type: msgStderr, Data: string(payload[1:])}, nil
		case outStdoutHeld, outStderrHeld:
			if len(payload) != 1 {
				return nil, fmt.Errorf("decode message: a held mark of %d bytes, not 1", len(payload))
			}
			typ := msgStdout
			if payload[0] == outStderrHeld {
				typ = msgStderr
			}
			return &message{Type: typ, Held: true}, nil
		}
	}
	m := &message{}
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(m); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	if m.Type == "" {
		return nil, errors.New("decode message: no type")
	}
	if _, ok := outputKind(m.Type); ok {
		return nil, fmt.Errorf("decode message: %s output in JSON, not in a raw payload", m.Type)
	}
	rest := payload[dec.InputOffset():]
	switch {
	case m.Tail < 0 || m.Tail != len(rest):
		return nil, fmt.Errorf("decode message: its tail is %d bytes, not the %d it announces", len(rest), m.Tail)
	case m.Tail > 0 && m.Result == nil:
		return nil, errors.New("decode message: a tail without a result")
	case m.Tail > 0:
		m.Result.Details = json.RawMessage(rest)
	}
	m.Tail = 0
	return m, nil
}

// The values of message.Ends.
const (
	endsPaused   = "paused"
	endsDiverged = "diverged"
)

// endingError is, in the worker, the error of a call that ends the run
// (message.Ends): it reads as the host's error and unwraps to the
// toolcall error that ends the run, so that the bindings end it.
func endingError(ends, msg string) error {
	is := toolcall.ErrPaused
	if ends == endsDiverged {
		is = toolcall.ErrDiverged
	}
	return &wireError{msg: msg, is: is}
}

// wireError is an error that crossed the pipe as its text.
type wireError struct {
	msg string
	is  error
}

func (e *wireError) Error() string { return e.msg }
func (e *wireError) Unwrap() error { return e.is }
