package mcptools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/codeexec/codeexec/registry"
)

// MessageTooLargeError is the error of a call whose server sent a message
// over ClientOptions.MaxMessageBytes: the connection reads no further
// than the limit.
type MessageTooLargeError struct {
	Limit int // the limit, in bytes
}

// Error says that the server sent too much, and the limit.
func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("the server sent a message over %d bytes, the limit on one message from an MCP server (and on a tool result)", e.Limit)
}

// sdkMaxDepth is how deeply the SDK lets a message nest; it refuses a
// deeper one whole.
const sdkMaxDepth = 1000

// inbound watches every byte a connection reads from its server: it caps
// each message at limit bytes and takes out of a tools/list result the
// schemas nested too deeply for the SDK to decode the result (which would
// lose every tool of the server for one), remembering the tools they
// belong to.
type inbound struct {
	limit int

	mu    sync.Mutex
	cause error            // why the last stream broke (a message over the limit, a line not JSON), until taken
	deep  map[string]error // tool name -> why its schemas were pruned
}

func newInbound(limit int) *inbound { return &inbound{limit: limit, deep: map[string]error{}} }

// broke records and returns why a stream broke.
func (in *inbound) broke(err error) error {
	in.mu.Lock()
	in.cause = err
	in.mu.Unlock()
	return err
}

// tooLarge records and returns the error of a message over the limit.
func (in *inbound) tooLarge() error {
	return in.broke(&MessageTooLargeError{Limit: in.limit})
}

// takeCause returns why a stream last broke, if one did since the last
// take.
func (in *inbound) takeCause() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	err := in.cause
	in.cause = nil
	return err
}

// deepTool says why a schema of the tool name was pruned, nil if none
// was; the error is worded as the registry words its own refusal.
func (in *inbound) deepTool(name string) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.deep[name]
}

// prune returns msg with every tool's inputSchema and outputSchema that
// nests so deeply the SDK would refuse the message replaced by an empty
// object schema, when msg is a tools/list result the SDK would refuse for
// its depth; else msg itself.
func (in *inbound) prune(msg []byte) []byte {
	if jsonDepth(msg) <= sdkMaxDepth {
		return msg
	}
	var m struct {
		JSONRPC string                     `json:"jsonrpc"`
		ID      json.RawMessage            `json:"id"`
		Result  map[string]json.RawMessage `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Result == nil || m.Result["tools"] == nil {
		return msg
	}
	var tools []map[string]json.RawMessage
	if json.Unmarshal(m.Result["tools"], &tools) != nil {
		return msg
	}
	for _, t := range tools {
		var name string
		_ = json.Unmarshal(t["name"], &name)
		for _, k := range []string{"outputSchema", "inputSchema"} {
			// The message's envelope and the tool's place in it take
			// six levels: keep the schemas well clear of the SDK's limit.
			if d := jsonDepth(t[k]); d > sdkMaxDepth-16 {
				t[k] = json.RawMessage(`{"type":"object"}`)
				what := "parameters"
				if k == "outputSchema" {
					what = "output"
				}
				in.mu.Lock()
				in.deep[name] = fmt.Errorf("%s schema is nested %d levels deep, more than the %d allowed (each object or array is a level)", what, d, registry.MaxSchemaDepth)
				in.mu.Unlock()
			}
		}
	}
	b, err := json.Marshal(tools)
	if err != nil {
		return msg
	}
	m.Result["tools"] = b
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// jsonDepth is how deeply JSON text nests objects and arrays.
func jsonDepth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// lineReader passes on a stream of lines, each at most the limit: the
// messages of a stdio server (one a line) or the lines of a server-sent
// event stream (where the limit is on an event: the lines up to a blank
// one). A message's line is pruned (see inbound.prune). Past the limit,
// Read fails with a MessageTooLargeError, having kept at most the limit.
type lineReader struct {
	in    *inbound
	r     *bufio.Reader
	src   io.Closer
	sse   bool
	onEOF func() // called when the stream ends, when set

	line  []byte // the line being passed on
	event int    // the bytes of the event so far (SSE)
	err   error
}

func newLineReader(in *inbound, r io.ReadCloser, sse bool) *lineReader {
	return &lineReader{in: in, r: bufio.NewReaderSize(r, 64<<10), src: r, sse: sse}
}

func (l *lineReader) Read(p []byte) (int, error) {
	for len(l.line) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.next()
	}
	n := copy(p, l.line)
	l.line = l.line[n:]
	return n, nil
}

// next reads the next line into l.line, or sets l.err.
func (l *lineReader) next() {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(line)+len(chunk)+l.event > l.in.limit {
			l.err = l.in.tooLarge()
			return
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && l.onEOF != nil {
				l.onEOF()
			}
			l.err = err
		}
		break
	}
	if !l.sse {
		// A line cut short by the stream's end is the end's doing.
		if t := bytes.TrimSpace(line); len(t) > 0 && bytes.HasSuffix(line, []byte("\n")) && !json.Valid(t) {
			if len(t) > 100 {
				t = append(t[:100:100], "…"...)
			}
			l.line, l.err = nil, l.in.broke(fmt.Errorf("the server wrote a line that is not JSON: %q", t))
			return
		}
		l.line = l.in.prune(line)
		return
	}
	l.line = line
	if len(bytes.TrimRight(line, "\r\n")) == 0 {
		l.event = 0
		return
	}
	l.event += len(line)
	if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && jsonDepth(data) > sdkMaxDepth {
		data = bytes.TrimSpace(data)
		l.line = append(append([]byte("data: "), l.in.prune(data)...), '\n')
	}
}

func (l *lineReader) Close() error { return l.src.Close() }

// bodyReader reads a whole body of at most the limit (one JSON message,
// or an error's text), then passes it on pruned. It reads nothing before
// its first Read.
type bodyReader struct {
	in   *inbound
	src  io.ReadCloser
	json bool
	rest *bytes.Reader
	err  error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.rest == nil && b.err == nil {
		body, err := io.ReadAll(io.LimitReader(b.src, int64(b.in.limit)+1))
		switch {
		case len(body) > b.in.limit:
			b.err = b.in.tooLarge()
		case err != nil:
			b.err = err
		default:
			if b.json {
				body = b.in.prune(body)
			}
			b.rest = bytes.NewReader(body)
		}
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.rest.Read(p)
}

func (b *bodyReader) Close() error { return b.src.Close() }

// limitTransport gives every response body of an HTTP server's transport
// the inbound's limit: an event stream's by event, any other body whole.
type limitTransport struct {
	in   *inbound
	next http.RoundTripper
}

func (t limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "text/event-stream" {
		resp.Body = newLineReader(t.in, resp.Body, true)
	} else {
		resp.Body = &bodyReader{in: t.in, src: resp.Body, json: ct == "application/json"}
	}
	return resp, nil
}
