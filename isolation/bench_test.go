//go:build linux

package isolation

import (
	"context"
	"testing"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/internal/benchdata"
	"github.com/codeexec/codeexec/runtime"
)

// BenchmarkPoolRun30Lines measures one isolated run of the 30-line snippet
// on a warm worker: the pool is refilled, off the clock, before each run,
// as it is between the runs of a long-lived host.
func BenchmarkPoolRun30Lines(b *testing.B) {
	reg := benchdata.Tools()
	p, _ := testPool(b, Options{PoolSize: 1})
	var timer benchdata.Timer
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitIdle(b, p, 1)
		b.StartTimer()
		timer.Time(func() {
			if res := p.Run(context.Background(), benchdata.Snippet30, reg, runtime.Options{}); res.Error != nil {
				b.Fatal(res.Error.Report())
			}
		})
	}
	timer.Report(b)
}

// BenchmarkPoolOverhead30Lines measures what isolation adds to a run,
// paired: each iteration waits (off the clock) until the pool has a warm
// worker and nothing else runs, then runs the 30-line snippet once in
// process and once in the worker, in turn first. Both runs thus see the
// same idle machine, which a hot loop of in-process runs does not. It
// reports both medians and their difference (overhead-ns/op); ns/op is the
// pair's mean.
func BenchmarkPoolOverhead30Lines(b *testing.B) {
	reg := benchdata.Tools()
	p, _ := testPool(b, Options{PoolSize: 1})
	opts := runtime.Options{Setup: bindings.New(reg).Setup}
	var in, out benchdata.Timer
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitIdle(b, p, 1)
		b.StartTimer()
		inProcess := func() {
			in.Time(func() {
				if res := runtime.Run(context.Background(), benchdata.Snippet30, opts); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			})
		}
		isolated := func() {
			out.Time(func() {
				if res := p.Run(context.Background(), benchdata.Snippet30, reg, runtime.Options{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			})
		}
		// Alternate which goes first: the first finds colder caches, and
		// the second shares what the first warmed (esbuild's code pages).
		if i%2 == 0 {
			inProcess()
			isolated()
		} else {
			isolated()
			inProcess()
		}
	}
	b.ReportMetric(float64(in.Median()), "inproc-median-ns/op")
	b.ReportMetric(float64(out.Median()), "pool-median-ns/op")
	b.ReportMetric(float64(out.Median()-in.Median()), "overhead-ns/op")
}

// BenchmarkPoolRunCold measures an isolated run of the 30-line snippet on a
// worker started on demand (PoolSize 0, as the CLI runs).
func BenchmarkPoolRunCold(b *testing.B) {
	reg := benchdata.Tools()
	p, _ := testPool(b, Options{})
	b.ReportAllocs()
	for b.Loop() {
		res := p.Run(context.Background(), benchdata.Snippet30, reg, runtime.Options{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkPoolToolCallRoundTrip measures one awaited tool call from an
// isolated snippet: the call crosses to the parent, runs there, and the
// result crosses back. Besides the mean it reports the median and 90th
// percentile of the calls as the snippet timed them.
func BenchmarkPoolToolCallRoundTrip(b *testing.B) {
	reg := benchdata.Tools()
	p, _ := testPool(b, Options{PoolSize: 1})
	waitIdle(b, p, 1)
	b.ReportAllocs()
	b.ResetTimer()
	res := p.Run(context.Background(), benchdata.RoundTrip(b.N), reg, runtime.Options{})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
	benchdata.ReportRoundTrip(b, res.Value)
}
