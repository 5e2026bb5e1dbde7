package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/promptgen"
)

// Monitor is told what a Server does, for a host's metrics and traces
// (ServerOptions.Monitor): the MCP messages it handles and the HTTP
// requests it refuses. Package metrics implements it for Prometheus and
// package tracing for OpenTelemetry. Its methods are called concurrently
// and must not block.
type Monitor interface {
	// StartRequest is called as the server begins to handle an MCP request
	// or notification from a client, with its context; the context it
	// returns is the handler's (a tracer returns it with the server span,
	// the parent of the run's). end, when not nil, is called once the
	// handler returned.
	StartRequest(ctx context.Context, req RequestInfo) (context.Context, func(RequestEnd))
	// Refused is called for each HTTP request the HTTP face refused.
	Refused(r Refusal)
}

// RequestInfo describes an MCP message as the server begins to handle it.
// Every field but RequestID, Meta and Header holds one of a bounded set of
// values, or an id the server made.
type RequestInfo struct {
	// Method is the message's method when the MCP specification defines
	// it ("tools/call", "initialize", ...), and "other" otherwise: a
	// client cannot make it take a value of its own.
	Method string
	// Tool is, for tools/call, the tool called: "code_execution", or
	// "other" for a name the server does not serve.
	Tool string
	// RequestID is the JSON-RPC id of a request, as text: a number's
	// decimal digits, a string as it is. It is "" for a notification, and
	// for a request of a JSON-RPC batch over HTTP (protocols before
	// 2025-06-18), whose messages share the HTTP request they came in. The
	// client chooses it: it is never a metric's label.
	RequestID string
	// SessionID is the MCP session's id (HTTP with sessions), or "".
	SessionID string
	// ProtocolVersion is the protocol version of the session, once
	// initialized ("" before, and for a stateless server's requests).
	ProtocolVersion string
	// Meta is the request's params._meta (where a client puts its W3C
	// trace context, "traceparent" and "tracestate"); nil when none.
	Meta map[string]any
	// Header is the HTTP request's header (HTTP only; nil on stdio).
	Header http.Header
}

// RequestEnd is how the server answered an MCP message.
type RequestEnd struct {
	// Err is the error the server answered with (a JSON-RPC error
	// response); nil when it answered with a result.
	Err error
	// ToolError is set for a tools/call whose result is an error result
	// (isError: the snippet failed, or its arguments were wrong).
	ToolError bool
}

// ErrorType classifies the answer in a few fixed words (the
// OpenTelemetry attribute error.type): "" for a result, "tool_error" for
// an error result of tools/call, the JSON-RPC error code ("-32602") of an
// error response that has one, "error" for any other.
func (e RequestEnd) ErrorType() string {
	var rpc *jsonrpc.Error
	switch {
	case e.Err == nil && e.ToolError:
		return "tool_error"
	case e.Err == nil:
		return ""
	case errors.As(e.Err, &rpc):
		return strconv.FormatInt(rpc.Code, 10)
	}
	return "error"
}

// Refusal describes an HTTP request the HTTP face refused.
type Refusal struct {
	// Status is the HTTP status of the answer.
	Status int
	// Reason is why, one of the Refused constants.
	Reason string
}

// Why the HTTP face refused a request: Refusal.Reason, and the reason of
// its log line.
const (
	// RefusedTokenRequired: a token is set and the request carries no
	// bearer token (401).
	RefusedTokenRequired = "token_required"
	// RefusedInvalidToken: the request's bearer token is not the
	// server's (401).
	RefusedInvalidToken = "invalid_token"
	// RefusedHost: the Host header names a host not allowed (403).
	RefusedHost = "host"
	// RefusedOrigin: the Origin header names a host not allowed (403).
	RefusedOrigin = "origin"
	// RefusedBadRequest: the body is not JSON-RPC, or the MCP transport
	// refused the request as malformed (400).
	RefusedBadRequest = "bad_request"
	// RefusedTooLarge: the body is over the limit of a request (413).
	RefusedTooLarge = "too_large"
	// RefusedBusy: the request would open a session past
	// HTTPOptions.MaxSessions (503).
	RefusedBusy = "busy"
	// RefusedSession: the request names a session the server does not
	// have (404): one that ended, or one of a server that restarted.
	RefusedSession = "unknown_session"
	// RefusedOther: another refusal of the MCP transport (a method other
	// than GET, POST and DELETE; an Accept or Content-Type it does not
	// serve).
	RefusedOther = "other"
)

// reasonOf is the reason of a refusal of the MCP transport with status.
func reasonOf(status int) string {
	switch status {
	case http.StatusBadRequest:
		return RefusedBadRequest
	case http.StatusNotFound:
		return RefusedSession
	case http.StatusRequestEntityTooLarge:
		return RefusedTooLarge
	}
	return RefusedOther
}

// methods are the methods of the MCP specification a client sends.
var methods = map[string]bool{
	"initialize": true, "ping": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"prompts/list": true, "prompts/get": true,
	"completion/complete": true, "logging/setLevel": true,
	"tasks/get": true, "tasks/list": true, "tasks/cancel": true, "tasks/result": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
	"notifications/message": true,
}

// Method is the bounded form of a client's method: method itself when the
// MCP specification defines it, otherwise "other".
func Method(method string) string {
	if methods[method] {
		return method
	}
	return "other"
}

// observe is the receiving middleware that tells the monitor about each
// message.
func (s *Server) observe(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		info := RequestInfo{Method: Method(method)}
		params := req.GetParams()
		if v := reflect.ValueOf(params); params != nil && (v.Kind() != reflect.Pointer || !v.IsNil()) {
			info.Meta = params.GetMeta()
			if call, ok := params.(*sdk.CallToolParamsRaw); ok {
				info.Tool = "other"
				if call.Name == promptgen.ToolName {
					info.Tool = promptgen.ToolName
				}
			}
			if ip, ok := params.(*sdk.InitializeParams); ok && ip.ProtocolVersion != "" {
				info.ProtocolVersion = ip.ProtocolVersion
			}
		}
		if ss, ok := req.GetSession().(*sdk.ServerSession); ok && ss != nil {
			info.SessionID = ss.ID()
			if ip := ss.InitializeParams(); ip != nil && info.ProtocolVersion == "" {
				info.ProtocolVersion = ip.ProtocolVersion
			}
		}
		if extra := req.GetExtra(); extra != nil {
			info.Header = extra.Header
			info.RequestID = s.ids.find(extra)
		}
		ctx, end := s.monitor.StartRequest(ctx, info)
		res, err := next(ctx, method, req)
		if end != nil {
			r, _ := res.(*sdk.CallToolResult)
			end(RequestEnd{Err: err, ToolError: r != nil && r.IsError})
		}
		return res, err
	}
}

// logRun writes the end of a run to the log: at debug level, or as a
// warning when codeexec itself failed (a worker that died, say).
func (s *Server) logRun(ctx context.Context, run int64, session string, res *codeexec.Result) {
	level := slog.LevelDebug
	if res.Error != nil && res.Error.Kind == codeexec.KindInternal {
		level = slog.LevelWarn
	}
	if !s.log.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{
		slog.Int64("run", run),
		slog.String("outcome", string(res.Outcome())),
		slog.Duration("duration", res.Duration.Round(time.Microsecond)),
		slog.Int("tool_calls", len(res.ToolCalls)),
	}
	if session != "" {
		attrs = append(attrs, slog.String("session", session))
	}
	if k := res.LimitKind(); k != "" {
		attrs = append(attrs, slog.String("limit", k))
	}
	if res.Error != nil {
		attrs = append(attrs, slog.String("error_kind", string(res.Error.Kind)))
		if level == slog.LevelWarn {
			attrs = append(attrs, slog.String("error", res.Error.Message))
		}
	}
	s.log.LogAttrs(ctx, level, "run ended", attrs...)
}

// refused logs a refused HTTP request and tells the monitor; attrs say
// more (never the token).
func (s *Server) refused(r *http.Request, status int, reason string, attrs ...slog.Attr) {
	if s.monitor != nil {
		s.monitor.Refused(Refusal{Status: status, Reason: reason})
	}
	if !s.log.Enabled(r.Context(), slog.LevelWarn) {
		return
	}
	all := append([]slog.Attr{
		slog.Int("status", status),
		slog.String("reason", reason),
		slog.String("remote", r.RemoteAddr),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
	}, attrs...)
	s.log.LogAttrs(r.Context(), slog.LevelWarn, "refused request", all...)
}

// statusRecorder notes the status of a response the MCP transport
// writes, to tell a refusal.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush flushes the response (a stream of events).
func (w *statusRecorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Monitors combines monitors into one that tells each of them, in order:
// the context one returns is the next one's. nil monitors are skipped;
// Monitors of none is nil.
func Monitors(ms ...Monitor) Monitor {
	var all multiMonitor
	for _, m := range ms {
		if m != nil {
			all = append(all, m)
		}
	}
	switch len(all) {
	case 0:
		return nil
	case 1:
		return all[0]
	}
	return all
}

type multiMonitor []Monitor

func (m multiMonitor) StartRequest(ctx context.Context, req RequestInfo) (context.Context, func(RequestEnd)) {
	var ends []func(RequestEnd)
	for _, mon := range m {
		var end func(RequestEnd)
		if ctx, end = mon.StartRequest(ctx, req); end != nil {
			ends = append(ends, end)
		}
	}
	return ctx, func(e RequestEnd) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](e)
		}
	}
}

func (m multiMonitor) Refused(r Refusal) {
	for _, mon := range m {
		mon.Refused(r)
	}
}
