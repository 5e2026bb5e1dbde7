package mcp

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/store"
)

// TokenEnv is the environment variable the CLI reads the HTTP face's
// bearer token from when --token is not given.
const TokenEnv = "CODEEXEC_MCP_TOKEN"

// Tools describes the tools a served Runner binds; a *registry.Registry
// is one.
type Tools interface {
	Tools() []registry.Info
}

// ServerOptions configure a Server. The zero value is usable.
type ServerOptions struct {
	// Name and Version identify the server to clients (default
	// "codeexec" and "dev").
	Name, Version string
	// Prompt are the options of the prompt block in code_execution's
	// description; its Limits default to the runner's.
	Prompt promptgen.Options
	// NoSessions runs every call in a fresh global scope. By default each
	// MCP session is one codeexec Session: a snippet's top-level
	// declarations carry to the next call of the same MCP session, and a
	// call with "reset": true starts it afresh. A stateless HTTP server,
	// where any request may reach any replica, sets it.
	NoSessions bool
	// Logger receives the server's log: the end of each run (debug; a
	// warning when codeexec itself failed), the MCP sessions opened and
	// closed (debug), and each HTTP request the HTTP face refused
	// (warning, with the reason and the remote address, never a token).
	// nil logs nothing.
	Logger *slog.Logger
	// Monitor, when set, is told each MCP message the server handles and
	// each HTTP request it refuses (metrics, traces).
	Monitor Monitor
	// Store, when set, is where the HTTP face keeps what restores the MCP
	// session of a client of a protocol before 2026-07-28 on any replica
	// that shares it (the client's initialize parameters); give it the
	// Runner's store (codeexec.Options.Store), which keeps the sessions
	// themselves. Without it an MCP session lives in one process.
	Store store.Store
}

// Server serves one MCP tool, code_execution, which runs a snippet with a
// Runner. It is safe for concurrent use: any number of sessions (stdio,
// or HTTP clients) and calls run at once, each call its own run.
type Server struct {
	runner     *codeexec.Runner
	srv        *sdk.Server
	noSessions bool
	log        *slog.Logger
	monitor    Monitor
	ids        requestIDs   // the JSON-RPC ids of requests, for the monitor
	streams    streams      // the HTTP face's open SSE streams
	runs       atomic.Int64 // numbers the runs in the log

	store store.Store

	mu       sync.Mutex
	sessions map[*sdk.ServerSession]*liveSession // one per MCP session, closed with it
	// restoring is the id of the MCP session being restored (see
	// restore), which the next new MCP session takes; restored are the
	// ids restored in this process.
	restoring string
	restored  map[string]bool
}

// NewServer returns a Server whose code_execution tool runs snippets with
// runner; its description is promptgen.DefaultDescription followed by the
// prompt block of tools as they are now (tools is normally the registry
// runner was built with). A call's result has the run's Text as its text
// content, IsError set when the run failed, and the run's JSON
// (codeexec.JSONResult, declared by codeexec.ResultSchema) as its
// structured content. When the client sends a progress token, the run's
// events are reported as progress notifications; a cancelled request
// cancels its run.
func NewServer(runner *codeexec.Runner, tools Tools, opts ServerOptions) *Server {
	if opts.Name == "" {
		opts.Name = "codeexec"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{runner: runner, noSessions: opts.NoSessions, sessions: map[*sdk.ServerSession]*liveSession{},
		log: opts.Logger, monitor: opts.Monitor, store: opts.Store, restored: map[string]bool{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: opts.Name, Version: opts.Version}, &sdk.ServerOptions{GetSessionID: s.newSessionID})
	if s.monitor != nil {
		s.srv.AddReceivingMiddleware(s.observe)
	}
	if s.store != nil {
		s.srv.AddReceivingMiddleware(s.keepInitialize)
	}
	params := promptgen.Parameters()
	if !opts.NoSessions {
		opts.Prompt.Session = true
		props := params["properties"].(map[string]any)
		props["reset"] = map[string]any{
			"type":        "boolean",
			"description": "Start the session afresh before this snippet: forget what earlier snippets declared.",
		}
		props[sessionParam] = map[string]any{"type": "string", "description": sessionParamDescription}
	}
	if opts.Prompt.Limits == nil {
		l := runner.Limits()
		opts.Prompt.Limits = &promptgen.Limits{Timeout: l.Timeout, MaxCalls: l.MaxCalls, MaxOutputBytes: l.MaxOutputBytes}
	}
	desc := promptgen.DefaultDescription + "\n\n" + strings.TrimRight(promptgen.Render(tools.Tools(), opts.Prompt), "\n")
	s.srv.AddTool(&sdk.Tool{
		Name:         promptgen.ToolName,
		Title:        "Code execution",
		Description:  desc,
		InputSchema:  params,
		OutputSchema: outputSchema(),
	}, s.call)
	return s
}

// outputSchema is code_execution's output schema: codeexec.ResultSchema
// and the session handle.
func outputSchema() json.RawMessage {
	var schema map[string]any
	if err := json.Unmarshal([]byte(codeexec.ResultSchema), &schema); err != nil {
		panic(err) // a test checks that ResultSchema is JSON
	}
	schema["properties"].(map[string]any)[sessionParam] = map[string]any{
		"type":        "string",
		"description": "the handle of the session the snippet ran in, for a client without MCP sessions (protocol 2026-07-28): pass it as the \"session\" argument to go on with the session",
	}
	raw, _ := json.Marshal(schema)
	return raw
}

// input is code_execution's arguments.
type input struct {
	Code    *string `json:"code"`
	Reset   bool    `json:"reset"`
	Session string  `json:"session"`
}

// parseInput decodes a code_execution call's arguments, or says what is
// wrong with them in the words of JSON ("\"code\" must be a string, got
// a JSON number"), never Go's.
func parseInput(raw json.RawMessage) (input, string) {
	var args any
	if err := json.Unmarshal(raw, &args); err != nil {
		return input{}, "the arguments are not JSON"
	}
	obj, ok := args.(map[string]any)
	if !ok {
		return input{}, "the arguments are a JSON " + registry.JSONType(args) + ", not an object"
	}
	var in input
	switch code := obj["code"].(type) {
	case string:
		in.Code = &code
	case nil:
		if _, present := obj["code"]; !present {
			return input{}, "\"code\" is missing"
		}
		return input{}, "\"code\" must be a string, got null"
	default:
		return input{}, "\"code\" must be a string, got a JSON " + registry.JSONType(code)
	}
	if r, present := obj["reset"]; present {
		b, ok := r.(bool)
		if !ok {
			return input{}, "\"reset\" must be a boolean, got a JSON " + registry.JSONType(r)
		}
		in.Reset = b
	}
	if v, present := obj[sessionParam]; present {
		h, ok := v.(string)
		if !ok {
			return input{}, "\"session\" must be a string, got a JSON " + registry.JSONType(v)
		}
		in.Session = h
	}
	return in, ""
}

// Close ends every MCP session the server has open (and with each its
// codeexec session): for a host that stops serving, since an HTTP
// client that goes away without deleting its session leaves it open until
// it is reaped as idle. It returns the first error a session's close
// gave. Safe for concurrent use.
func (s *Server) Close() error {
	var first error
	for ss := range s.srv.Sessions() {
		if err := ss.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// call runs one code_execution call.
func (s *Server) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	in, problem := parseInput(orEmpty(req.Params.Arguments))
	if problem != "" {
		msg := "code_execution takes {\"code\": string}: " + problem
		return errorResult(msg), nil
	}
	// The session rides in the run's context, which reaches every tool
	// call's hooks: Confirm asks this client.
	ctx = context.WithValue(ctx, sessionKey{}, req.Session)
	ro := codeexec.RunOptions{Filename: "snippet.ts"}
	var p *progress
	if token := req.Params.GetProgressToken(); token != nil {
		p = &progress{ctx: ctx, session: req.Session, token: token}
		ro.OnEvent = p.event
	}
	var res *codeexec.Result
	var cs *codeexec.Session
	handle, encoded, resuming := "", "", false
	if encoded, resuming = strings.CutPrefix(req.Params.RequestState, stateResume); resuming {
		// The sealed state says which session the run resumes in.
		encoded, handle, _ = strings.Cut(encoded, handleSep)
	} else {
		var err error
		if cs, handle, err = s.sessionOf(ctx, req, in); err != nil {
			return errorResult("code_execution: " + err.Error()), nil
		}
	}
	switch {
	case resuming:
		res = s.runner.Resume(ctx, decodeState(encoded), responses(req.Params.InputResponses), ro)
	case cs != nil:
		if in.Reset {
			cs.Reset()
		}
		res = cs.Run(ctx, *in.Code, ro)
	default:
		res = s.runner.Run(ctx, *in.Code, ro)
	}
	id := ""
	if req.Session != nil {
		id = req.Session.ID()
	}
	s.logRun(ctx, s.runs.Add(1), id, res)
	if res.Pause != nil {
		asks, err := pausedResult(res.Pause, handle)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		return asks, nil
	}
	if p != nil && p.sent() {
		// Clients (the TypeScript SDK among them) hand notifications to
		// their handlers asynchronously but settle a request at once when
		// its response arrives in the same read: leave the last
		// notifications a moment to be handled first.
		time.Sleep(progressGrace)
	}
	out := &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: res.Text()}},
		StructuredContent: codeexec.NewJSONResult(res),
		IsError:           !res.OK(),
	}
	if handle != "" {
		out.Content = append(out.Content, &sdk.TextContent{Text: "session: " + handle})
		out.StructuredContent = withSession{codeexec.NewJSONResult(res), handle}
	}
	return out, nil
}

// withSession is a result's structured content with its session handle.
type withSession struct {
	codeexec.JSONResult
	Session string `json:"session"`
}

// progressGrace is how long a call that sent progress waits before its
// response, so that the client handles the notifications first.
const progressGrace = 20 * time.Millisecond

func orEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}

// progress reports one call's run events as progress notifications: the
// message says what happened, and _meta["codeexec/event"] carries the
// event as data.
type progress struct {
	ctx     context.Context
	session *sdk.ServerSession
	token   any

	mu sync.Mutex
	n  float64
}

// sent reports whether a notification was sent.
func (p *progress) sent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n > 0
}

// event is the run's OnEvent; the run's end is the response itself.
func (p *progress) event(ev codeexec.Event) {
	var msg string
	data := map[string]any{"kind": string(ev.Kind)}
	switch ev.Kind {
	case codeexec.EventOutput:
		msg = string(ev.Stream) + ": " + ev.Text
		data["stream"], data["text"] = string(ev.Stream), ev.Text
	case codeexec.EventToolStart:
		msg = fmt.Sprintf("%s: %s started", ev.CallID, ev.Tool)
		data["callId"], data["tool"], data["params"] = ev.CallID, ev.Tool, ev.Params
	case codeexec.EventToolUpdate:
		msg = fmt.Sprintf("%s: %s: %s", ev.CallID, ev.Tool, ev.Update.Text())
		data["callId"], data["tool"], data["update"] = ev.CallID, ev.Tool, ev.Update
	case codeexec.EventToolEnd:
		state := "done"
		if ev.IsError {
			state = "failed"
		}
		msg = fmt.Sprintf("%s: %s %s in %s", ev.CallID, ev.Tool, state, ev.Duration.Round(1e6))
		data["callId"], data["tool"], data["isError"], data["durationMs"] = ev.CallID, ev.Tool, ev.IsError, float64(ev.Duration.Microseconds())/1000
	default:
		return
	}
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	// A client that went away fails the notification; the run goes on
	// until its context says otherwise.
	_ = p.session.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{
		Meta: sdk.Meta{"codeexec/event": data}, ProgressToken: p.token, Progress: n, Message: msg,
	})
}

// Serve serves MCP over one connection, newline-delimited JSON-RPC read
// from r and written to w (the stdio transport), until r ends, ctx is
// done or the client closes the session. Calls in progress when it
// returns are cancelled.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return s.ServeTransport(ctx, &sdk.IOTransport{Reader: nopReadCloser{r}, Writer: nopWriteCloser{w}})
}

// ServeTransport serves MCP over one connection of any transport of the
// Go SDK (for example an in-memory one in tests), like Serve.
func (s *Server) ServeTransport(ctx context.Context, t sdk.Transport) error {
	if s.monitor != nil {
		t = idTransport{Transport: t, ids: &s.ids}
	}
	err := s.srv.Run(ctx, t)
	if err != nil && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mcp: serve: %w", err)
	}
	return nil
}

type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// HTTPOptions configure Server.Handler.
type HTTPOptions struct {
	// AllowedHosts are the host names (without port) a request's Host
	// header, and its Origin header when it has one, may name. Empty
	// means the loopback names (localhost, 127.0.0.1, ::1), which is what
	// a server bound to loopback needs; a server bound elsewhere must list
	// the names its clients use.
	AllowedHosts []string
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); others get 401.
	Token string
	// Stateless serves every request without a session (no Mcp-Session-Id),
	// so that any replica behind a load balancer can serve any request.
	Stateless bool
	// SessionIdle closes a session that has had no request for this long,
	// whether it ran anything or not (default codeexec.DefaultSessionIdle;
	// negative: never). A call in progress keeps its session open.
	SessionIdle time.Duration
	// MaxSessions bounds the open sessions (default DefaultMaxSessions;
	// negative: no bound): a request that would open one more gets a
	// JSON-RPC error (status 503) until one is ended or closed idle.
	MaxSessions int
}

// DefaultMaxSessions is the default of HTTPOptions.MaxSessions. A session
// that never ran anything holds about 12 KiB; one that ran holds a
// codeexec session, which the Runner's SessionLimits bound.
const DefaultMaxSessions = 256

// codeServerBusy is the JSON-RPC error code (in the range left to
// servers) of a request refused for the number of sessions.
const codeServerBusy = -32000

// Handler returns the streamable HTTP transport of the server, to be
// mounted at /mcp. It refuses, before MCP sees them, a request whose Host
// or Origin names a host not in opts.AllowedHosts (403, against DNS
// rebinding; the Origin's port is not checked) and, when opts.Token is
// set, one without that bearer token (401 "token required") or with
// another (401 "invalid token"), both with a WWW-Authenticate challenge
// (RFC 6750; the scheme's name is read in any case). A POST body over
// 4 MiB gets a JSON-RPC invalid-request error with status 413; one that is
// not JSON a parse error (-32700, status 400), and one that is not a
// JSON-RPC message, or a batch of them, an invalid-request error (-32600,
// status 400, with the id of the message when it has a valid one, else
// null), as does a request the SDK refuses before running it (-32601 for
// an unknown method). Each refusal is logged (ServerOptions.Logger) and
// told to the Monitor with its reason (a Refused constant). Sessions idle
// for opts.SessionIdle are closed, and at most opts.MaxSessions are open
// at once.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	idle := opts.SessionIdle
	if idle == 0 {
		idle = codeexec.DefaultSessionIdle
	}
	maxSessions := opts.MaxSessions
	if maxSessions == 0 {
		maxSessions = DefaultMaxSessions
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Stateless: opts.Stateless, SessionTimeout: max(idle, 0)})
	// Clients of protocol 2026-07-28 have no MCP session: they are served
	// statelessly, their sessions named in the arguments (see
	// sessions.go).
	stateless := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Stateless: true})
	var opening sync.Mutex // held while a request may open a session
	// serve serves r with the transport it is for, and restores the MCP
	// session it names when the transport does not hold it.
	serve := func(w http.ResponseWriter, r *http.Request, body []byte) {
		id := r.Header.Get("Mcp-Session-Id")
		switch {
		case opts.Stateless || id == "" && r.Header.Get("Mcp-Protocol-Version") >= mrtrVersion:
			stateless.ServeHTTP(w, r)
			return
		case id == "" || s.store == nil:
			h.ServeHTTP(w, r)
			return
		}
		deleted := r.Method == http.MethodDelete && s.deleteStored(r, id)
		catch := &notFoundCatcher{ResponseWriter: w}
		h.ServeHTTP(catch, r)
		if !catch.caught {
			return
		}
		switch {
		case deleted:
			w.WriteHeader(http.StatusNoContent)
			return
		case r.Method == http.MethodDelete:
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		opening.Lock()
		restored := s.restore(r, h, id)
		opening.Unlock()
		if !restored {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}
	return s.Guard(opts, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, sdk.DefaultMaxRequestBodyBytes))
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				msg := fmt.Sprintf("Request too large: the body is over %d bytes, the limit", tooLarge.Limit)
				writeRPCStatus(w, http.StatusRequestEntityTooLarge, newRPCError(nil, codeInvalidRequest, msg))
				s.refused(r, http.StatusRequestEntityTooLarge, RefusedTooLarge, slog.Int64("limit", tooLarge.Limit))
				return
			}
			if err != nil || !json.Valid(body) {
				msg := "Parse error: the body is not JSON"
				if err != nil {
					msg = "Parse error: " + err.Error()
				}
				writeRPC(w, newRPCError(nil, codeParseError, msg))
				s.refused(r, http.StatusBadRequest, RefusedBadRequest, slog.String("error", msg))
				return
			}
			resp, id := checkBody(body, r.Header.Get("Mcp-Protocol-Version"))
			if resp != nil {
				writeRPC(w, resp)
				s.refused(r, http.StatusBadRequest, RefusedBadRequest, slog.String("error", rpcMessage(resp)))
				return
			}
			if s.monitor != nil {
				var forget func()
				r, forget = s.ids.withHeader(r, id)
				defer forget()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if !opts.Stateless && r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") < mrtrVersion {
				// A request without a session opens one: count, then
				// open, one request at a time (and not while a session
				// is restored, which takes the next id).
				opening.Lock()
				defer opening.Unlock()
				if n := s.sessionCount(); maxSessions > 0 && n >= maxSessions {
					var id any
					if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '{' {
						id, _ = checkMessage(b)
					}
					msg := fmt.Sprintf("Server busy: %d MCP sessions are open, the limit; end one (DELETE) or wait for one to be closed after %s idle", n, idle)
					writeRPCStatus(w, http.StatusServiceUnavailable, newRPCError(id, codeServerBusy, msg))
					s.refused(r, http.StatusServiceUnavailable, RefusedBusy, slog.Int("sessions", n))
					return
				}
			}
			rec := &statusRecorder{ResponseWriter: w}
			rw := &rpcWriter{ResponseWriter: rec, body: body}
			serve(rw, r, body)
			if msg := rw.finish(); msg != "" {
				s.refused(r, http.StatusBadRequest, RefusedBadRequest, slog.String("error", msg))
			} else if rec.status >= 400 {
				s.refused(r, rec.status, reasonOf(rec.status))
			}
			return
		}
		if r.Method == http.MethodGet {
			// A standalone SSE stream, which EndStreams ends.
			ctx, done, ok := s.streams.add(r.Context())
			if !ok {
				http.Error(w, "Service Unavailable: the server is shutting down", http.StatusServiceUnavailable)
				return
			}
			defer done()
			r = r.WithContext(ctx)
		}
		rec := &statusRecorder{ResponseWriter: w}
		serve(rec, r, nil)
		if rec.status >= 400 {
			s.refused(r, rec.status, reasonOf(rec.status))
		}
	}))
}

// Guard returns h behind the checks of Handler that precede MCP: a
// request whose Host or Origin names a host not in opts.AllowedHosts gets
// 403, and, when opts.Token is set, one without that bearer token 401;
// each refusal is logged and told to the Monitor as Handler's are. A host
// serves other endpoints beside /mcp (metrics, say) behind it.
func (s *Server) Guard(opts HTTPOptions, h http.Handler) http.Handler {
	allowed := []string{"localhost", "127.0.0.1", "::1"}
	if len(opts.AllowedHosts) > 0 {
		allowed = nil
		for _, h := range opts.AllowedHosts {
			allowed = append(allowed, strings.ToLower(strings.Trim(h, "[]")))
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(allowed, hostname(r.Host)) {
			http.Error(w, fmt.Sprintf("Forbidden: host %q is not allowed", r.Host), http.StatusForbidden)
			s.refused(r, http.StatusForbidden, RefusedHost, slog.String("host", r.Host))
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || !slices.Contains(allowed, strings.ToLower(u.Hostname())) {
				http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed", o), http.StatusForbidden)
				s.refused(r, http.StatusForbidden, RefusedOrigin, slog.String("origin", o))
				return
			}
		}
		if opts.Token != "" {
			if reason := checkToken(r.Header.Get("Authorization"), opts.Token); reason != "" {
				challenge, text := `Bearer realm="codeexec"`, "Unauthorized: token required (send the header Authorization: Bearer TOKEN)"
				if reason == RefusedInvalidToken {
					challenge += `, error="invalid_token", error_description="the token is not this server's"`
					text = "Unauthorized: invalid token"
				}
				w.Header().Set("WWW-Authenticate", challenge)
				http.Error(w, text, http.StatusUnauthorized)
				s.refused(r, http.StatusUnauthorized, reason)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// checkToken checks the Authorization header auth against token: it
// returns "" when it carries the token as a bearer token (the scheme's
// name in any case, RFC 9110 section 11.1), RefusedTokenRequired when it
// carries none, and RefusedInvalidToken when it carries another.
func checkToken(auth, token string) string {
	scheme, got, _ := strings.Cut(strings.TrimSpace(auth), " ")
	got = strings.TrimSpace(got)
	switch {
	case !strings.EqualFold(scheme, "Bearer") || got == "":
		return RefusedTokenRequired
	case subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1:
		return RefusedInvalidToken
	}
	return ""
}

// SessionCount is the number of the server's open MCP sessions: a gauge
// for a host's metrics.
func (s *Server) SessionCount() int { return s.sessionCount() }

// sessionCount is the number of the server's open MCP sessions.
func (s *Server) sessionCount() int {
	n := 0
	for range s.srv.Sessions() {
		n++
	}
	return n
}

// hostname is the lower-cased host of a Host header, without its port
// and brackets.
func hostname(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

// IsLoopback reports whether addr (HOST:PORT, as --http takes it) binds
// only a loopback interface: a loopback IP or "localhost". An empty host
// (":8080") binds every interface and is not loopback.
func IsLoopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
