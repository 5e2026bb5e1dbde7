package bindings

import (
	"context"
	"fmt"
	"testing"

	"github.com/codeexec/codeexec/internal/benchdata"
	"github.com/codeexec/codeexec/runtime"
)

// BenchmarkRun30Lines measures one fresh run of a 30-line TypeScript snippet
// with two tool calls, including the esbuild transform and VM setup.
func BenchmarkRun30Lines(b *testing.B) {
	binder := New(benchdata.Tools(), Options{})
	opts := runtime.Options{Setup: binder.Setup}
	b.ReportAllocs()
	for b.Loop() {
		res := runtime.Run(context.Background(), benchdata.Snippet30, opts)
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkToolCallRoundTrip measures one awaited tool call from a snippet:
// argument mapping, validation, the goroutine, and resolution on the loop.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	binder := New(benchdata.Tools(), Options{})
	src := fmt.Sprintf(`for (let i = 0; i < %d; i++) await read("x");`, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	res := runtime.Run(context.Background(), src, runtime.Options{Setup: binder.Setup, MaxCalls: b.N + 1})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
}
