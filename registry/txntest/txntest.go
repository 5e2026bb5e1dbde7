// Package txntest is the transactional tool the finalizer tests of
// bindings, isolation and the root package share: a registry whose tool
// txn returns results with a finalizer (registry.Result.OnDelivered) that
// records each call and counts the commits, with tools to steer a run
// around it. It is for tests only.
package txntest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// Tools is the fixture. Its methods are safe for concurrent use.
type Tools struct {
	// Reg holds the tools (see New).
	Reg *registry.Registry
	// Release lets a stubborn txn return; close it once.
	Release chan struct{}
	// Finalized gets a value per finalizer call (buffered; a call whose
	// value does not fit is not counted here).
	Finalized chan struct{}

	started chan struct{}
	mu      sync.Mutex
	made    int
	got     []bool
	commits int
}

// New registers txn(mode), whose mode "now" returns at once, "late" once
// the run's context is done (a result nobody will take), "stubborn" once
// Release is closed (ignoring the context), "deep" details too deeply
// nested to convert, "big" a result of 2077 bytes as JSON, "chan" details
// that do not encode, "huge" a result of hugeBytes of text, and "veto" a
// result a tool_result hook refuses; started(), which waits until a late
// or stubborn txn runs; cancel_run(), which calls cancelRun; committed()
// and finalized(), the commits and finalizer calls so far; and extra.
func New(t testing.TB, cancelRun context.CancelFunc, hugeBytes int, extra ...registry.Tool) *Tools {
	t.Helper()
	f := &Tools{Reg: registry.New(), started: make(chan struct{}, 1), Release: make(chan struct{}), Finalized: make(chan struct{}, 1000)}
	deep := json.RawMessage(strings.Repeat("[", 10005) + strings.Repeat("]", 10005))
	object := registry.MustParseSchema(`{"type":"object"}`)
	count := func(n func() int) registry.ExecuteFunc {
		return func(context.Context, registry.Call) (registry.Result, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return registry.Result{Content: []registry.Content{}, Details: n()}, nil
		}
	}
	tools := append([]registry.Tool{
		{
			Name: "txn", Description: "A transactional tool.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"mode":{"type":"string"}},"required":["mode"]}`),
			CallSignature: "async function txn(mode: string): Promise<{ ok: boolean }>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				res := registry.Result{Content: []registry.Content{registry.TextContent("done")}, Details: map[string]any{"ok": true}}
				switch c.Params["mode"] {
				case "late":
					f.started <- struct{}{}
					<-ctx.Done()
				case "stubborn":
					f.started <- struct{}{}
					<-f.Release
				case "deep":
					res.Details = deep
				case "big":
					res.Content = []registry.Content{registry.TextContent(strings.Repeat("x", 2000))}
				case "chan":
					res.Details = make(chan int)
				case "huge":
					res.Content = []registry.Content{registry.TextContent(strings.Repeat("x", hugeBytes))}
				}
				f.mu.Lock()
				f.made++
				f.mu.Unlock()
				return res.OnDelivered(f.record), nil
			},
		},
		{
			Name: "started", Description: "Waits until a late txn runs.", Parameters: object,
			CallSignature: "async function started(): Promise<void>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				select {
				case <-f.started:
					return registry.Result{}, nil
				case <-ctx.Done():
					return registry.Result{}, ctx.Err()
				}
			},
		},
		{
			Name: "cancel_run", Description: "Cancels the run.", Parameters: object,
			CallSignature: "async function cancel_run(): Promise<void>",
			Execute: func(context.Context, registry.Call) (registry.Result, error) {
				cancelRun()
				return registry.Result{}, nil
			},
		},
		{Name: "committed", Description: "Counts the commits.", Parameters: object, CallSignature: "async function committed(): Promise<number>",
			Execute: count(func() int { return f.commits })},
		{Name: "finalized", Description: "Counts the finalizer calls.", Parameters: object, CallSignature: "async function finalized(): Promise<number>",
			Execute: count(func() int { return len(f.got) })},
	}, extra...)
	for _, tool := range tools {
		if err := f.Reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	f.Reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		if ev.Name == "txn" && ev.Params["mode"] == "veto" {
			return &registry.Result{Content: []registry.Content{registry.TextContent("vetoed by the hook")}, IsError: true}
		}
		return nil
	})
	return f
}

// record is txn's finalizer.
func (f *Tools) record(delivered bool) {
	f.mu.Lock()
	f.got = append(f.got, delivered)
	if delivered {
		f.commits++
	}
	f.mu.Unlock()
	select {
	case f.Finalized <- struct{}{}:
	default:
	}
}

// Calls returns the values the finalizers were called with, in order.
func (f *Tools) Calls() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.got...)
}

// Made returns how many results txn made.
func (f *Tools) Made() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.made
}
