package codeexec

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Defaults for the zero values of SessionLimits.
const (
	DefaultSessionIdle     = 15 * time.Minute
	DefaultSessionLifetime = time.Hour
	DefaultMaxSessions     = 16
)

// SessionLimits bound the sessions of a Runner. A zero field takes its
// default (the DefaultSession constants); a negative one is refused by New.
type SessionLimits struct {
	// Idle ends a session that has not run anything for this long.
	Idle time.Duration
	// Lifetime ends a session this long after its state was created,
	// however busy it is (a run in progress finishes first).
	Lifetime time.Duration
	// Max bounds the live sessions of the Runner: those whose state
	// exists (a VM in process, a pinned worker in Process isolation). A
	// run that would create one more fails with a LimitError.
	Max int
}

// withDefaults fills zero fields and refuses negative ones.
func (l SessionLimits) withDefaults() (SessionLimits, error) {
	if l.Idle < 0 || l.Lifetime < 0 || l.Max < 0 {
		return l, fmt.Errorf("codeexec: negative session limits: %+v", l)
	}
	if l.Idle == 0 {
		l.Idle = DefaultSessionIdle
	}
	if l.Lifetime == 0 {
		l.Lifetime = DefaultSessionLifetime
	}
	if l.Max == 0 {
		l.Max = DefaultMaxSessions
	}
	return l, nil
}

// ErrSessionClosed is what the error of a Run on a closed Session unwraps
// to (errors.Is).
var ErrSessionClosed = errors.New("codeexec: the session is closed")

// Session is a sequence of runs that share one JavaScript global scope, as
// in Node's REPL: a top-level const, let, var, function or class of one
// snippet, and whatever it puts on globalThis, is there for the next
// snippet of the session; top-level await and return work as in Run.
// Each run has its own limits, output, result, trace and events, exactly
// as a Runner.Run.
//
// Precisely (see runtime.Session and package transform for the rewrite):
// the declarations carried are those directly at the snippet's top level,
// as writable globals (a const can be reassigned later, and a later
// snippet may declare the same name again); a run that fails (exception,
// limit) leaves what it assigned before it stopped and all its top-level
// function declarations, and not the let/const/class declarations it did
// not reach; timers and tool calls never outlive their run; console, the
// timers and the tool functions are installed again before every run.
//
// State lives in a VM in process, or in one worker process pinned to the
// session for its life in Process isolation (whose memory limit then
// bounds the session's heap). It is created by the first run, and ended
// by Close, by the Runner's SessionLimits (idle time, lifetime), or by a
// run that kills its VM (a worker's memory limit or crash; an engine
// failure in process), whose error then says that the session's state is
// lost. In each of these cases but Close, the next Run starts a fresh
// state and says so in a first line of its stderr, beginning
// "[codeexec session]".
//
// A Session's methods are safe for concurrent use; runs are serialized (a
// Run waits for the one in progress). A Session holds no goroutine
// between runs, only a timer.
type Session struct {
	r *Runner

	mu     sync.Mutex // held by a run in progress, and by expiry
	closed bool
	state  sessionState // nil when there is no live state
	// started and used are when the state was created and last used.
	started, used time.Time
	timer         *time.Timer // expires the state
	// notice is said by the next run: why the state it had is gone.
	notice string

	// A stored session (see stored.go): its id and owner; whether its
	// head was seen in the store; a reset asked for; how many stored
	// runs the next run must replay first; the head as last read or
	// written, at store version hv; and the generation and run count the
	// live state is at.
	id, owner   string
	seen, reset bool
	rebuild     int
	head        *sessionHead
	hv          uint64
	atGen       string
	atRuns      int
	// usedAt is used, readable without mu (for eviction).
	usedMu sync.Mutex
	usedAt time.Time
}

// sessionState is a session's VM: in process or in a pinned worker.
type sessionState interface {
	run(ctx context.Context, source string, c *toolcall.Dispatcher, eng runtime.Options) *runtime.Result
	ended() error
	close()
}

// NewSession returns a session of r. It creates no state until its first
// run; Close it when done. On a closed Runner its runs fail with
// ErrClosed.
//
// With Options.Store the session is stored under a new id (see ID and
// OpenSession): any process with the same tools and store can go on with
// it.
func (r *Runner) NewSession() *Session {
	s := &Session{r: r}
	if r.opts.Store != nil {
		s.id = NewSessionID()
		return s
	}
	r.mu.Lock()
	r.addSessionLocked(s)
	r.mu.Unlock()
	return s
}

// addSessionLocked adds s to r's open sessions: every session kept in
// this process, and a stored session while it has a live state (any
// process can rebuild it otherwise), which OpenSession then returns.
func (r *Runner) addSessionLocked(s *Session) {
	if r.sessions == nil {
		r.sessions, r.byID = map[*Session]struct{}{}, map[string]*Session{}
	}
	r.sessions[s] = struct{}{}
	if _, taken := r.byID[s.id]; s.id != "" && !taken {
		r.byID[s.id] = s // another owner's session of the id keeps its place
	}
}

// removeSessionLocked removes s from r's open sessions.
func (r *Runner) removeSessionLocked(s *Session) {
	delete(r.sessions, s)
	if r.byID[s.id] == s {
		delete(r.byID, s.id)
	}
}

// Run runs source in the session and reports what happened, as
// Runner.Run does (it never returns nil; tool calls, events and limits
// are the same), with the session's global scope. A run past the session
// limits (idle, lifetime) or after a run that ended the VM runs in a fresh
// state and says so first on stderr. A Run on a closed session fails
// with an error that unwraps to ErrSessionClosed; one that would exceed
// SessionLimits.Max live sessions fails with a LimitError.
func (s *Session) Run(ctx context.Context, source string, opts RunOptions) *Result {
	return s.run(ctx, source, opts, nil, nil)
}

// run is Run, or, for a stored session, the resume of st with responses
// when st is not nil.
func (s *Session) run(ctx context.Context, source string, opts RunOptions, st *runState, responses map[string]Response) *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	refuse := func(e *runtime.Error) *Result { return s.r.refused(ctx, source, opts, e) }
	if s.closed {
		return refuse((&runtime.Error{Name: "SessionError", Message: "the session is closed", Kind: runtime.KindCanceled}).WithCause(ErrSessionClosed))
	}
	if s.state != nil {
		if why := s.expiredLocked(time.Now()); why != "" {
			s.releaseLocked("the session expired (" + why + ")")
		} else if err := s.state.ended(); err != nil {
			s.releaseLocked("the previous session ended: " + err.Error())
		}
	}
	var plan runPlan
	if s.stored() {
		var e *runtime.Error
		if plan, e = s.prepareStoredLocked(ctx, source, opts, st, responses); e != nil {
			return refuse(e)
		}
	}
	if s.state == nil {
		if e := s.freshStateLocked(); e != nil {
			return refuse(e)
		}
		if s.notice != "" {
			plan.notice = "[codeexec session] " + s.notice + "; this run starts a new session, in which nothing of the old one is defined"
			s.notice = ""
		}
	}
	if s.stored() {
		if e := s.rebuildLocked(ctx, &plan); e != nil {
			return refuse(e)
		}
	}
	state := s.state
	res := s.r.run(ctx, source, opts, plan, func(ctx context.Context, c *toolcall.Dispatcher, eng runtime.Options) *runtime.Result {
		return state.run(ctx, source, c, eng)
	})
	s.used = time.Now()
	s.usedMu.Lock()
	s.usedAt = s.used
	s.usedMu.Unlock()
	if s.state == nil {
		return res // the stored session let its state go (see recordLocked)
	}
	if err := state.ended(); err != nil {
		s.releaseLocked("the previous session ended: " + err.Error())
	} else {
		s.scheduleLocked()
	}
	return res
}

// expiredLocked says why the state has expired at now, or "".
func (s *Session) expiredLocked(now time.Time) string {
	l := s.r.opts.Sessions
	switch {
	case !s.used.IsZero() && now.Sub(s.used) >= l.Idle:
		return fmt.Sprintf("idle for more than %s", l.Idle)
	case now.Sub(s.started) >= l.Lifetime:
		return fmt.Sprintf("older than its lifetime of %s", l.Lifetime)
	}
	return ""
}

// scheduleLocked sets the timer that releases the state when it expires.
func (s *Session) scheduleLocked() {
	l := s.r.opts.Sessions
	at := s.used.Add(l.Idle)
	if end := s.started.Add(l.Lifetime); end.Before(at) {
		at = end
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(time.Until(at), s.expire)
}

// expire releases the state if it has expired (a run may have used it
// since the timer was set).
func (s *Session) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		return
	}
	if why := s.expiredLocked(time.Now()); why != "" {
		s.releaseLocked("the session expired (" + why + ")")
	} else {
		s.scheduleLocked()
	}
}

// releaseLocked drops the state, frees its place under SessionLimits.Max
// and keeps why for the next run to say.
func (s *Session) releaseLocked(why string) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if s.state == nil {
		return
	}
	s.state.close()
	s.state = nil
	s.used = time.Time{}
	s.notice = why
	s.r.mu.Lock()
	s.r.liveSessions--
	if s.stored() {
		s.r.removeSessionLocked(s)
	}
	s.r.mu.Unlock()
}

// Reset drops the session's state (the VM, or the pinned worker, which is
// killed and reaped) after the run in progress, if any, has returned, and
// keeps the session open: its next run starts a fresh state, without a
// notice, since the caller asked for it (an MCP client's reset). On a
// closed session it does nothing.
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked("")
	s.notice, s.reset = "", s.stored()
}

// Close ends the session and releases its state (the VM, or the pinned
// worker, which is killed and reaped), after the run in progress, if any,
// has returned. Later runs fail. Close is idempotent and returns nil.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.releaseLocked("")
	s.r.mu.Lock()
	s.r.removeSessionLocked(s)
	s.r.mu.Unlock()
	return nil
}

// newSessionState creates the state of session s, within
// SessionLimits.Max. At the limit, a stored session takes the place of
// the stored session least recently used whose state is idle (its state
// is let go: the store keeps the session, and its next run rebuilds it);
// otherwise it fails with a LimitError.
func (r *Runner) newSessionState(s *Session) (sessionState, error) {
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, runnerClosed()
		}
		if max := r.opts.Sessions.Max; r.liveSessions >= max {
			victims := r.idleStoredLocked(s)
			r.mu.Unlock()
			if s.stored() && evictOne(victims) {
				continue
			}
			msg := fmt.Sprintf("the runner has %d live sessions, its limit (SessionLimits.Max); close one or wait for one to expire", max)
			return nil, (&runtime.Error{Name: "LimitError", Message: msg, Kind: runtime.KindLimit}).WithCause(runtime.NewLimitError(msg, nil))
		}
		defer r.mu.Unlock()
		r.liveSessions++
		if s.stored() {
			r.addSessionLocked(s)
		}
		if r.pool != nil {
			return &workerState{s: r.pool.NewSession()}, nil
		}
		return &vmState{r: r, s: runtime.NewSession()}, nil
	}
}

// idleStoredLocked returns the stored sessions other than s that have a
// live state, the least recently used first.
func (r *Runner) idleStoredLocked(s *Session) []*Session {
	var out []*Session
	for o := range r.sessions {
		if o != s && o.stored() {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b *Session) int { return a.lastUsed().Compare(b.lastUsed()) })
	return out
}

// evictOne lets go of the state of the first of victims that is idle (no
// run holds it), and reports whether it did.
func evictOne(victims []*Session) bool {
	for _, v := range victims {
		if !v.mu.TryLock() {
			continue
		}
		had := v.state != nil
		v.releaseLocked("")
		v.notice = ""
		v.mu.Unlock()
		if had {
			return true
		}
	}
	return false
}

// lastUsed is when the session last ran, for eviction; safe for
// concurrent use.
func (s *Session) lastUsed() time.Time {
	s.usedMu.Lock()
	defer s.usedMu.Unlock()
	return s.usedAt
}

// LiveSessions is the number of r's sessions whose state (a VM, or a
// pinned worker) is in this process: what SessionLimits.Max bounds. Safe
// for concurrent use.
func (r *Runner) LiveSessions() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.liveSessions
}

// closeSessions closes every session of r, for Runner.Close.
func (r *Runner) closeSessions() {
	r.mu.Lock()
	all := make([]*Session, 0, len(r.sessions))
	for s := range r.sessions {
		all = append(all, s)
	}
	r.mu.Unlock()
	for _, s := range all {
		s.Close()
	}
}

// vmState is a session's state in process.
type vmState struct {
	r *Runner
	s *runtime.Session
}

func (v *vmState) run(ctx context.Context, source string, _ *toolcall.Dispatcher, eng runtime.Options) *runtime.Result {
	return v.r.runInProcess(ctx, func(ctx context.Context) *runtime.Result { return v.s.Run(ctx, source, eng) })
}
func (v *vmState) ended() error { return v.s.Ended() }
func (v *vmState) close()       { v.s.Close() }

// workerState is a session's state in a pinned worker.
type workerState struct{ s *isolation.Session }

func (w *workerState) run(ctx context.Context, source string, c *toolcall.Dispatcher, eng runtime.Options) *runtime.Result {
	return w.s.Run(ctx, source, c, eng)
}
func (w *workerState) ended() error { return w.s.Ended() }
func (w *workerState) close()       { w.s.Close() }
