package codeexec

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// calls accounts for the tool calls of one run, in both isolation modes:
// it is the bindings.Caller of the run's bindings in process, and of the
// worker's calls in the parent in Process isolation. It alone enforces
// the call limit and the concurrency limit, keeps the trace, names calls
// and reports the tool events.
type calls struct {
	tools    bindings.Caller
	infos    []registry.Info // the tools as of the run's start
	maxCalls int
	sem      chan struct{}
	ev       *emitter

	mu    sync.Mutex
	n     int
	calls []runtime.CallRecord
}

var _ bindings.Starter = (*calls)(nil)

// maxResultBytes is the most a tool result may take as JSON, in both
// isolation modes: what one frame to an isolated worker carries, less room
// for the message around the result. The registry refuses a larger result
// (registry.CallOptions.MaxResultBytes), and a stateful tool checks it
// before it changes anything, so that a result too large to deliver is a
// failed call that changed nothing, in process as in a worker.
const maxResultBytes = isolation.MaxFrameSize - 64<<10

func newCalls(tools bindings.Caller, l Limits, ev *emitter) *calls {
	return &calls{
		tools: tools, infos: tools.Tools(), maxCalls: l.MaxCalls,
		sem: make(chan struct{}, l.MaxConcurrentCalls), ev: ev,
	}
}

// Tools describes the tools as they were when the run started.
func (c *calls) Tools() []registry.Info { return c.infos }

// CallTool starts a call and performs it (see StartCall).
func (c *calls) CallTool(ctx context.Context, name string, params map[string]any, _ registry.CallOptions) (registry.Result, error) {
	perform, err := c.StartCall(name, params)
	if err != nil {
		return registry.Result{}, err
	}
	return perform(ctx)
}

// StartCall counts the call against the call limit (the call past it is a
// *runtime.LimitError, which ends the run), gives it its id, adds it to
// the trace and reports its start. The returned function waits for a
// concurrency slot, runs the tool through the hooks, with its updates
// reported as events, and records and reports the end.
func (c *calls) StartCall(name string, params map[string]any) (bindings.Perform, error) {
	c.mu.Lock()
	c.n++
	if c.n > c.maxCalls {
		c.mu.Unlock()
		return nil, runtime.NewLimitError(fmt.Sprintf("the run made more than %d tool calls, its limit", c.maxCalls), nil)
	}
	id := "call_" + strconv.Itoa(c.n)
	idx := len(c.calls)
	c.calls = append(c.calls, runtime.CallRecord{ID: id, Name: name, Params: params})
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
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return registry.Result{}, fmt.Errorf("%s was not started: %w", name, context.Cause(ctx))
		}
		defer func() { <-c.sem }()
		start := time.Now()
		res, err = c.tools.CallTool(ctx, name, params, registry.CallOptions{
			ID: id, EmitEvents: true, MaxResultBytes: maxResultBytes,
			OnUpdate: func(u registry.Result) {
				c.ev.emit(Event{Kind: EventToolUpdate, CallID: id, Tool: name, Update: &u})
			},
		})
		dur = time.Since(start)
		return res, err
	}, nil
}

// trace returns the calls in the order the snippet made them.
func (c *calls) trace() []runtime.CallRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]runtime.CallRecord(nil), c.calls...)
}
