package bindings

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// TestResultsAreFinalized checks the delivery point: a call's result is
// finalized exactly once, with true only when the snippet got its value
// (and before the call's next statement runs), with false when it is
// refused by a hook, cannot be converted, or the run ends first (its
// timeout, its cancellation, process.exit).
func TestResultsAreFinalized(t *testing.T) {
	tests := []struct {
		name, src string
		timeout   time.Duration
		want      []bool // the finalizer calls, in order
		value     string // the run's value, when it must succeed
	}{
		{name: "delivered", src: `return (await txn("now")).ok`, want: []bool{true}, value: `true`},
		{name: "delivered through callTool", src: `return (await callTool("txn", { mode: "now" })).details.ok`, want: []bool{true}, value: `true`},
		{name: "committed before the next statement", src: `await txn("now"); return await committed()`, want: []bool{true}, value: `1`},
		{name: "two at once", src: `await Promise.all([txn("now"), txn("now")]); return await committed()`, want: []bool{true, true}, value: `2`},
		{name: "a conversion failure", src: `try { await txn("deep") } catch (e) { return [e.name, await committed()] }`, want: []bool{false}, value: `["ToolError",0]`},
		{name: "refused by a result hook", src: `try { await txn("veto") } catch (e) { return [e.message, await committed()] }`, want: []bool{false}, value: `["vetoed by the hook",0]`},
		{name: "the run's timeout first", src: `txn("late"); await started(); for (;;) {}`, timeout: 200 * time.Millisecond, want: []bool{false}},
		{name: "the run cancelled first", src: `txn("late"); await started(); cancel_run(); for (;;) {}`, want: []bool{false}},
		{name: "process.exit first", src: `txn("late"); await started(); process.exit(0)`, want: []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := newFinalizeTools(t, cancel)
			res := runtime.Run(ctx, tt.src, runtime.Options{Setup: New(f.reg).Setup, Timeout: cmp.Or(tt.timeout, 10*time.Second)})
			if tt.value != "" && (res.Error != nil || string(res.Value) != tt.value) {
				t.Fatalf("value %s, error %v; want %s", res.Value, res.Error, tt.value)
			}
			if got := f.calls(); !slices.Equal(got, tt.want) {
				t.Fatalf("finalizer calls %v, want %v", got, tt.want)
			}
		})
	}
}

// finalizeTools is a registry whose tool txn returns results with a
// finalizer that counts the commits.
type finalizeTools struct {
	reg     *registry.Registry
	started chan struct{}

	mu        sync.Mutex
	got       []bool
	committed int
}

func (f *finalizeTools) record(delivered bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, delivered)
	if delivered {
		f.committed++
	}
}

func (f *finalizeTools) calls() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.got...)
}

// newFinalizeTools registers txn(mode), whose mode "now" returns at once,
// "late" once the run's context is done (a result nobody will take),
// "deep" details too deeply nested to convert and "veto" a result a hook
// refuses; started(), which waits until a late txn runs; cancel_run(),
// which cancels the run; and committed(), the number of commits so far.
func newFinalizeTools(t *testing.T, cancelRun context.CancelFunc) *finalizeTools {
	t.Helper()
	f := &finalizeTools{reg: registry.New(), started: make(chan struct{}, 1)}
	deep := json.RawMessage(strings.Repeat("[", 10005) + strings.Repeat("]", 10005))
	tools := []registry.Tool{
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
				case "deep":
					res.Details = deep
				}
				return res.OnDelivered(f.record), nil
			},
		},
		{
			Name: "started", Description: "Waits until a late txn runs.",
			Parameters:    registry.MustParseSchema(`{"type":"object"}`),
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
			Name: "cancel_run", Description: "Cancels the run.",
			Parameters:    registry.MustParseSchema(`{"type":"object"}`),
			CallSignature: "async function cancel_run(): Promise<void>",
			Execute: func(context.Context, registry.Call) (registry.Result, error) {
				cancelRun()
				return registry.Result{}, nil
			},
		},
		{
			Name: "committed", Description: "Counts the commits.",
			Parameters:    registry.MustParseSchema(`{"type":"object"}`),
			CallSignature: "async function committed(): Promise<number>",
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				f.mu.Lock()
				defer f.mu.Unlock()
				return registry.Result{Content: []registry.Content{}, Details: f.committed}, nil
			},
		},
	}
	for _, tool := range tools {
		if err := f.reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	f.reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		if ev.Name == "txn" && ev.Params["mode"] == "veto" {
			return &registry.Result{Content: []registry.Content{registry.TextContent("vetoed by the hook")}, IsError: true}
		}
		return nil
	})
	return f
}
