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

	mu    sync.Mutex
	n     int
	calls []Record
}

var _ Starter = (*Dispatcher)(nil)

// NewDispatcher returns the accounting of one run's calls to tools, whose
// description as of the run's start is infos (which the run only reads),
// under l's MaxCalls and MaxConcurrentCalls; a result is refused past
// maxResult bytes (registry.CallOptions.MaxResultBytes).
func NewDispatcher(tools Caller, infos []registry.Info, l runtime.Limits, maxResult int, hooks Hooks) *Dispatcher {
	return &Dispatcher{
		tools: tools, infos: infos, maxCalls: l.MaxCalls, maxResult: maxResult,
		sem: make(chan struct{}, l.MaxConcurrentCalls), hooks: hooks,
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
// the trace and reports its start. The returned function waits for a
// concurrency slot, runs the tool through the hooks, with its updates
// reported as events, and records and reports the end. Its result's
// finalizer is its caller's to run (registry.CallOptions.DeferFinalize),
// and finish runs it if its caller does not.
func (c *Dispatcher) StartCall(name string, params map[string]any) (Perform, error) {
	c.mu.Lock()
	c.n++
	if c.n > c.maxCalls {
		c.mu.Unlock()
		return nil, runtime.NewLimitError(fmt.Sprintf("the run made more than %d tool calls, its limit", c.maxCalls), nil)
	}
	id := "call_" + strconv.Itoa(c.n)
	idx := len(c.calls)
	c.calls = append(c.calls, Record{ID: id, Name: name, Params: traceParams(params)})
	c.mu.Unlock()
	if c.hooks.Start != nil {
		c.hooks.Start(id, name, params)
	}
	return func(ctx context.Context) (res registry.Result, err error) {
		var dur time.Duration
		defer func() {
			isErr := err != nil || res.IsError
			c.mu.Lock()
			c.calls[idx].IsError, c.calls[idx].Duration = isErr, dur
			c.mu.Unlock()
			if c.hooks.End != nil {
				c.hooks.End(id, name, isErr, dur)
			}
		}()
		// A call that would start after the run's deadline (or its end) is
		// refused before the tool runs, saying why.
		if ctx.Err() != nil {
			return registry.Result{}, fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
		}
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return registry.Result{}, fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
		}
		defer func() { <-c.sem }()
		start := time.Now()
		res, err = c.tools.CallTool(ctx, name, params, registry.CallOptions{
			ID: id, EmitEvents: true, MaxResultBytes: c.maxResult, DeferFinalize: true,
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
		if err == nil {
			// Encoded once here; bindings and the worker protocol then take
			// the details as they are.
			if raw, derr := res.DetailsJSON(); derr == nil && raw != nil {
				res.Details = raw
			}
		}
		return res, err
	}, nil
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
