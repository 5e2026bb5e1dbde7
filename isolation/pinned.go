package isolation

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Session is a sequence of runs that share one worker and the global
// scope of its VM (a runtime.Session in the worker; see there what
// carries from one run to the next and what a failed run leaves). The
// worker is taken from the pool by the first run and pinned to the
// session for its life: it serves no other session and is never returned
// to the pool. Its memory limit bounds the whole session, so the state
// that runs keep counts against it.
//
// A run that ends the worker (its memory limit, a crash, the kill at its
// deadline, its caller's cancellation) ends the session: that run's error
// says what happened, Ended reports it, and later runs fail with an error
// that unwraps to runtime.ErrSessionEnded. A run that fails inside the
// worker (an exception, the timeout the worker enforces itself, the stack
// or output limit) leaves the session usable.
//
// Runs are serialized: a Run waits for the one in progress. Close, and
// the pool's Close, kill the worker.
type Session struct {
	pool  *Pool
	runMu sync.Mutex // held by the run in progress

	mu     sync.Mutex // guards the fields below
	w      *process   // the pinned worker, nil before the first run
	ended  error
	closed bool
}

// NewSession returns a session of p. It takes no worker until its first
// run. On a closed pool it returns a session whose runs fail with
// ErrClosed.
func (p *Pool) NewSession() *Session {
	s := &Session{pool: p}
	p.mu.Lock()
	if !p.closed {
		p.sessions[s] = struct{}{}
	}
	p.mu.Unlock()
	return s
}

// Run runs source in the session's worker, as Pool.Run does in a fresh
// one (same options and guarantees), and keeps the worker for the next
// run unless the run ended it.
func (s *Session) Run(ctx context.Context, source string, caller toolcall.Caller, opts runtime.Options) *runtime.Result {
	start := time.Now()
	s.runMu.Lock()
	res := s.run(ctx, source, caller, opts)
	s.runMu.Unlock()
	// A Close during the run could not release the worker: the run held
	// runMu. It set closed first, so this sees it.
	s.releaseIfClosed()
	res.Duration = time.Since(start)
	return res
}

// run is Run without the timing; the caller holds runMu.
func (s *Session) run(ctx context.Context, source string, caller toolcall.Caller, opts runtime.Options) *runtime.Result {
	p := s.pool
	s.mu.Lock()
	closed, ended, w := s.closed, s.ended, s.w
	s.mu.Unlock()
	switch {
	case closed:
		return &runtime.Result{Error: (&runtime.Error{Name: "SessionError", Message: "the session is closed", Kind: runtime.KindCanceled}).WithCause(runtime.ErrSessionEnded)}
	case ended != nil:
		return &runtime.Result{Error: (&runtime.Error{Name: "SessionError", Message: "the session has ended: " + ended.Error(), Kind: runtime.KindInternal}).WithCause(runtime.ErrSessionEnded)}
	}
	r, refused := p.begin(ctx, caller, opts)
	if refused != nil {
		return refused
	}
	r.keep = true
	defer p.untrack(r)
	if w == nil {
		if w, refused = p.takeFor(ctx, "", true); refused != nil {
			return refused
		}
		// A session's first run waits for its worker to start, so that a
		// worker that does not start fails the run, not the session.
		// (One that does not start is discarded by then.)
		stop := context.AfterFunc(ctx, w.kill)
		err := w.ready()
		stop()
		if err != nil {
			return startRefusal(ctx, err)
		}
		s.mu.Lock()
		s.w = w
		s.mu.Unlock()
	} else {
		// takeFor counted the first run; Stats counts every one.
		p.mu.Lock()
		p.stats.Runs++
		p.mu.Unlock()
	}
	res := r.run(ctx, w, source)
	if !r.kept {
		why := "a run ended it"
		switch {
		case r.ended != "":
			// The worker's own session ended; its error says so.
			why = r.ended
		case res.Error != nil:
			why = fmt.Sprintf("its worker is gone: the run that failed with %q ended it", res.Error.Error())
			res.Error.Message += "; the session's worker ended with it, and the session's state is lost"
		}
		s.mu.Lock()
		s.w = nil
		s.ended = errors.New(why)
		s.mu.Unlock()
	}
	return res
}

// Ended reports why the session's worker ended, or nil while the session
// is usable. Safe for concurrent use.
func (s *Session) Ended() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

// Close ends the session: its worker is killed and reaped now, or, when a
// run is in progress, as soon as that run returns (cancel its context to
// end it sooner). Later runs fail. Close is idempotent.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	p := s.pool
	p.mu.Lock()
	delete(p.sessions, s)
	p.mu.Unlock()
	s.releaseIfClosed()
}

// releaseIfClosed releases the worker of a closed session unless a run
// holds runMu: that run releases it when it returns (Run calls this after
// it lets runMu go, and Close sets closed before it calls this, so one of
// the two always does).
func (s *Session) releaseIfClosed() {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed && s.runMu.TryLock() {
		s.release()
		s.runMu.Unlock()
	}
}

// release kills and reaps the session's worker, if it has one.
func (s *Session) release() {
	s.mu.Lock()
	w := s.w
	s.w = nil
	s.mu.Unlock()
	if w != nil {
		w.discard()
	}
}
