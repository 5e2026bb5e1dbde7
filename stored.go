package codeexec

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/store"
	"github.com/codeexec/codeexec/toolcall"
)

// Stored sessions: a session is data. With Options.Store set, a session
// is the ordered list of its runs, each with its source and call log and
// the clock readings and random seed it used (runtime.Sources), kept in
// the store under the session's id, so that any process with the same
// tools can rebuild it by replaying its runs in order, calling no tool
// again: every call is answered from its run's log (see
// toolcall.Config.Rebuild). A process that holds the session's live
// state (a VM, or a pinned worker) at the stored position uses it; any
// other rebuilds it first. A rebuild costs about a replay of every run
// (their timers wait again; their tools do not run), and is not said to
// the snippet: the session is the same.
//
// In the store a session is a head, at "session/ID" (its owner, its tools'
// digest, its generation and run count, its creation time), and one entry
// per run, at "session/ID/GEN/N". Appending run N puts its entry only if
// none is there (store version 0) and then the head at the version read
// before the run: of two processes that run in one session at once,
// exactly one records its run; the other's run ends with a SessionError
// saying so (its output is kept, its effects on the session are not),
// and it lets its state go, so that its next run rebuilds the session
// from the store. The log is never interleaved.
//
// The head expires after SessionLimits.Idle without a run, and every
// entry SessionLimits.Lifetime after the session was created: a run of a
// session that is gone starts a new one, and says so first on its
// stderr, as a session whose tools changed (a tool added, removed or
// changed) does instead of replaying wrongly. Reset starts a new
// generation (the runs of the old one are no longer read). A run that
// was stopped by a limit or cancelled left what it did before it stopped,
// which a replay cannot reproduce: a rebuild leaves that run out, and its
// first run says so. A run whose engine ended the session's VM (a
// worker's memory limit, an internal error) starts a new generation, as
// the live session starts a new state.
//
// Runs of a stored session can pause (see Pause): the live state, which
// holds the paused run's partial effects, is let go, the state names the
// session and its position, and Resume (in any process) rebuilds the
// session there, goes on with the run and records it, unless the session
// has moved on meanwhile (a StateError says so).
//
// The store is trusted: whoever can write to it can change what a
// rebuilt session holds (but never make a tool run). Session ids are
// unguessable (NewSessionID); with an owner (OpenSession) a session
// serves only runs of that owner.

// sessionFormat is the format of a stored session's head; another is not
// read.
const sessionFormat = "codeexec-session/1"

// sessionHead is a stored session's head entry.
type sessionHead struct {
	Format string `json:"format"`
	// Owner is the session's owner (OpenSession).
	Owner string `json:"owner,omitempty"`
	// Tools is the toolsDigest of the tools the session's runs had.
	Tools string `json:"tools"`
	// Gen is the session's generation: a new one starts at a reset or
	// when the VM ended; Runs counts its runs.
	Gen  string `json:"gen"`
	Runs int    `json:"runs"`
	// Created is when the session (its first generation) was created:
	// SessionLimits.Lifetime counts from it.
	Created time.Time `json:"created"`
}

// storedRun is one run of a stored session.
type storedRun struct {
	Source   string           `json:"source"`
	Filename string           `json:"filename,omitempty"`
	Echo     bool             `json:"echo,omitempty"`
	Log      []toolcall.Entry `json:"log,omitempty"`
	Sources  *runtime.Sources `json:"sources,omitempty"`
	// Skip, when set, says why a rebuild leaves the run out.
	Skip string `json:"skip,omitempty"`
}

// sessionRef is where a paused run of a stored session stands: the
// session, its owner, and the generation and run count it ran on.
type sessionRef struct {
	ID    string `json:"id"`
	Owner string `json:"owner,omitempty"`
	Gen   string `json:"gen"`
	Runs  int    `json:"runs"`
}

// NewSessionID returns a new session id: 128 random bits, in hex.
func NewSessionID() string { return randomHex(16) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// maxSessionID bounds a session id's length.
const maxSessionID = 128

// checkSessionID refuses an id that is empty, too long, or has a
// character other than a letter, a digit, or one of "-_.~".
func checkSessionID(id string) error {
	if id == "" || len(id) > maxSessionID {
		return fmt.Errorf("codeexec: a session id has 1 to %d characters, not %d", maxSessionID, len(id))
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.~", c)) {
			return fmt.Errorf("codeexec: session id %q has %q: ids are letters, digits and -_.~", id, c)
		}
	}
	return nil
}

// SessionOptions name the session OpenSession opens.
type SessionOptions struct {
	// ID is the session's id: one of NewSessionID, or another that only
	// its rightful users can know (an MCP session id). It is 1 to 128
	// letters, digits and "-_.~".
	ID string
	// Owner, when set, is who the session belongs to (a hash of a
	// client's token, say): a stored session of another owner refuses
	// the run with a SessionError.
	Owner string
	// New says the caller makes a new session under ID: its first run
	// says nothing when the store has no session ID. Otherwise the caller
	// expects a session that exists, and a first run that finds none says
	// that it is gone (expired, evicted) before it starts a new one.
	New bool
}

// OpenSession returns the session opts name: the one this Runner has open
// when there is one (its live state is then used), or a new Session of
// that id, which goes on with what the store holds under it. Without
// Options.Store the id names a session of this process only. It fails on
// an invalid id and on a closed Runner.
func (r *Runner) OpenSession(opts SessionOptions) (*Session, error) {
	if err := checkSessionID(opts.ID); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, runnerClosed()
	}
	if s := r.byID[opts.ID]; s != nil && s.owner == opts.Owner {
		return s, nil
	}
	s := &Session{r: r, id: opts.ID, owner: opts.Owner, seen: !opts.New}
	if r.opts.Store == nil {
		r.addSessionLocked(s)
	}
	return s, nil
}

// ID returns the session's id: the one it was opened with, a new one for
// a session of a Runner with a store, "" for one of this process only.
func (s *Session) ID() string { return s.id }

// stored reports whether the session lives in the store.
func (s *Session) stored() bool { return s.id != "" && s.r.opts.Store != nil }

// headKey and runKey are the store keys of a session's head and of its
// run n of generation gen.
func headKey(id string) string { return "session/" + id }
func runKey(id, gen string, n int) string {
	return fmt.Sprintf("session/%s/%s/%d", id, gen, n)
}

// storeError is the error of a run refused because the store failed.
func storeError(op string, err error) *runtime.Error {
	return (&runtime.Error{Name: "SessionError", Message: fmt.Sprintf("the session store failed to %s: %v", op, err), Kind: runtime.KindInternal}).WithCause(err)
}

// loadHead reads the head of session id: nil when the store has none.
func (r *Runner) loadHead(ctx context.Context, id string) (*sessionHead, uint64, error) {
	e, err := r.opts.Store.Get(ctx, headKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var h sessionHead
	if err := json.Unmarshal(e.Value, &h); err != nil {
		h = sessionHead{Format: "unreadable (" + err.Error() + ")"}
	}
	return &h, e.Version, nil
}

// prepareStoredLocked reads the session's head and decides what the run
// starts from: the live state when it is at the stored position (the
// fast path), a rebuild of the stored runs (rebuildLocked does it), or a
// new generation when the store has nothing to go on from (saying why
// in the run's notice). For a resume of st it checks that the session is
// where st paused. It returns the run's plan.
func (s *Session) prepareStoredLocked(ctx context.Context, source string, opts RunOptions, st *runState, responses map[string]Response) (runPlan, *runtime.Error) {
	r := s.r
	head, hv, err := r.loadHead(ctx, s.id)
	if err != nil {
		return runPlan{}, storeError("read the session", err)
	}
	now, limits, digest := time.Now(), r.opts.Sessions, r.toolsDigest(r.toolInfos())
	gone := ""
	switch {
	case head == nil:
		if s.seen {
			gone = fmt.Sprintf("the session is not in the store: it expired (after %s without a run, or %s after it began) or was evicted", limits.Idle, limits.Lifetime)
		}
	case head.Owner != s.owner:
		return runPlan{}, (&runtime.Error{Name: "SessionError", Message: "the session belongs to another client (it was opened with another token)", Kind: runtime.KindInternal}).WithCause(ErrSessionClosed)
	case head.Format != sessionFormat:
		gone = fmt.Sprintf("the stored session is of format %q, and this codeexec reads %q only", head.Format, sessionFormat)
	case now.Sub(head.Created) >= limits.Lifetime:
		gone = fmt.Sprintf("the session expired (older than its lifetime of %s)", limits.Lifetime)
	case head.Tools != digest:
		gone = "the session was made with other tools than this runner has (a tool was added, removed or changed since)"
	}
	if gone != "" {
		head = nil
	}
	if st != nil {
		if head == nil || head.Gen != st.Session.Gen || head.Runs != st.Session.Runs || s.reset {
			why := "the session moved on since the run paused (another run of it was recorded, or it was reset)"
			if gone != "" {
				why = gone
			}
			e := &StateError{Reason: why}
			return runPlan{}, (&runtime.Error{Name: "StateError", Message: e.Error(), Kind: runtime.KindInternal}).WithCause(e)
		}
	}
	s.seen, s.rebuild = true, 0
	switch {
	case head == nil || s.reset:
		s.releaseLocked("")
		s.notice = gone
		created := now
		if head != nil && s.reset {
			created = head.Created
		}
		head, s.reset = &sessionHead{Format: sessionFormat, Owner: s.owner, Tools: digest, Gen: randomHex(8), Created: created}, false
	case s.state != nil && s.atGen == head.Gen && s.atRuns == head.Runs:
		// The fast path: the live state is the stored session.
	default:
		s.releaseLocked("")
		s.notice, s.rebuild = "", head.Runs
	}
	s.head, s.hv = head, hv
	plan := runPlan{pausable: true, resume: st, responses: responses, session: &sessionRef{ID: s.id, Owner: s.owner, Gen: head.Gen, Runs: head.Runs}}
	plan.after = func(c *toolcall.Dispatcher, out *runtime.Result, res *Result) {
		s.recordLocked(ctx, storedRun{Source: source, Filename: opts.Filename, Echo: opts.Echo}, c, out, res)
	}
	return plan, nil
}

// rebuildLocked replays the stored runs the session's new state must
// hold (prepareStoredLocked counted them), in order, calling no tool. A
// run that cannot be read or replayed ends the rebuild: the session then
// starts a new generation, and the run's notice says why.
func (s *Session) rebuildLocked(ctx context.Context, plan *runPlan) *runtime.Error {
	n := s.rebuild
	s.rebuild = 0
	if n == 0 {
		s.atGen, s.atRuns = s.head.Gen, s.head.Runs
		return nil
	}
	start, ok := time.Now(), false
	if so, isSO := s.r.opts.Observer.(SessionObserver); isSO {
		defer func() { so.SessionRebuilt(n, time.Since(start), ok) }()
	}
	var skipped []string
	for i := 1; i <= n; i++ {
		run, err := s.loadRun(ctx, s.head.Gen, i)
		if err != nil && !errors.Is(err, errUnreadable) {
			return storeError("read the session's runs", err)
		}
		if err == nil && run.Skip != "" {
			skipped = append(skipped, fmt.Sprintf("run %d (%s)", i, run.Skip))
			continue
		}
		if err == nil {
			err = s.replayLocked(ctx, run)
		}
		if ctx.Err() != nil {
			return (&runtime.Error{Name: "CanceledError", Message: "the run was cancelled while its session was rebuilt", Kind: runtime.KindCanceled}).WithCause(context.Cause(ctx))
		}
		if err != nil {
			// The stored session cannot be rebuilt: start a new one.
			s.releaseLocked("")
			if e := s.freshStateLocked(); e != nil {
				return e
			}
			s.head = &sessionHead{Format: sessionFormat, Owner: s.owner, Tools: s.head.Tools, Gen: randomHex(8), Created: s.head.Created}
			plan.session.Gen, plan.session.Runs = s.head.Gen, 0
			plan.notice = fmt.Sprintf("[codeexec session] the session could not be rebuilt from the store: run %d: %v; this run starts a new session, in which nothing of the old one is defined", i, err)
			s.atGen, s.atRuns = s.head.Gen, 0
			return nil
		}
	}
	ok = true
	if len(skipped) > 0 {
		plan.notice = "[codeexec session] the session was rebuilt from the store without " + strings.Join(skipped, ", ") + ": what such a run did before it stopped is not defined here"
	}
	s.atGen, s.atRuns = s.head.Gen, s.head.Runs
	return nil
}

// errUnreadable is what loadRun's error of an entry it cannot decode
// unwraps to.
var errUnreadable = errors.New("the stored run cannot be read")

// loadRun reads run n of generation gen.
func (s *Session) loadRun(ctx context.Context, gen string, n int) (*storedRun, error) {
	e, err := s.r.opts.Store.Get(ctx, runKey(s.id, gen, n))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: it is not in the store (evicted?)", errUnreadable)
	}
	if err != nil {
		return nil, err
	}
	run, err := decodeRun(e.Value)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUnreadable, err)
	}
	return run, nil
}

// replayLocked replays one stored run in the session's state, output
// discarded, every call answered from its log.
func (s *Session) replayLocked(ctx context.Context, run *storedRun) error {
	r := s.r
	c := toolcall.NewDispatcher(toolcall.Config{
		Tools: r.tools, Infos: r.toolInfos(), Limits: r.callLimits(), Log: run.Log, Rebuild: true,
	})
	eng := runtime.Options{
		Limits: r.opts.Limits, Filename: run.Filename, AllowEval: r.opts.AllowEval, Process: r.opts.Process,
		Echo: run.Echo, Sources: run.Sources,
	}
	if r.pool == nil {
		eng.Setup = bindings.New(c).Setup
	}
	out := s.state.run(ctx, run.Source, c, eng)
	if d := c.Diverged(); d != nil {
		return d
	}
	if err := s.state.ended(); err != nil {
		return fmt.Errorf("its replay ended the session: %w", err)
	}
	if out.Error != nil && (out.Error.Kind == runtime.KindLimit || out.Error.Kind == runtime.KindInternal) {
		return fmt.Errorf("its replay failed: %s", out.Error.Message)
	}
	return nil
}

// freshStateLocked gives the session a new state.
func (s *Session) freshStateLocked() *runtime.Error {
	state, err := s.r.newSessionState(s)
	if err != nil {
		var e *runtime.Error
		if errors.As(err, &e) {
			return e
		}
		return &runtime.Error{Name: "SessionError", Message: err.Error(), Kind: runtime.KindInternal}
	}
	s.state, s.started = state, time.Now()
	return nil
}

// recordLocked appends the run that just ended to the stored session (a
// paused run is recorded when it is resumed and ends). When it cannot,
// the run's Result says why and the live state is let go, so that the
// next run rebuilds the session from the store.
func (s *Session) recordLocked(ctx context.Context, run storedRun, c *toolcall.Dispatcher, out *runtime.Result, res *Result) {
	head := *s.head
	if res.Pause != nil {
		// The state holds the paused run's partial effects: a resume
		// rebuilds the session without them, from the head, which must be
		// in the store (a new session's first run may pause).
		s.releaseLocked("")
		s.notice = ""
		hv, err := s.r.opts.Store.Put(ctx, headKey(s.id), mustJSON(head), s.hv, min(s.r.opts.Sessions.Idle, s.lifetimeLeft(head)))
		if err != nil {
			res.Pause = nil
			s.unrecordedLocked(res, err)
			return
		}
		s.hv = hv
		return
	}
	if s.state.ended() != nil {
		// The VM is gone; so is the session, in every process.
		head.Gen, head.Runs = randomHex(8), 0
	} else {
		run.Log, run.Sources = c.Log(), out.Sources
		switch {
		case res.Error != nil && (res.Error.Kind == runtime.KindLimit || res.Error.Kind == runtime.KindCanceled):
			run.Skip = "stopped: " + res.Error.Name + ": " + res.Error.Message
		case c.Diverged() != nil:
			run.Skip = "its resume diverged from its log"
		case out.Sources == nil || out.Sources.Overflowed:
			run.Skip = fmt.Sprintf("it read the clock more than %d times", runtime.MaxClockReadings)
		}
		if len(run.Skip) > 200 {
			run.Skip = run.Skip[:200] + "…"
		}
		value, err := encodeRun(&run)
		if err == nil {
			head.Runs++
			_, err = s.r.opts.Store.Put(ctx, runKey(s.id, head.Gen, head.Runs), value, 0, s.lifetimeLeft(head))
		}
		if err != nil {
			s.unrecordedLocked(res, err)
			return
		}
	}
	hv, err := s.r.opts.Store.Put(ctx, headKey(s.id), mustJSON(head), s.hv, min(s.r.opts.Sessions.Idle, s.lifetimeLeft(head)))
	if err != nil {
		s.unrecordedLocked(res, err)
		return
	}
	s.head, s.hv, s.atGen, s.atRuns = &head, hv, head.Gen, head.Runs
}

// lifetimeLeft is how long the session of head has to live (at least a
// second, so that a Put at its end is not refused).
func (s *Session) lifetimeLeft(head sessionHead) time.Duration {
	return max(time.Until(head.Created.Add(s.r.opts.Sessions.Lifetime)), time.Second)
}

// unrecordedLocked reports, in res, that its run could not be recorded
// because of err, and lets the live state go.
func (s *Session) unrecordedLocked(res *Result, err error) {
	s.releaseLocked("")
	s.notice = ""
	why := "the session store failed: " + err.Error()
	switch {
	case errors.Is(err, store.ErrConflict):
		why = "another run of this session was recorded first (by another process or client); the session goes on from that one"
	case errors.Is(err, store.ErrTooLarge):
		why = "the run's record is larger than the store takes (" + err.Error() + "); start a new session, or keep tool results smaller"
	}
	msg := "this run was not recorded in its session: " + why + "; its output is above, and what it declared is not kept"
	res.Stderr += "[codeexec session] " + msg + "\n"
	if res.Error == nil {
		res.Error = (&runtime.Error{Name: "SessionError", Message: msg, Kind: runtime.KindInternal}).WithCause(err)
	}
}

// flateWriters keeps compressors: each holds about a megabyte of
// tables, which a run's record would otherwise allocate every time.
var flateWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return zw
}}

// compressAbove is the size of a run's JSON above which it is stored
// compressed: below it, compressing costs more time than it saves bytes.
const compressAbove = 4 << 10

// encodeRun is run as JSON, compressed (raw DEFLATE, which never starts
// with "{") when it is larger than compressAbove.
func encodeRun(run *storedRun) ([]byte, error) {
	raw, err := json.Marshal(run)
	if err != nil {
		return nil, fmt.Errorf("encode the run: %w", err)
	}
	if len(raw) <= compressAbove {
		return raw, nil
	}
	var b bytes.Buffer
	zw := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(zw)
	zw.Reset(&b)
	if _, err := zw.Write(raw); err != nil {
		return nil, fmt.Errorf("encode the run: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encode the run: %w", err)
	}
	return b.Bytes(), nil
}

// decodeRun decodes what encodeRun made.
func decodeRun(value []byte) (*storedRun, error) {
	var r io.Reader = bytes.NewReader(value)
	if len(value) == 0 || value[0] != '{' {
		r = flate.NewReader(r)
	}
	var run storedRun
	if err := json.NewDecoder(r).Decode(&run); err != nil {
		return nil, fmt.Errorf("decode the run: %w", err)
	}
	return &run, nil
}

// mustJSON is v as JSON; v is a plain struct that always encodes.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Delete ends the session, as Close does, and deletes it from the store
// (its head and the runs of its generation), so that no process can go
// on with it. Without a store it is Close.
func (s *Session) Delete(ctx context.Context) error {
	s.mu.Lock()
	head := s.head
	s.mu.Unlock()
	_ = s.Close()
	if !s.stored() {
		return nil
	}
	if head == nil {
		var err error
		if head, _, err = s.r.loadHead(ctx, s.id); err != nil || head == nil {
			return err
		}
	}
	err := s.r.opts.Store.Delete(ctx, headKey(s.id), 0)
	if errors.Is(err, store.ErrNotFound) {
		err = nil
	}
	for i := 1; i <= head.Runs && err == nil; i++ {
		if derr := s.r.opts.Store.Delete(ctx, runKey(s.id, head.Gen, i), 0); derr != nil && !errors.Is(derr, store.ErrNotFound) {
			err = derr
		}
	}
	if err != nil {
		return fmt.Errorf("codeexec: delete session %s: %w", s.id, err)
	}
	return nil
}
