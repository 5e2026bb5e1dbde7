package mcp

import (
	"context"
	"sync"
)

// streams are the standalone SSE streams (the GETs of MCP sessions) the
// HTTP face holds open. Such a stream carries the messages a server
// sends outside of any request, and it ends only when the client goes,
// its session is closed, or EndStreams ends it: an http.Server's
// Shutdown would wait for it until its deadline.
type streams struct {
	mu     sync.Mutex
	ended  bool
	next   uint64
	cancel map[uint64]context.CancelFunc
}

// add returns the context of a new stream, derived from ctx, and the
// function to call when it ends; ok is false once EndStreams was called.
func (st *streams) add(ctx context.Context) (_ context.Context, done func(), ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ended {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(ctx)
	if st.cancel == nil {
		st.cancel = map[uint64]context.CancelFunc{}
	}
	id := st.next
	st.next++
	st.cancel[id] = cancel
	return ctx, func() {
		st.mu.Lock()
		delete(st.cancel, id)
		st.mu.Unlock()
		cancel()
	}, true
}

// EndStreams ends the standalone SSE streams that Handler holds open (the
// GET of an MCP session, which carries the server's messages outside of
// any request and never ends on its own) and answers a later GET with
// 503: for a host that stops serving, before http.Server.Shutdown, which
// would otherwise wait for the streams until its deadline. Requests in
// progress go on (a POST, its run and the events streamed in its
// response), and the MCP sessions stay open: a client's requests in them
// are served until the HTTP server stops taking them. Safe for
// concurrent use.
func (s *Server) EndStreams() {
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	s.streams.ended = true
	for id, cancel := range s.streams.cancel {
		delete(s.streams.cancel, id)
		cancel()
	}
}
