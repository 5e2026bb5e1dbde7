package bindings

import (
	"context"
	"testing"

	"github.com/codeexec/codeexec/internal/benchdata"
	"github.com/codeexec/codeexec/runtime"
)

// BenchmarkRun30Lines measures one fresh run of a 30-line TypeScript snippet
// with two tool calls, including the esbuild transform and VM setup.
func BenchmarkRun30Lines(b *testing.B) {
	binder := New(benchdata.Tools())
	opts := runtime.Options{Setup: binder.Setup}
	var timer benchdata.Timer
	b.ReportAllocs()
	for b.Loop() {
		timer.Time(func() {
			if res := runtime.Run(context.Background(), benchdata.Snippet30, opts); res.Error != nil {
				b.Fatal(res.Error.Report())
			}
		})
	}
	timer.Report(b)
}

// BenchmarkToolCallRoundTrip measures one awaited tool call from a snippet:
// argument mapping, validation, the goroutine, and resolution on the loop.
// Besides the mean it reports the median and 90th percentile of the calls
// as the snippet timed them.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	binder := New(benchdata.Tools())
	b.ReportAllocs()
	b.ResetTimer()
	res := runtime.Run(context.Background(), benchdata.RoundTrip(b.N), runtime.Options{Setup: binder.Setup})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
	benchdata.ReportRoundTrip(b, res.Value)
}
