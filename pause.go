package codeexec

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// A durable run: a run is its source plus its call log. When a tool call
// needs input the run does not have (a person's approval, asked for by a
// tool_call hook that returns registry.Ask, or the result of a
// caller-served tool, registry.Tool.CallerServed), the run stops and its
// Result holds a Pause: the requests, and the run's state, sealed. Resume
// runs the source again with the state's clock readings and random seed
// (runtime.Sources) and answers every logged call from the log, without
// calling its tool again, until the paused calls, which get their
// responses; then the run goes on, and may pause again. Any Runner with
// the same tools and StateKey can resume a state: this one, another
// process, or one started next week.
//
// A snippet that is resumed must make the same calls in the same order as
// it did: calls are matched by the order they were made, and logged
// results are delivered in that order. A snippet that races calls against
// each other (Promise.race) or against timers, or reads what changes
// between runs other than through its tools, the clock and randomness,
// can diverge: the resumed run then ends with a ReplayError naming the
// call, and no tool is called for a logged position. Runs of a
// session kept in this process only do not pause: there a call that
// needs input fails with an error saying so; runs of a stored session
// (Options.Store) do, and resume in the session (see stored.go).

// InputKind says what a paused call waits for: InputApproval or
// InputTool.
type InputKind = registry.InputKind

// The kinds of input a paused call waits for.
const (
	InputApproval = registry.InputApproval
	InputTool     = registry.InputTool
)

// Pause is what a run that stopped to wait for input gives back.
type Pause struct {
	// Requests are the calls that wait, in the order they were made.
	Requests []InputRequest
	// State is the run, sealed with the Runner's StateKey: opaque bytes
	// to give to Resume, valid until its expiry (Options.StateTTL). It
	// holds the source, the call log (params and results included) and
	// the random seed: keep it as private as the run itself.
	State []byte
}

// InputRequest is one call that waits for input.
type InputRequest struct {
	// ID is the call's id in the trace ("call_N"), which its Response is
	// keyed by.
	ID string `json:"id"`
	// Kind is what the call waits for.
	Kind InputKind `json:"kind"`
	// Tool and Params are the call.
	Tool   string         `json:"tool"`
	Params map[string]any `json:"params"`
	// Text is the call as a person reads it, on one line (the tool's
	// registry.Info.RenderCall): what an approval question shows.
	Text string `json:"text"`
}

// Response answers one InputRequest: for an approval, Approved (or a
// denial, with its Reason, "denied by the user" when empty), which the
// snippet gets as a ToolError it can catch; for a caller-served tool, its
// Result, or its failure as Error.
type Response = toolcall.Answer

// StateError is the error of a state that Resume refuses: nothing ran.
// Errors.Is matches it against ErrStateInvalid.
type StateError struct {
	// Reason says what is wrong with the state.
	Reason string
}

// Error says the state was refused, and why.
func (e *StateError) Error() string { return "codeexec: the run's state was refused: " + e.Reason }

// Unwrap returns ErrStateInvalid.
func (e *StateError) Unwrap() error { return ErrStateInvalid }

// ErrStateInvalid is what every *StateError unwraps to.
var ErrStateInvalid = errors.New("invalid run state")

// Defaults of the state options.
const (
	// DefaultStateTTL is how long a paused run's state stays valid.
	DefaultStateTTL = 24 * time.Hour
	// DefaultMaxStateBytes bounds a paused run's sealed state.
	DefaultMaxStateBytes = 16 << 20
)

// stateMagic opens every sealed state: the format and its version. A
// state of another version is refused, never read another way.
const stateMagic = "codeexec-state/1\n"

// runState is what a sealed state holds.
type runState struct {
	Source   string           `json:"source"`
	Filename string           `json:"filename,omitempty"`
	Tools    string           `json:"tools"` // toolsDigest of the run's tools
	Log      []toolcall.Entry `json:"log"`
	Sources  *runtime.Sources `json:"sources"`
	// Printed are the bytes of stdout and stderr the run's writers got
	// before it paused: a resumed run's writers do not get them again.
	Printed [2]int64  `json:"printed"`
	Expires time.Time `json:"expires"`
	// Echo is the run's RunOptions.Echo (a session run of a REPL).
	Echo bool `json:"echo,omitempty"`
	// Session, for a run of a stored session, is where in the session
	// the run paused: a resume continues the session from there.
	Session *sessionRef `json:"session,omitempty"`
}

// processKey is the StateKey of a Runner that has none: a random key of
// this process, so that its states resume only here.
var processKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
})

// stateKey is the key r seals states with.
func (r *Runner) stateKey() []byte {
	if len(r.opts.StateKey) > 0 {
		return r.opts.StateKey
	}
	return processKey()
}

// seal encodes st: the magic, the HMAC-SHA256 of the rest, and the state
// as compressed JSON. It fails when the sealed state is over
// MaxStateBytes.
func (r *Runner) seal(st *runState) ([]byte, error) {
	var body bytes.Buffer
	zw, _ := flate.NewWriter(&body, flate.BestSpeed)
	if err := json.NewEncoder(zw).Encode(st); err != nil {
		return nil, fmt.Errorf("codeexec: encode the run's state: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("codeexec: encode the run's state: %w", err)
	}
	mac := hmac.New(sha256.New, r.stateKey())
	mac.Write(body.Bytes())
	out := slices.Concat([]byte(stateMagic), mac.Sum(nil), body.Bytes())
	if n := len(out); n > r.opts.MaxStateBytes {
		return nil, runtime.NewLimitError(fmt.Sprintf("the run needs input, but its state is %s, over the limit of %s (Options.MaxStateBytes); a run that pauses must keep its tool results smaller", runtime.FormatBytes(int64(n)), runtime.FormatBytes(int64(r.opts.MaxStateBytes))), nil)
	}
	return out, nil
}

// open checks and decodes a sealed state.
func (r *Runner) open(state []byte, now time.Time) (*runState, error) {
	refuse := func(format string, args ...any) (*runState, error) {
		return nil, &StateError{Reason: fmt.Sprintf(format, args...)}
	}
	if len(state) > r.opts.MaxStateBytes {
		return refuse("it is %s, over the limit of %s", runtime.FormatBytes(int64(len(state))), runtime.FormatBytes(int64(r.opts.MaxStateBytes)))
	}
	if !bytes.HasPrefix(state, []byte(stateMagic)) {
		if line, _, ok := bytes.Cut(state, []byte("\n")); ok && bytes.HasPrefix(line, []byte("codeexec-state/")) {
			return refuse("it is of format %q, and this codeexec reads %q only", line, strings.TrimSpace(stateMagic))
		}
		return refuse("it is not a codeexec run state")
	}
	rest := state[len(stateMagic):]
	if len(rest) < sha256.Size {
		return refuse("it is truncated")
	}
	sum, body := rest[:sha256.Size], rest[sha256.Size:]
	mac := hmac.New(sha256.New, r.stateKey())
	mac.Write(body)
	if !hmac.Equal(sum, mac.Sum(nil)) {
		return refuse("its integrity check failed: it was changed or truncated, or sealed with another key (Options.StateKey)")
	}
	var st runState
	if err := json.NewDecoder(flate.NewReader(bytes.NewReader(body))).Decode(&st); err != nil {
		return refuse("it cannot be decoded: %v", err)
	}
	if now.After(st.Expires) {
		return refuse("it expired at %s", st.Expires.UTC().Format(time.RFC3339))
	}
	return &st, nil
}

// toolsDigest is digestOf(infos), computed once for the list that
// toolInfos shares between runs while the tools stay the same.
func (r *Runner) toolsDigest(infos []registry.Info) string {
	r.infosMu.Lock()
	defer r.infosMu.Unlock()
	if len(infos) > 0 && len(r.digestList) > 0 && &r.digestList[0] == &infos[0] && len(r.digestList) == len(infos) {
		return r.digest
	}
	d := digestOf(infos)
	if len(infos) > 0 {
		r.digestList, r.digest = infos, d
	}
	return d
}

// digestOf identifies a tool set: every tool's name, signature and
// parameters. A state resumes only with the tools it was made with.
func digestOf(infos []registry.Info) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, t := range infos {
		_ = enc.Encode([]any{t.Name, t.Namespace, t.CallSignature, t.Parameters, t.CallerServed})
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// pauseOf makes the Pause of a run of source that stopped to wait for
// input, from its calls c and engine result res.
func (r *Runner) pauseOf(source string, opts RunOptions, session *sessionRef, infos []registry.Info, c *toolcall.Dispatcher, res *runtime.Result, printed [2]int64) (*Pause, error) {
	if res.Sources == nil {
		return nil, errors.New("the paused run recorded no clock or randomness")
	}
	if res.Sources.Overflowed {
		return nil, runtime.NewLimitError(fmt.Sprintf("the run needs input, but it read the clock more than %d times, which a resumed run cannot replay", runtime.MaxClockReadings), nil)
	}
	st := &runState{
		Source: source, Filename: opts.Filename, Tools: r.toolsDigest(infos), Log: c.Log(), Sources: res.Sources,
		Printed: printed, Expires: time.Now().Add(r.opts.StateTTL), Echo: opts.Echo, Session: session,
	}
	sealed, err := r.seal(st)
	if err != nil {
		return nil, err
	}
	return &Pause{State: sealed, Requests: r.requestsOf(st.Log)}, nil
}

// Requests returns the requests of a paused run's state, after the checks
// Resume makes of the state itself (the key, the format, the expiry, the
// tools); the error is a *StateError.
func (r *Runner) Requests(state []byte) ([]InputRequest, error) {
	st, err := r.open(state, time.Now())
	if err != nil {
		return nil, err
	}
	if r.toolsDigest(r.toolInfos()) != st.Tools {
		return nil, errOtherTools
	}
	return r.requestsOf(st.Log), nil
}

// errOtherTools refuses a state made with other tools.
var errOtherTools = &StateError{Reason: "it was made with other tools than this runner has (a tool was added, removed or changed since)"}

// requestsOf returns the requests of a call log.
func (r *Runner) requestsOf(log []toolcall.Entry) []InputRequest {
	byName := map[string]registry.Info{}
	for _, t := range r.toolInfos() {
		byName[t.Name] = t
	}
	var out []InputRequest
	for i, e := range log {
		if e.Request == "" {
			continue
		}
		var params map[string]any
		_ = json.Unmarshal(e.Params, &params)
		info, ok := byName[e.Name]
		if !ok {
			info = registry.Info{Name: e.Name}
		}
		out = append(out, InputRequest{ID: fmt.Sprintf("call_%d", i+1), Kind: e.Request, Tool: e.Name, Params: params, Text: info.RenderCall(params)})
	}
	return out
}

// Resume continues a paused run (see Pause) with a Response for each of
// its requests, keyed by request id, and reports what happened as Run
// does: the Result may hold another Pause. The state must have been made
// by a Runner with the same StateKey and tools, and not have expired; a
// request left unanswered, an answer to no request, or a refused state
// give a Result whose Error unwraps to ErrStateInvalid (a *StateError),
// and nothing runs. The resumed run's live output (opts.Stdout and
// Stderr, the output events) leaves out what the paused run printed
// before it stopped; its Result has all of it.
func (r *Runner) Resume(ctx context.Context, state []byte, responses map[string]Response, opts RunOptions) *Result {
	st, err := r.open(state, time.Now())
	if err == nil {
		err = r.checkResume(st, responses)
	}
	if err != nil {
		return r.refused(ctx, "", opts, (&runtime.Error{Name: "StateError", Message: err.Error(), Kind: runtime.KindInternal}).WithCause(err))
	}
	if opts.Filename == "" {
		opts.Filename = st.Filename
	}
	if st.Session != nil {
		opts.Echo = st.Echo
		s, err := r.OpenSession(SessionOptions{ID: st.Session.ID, Owner: st.Session.Owner})
		if err != nil {
			return r.refused(ctx, st.Source, opts, (&runtime.Error{Name: "StateError", Message: err.Error(), Kind: runtime.KindInternal}).WithCause(err))
		}
		return s.run(ctx, st.Source, opts, st, responses)
	}
	return r.execute(ctx, st.Source, opts, st, responses)
}

// checkResume checks that st resumes with r's tools and that responses
// answer exactly its requests.
func (r *Runner) checkResume(st *runState, responses map[string]Response) error {
	if r.toolsDigest(r.toolInfos()) != st.Tools {
		return errOtherTools
	}
	asked := map[string]bool{}
	var missing []string
	for i, e := range st.Log {
		if e.Request == "" {
			continue
		}
		id := fmt.Sprintf("call_%d", i+1)
		asked[id] = true
		if _, ok := responses[id]; !ok {
			missing = append(missing, fmt.Sprintf("%s (%s %s)", id, e.Name, e.Request))
		}
	}
	var extra []string
	for id := range responses {
		if !asked[id] {
			extra = append(extra, id)
		}
	}
	sort.Strings(extra)
	switch {
	case len(missing) > 0:
		return &StateError{Reason: "no response for " + strings.Join(missing, ", ")}
	case len(extra) > 0:
		return &StateError{Reason: "a response to no request of the run: " + strings.Join(extra, ", ")}
	}
	return nil
}

// countingWriter counts what passes to w.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}

// skipWriter drops the first skip bytes written to it (what a paused run
// already printed), then passes the rest to w.
type skipWriter struct {
	w    io.Writer
	skip int64
}

func (s *skipWriter) Write(p []byte) (int, error) {
	n := len(p)
	if s.skip > 0 {
		k := min(s.skip, int64(len(p)))
		s.skip -= k
		p = p[k:]
	}
	if len(p) > 0 {
		if _, err := s.w.Write(p); err != nil {
			return 0, err
		}
	}
	return n, nil
}
