package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/store"
)

// Which codeexec session a code_execution call runs in:
//
//   - Over stdio, the connection's: one per MCP session, deleted when the
//     connection ends.
//   - Over HTTP, for a client of a protocol before 2026-07-28, the one
//     its Mcp-Session-Id names. With a store (ServerOptions.Store, the
//     Runner's store) the session outlives the process: a server that
//     gets an Mcp-Session-Id it does not hold, which the store has (another
//     replica made it, or this process before a restart), restores the MCP
//     session (it replays the client's initialize, kept in the store) and
//     the codeexec session is rebuilt from the store. A DELETE deletes it.
//   - Over HTTP, for a client of protocol 2026-07-28, which has no MCP
//     session: the one its call's "session" argument names, a handle
//     that every result of a session carries (structuredContent.session,
//     and a last line of text): any replica serves it. A call without one
//     starts a new session.
//
// With --token, a session belongs to the token that made it (a hash of
// it is its owner).

// sessionParam is code_execution's argument that names a session, for
// clients without MCP sessions.
const sessionParam = "session"

// sessionParamDescription documents sessionParam in the tool's schema.
const sessionParamDescription = "The session handle that an earlier code_execution result gave (structuredContent.session, or its last line \"session: ...\"): the snippet runs in that session and sees what earlier snippets of it declared. Omit it to start a new session."

// clientKey is the store key of what restores the MCP session id: the
// client's initialize parameters.
func clientKey(id string) string { return "mcp-session/" + id }

// liveSession is the codeexec session of one MCP session.
type liveSession struct {
	cs *codeexec.Session
	// stdio: the session ends with its connection, and is deleted.
	stdio bool
}

// ownerOf is the owner of the sessions a request makes: a hash of its
// bearer token, "" without one.
func ownerOf(req *sdk.CallToolRequest) string {
	if req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	auth := req.Extra.Header.Get("Authorization")
	if len(auth) < 7 || !strings.EqualFold(auth[:7], "bearer ") {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(auth[7:])))
	return hex.EncodeToString(sum[:16])
}

// sessionOf returns the codeexec session of a call and, for a client
// without an MCP session, the handle its result carries; nil without
// sessions. It fails on a "session" argument that is not a valid handle.
func (s *Server) sessionOf(ctx context.Context, req *sdk.CallToolRequest, in input) (*codeexec.Session, string, error) {
	ss := req.Session
	if s.noSessions || ss == nil {
		return nil, "", nil
	}
	overHTTP := req.Extra != nil && req.Extra.Header != nil
	if overHTTP && ss.ID() == "" {
		// Protocol 2026-07-28: the session rides in the arguments.
		if in.Session == "" {
			cs := s.runner.NewSession()
			return cs, cs.ID(), nil
		}
		cs, err := s.runner.OpenSession(codeexec.SessionOptions{ID: in.Session, Owner: ownerOf(req)})
		if err != nil {
			return nil, "", fmt.Errorf("%q is not a session handle: %w", in.Session, err)
		}
		return cs, cs.ID(), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ls := s.sessions[ss]; ls != nil {
		return ls.cs, "", nil
	}
	ls := &liveSession{stdio: !overHTTP}
	var err error
	if ls.stdio {
		ls.cs = s.runner.NewSession()
	} else {
		id := ss.ID()
		restored := s.restored[id]
		delete(s.restored, id)
		ls.cs, err = s.runner.OpenSession(codeexec.SessionOptions{ID: id, Owner: ownerOf(req), New: !restored})
		if err != nil {
			return nil, "", err
		}
	}
	s.sessions[ss] = ls
	s.log.Debug("session opened", "session", ss.ID())
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
		if ls.stdio {
			_ = ls.cs.Delete(context.Background())
		} else {
			_ = ls.cs.Close() // the store keeps it, for any replica
		}
		s.log.Debug("session closed", "session", ss.ID())
	}()
	return ls.cs, "", nil
}

// keepInitialize is a receiving middleware that keeps the parameters of
// an initialize request that opened an MCP session (see keepClient).
func (s *Server) keepInitialize(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if ir, ok := req.(*sdk.ServerRequest[*sdk.InitializeParams]); ok && err == nil && ir.Session != nil && ir.Session.ID() != "" {
			s.keepClient(ctx, ir.Session.ID(), ir.Params)
		}
		return res, err
	}
}

// keepClient keeps in the store what restores the MCP session id on any
// replica: its client's initialize parameters p. It lives as long as a
// session may; a failure is logged, and only costs a restore.
func (s *Server) keepClient(ctx context.Context, id string, p *sdk.InitializeParams) {
	if s.store == nil || p == nil {
		return
	}
	raw, err := json.Marshal(p)
	if err == nil {
		_, err = s.store.Put(ctx, clientKey(id), raw, 0, s.runner.SessionLimits().Lifetime)
	}
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Warn("cannot keep the MCP session in the store: another replica cannot restore it", "session", id, "error", err)
	}
}

// newSessionID names a new MCP session: the one being restored, or a new
// id.
func (s *Server) newSessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.restoring != "" {
		return s.restoring
	}
	return codeexec.NewSessionID()
}

// restore makes the stateful transport h hold MCP session id again, from
// the client's initialize parameters in the store, by replaying its
// initialize handshake; it reports whether it did. The caller holds the
// lock under which sessions are opened.
func (s *Server) restore(r *http.Request, h http.Handler, id string) bool {
	if s.store == nil {
		return false
	}
	e, err := s.store.Get(r.Context(), clientKey(id))
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("cannot restore the MCP session: the store failed", "session", id, "error", err)
		}
		return false
	}
	var params struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(e.Value, &params)
	s.mu.Lock()
	s.restoring, s.restored[id] = id, true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.restoring = ""
		s.mu.Unlock()
	}()
	initialize := fmt.Sprintf(`{"jsonrpc":"2.0","id":"codeexec-restore","method":"initialize","params":%s}`, e.Value)
	if status, got := replay(r, h, initialize, "", ""); status != http.StatusOK || got != id {
		s.log.Warn("cannot restore the MCP session: its initialize was refused", "session", id, "status", status)
		return false
	}
	if status, _ := replay(r, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, id, params.ProtocolVersion); status != http.StatusAccepted && status != http.StatusOK {
		s.log.Warn("cannot restore the MCP session: its initialized notification was refused", "session", id, "status", status)
		return false
	}
	s.log.Info("session restored from the store", "session", id)
	return true
}

// replay serves a request of body, made like r, to h, and returns the
// status and the session id of the response.
func replay(r *http.Request, h http.Handler, body, session, version string) (int, string) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, r.URL.String(), strings.NewReader(body))
	if err != nil {
		return 0, ""
	}
	req.Host, req.RemoteAddr = r.Host, r.RemoteAddr
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	w := &discardWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.header.Get("Mcp-Session-Id")
}

// discardWriter is a ResponseWriter that keeps the status and headers.
type discardWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len() < 1<<16 {
		w.body.Write(b)
	}
	return len(b), nil
}
func (w *discardWriter) Flush() {}

// notFoundCatcher holds back a 404 of the transport (a session it does
// not hold), so that the request can be served again once the session is
// restored; everything else passes through.
type notFoundCatcher struct {
	http.ResponseWriter
	caught bool
}

func (w *notFoundCatcher) WriteHeader(status int) {
	if status == http.StatusNotFound && !w.caught {
		w.caught = true
		w.Header().Del("Content-Type")
		w.Header().Del("X-Content-Type-Options")
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *notFoundCatcher) Write(b []byte) (int, error) {
	if w.caught {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *notFoundCatcher) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush flushes a response that passes through.
func (w *notFoundCatcher) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.caught {
		f.Flush()
	}
}

// deleteStored deletes the stored session id (a client's DELETE) and
// reports whether the store had it.
func (s *Server) deleteStored(r *http.Request, id string) bool {
	if s.store == nil {
		return false
	}
	err := s.store.Delete(r.Context(), clientKey(id), 0)
	if cs, oerr := s.runner.OpenSession(codeexec.SessionOptions{ID: id}); oerr == nil {
		_ = cs.Delete(r.Context())
	}
	return err == nil
}
