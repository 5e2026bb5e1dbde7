package codeexec

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// calls accounts for the tool calls of one run, in both isolation modes:
// it is the bindings.Caller of the run's bindings in process, and of the
// worker's calls in the parent in Process isolation. It alone enforces
// the call limit and the concurrency limit, keeps the trace, names calls
// and reports the tool events.
//
// The results it hands out are finalized (registry.Result.OnDelivered) by
// whoever performs the call: bindings.Start's Perform finalizes a result
// returned beside an error, and the delivery point (the bindings' Outcome
// in process, the worker's acknowledgement in the parent) every other one,
// with false when the run ended first.
type calls struct {
	tools     bindings.Caller
	infos     []registry.Info // the tools as of the run's start; shared, read only
	maxCalls  int
	maxResult int
	sem       chan struct{}
	ev        *emitter

	mu    sync.Mutex
	n     int
	calls []runtime.CallRecord
}

var _ bindings.Starter = (*calls)(nil)

// frameResultBytes is the most a tool result may take as JSON to fit one
// frame to an isolated worker, less room for the message around it. A
// run's result limit is the smaller of it and Limits.MaxResultBytes, in
// both isolation modes, so that a result is refused the same way in
// process as in a worker: by the registry (registry.CallOptions.
// MaxResultBytes), and by a stateful tool before it changes anything, so
// that a result too large to deliver is a failed call that changed
// nothing.
const frameResultBytes = isolation.MaxFrameSize - 64<<10

// newCalls returns the accounting of a run of tools, whose description
// as of the run's start is infos (which the run only reads).
func newCalls(tools bindings.Caller, infos []registry.Info, l Limits, ev *emitter) *calls {
	return &calls{
		tools: tools, infos: infos, maxCalls: l.MaxCalls, maxResult: min(l.MaxResultBytes, frameResultBytes),
		sem: make(chan struct{}, l.MaxConcurrentCalls), ev: ev,
	}
}

// Tools describes the tools as they were when the run started. The list
// may be shared with other runs (see Runner.toolInfos): its readers, the
// run's bindings and its worker's session, must not change it.
func (c *calls) Tools() []registry.Info { return c.infos }

// CallTool starts a call and performs it (see bindings.CallStarted).
func (c *calls) CallTool(ctx context.Context, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error) {
	return bindings.CallStarted(ctx, c, name, params, opts)
}

// StartCall counts the call against the call limit (the call past it is a
// *runtime.LimitError, which ends the run), gives it its id, adds it to
// the trace and reports its start. The returned function waits for a
// concurrency slot, runs the tool through the hooks, with its updates
// reported as events, and records and reports the end. Its result's
// finalizer is its caller's to run (registry.CallOptions.DeferFinalize),
// and finish runs it if its caller does not.
func (c *calls) StartCall(name string, params map[string]any) (bindings.Perform, error) {
	c.mu.Lock()
	c.n++
	if c.n > c.maxCalls {
		c.mu.Unlock()
		return nil, runtime.NewLimitError(fmt.Sprintf("the run made more than %d tool calls, its limit", c.maxCalls), nil)
	}
	id := "call_" + strconv.Itoa(c.n)
	idx := len(c.calls)
	c.calls = append(c.calls, runtime.CallRecord{ID: id, Name: name, Params: traceParams(params)})
	c.mu.Unlock()
	c.ev.emit(Event{Kind: EventToolStart, CallID: id, Tool: name, Params: params})
	return func(ctx context.Context) (res registry.Result, err error) {
		var dur time.Duration
		defer func() {
			isErr := err != nil || res.IsError
			c.mu.Lock()
			c.calls[idx].IsError, c.calls[idx].Duration = isErr, dur
			c.mu.Unlock()
			c.ev.emit(Event{Kind: EventToolEnd, CallID: id, Tool: name, IsError: isErr, Duration: dur})
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
				c.ev.emit(Event{Kind: EventToolUpdate, CallID: id, Tool: name, Update: &u})
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

// trace returns the calls in the order the snippet made them.
func (c *calls) trace() []runtime.CallRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]runtime.CallRecord(nil), c.calls...)
}
