package registry_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// finalizeLog records the calls of a result's finalizer.
type finalizeLog struct {
	mu  sync.Mutex
	got []bool
}

func (l *finalizeLog) record(delivered bool) {
	l.mu.Lock()
	l.got = append(l.got, delivered)
	l.mu.Unlock()
}

func (l *finalizeLog) calls() []bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]bool(nil), l.got...)
}

// TestCallToolFinalizes checks that CallTool runs the finalizer of a
// tool's result exactly once, with false on every path where the result
// is not the one it returns, and with true for a result it returns unless
// the caller defers that (then the caller's Finalize is the one call).
func TestCallToolFinalizes(t *testing.T) {
	errReplaced := registry.Result{Content: []registry.Content{registry.TextContent("replaced by the hook")}}
	tests := []struct {
		name string
		// result is what the tool returns beside err.
		tooBig bool
		err    error
		// hook, when set, is the tool_result hook.
		hook     func(ev registry.ToolResultEvent) *registry.Result
		deferred bool
		// want is the finalizer's calls once CallTool returned; then, with
		// deferred, the caller finalizes with true, and wantAfter is the calls.
		want, wantAfter []bool
		isError         bool
		text            string
	}{
		{name: "success", want: []bool{true}, wantAfter: []bool{true}, text: "made"},
		{name: "success, the caller finalizes", deferred: true, want: nil, wantAfter: []bool{true}, text: "made"},
		{name: "the tool also returned an error", err: errors.New("boom"), deferred: true, want: []bool{false}, wantAfter: []bool{false}, isError: true, text: "boom"},
		{name: "over the result size limit", tooBig: true, deferred: true, want: []bool{false}, wantAfter: []bool{false}, isError: true, text: "over the limit of 100 bytes"},
		{name: "a hook replaces it by an error", deferred: true,
			hook: func(registry.ToolResultEvent) *registry.Result {
				r := errReplaced
				r.IsError = true
				return &r
			}, want: []bool{false}, wantAfter: []bool{false}, isError: true, text: "replaced by the hook"},
		{name: "a hook replaces it by another result", deferred: true,
			hook: func(registry.ToolResultEvent) *registry.Result { return &errReplaced },
			want: []bool{false}, wantAfter: []bool{false}, text: "replaced by the hook"},
		{name: "a hook changes its text and keeps it", deferred: true,
			hook: func(ev registry.ToolResultEvent) *registry.Result {
				r := ev.Result
				r.Content = []registry.Content{registry.TextContent("redacted")}
				return &r
			}, want: nil, wantAfter: []bool{true}, text: "redacted"},
		{name: "a hook keeps it as it is", deferred: true,
			hook: func(registry.ToolResultEvent) *registry.Result { return nil },
			want: nil, wantAfter: []bool{true}, text: "made"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log finalizeLog
			reg := registry.New()
			registerTool(t, reg, registry.Tool{Name: "txn", Description: "d", Parameters: map[string]any{"type": "object"},
				Execute: func(context.Context, registry.Call) (registry.Result, error) {
					text := "made"
					if tt.tooBig {
						text = strings.Repeat("x", 200)
					}
					return registry.TextResult(text).OnDelivered(log.record), tt.err
				}})
			if tt.hook != nil {
				reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result { return tt.hook(ev) })
			}
			res, err := reg.CallTool(context.Background(), "txn", nil, registry.CallOptions{EmitEvents: true, MaxResultBytes: 100, DeferFinalize: tt.deferred})
			if err != nil || res.IsError != tt.isError || !strings.Contains(res.Text(), tt.text) {
				t.Fatalf("CallTool = %+v, %v; want isError %v and text with %q", res, err, tt.isError, tt.text)
			}
			if got := log.calls(); !slices.Equal(got, tt.want) {
				t.Fatalf("finalizer calls when CallTool returned: %v, want %v", got, tt.want)
			}
			if (res.Finalizer() != nil) != (len(tt.want) == 0) {
				t.Fatalf("the returned result's Finalizer() is nil: %v; its finalizer ran: %v", res.Finalizer() == nil, len(tt.want) > 0)
			}
			res.Finalize(true)
			res.Finalize(false) // a second call does nothing
			if got := log.calls(); !slices.Equal(got, tt.wantAfter) {
				t.Fatalf("finalizer calls after the caller finalized: %v, want %v", got, tt.wantAfter)
			}
		})
	}
}

// TestCallToolHookPanicFinalizes checks that a tool_result hook that
// panics leaves no finalizer to run, and that the panic goes on.
func TestCallToolHookPanicFinalizes(t *testing.T) {
	var log finalizeLog
	reg := registry.New()
	registerTool(t, reg, registry.Tool{Name: "txn", Description: "d", Parameters: map[string]any{"type": "object"},
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.TextResult("made").OnDelivered(log.record), nil
		}})
	reg.OnToolResult(func(context.Context, registry.ToolResultEvent) *registry.Result { panic("hook bug") })
	func() {
		defer func() {
			if p := recover(); p != "hook bug" {
				t.Fatalf("recovered %v, want the hook's panic", p)
			}
		}()
		_, _ = reg.CallTool(context.Background(), "txn", nil, registry.CallOptions{EmitEvents: true, DeferFinalize: true})
	}()
	if got := log.calls(); !slices.Equal(got, []bool{false}) {
		t.Fatalf("finalizer calls: %v, want [false]", got)
	}
}

// TestResultFinalizer checks OnDelivered, Finalize and Finalizer: one run
// whatever the copies and the goroutines, chained finalizers in order, a
// panicking finalizer contained.
func TestResultFinalizer(t *testing.T) {
	var log finalizeLog
	res := registry.TextResult("x").OnDelivered(log.record)
	if registry.TextResult("x").Finalizer() != nil {
		t.Fatal("a result without a finalizer has a Finalizer")
	}
	fin := res.Finalizer()
	if fin == nil {
		t.Fatal("Finalizer() is nil before the finalizer ran")
	}
	copied := res
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 3 {
			case 0:
				res.Finalize(true)
			case 1:
				copied.Finalize(true)
			default:
				fin(true)
			}
		}()
	}
	wg.Wait()
	if got := log.calls(); !slices.Equal(got, []bool{true}) {
		t.Fatalf("finalizer calls: %v, want one true", got)
	}
	if res.Finalizer() != nil {
		t.Fatal("Finalizer() is not nil after the finalizer ran")
	}

	var order []string
	chained := registry.TextResult("x").
		OnDelivered(func(d bool) { order = append(order, "first") }).
		OnDelivered(func(d bool) { order = append(order, "second") }).
		OnDelivered(nil)
	chained.Finalize(false)
	chained.Finalize(true)
	if strings.Join(order, ",") != "first,second" {
		t.Fatalf("chained finalizers ran %v", order)
	}

	ran := false
	registry.TextResult("x").OnDelivered(func(bool) { ran = true; panic("finalizer bug") }).Finalize(true)
	if !ran {
		t.Fatal("the panicking finalizer did not run")
	}
}

func registerTool(t *testing.T, reg *registry.Registry, tool registry.Tool) {
	t.Helper()
	if err := reg.Register(tool); err != nil {
		t.Fatal(err)
	}
}
