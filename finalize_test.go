package codeexec_test

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// TestResultsFinalizedOnce checks, in both modes, that the result of
// every call a run's tool made is finalized exactly once (none is lost):
// with true when the snippet got it, committed before the snippet's next
// call, and with false when a hook refused it, it was over the result
// limit, it could not be converted, or the run ended first (its timeout,
// its cancellation, process.exit, a limit), including a call the run
// abandoned that returns after the run.
func TestResultsFinalizedOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		limits    codeexec.Limits
		want      []bool // the finalizer calls, in order
		value     string // the run's value, when it must succeed
		errorHas  string // a substring of its error, when it must fail
		// release: a stubborn txn is still running when Run returns; the
		// test releases it and waits for its finalizer.
		release bool
	}{
		{name: "delivered", src: `return (await txn("now")).ok`, want: []bool{true}, value: `true`},
		{name: "committed before the next call", src: `await txn("now"); return await committed()`, want: []bool{true}, value: `1`},
		{name: "refused by a result hook", src: `try { await txn("veto") } catch (e) { return [e.message, await committed()] }`, want: []bool{false}, value: `["vetoed by the hook",0]`},
		{name: "over the result limit", src: `try { await txn("big") } catch (e) { return [e.message, await committed()] }`, limits: codeexec.Limits{MaxResultBytes: 1000},
			want: []bool{false}, value: `["Tool txn failed: the result is 2077 bytes as JSON, over the limit of 1000 bytes on a tool result",0]`},
		{name: "a conversion failure", src: `try { await txn("deep") } catch (e) { return [e.name, await committed()] }`, want: []bool{false}, value: `["ToolError",0]`},
		{name: "the run's timeout first", src: `txn("late"); await started(); for (;;) {}`, limits: codeexec.Limits{Timeout: 300 * time.Millisecond}, want: []bool{false}, errorHas: "timeout of 300ms"},
		{name: "the run cancelled first", src: `txn("late"); await started(); cancel_run(); for (;;) {}`, want: []bool{false}, errorHas: "cancel"},
		{name: "process.exit first", src: `txn("late"); await started(); process.exit(3)`, want: []bool{false}, errorHas: "process.exit"},
		{name: "the call limit first", src: `txn("late"); await started(); for (;;) await committed()`, limits: codeexec.Limits{MaxCalls: 5}, want: []bool{false}, errorHas: "more than 5 tool calls"},
		{name: "abandoned, returns after the run", src: `txn("stubborn"); await started(); for (;;) {}`, limits: codeexec.Limits{Timeout: 300 * time.Millisecond, CancelGrace: 50 * time.Millisecond},
			want: []bool{false}, errorHas: "timeout of 300ms", release: true},
	}
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					f := newTxnTools(t, cancel)
					limits := tc.limits
					limits.Timeout = cmp.Or(limits.Timeout, 20*time.Second)
					r := newRunner(t, f.reg, codeexec.Options{Limits: limits}, m)
					res := r.Run(ctx, tc.src, codeexec.RunOptions{})
					switch {
					case tc.errorHas != "":
						if res.Error == nil || !strings.Contains(res.Error.Error(), tc.errorHas) {
							t.Fatalf("error %v, want one with %q", res.Error, tc.errorHas)
						}
					case res.Error != nil || string(res.Value) != tc.value:
						t.Fatalf("value %s, error %v; want %s", res.Value, res.Error, tc.value)
					}
					if tc.release {
						if got := f.calls(); len(got) != 0 {
							t.Fatalf("finalizer calls %v before the abandoned call returned", got)
						}
						close(f.release)
						select {
						case <-f.finalized:
						case <-time.After(20 * time.Second):
							t.Fatal("the abandoned call's result was never finalized")
						}
					}
					if got := f.calls(); !slices.Equal(got, tc.want) || len(got) != f.madeCount() {
						t.Fatalf("finalizer calls %v for %d results made, want %v", got, f.madeCount(), tc.want)
					}
				})
			}
		})
	}
}

// txnTools is a registry whose tool txn returns results with a finalizer
// that records its calls and counts the commits.
type txnTools struct {
	reg       *registry.Registry
	started   chan struct{}
	release   chan struct{}
	finalized chan struct{} // gets one value per finalizer call

	mu        sync.Mutex
	made      int
	got       []bool
	committed int
}

func (f *txnTools) record(delivered bool) {
	f.mu.Lock()
	f.got = append(f.got, delivered)
	if delivered {
		f.committed++
	}
	f.mu.Unlock()
	f.finalized <- struct{}{}
}

func (f *txnTools) calls() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.got...)
}

func (f *txnTools) madeCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.made
}

// newTxnTools registers txn(mode), whose mode "now" returns at once,
// "late" once the run's context is done, "stubborn" once the test
// releases it (ignoring the context), "deep" details too deeply nested to
// convert, "big" a result of 2077 bytes as JSON and "veto" a result a
// hook refuses; started(), which waits until a late or stubborn txn
// runs; cancel_run(), which cancels the run; and committed(), the commits
// so far.
func newTxnTools(t *testing.T, cancelRun context.CancelFunc) *txnTools {
	t.Helper()
	f := &txnTools{reg: registry.New(), started: make(chan struct{}, 1), release: make(chan struct{}), finalized: make(chan struct{}, 100)}
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
				case "stubborn":
					f.started <- struct{}{}
					<-f.release
				case "deep":
					res.Details = deep
				case "big":
					res.Content = []registry.Content{registry.TextContent(strings.Repeat("x", 2000))}
				}
				f.mu.Lock()
				f.made++
				f.mu.Unlock()
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
			Name: "committed", Description: "Counts the commits.", Parameters: registry.MustParseSchema(`{"type":"object"}`),
			CallSignature: "async function committed(): Promise<number>",
			Execute: func(context.Context, registry.Call) (registry.Result, error) {
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
