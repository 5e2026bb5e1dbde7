package bindings

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry/txntest"
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
			f := txntest.New(t, cancel, 0)
			res := runtime.Run(ctx, tt.src, runtime.Options{Limits: runtime.Limits{Timeout: cmp.Or(tt.timeout, 10*time.Second)}, Setup: New(f.Reg).Setup})
			if tt.value != "" && (res.Error != nil || string(res.Value) != tt.value) {
				t.Fatalf("value %s, error %v; want %s", res.Value, res.Error, tt.value)
			}
			if got := f.Calls(); !slices.Equal(got, tt.want) {
				t.Fatalf("finalizer calls %v, want %v", got, tt.want)
			}
		})
	}
}
