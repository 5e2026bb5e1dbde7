// Package meettest is the tool that the parallelism tests of bindings and
// mcp share: each call of meet waits until n calls have started, which
// calls that run one after another never get to. It shows calls run in
// parallel by an event, not by the clock. It is for tests only.
package meettest

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/codeexec/codeexec/registry"
)

// Tool returns the meet tool for n calls: async function meet():
// Promise<string>, which resolves to "met" once n calls have started, or
// fails when its call's context ends first.
func Tool(n int) registry.Tool {
	var started atomic.Int32
	all := make(chan struct{}) // closed by the nth call
	return registry.Tool{
		Name: "meet", Description: "Waits until " + strconv.Itoa(n) + " calls have started.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function meet(): Promise<string>",
		Execute: func(ctx context.Context, _ registry.Call) (registry.Result, error) {
			if started.Add(1) == int32(n) {
				close(all)
			}
			select {
			case <-all:
				return registry.TextResult("met"), nil
			case <-ctx.Done():
				return registry.Result{}, ctx.Err()
			}
		},
	}
}
