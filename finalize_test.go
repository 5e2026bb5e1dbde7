package codeexec_test

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry/txntest"
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
					f := txntest.New(t, cancel, 0)
					limits := tc.limits
					limits.Timeout = cmp.Or(limits.Timeout, 20*time.Second)
					r := newRunner(t, f.Reg, codeexec.Options{Limits: limits}, m)
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
						if got := f.Calls(); len(got) != 0 {
							t.Fatalf("finalizer calls %v before the abandoned call returned", got)
						}
						close(f.Release)
						select {
						case <-f.Finalized:
						case <-time.After(20 * time.Second):
							t.Fatal("the abandoned call's result was never finalized")
						}
					}
					if got := f.Calls(); !slices.Equal(got, tc.want) || len(got) != f.Made() {
						t.Fatalf("finalizer calls %v for %d results made, want %v", got, f.Made(), tc.want)
					}
				})
			}
		})
	}
}
