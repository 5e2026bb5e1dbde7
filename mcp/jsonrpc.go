package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// JSON-RPC 2.0 error codes of the messages the HTTP face refuses itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
)

// rpcError is a JSON-RPC error response; ID is nil (null) when the
// message's id is unknown or invalid.
type rpcError struct {
	JSONRPC string   `json:"jsonrpc"`
	ID      any      `json:"id"`
	Error   rpcFault `json:"error"`
}

type rpcFault struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func newRPCError(id any, code int, msg string) rpcError {
	return rpcError{JSONRPC: "2.0", ID: id, Error: rpcFault{Code: code, Message: msg}}
}

// writeRPC writes v (an error response or a batch of them) as a 400.
func writeRPC(w http.ResponseWriter, v any) { writeRPCStatus(w, http.StatusBadRequest, v) }

// writeRPCStatus writes v with the HTTP status.
func writeRPCStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// batchesUntil is the first protocol version without JSON-RPC batches.
const batchesUntil = "2025-06-18"

// checkBody checks that a POST body, already known to be JSON, is one
// JSON-RPC 2.0 message or a batch of them, as the SDK would read it. It
// returns nil when it is, else the response to send instead: one error
// response, or for a batch holding invalid messages an array with one
// per invalid message and one per request that was therefore not run.
// The messages say what is wrong in JSON's terms, never Go's. id is the
// id of a body that is one valid message with one (nil otherwise).
func checkBody(body []byte, protocol string) (resp, id any) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '[' {
		id, msg := checkMessage(body)
		if msg != "" {
			return newRPCError(id, codeInvalidRequest, "Invalid Request: "+msg), nil
		}
		return nil, id
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil {
		return newRPCError(nil, codeParseError, "Parse error: "+err.Error()), nil
	}
	if len(batch) == 0 {
		return newRPCError(nil, codeInvalidRequest, "Invalid Request: an empty batch"), nil
	}
	if protocol >= batchesUntil {
		return newRPCError(nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: protocol %s has no batches (they ended with %s)", protocol, batchesUntil)), nil
	}
	var out []rpcError
	bad := 0
	for i, raw := range batch {
		if id, msg := checkMessage(raw); msg != "" {
			bad++
			out = append(out, newRPCError(id, codeInvalidRequest, fmt.Sprintf("Invalid Request: message %d of the batch: %s", i+1, msg)))
		} else if id != nil {
			out = append(out, newRPCError(id, codeInvalidRequest, fmt.Sprintf("Invalid Request: message %d was not run, as the batch holds an invalid message", i+1)))
		}
	}
	if bad == 0 {
		return nil, nil
	}
	return out, nil
}

// checkMessage checks one JSON-RPC message. It returns what is wrong with
// it ("" when nothing is) and its id: nil unless the message has a valid
// id (a string or a number) that a response can carry back.
func checkMessage(raw json.RawMessage) (id any, problem string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, "a message must be a JSON object, not " + jsonKind(raw)
	}
	if v, ok := m["id"]; ok {
		var x any
		_ = json.Unmarshal(v, &x)
		switch x := x.(type) {
		case string, nil:
			id = x
		case float64:
			id = json.Number(bytes.TrimSpace(v))
		default:
			return nil, "the id must be a string or a number, not " + jsonKind(v)
		}
	}
	var version string
	if err := json.Unmarshal(m["jsonrpc"], &version); err != nil || version != "2.0" {
		return id, `"jsonrpc" must be "2.0"`
	}
	if v, ok := m["method"]; ok {
		var method string
		if err := json.Unmarshal(v, &method); err != nil {
			return id, "the method must be a string, not " + jsonKind(v)
		}
		if p, ok := m["params"]; ok && jsonKind(p) != "an object" && jsonKind(p) != "null" {
			return id, "the params must be an object, not " + jsonKind(p)
		}
		return id, ""
	}
	_, result := m["result"]
	_, failed := m["error"]
	switch {
	case !result && !failed:
		return id, `a request needs a "method" (and a response a "result" or an "error")`
	case id == nil:
		return nil, "a response needs the id of its request"
	case failed:
		var e struct {
			Code    *int64 `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(m["error"], &e); err != nil || e.Code == nil {
			return id, `a response's "error" must be an object with a numeric "code" and a string "message"`
		}
	}
	return id, ""
}

// jsonKind names the kind of a JSON value, with its article.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// rpcWriter turns the SDK's plain-text 400s to a POST (a request it
// refuses before it runs it: an unknown method, a missing id or params)
// into JSON-RPC errors: -32601 for an unknown method, else -32600, with
// the id of the message when the body is one message with a valid id.
// Everything else passes through untouched.
type rpcWriter struct {
	http.ResponseWriter
	body    []byte // the request's body
	plain   bool   // the response is a plain-text 400 being rewritten
	written bool
	text    bytes.Buffer
}

func (w *rpcWriter) WriteHeader(status int) {
	if w.written {
		return
	}
	w.written = true
	if status == http.StatusBadRequest && bytes.HasPrefix([]byte(w.Header().Get("Content-Type")), []byte("text/plain")) {
		w.plain = true
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	if w.plain {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (to flush a
// stream of events).
func (w *rpcWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush flushes a response that is passed through.
func (w *rpcWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.plain {
		f.Flush()
	}
}

// finish writes the JSON-RPC error of a rewritten response and returns
// its message ("" when the response passed through).
func (w *rpcWriter) finish() string {
	if !w.plain {
		return ""
	}
	msg := strings.TrimSpace(w.text.String())
	code := codeInvalidRequest
	if m, ok := strings.CutPrefix(msg, "JSON RPC not handled: "); ok {
		code, msg = codeMethodNotFound, "Method not found: "+m
	} else {
		msg = "Invalid Request: " + strings.TrimPrefix(msg, "invalid request: ")
	}
	var id any
	if b := bytes.TrimSpace(w.body); len(b) > 0 && b[0] == '{' {
		id, _ = checkMessage(b)
	}
	w.Header().Del("X-Content-Type-Options")
	writeRPC(w.ResponseWriter, newRPCError(id, code, msg))
	return msg
}

// rpcMessage is the message of the JSON-RPC error response v (of
// checkBody), or of the first of a batch of them.
func rpcMessage(v any) string {
	switch v := v.(type) {
	case rpcError:
		return v.Error.Message
	case []rpcError:
		if len(v) > 0 {
			return v[0].Error.Message
		}
	}
	return ""
}
