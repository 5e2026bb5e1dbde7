// Package toolcall is the tool-call protocol of a run, in one place: the
// Caller a run's calls go to, how a call is started and performed
// (Starter, Perform, Start, CallStarted), the delivery contract of a
// call's result (whoever performs a call finalizes its result: see
// registry.Result.OnDelivered), and the Dispatcher that accounts for the
// calls of one run (the call and concurrency limits, the trace, the call
// events). The Caller has exactly two implementations that a snippet's
// calls go through: the Dispatcher in the host process, and the stand-in
// of an isolated worker that forwards each call across the pipe to the
// host's Dispatcher.
package toolcall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// Caller is where bound functions send their calls: a *registry.Registry,
// the call accounting of a codeexec Runner, or a stand-in that forwards
// calls elsewhere (for example from an isolated worker process to the
// Runner in its parent).
type Caller interface {
	// Tools describes the tools, in the order they are bound. A list once
	// returned must not change: its readers may keep it (an isolation
	// Pool recognizes a list it has seen and does not encode it again),
	// and it may be returned again while the tools stay the same.
	Tools() []registry.Info
	// CallTool runs a tool with the contract of registry.Registry.CallTool.
	CallTool(ctx context.Context, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error)
}

var _ Caller = (*registry.Registry)(nil)

// Perform runs one call that has been started, on its own goroutine, and
// returns its outcome; it must return promptly once ctx is done.
type Perform func(ctx context.Context) (registry.Result, error)

// Starter is implemented by a Caller that accounts for calls (limits, a
// trace, live events): StartCall is called when the snippet makes the
// call, on the run's loop goroutine and so in the snippet's order, before
// anything runs. It must not block. It returns the function that performs
// the call, or an error that refuses it: a *runtime.LimitError ends the
// whole run with that limit, any other error rejects the call.
type Starter interface {
	StartCall(name string, params map[string]any) (Perform, error)
}

// Start begins a call through c: with c's StartCall when c is a Starter,
// otherwise as a call to c.CallTool with the hooks on (calls made from a
// snippet always pass the registry's tool_call and tool_result hooks, so
// that a permission gate applies to code) and the result's finalizer left
// to the caller (registry.CallOptions.DeferFinalize). The returned Perform
// turns a panic in c into an error naming the tool, so that a faulty
// Caller fails its call, not the host.
//
// Whoever runs the returned Perform owns the finalizer of the result it
// returns without an error (registry.Result.OnDelivered; one returned
// beside an error is finalized with false): it must call Finalize on it,
// with true once the result reached the snippet and false otherwise. The
// bound functions of a Binder do (see Binder.Setup).
func Start(c Caller, name string, params map[string]any) (Perform, error) {
	perform, err := begin(c, name, params)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (registry.Result, error) {
		return performSafely(ctx, perform, name)
	}, nil
}

// CallStarted is CallTool for a Starter: it starts the call through s's
// StartCall and performs it as Start does (a result returned beside an
// error is finalized with false), then finalizes the result with true (or
// false for an error result) before it returns it, as
// registry.Registry.CallTool does, unless opts.DeferFinalize leaves that to
// the caller. A Starter's CallTool can be just this.
func CallStarted(ctx context.Context, s Starter, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error) {
	perform, err := s.StartCall(name, params)
	if err != nil {
		return registry.Result{}, err
	}
	res, err := performSafely(ctx, perform, name)
	if err == nil && !opts.DeferFinalize {
		res.Finalize(!res.IsError)
	}
	return res, err
}

// begin is Start without performSafely (the recovery from a panic and
// the finalizing of a result returned beside an error), which its caller
// must apply.
func begin(c Caller, name string, params map[string]any) (Perform, error) {
	if s, ok := c.(Starter); ok {
		return s.StartCall(name, params)
	}
	return func(ctx context.Context) (registry.Result, error) {
		return c.CallTool(ctx, name, params, registry.CallOptions{EmitEvents: true, DeferFinalize: true})
	}, nil
}

// performSafely runs perform, turning a panic into an error naming the
// tool, and finalizes with false a result that came with an error (a
// Caller may return one beside it; the snippet never gets it).
func performSafely(ctx context.Context, perform Perform, name string) (res registry.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = registry.Result{}, fmt.Errorf("%s failed: internal error: %v", name, p)
		}
		if err != nil {
			res.Finalize(false)
		}
	}()
	return perform(ctx)
}

// Record is one tool call in a run's trace.
type Record struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Params  any    `json:"params"`
	IsError bool   `json:"isError"`
	// Updates counts the partial results the tool reported while it ran.
	Updates  int           `json:"updates"`
	Duration time.Duration `json:"-"`
}

// Hooks receive a Dispatcher's call events as they happen, each from the
// goroutine that caused it: Start on the run's loop (in the snippet's
// order), Update and End on the goroutine that performs the call. A nil
// hook is skipped.
type Hooks struct {
	// Start: the snippet made call id ("call_N") to tool name.
	Start func(id, name string, params map[string]any)
	// Update: the running tool reported a partial result.
	Update func(id, name string, update registry.Result)
	// End: the call ended, after d of running, failed when isError.
	End func(id, name string, isError bool, d time.Duration)
	// Around, when set, is called as the tool begins to run (once the
	// call has a concurrency slot; never for a call refused before, held
	// back or replayed), on the goroutine that performs it, with the
	// call's context: the context it returns is the one the tool runs
	// with (a tracer puts the call's span there), and end, when not nil,
	// is called once the tool returned, with what it returned and how
	// long it ran.
	Around func(ctx context.Context, id, name string, params map[string]any) (context.Context, func(res registry.Result, err error, d time.Duration))
}

// Dispatcher accounts for the tool calls of one run, in both isolation
// modes: it is the Caller of the run's bindings in process, and of the
// worker's calls in the host in an isolated run. It alone enforces the
// call limit and the concurrency limit, keeps the trace, names calls and
// reports the call events. Safe for concurrent use.
//
// The results it hands out are finalized (registry.Result.OnDelivered) by
// whoever performs the call: Start's Perform finalizes a result returned
// beside an error, and the delivery point (the bindings' Outcome in
// process, the worker's acknowledgement in the host) every other one,
// with false when the run ended first.
type Dispatcher struct {
	tools     Caller
	infos     []registry.Info // the tools as of the run's start; shared, read only
	maxCalls  int
	maxResult int
	sem       chan struct{}
	hooks     Hooks
	replayLog []Entry           // the log this run replays; read only
	answers   map[string]Answer // read only
	pausable  bool
	rebuild   bool
	stop      chan struct{} // closed when the run stops to wait for input

	mu    sync.Mutex
	n     int
	calls []Record
	// log is this run's call log so far, by position.
	log []Entry
	// chain is closed once the last replayed outcome handed out so far
	// reached the snippet: replayed outcomes are delivered in log order.
	chain chan struct{}
	// busy counts the calls started and not yet settled (their outcome
	// delivered, or their request registered).
	busy int
	// pausing: a call waits for input, so calls made from now on are held
	// back (never run, never logged); held is the position of the first.
	pausing  bool
	held     int
	stopped  bool             // stop is closed
	diverged *DivergenceError // the replay's divergence, if any
}

var _ Starter = (*Dispatcher)(nil)

// Config configures a Dispatcher.
type Config struct {
	// Tools runs the calls; Infos describes them as of the run's start
	// (the run only reads the list).
	Tools Caller
	Infos []registry.Info
	// Limits gives the call, concurrency and result limits (MaxCalls,
	// MaxConcurrentCalls, MaxResultBytes: a larger result is refused, see
	// registry.CallOptions.MaxResultBytes).
	Limits runtime.Limits
	// Hooks receive the call events.
	Hooks Hooks
	// Log is the call log of an earlier run of the same source that this
	// run replays: a call at a logged position must be the logged call
	// (else the run ends with a *DivergenceError), and is answered from
	// the log, without calling the tool, in the order of the log.
	Log []Entry
	// Answers answer the log's requests, by call id: an approval that is
	// granted runs the call, any other answer is its outcome.
	Answers map[string]Answer
	// Pausable makes the run pausable: a call that needs input (an
	// *registry.InputError) waits, the calls made after it are held back,
	// and once no other call is in flight all of them fail with an error
	// that unwraps to ErrPaused, which ends the run (package bindings
	// ends a run on it, in both isolation modes); Paused and Log then
	// describe the pause. Otherwise such a call fails with the
	// InputError.
	Pausable bool
	// Rebuild replays Log as the complete log of a run that ended, to
	// rebuild what it left (a session's earlier run): no tool is ever
	// called. A logged call that never reached the snippet (no Outcome)
	// is never answered, as it was not then: it waits until the run
	// ends; a call past the end of Log is a divergence.
	Rebuild bool
}

// NewDispatcher returns the accounting of one run's calls.
func NewDispatcher(cfg Config) *Dispatcher {
	return &Dispatcher{
		tools: cfg.Tools, infos: cfg.Infos, maxCalls: cfg.Limits.MaxCalls, maxResult: cfg.Limits.MaxResultBytes,
		sem: make(chan struct{}, cfg.Limits.MaxConcurrentCalls), hooks: cfg.Hooks,
		replayLog: cfg.Log, answers: cfg.Answers, pausable: cfg.Pausable, rebuild: cfg.Rebuild, held: -1, stop: make(chan struct{}),
	}
}

// Tools describes the tools as they were when the run started. The list
// may be shared with other runs (see codeexec.Runner.toolInfos): its readers, the
// run's bindings and its worker's session, must not change it.
func (c *Dispatcher) Tools() []registry.Info { return c.infos }

// CallTool starts a call and performs it (see CallStarted).
func (c *Dispatcher) CallTool(ctx context.Context, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error) {
	return CallStarted(ctx, c, name, params, opts)
}

// StartCall counts the call against the call limit (the call past it is a
// *runtime.LimitError, which ends the run), gives it its id, adds it to
// the trace and the log and reports its start. The returned function
// waits for a concurrency slot, runs the tool through the hooks, with its
// updates reported as events, and records and reports the end. Its
// result's finalizer is its caller's to run (registry.CallOptions.
// DeferFinalize). A call at a position of the replayed log is answered
// from the log instead (one that is not the logged call is refused with a
// *DivergenceError, which ends the run), and a call made while the run
// pauses is held back (see Config.Pausable).
func (c *Dispatcher) StartCall(name string, params map[string]any) (Perform, error) {
	c.mu.Lock()
	c.n++
	if c.n > c.maxCalls {
		c.mu.Unlock()
		return nil, runtime.NewLimitError(fmt.Sprintf("the run made more than %d tool calls, its limit", c.maxCalls), nil)
	}
	id := "call_" + strconv.Itoa(c.n)
	pos := c.n - 1
	// The params are encoded for the log only when it is read (Log) or
	// compared (a replay): a run that never pauses does not pay for it.
	entry := Entry{Name: name, params: params}
	var replayed *Outcome
	approved, unanswered := false, false
	if c.rebuild && pos >= len(c.replayLog) {
		d := c.divergeLocked("no call", name, paramsJSON(params))
		c.mu.Unlock()
		return nil, d
	}
	if pos < len(c.replayLog) {
		logged := c.replayLog[pos]
		entry.Params = paramsJSON(params)
		if !sameCall(logged, name, entry.Params) {
			d := c.divergeLocked(logged.Name+"("+string(logged.Params)+")", name, entry.Params)
			c.mu.Unlock()
			return nil, d
		}
		replayed = logged.Outcome
		if a, ok := c.answers[id]; ok && logged.Request != "" {
			replayed = a.outcome(logged.Request, name)
			approved = replayed == nil
		}
		unanswered = replayed == nil && c.rebuild
	}
	held := c.pausing
	if held {
		if c.held < 0 {
			c.held = pos
		}
	} else {
		c.busy++
	}
	c.log = append(c.log, entry)
	var prev, mine chan struct{}
	if replayed != nil && !held {
		prev, mine = c.chain, make(chan struct{})
		c.chain = mine
	}
	idx := len(c.calls)
	c.calls = append(c.calls, Record{ID: id, Name: name, Params: traceParams(params)})
	c.mu.Unlock()
	if c.hooks.Start != nil {
		c.hooks.Start(id, name, params)
	}
	return func(ctx context.Context) (res registry.Result, err error) {
		var dur time.Duration
		defer func() {
			// A call that waits for input has not failed.
			isErr := err != nil && !errors.Is(err, ErrPaused) || res.IsError
			c.mu.Lock()
			c.calls[idx].IsError, c.calls[idx].Duration = isErr, dur
			c.mu.Unlock()
			if c.hooks.End != nil {
				c.hooks.End(id, name, isErr, dur)
			}
		}()
		switch {
		case held:
			return registry.Result{}, c.waitPaused(ctx, name)
		case unanswered:
			<-ctx.Done()
			c.settle(pos, nil)
			return registry.Result{}, fmt.Errorf("%s was not answered: %w", name, context.Cause(ctx))
		case replayed != nil:
			return c.replay(ctx, pos, name, replayed, prev, mine)
		}
		// A call that would start after the run's deadline (or its end) is
		// refused before the tool runs, saying why.
		notStarted := func() (registry.Result, error) {
			c.settle(pos, nil)
			return registry.Result{}, fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
		}
		if ctx.Err() != nil {
			return notStarted()
		}
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return notStarted()
		}
		defer func() { <-c.sem }()
		var around func(registry.Result, error, time.Duration)
		if c.hooks.Around != nil {
			ctx, around = c.hooks.Around(ctx, id, name, params)
		}
		start := time.Now()
		res, err = c.tools.CallTool(ctx, name, params, registry.CallOptions{
			ID: id, EmitEvents: true, MaxResultBytes: c.maxResult, DeferFinalize: true, Approved: approved,
			OnUpdate: func(u registry.Result) {
				c.mu.Lock()
				c.calls[idx].Updates++
				c.mu.Unlock()
				if c.hooks.Update != nil {
					c.hooks.Update(id, name, u)
				}
			},
		})
		dur = time.Since(start)
		if around != nil {
			around(res, err, dur)
		}
		var input *registry.InputError
		if errors.As(err, &input) && c.pausable {
			c.request(pos, input.Kind)
			return registry.Result{}, c.waitPaused(ctx, name)
		}
		if err == nil {
			// Encoded once here; bindings and the worker protocol then take
			// the details as they are.
			if raw, derr := res.DetailsJSON(); derr == nil && raw != nil {
				res.Details = raw
			}
		}
		outcome := outcomeOf(res, err)
		fin := res.Finalizer()
		if err != nil || fin == nil {
			c.settle(pos, outcome)
			return res, err
		}
		// A stateful tool commits when its result is delivered: the call
		// is logged only then, and runs again on a replay otherwise.
		return res.OnDelivered(func(delivered bool) {
			fin(delivered)
			if delivered {
				c.settle(pos, outcome)
			} else {
				c.settle(pos, nil)
			}
		}), nil
	}, nil
}

// divergeLocked returns the *DivergenceError of the call just counted
// (c.n), name(params), where the log has logged, and keeps it as the run's
// when it is the first. The caller holds c.mu.
func (c *Dispatcher) divergeLocked(logged, name string, params []byte) *DivergenceError {
	d := &DivergenceError{Position: c.n, Logged: logged, Made: name + "(" + string(params) + ")"}
	if c.diverged == nil {
		c.diverged = d
	}
	return d
}

// replay hands out the logged outcome of the call at pos, once the one
// replayed before it (prev, when not nil) reached the snippet, and closes
// mine once this one did.
func (c *Dispatcher) replay(ctx context.Context, pos int, name string, o *Outcome, prev, mine chan struct{}) (registry.Result, error) {
	if prev != nil {
		select {
		case <-prev:
		case <-ctx.Done():
			close(mine)
			c.settle(pos, nil)
			return registry.Result{}, fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
		}
	}
	res, err := o.replay(name)
	if err != nil {
		close(mine)
		c.settle(pos, o)
		return res, err
	}
	return res.OnDelivered(func(bool) {
		close(mine)
		c.settle(pos, o)
	}), nil
}

// settle records the outcome of the call at pos (nil: it runs again on a
// replay) and pauses the run if it was the last one in flight.
func (c *Dispatcher) settle(pos int, o *Outcome) {
	c.mu.Lock()
	c.log[pos].Outcome = o
	c.busy--
	c.stopLocked()
	c.mu.Unlock()
}

// request records that the call at pos waits for input of kind.
func (c *Dispatcher) request(pos int, kind registry.InputKind) {
	c.mu.Lock()
	c.log[pos].Request = kind
	c.busy--
	c.pausing = true
	c.stopLocked()
	c.mu.Unlock()
}

// stopLocked stops the run to wait for input when a call waits for it
// and none is in flight: the calls that wait then end it.
func (c *Dispatcher) stopLocked() {
	if c.pausing && c.busy == 0 && !c.stopped {
		c.stopped = true
		close(c.stop)
	}
}

// Diverged returns the error of the replay's divergence, nil when it did
// not diverge.
func (c *Dispatcher) Diverged() *DivergenceError {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diverged
}

// Paused reports whether the run stopped to wait for input.
func (c *Dispatcher) Paused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// Log returns the run's call log: every call up to the first one held
// back by a pause, with its outcome or request. It is what a paused run
// is resumed from.
func (c *Dispatcher) Log() []Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	end := len(c.log)
	if c.held >= 0 {
		end = c.held
	}
	out := append([]Entry(nil), c.log[:end]...)
	for i := range out {
		if out[i].Params == nil {
			out[i].Params = paramsJSON(out[i].params)
		}
	}
	return out
}

// traceParamBytes bounds what the trace keeps of one call's params.
const traceParamBytes = 64 << 10

// traceParams is what the trace keeps of params: the params themselves
// when their strings (and 8 bytes for each other value) add up to at most
// traceParamBytes, and otherwise a copy whose strings longer than 1 KiB are
// cut to their first KiB and arrays longer than 100 to their first 100,
// each with a note of what was cut, so that a run of big writes does not
// keep every byte it wrote for its trace.
func traceParams(params map[string]any) any {
	if stringBytes(params) <= traceParamBytes {
		return params
	}
	return cutStrings(params)
}

func stringBytes(v any) int {
	switch v := v.(type) {
	case string:
		return len(v)
	case map[string]any:
		n := 0
		for k, x := range v {
			n += len(k) + stringBytes(x)
		}
		return n
	case []any:
		n := 0
		for _, x := range v {
			n += stringBytes(x)
		}
		return n
	}
	return 8
}

func cutStrings(v any) any {
	const keep = 1 << 10
	switch v := v.(type) {
	case string:
		if len(v) > keep {
			head, _ := tail.Prefix(v, keep, tail.AtRune)
			return fmt.Sprintf("%s...[%d more bytes not kept in the trace]", head, len(v)-len(head))
		}
		return v
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = cutStrings(x)
		}
		return m
	case []any:
		const keepItems = 100
		s := make([]any, 0, min(len(v), keepItems+1))
		for _, x := range v[:min(len(v), keepItems)] {
			s = append(s, cutStrings(x))
		}
		if len(v) > keepItems {
			s = append(s, fmt.Sprintf("...[%d more items not kept in the trace]", len(v)-keepItems))
		}
		return s
	}
	return v
}

// Trace returns the calls in the order the snippet made them, as of now
// (a copy).
func (c *Dispatcher) Trace() []Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Record(nil), c.calls...)
}
