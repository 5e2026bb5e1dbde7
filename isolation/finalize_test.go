//go:build linux

package isolation

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/txntest"
	"github.com/codeexec/codeexec/runtime"
)

// hugeResult is the length of the text of txn("huge"): a byte over the
// frame limit, so that it is refused before it is encoded.
const hugeResult = MaxFrameSize + 1

// TestResultsAreFinalized checks, across the process boundary, that a
// call's result is finalized exactly once: with true when the worker acks
// its delivery, before the snippet's next call is served; with false when
// the worker says it could not convert it, when it cannot cross the
// boundary (details that do not encode, a frame too large), when a hook
// refuses it, and when the run ends before its ack (the run's timeout, its
// cancellation, process.exit, the worker's death).
func TestResultsAreFinalized(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		timeout   time.Duration
		want      []bool // the finalizer calls, in order
		value     string // the run's value, when it must succeed
		errorHas  string // a substring of the run's error, when it must fail
	}{
		{name: "delivered", src: `return (await txn("now")).ok`, want: []bool{true}, value: `true`},
		{name: "delivered through callTool", src: `return (await callTool("txn", { mode: "now" })).details.ok`, want: []bool{true}, value: `true`},
		{name: "committed before the next call", src: `await txn("now"); return await committed()`, want: []bool{true}, value: `1`},
		{name: "two at once", src: `await Promise.all([txn("now"), txn("now")]); return await committed()`, want: []bool{true, true}, value: `2`},
		// The worker's negative ack finalizes at once, not at the run's end.
		{name: "a conversion failure in the worker", src: `try { await txn("deep") } catch (e) { return [e.name, await committed(), await finalized()] }`, want: []bool{false}, value: `["ToolError",0,1]`},
		{name: "details that do not encode", src: `try { await txn("chan") } catch (e) { return [e.message, await finalized()] }`, want: []bool{false}, value: `["tool txn failed: its result details cannot be encoded as JSON: json: unsupported type: chan int",1]`},
		{name: "a result frame too large", src: `try { await txn("huge") } catch (e) { return [e.message, await finalized()] }`, want: []bool{false}, value: `["tool txn failed: its result is too large to pass to an isolated worker (the limit is 64 MiB)",1]`},
		{name: "refused by a result hook", src: `try { await txn("veto") } catch (e) { return [e.message, await committed()] }`, want: []bool{false}, value: `["vetoed by the hook",0]`},
		{name: "the run's timeout first", src: `txn("late"); await started(); for (;;) {}`, timeout: 300 * time.Millisecond, want: []bool{false}, errorHas: "timeout of 300ms"},
		// Busy, the snippet cannot take a result: in a worker, one that
		// arrives before the kill lands would be delivered, and committed.
		{name: "the run cancelled first", src: `txn("late"); await started(); cancel_run(); for (;;) {}`, want: []bool{false}, errorHas: "cancelled by its caller"},
		{name: "process.exit first", src: `txn("late"); await started(); process.exit(0)`, want: []bool{false}, value: ``},
		{name: "the worker dies first", src: `txn("late"); await started(); kill_worker(); for (;;) {}`, want: []bool{false}, errorHas: "the isolated worker was killed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ps := testPool(t, Options{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := txntest.New(t, cancel, hugeResult, killWorker(ps))
			res := p.Run(ctx, tc.src, f.Reg, runtime.Options{Limits: runtime.Limits{Timeout: cmp.Or(tc.timeout, testTimeout)}})
			switch {
			case tc.errorHas != "":
				if res.Error == nil || !strings.Contains(res.Error.Error(), tc.errorHas) {
					t.Fatalf("error %v, want one with %q", res.Error, tc.errorHas)
				}
			case res.Error != nil || string(res.Value) != tc.value:
				t.Fatalf("value %s, error %v; want %s", res.Value, res.Error, tc.value)
			}
			if got := f.Calls(); !slices.Equal(got, tc.want) {
				t.Fatalf("finalizer calls %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSessionResultsAreFinalized checks a pinned session's worker: a
// result that a run's timeout kept from its snippet is finalized with
// false, and the session's next run delivers and commits as usual.
func TestSessionResultsAreFinalized(t *testing.T) {
	t.Parallel()
	p, ps := testPool(t, Options{})
	f := txntest.New(t, nil, hugeResult, killWorker(ps))
	s := p.NewSession()
	defer s.Close()
	res := s.Run(context.Background(), `txn("late"); await started(); for (;;) {}`, f.Reg, runtime.Options{Limits: runtime.Limits{Timeout: 300 * time.Millisecond}})
	if res.Error == nil || !strings.Contains(res.Error.Error(), "timeout of 300ms") || s.Ended() != nil {
		t.Fatalf("first run: %v (session ended: %v)", res.Error, s.Ended())
	}
	if got := f.Calls(); !slices.Equal(got, []bool{false}) {
		t.Fatalf("after the first run: finalizer calls %v, want [false]", got)
	}
	res = s.Run(context.Background(), `await txn("now"); return await committed()`, f.Reg, runOpts(runtime.Options{}))
	if res.Error != nil || string(res.Value) != "1" {
		t.Fatalf("second run: %s, %v", res.Value, res.Error)
	}
	if got := f.Calls(); !slices.Equal(got, []bool{false, true}) {
		t.Fatalf("after the second run: finalizer calls %v, want [false true]", got)
	}
}

// killWorker is the tool kill_worker(), which kills the run's worker (the
// last one ps saw start).
func killWorker(ps *pids) registry.Tool {
	return registry.Tool{
		Name: "kill_worker", Description: "Kills the run's worker.", Parameters: registry.MustParseSchema(`{"type":"object"}`),
		CallSignature: "async function kill_worker(): Promise<void>",
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.Result{}, syscall.Kill(ps.last(), syscall.SIGKILL)
		},
	}
}
