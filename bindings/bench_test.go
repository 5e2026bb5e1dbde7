package bindings

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

// BenchmarkRun30Lines measures one fresh run of a 30-line TypeScript snippet
// with two tool calls, including the esbuild transform and VM setup.
func BenchmarkRun30Lines(b *testing.B) {
	binder := New(benchTools(b), Options{})
	opts := runtime.Options{Setup: binder.Setup}
	b.ReportAllocs()
	for b.Loop() {
		res := runtime.Run(context.Background(), snippet30, opts)
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkToolCallRoundTrip measures one awaited tool call from a snippet:
// argument mapping, validation, the goroutine, and resolution on the loop.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	binder := New(benchTools(b), Options{})
	src := fmt.Sprintf(`for (let i = 0; i < %d; i++) await read("x");`, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	res := runtime.Run(context.Background(), src, runtime.Options{Setup: binder.Setup, MaxCalls: b.N + 1})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
}
