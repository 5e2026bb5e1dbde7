//go:build linux

package isolation

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// snippet30 is the typical 30-line snippet shared with the other
// benchmarks: types, a class, a loop, two tool calls and a returned summary.
var snippet30 = func() string {
	b, err := os.ReadFile("../testdata/bench/snippet30.ts")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func benchTools(b *testing.B) *registry.Registry {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "read", Description: "Read a file.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		CallSignature: "async function read(path: string): Promise<string>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult("some words in a file named " + c.Params["path"].(string)), nil
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkPoolRun30Lines measures one isolated run of the 30-line snippet
// on a warm worker: the pool is refilled, off the clock, before each run,
// as it is between the runs of a long-lived host.
func BenchmarkPoolRun30Lines(b *testing.B) {
	reg := benchTools(b)
	p, _ := testPool(b, Options{PoolSize: 1})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitIdle(b, p, 1)
		b.StartTimer()
		res := p.Run(context.Background(), snippet30, reg, RunOptions{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkPoolRunCold measures an isolated run of the 30-line snippet on a
// worker started on demand (PoolSize 0, as the CLI runs).
func BenchmarkPoolRunCold(b *testing.B) {
	reg := benchTools(b)
	p, _ := testPool(b, Options{})
	b.ReportAllocs()
	for b.Loop() {
		res := p.Run(context.Background(), snippet30, reg, RunOptions{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkPoolToolCallRoundTrip measures one awaited tool call from an
// isolated snippet: the call crosses to the parent, runs there, and the
// result crosses back.
func BenchmarkPoolToolCallRoundTrip(b *testing.B) {
	reg := benchTools(b)
	p, _ := testPool(b, Options{PoolSize: 1})
	waitIdle(b, p, 1)
	src := fmt.Sprintf(`for (let i = 0; i < %d; i++) await read("x");`, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	res := p.Run(context.Background(), src, reg, RunOptions{Options: runtime.Options{MaxCalls: b.N + 1}})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
}
