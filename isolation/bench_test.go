//go:build linux

package isolation

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/bindings"
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
// worker started on demand for it (PoolSize 0, as the CLI runs), which
// serves that run only: every run pays a worker's start and its cold
// first run.
func BenchmarkPoolRunCold(b *testing.B) {
	reg := benchdata.Tools()
	p, _ := testPool(b, Options{MaxRunsPerWorker: 1})
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

// reuseSnippets are what the reuse benchmarks run: a one-line snippet
// with one tool call (plain JavaScript: no esbuild), the fixed cost of a
// run, the typed 30-line snippet, and a flood of 10,000 console lines (the
// cost of output crossing the boundary). Each run appends a comment no other
// run of the benchmark binary had (see distinct), so that no run finds its
// program in a compile cache, in process or in a worker: a model writes
// new code every time.
var reuseSnippets = []struct{ name, src string }{
	{"1line", `return (await read("x")).length`},
	{"30lines", benchdata.Snippet30},
	{"console10k", `for (let i = 0; i < 10000; i++) console.log("line " + i)`},
}

// benchSeq numbers the runs of the benchmark binary.
var benchSeq atomic.Int64

// distinct returns src with a comment that makes it unlike every other
// source run by this process, across the benchmark function's repeated
// calls too.
func distinct(src string) string {
	return fmt.Sprintf("%s\n// run %d", src, benchSeq.Add(1))
}

// benchMode is one way of running a snippet: in process, on a pool that
// reuses its workers (the default), or on a pool whose workers serve one
// run each.
type benchMode struct {
	name string
	run  func(src string) error
}

// benchModes returns the three modes, the pools holding poolSize started
// workers each (warm when it returns), closed when b ends.
func benchModes(b *testing.B, poolSize int) []benchMode {
	reg := benchdata.Tools()
	reuse, _ := testPool(b, Options{PoolSize: poolSize})
	fresh, _ := testPool(b, Options{PoolSize: poolSize, MaxRunsPerWorker: 1})
	waitIdle(b, reuse, poolSize)
	waitIdle(b, fresh, poolSize)
	check := func(res *runtime.Result) error {
		if res.Error != nil {
			return res.Error
		}
		return nil
	}
	ctx := context.Background()
	return []benchMode{
		{"inproc", func(src string) error {
			return check(runtime.Run(ctx, src, runtime.Options{Setup: bindings.New(reg).Setup}))
		}},
		{"reuse", func(src string) error { return check(reuse.Run(ctx, src, reg, runtime.Options{})) }},
		{"fresh", func(src string) error { return check(fresh.Run(ctx, src, reg, runtime.Options{})) }},
	}
}

// reportRatios reports each mode's value of unit, in the order of
// benchModes, and the ratios of the pooled modes to in process, and of
// one run per worker to reuse.
func reportRatios(b *testing.B, modes []benchMode, values []float64, unit string) {
	for i, m := range modes {
		b.ReportMetric(values[i], m.name+"-"+unit)
	}
	b.ReportMetric(values[1]/values[0], "reuse/inproc")
	b.ReportMetric(values[2]/values[0], "fresh/inproc")
	b.ReportMetric(values[2]/values[1], "fresh/reuse")
}

// BenchmarkReuseBackToBack measures the latency of back-to-back runs, one
// caller running one snippet after another, in process, on a pool that
// reuses workers and on a pool whose workers serve one run each (both of
// DefaultPoolSize). Each iteration runs 10 runs in a row in each mode, the
// modes in turn first; it reports each mode's median run
// (<mode>-ns/run) and their ratios (x/inproc, fresh/reuse), so that they
// come from the same minutes of a noisy machine. ns/op counts all 30 runs.
func BenchmarkReuseBackToBack(b *testing.B) {
	const inRow = 10
	for _, sn := range reuseSnippets {
		b.Run(sn.name, func(b *testing.B) {
			modes := benchModes(b, DefaultPoolSize)
			timers := make([]benchdata.Timer, len(modes))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range modes {
					k := (i + j) % len(modes)
					for range inRow {
						src := distinct(sn.src)
						timers[k].Time(func() {
							if err := modes[k].run(src); err != nil {
								b.Fatal(err)
							}
						})
					}
				}
			}
			b.StopTimer()
			medians := make([]float64, len(modes))
			for k := range modes {
				medians[k] = float64(timers[k].Median())
			}
			reportRatios(b, modes, medians, "ns/run")
		})
	}
}

// BenchmarkReuseThroughput measures how many runs a host completes per
// second with 4 callers running snippets back to back at once, in each
// mode (pools of 4 workers). Each iteration runs 16 runs (4 per caller)
// in each mode, the modes in turn first, and times each mode's batch; it
// reports each mode's throughput (<mode>-runs/s) and their ratios
// (higher is better; fresh/reuse below 1 is what reuse gains).
func BenchmarkReuseThroughput(b *testing.B) {
	const callers, each = 4, 4
	for _, sn := range reuseSnippets {
		b.Run(sn.name, func(b *testing.B) {
			modes := benchModes(b, callers)
			spent := make([]time.Duration, len(modes))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range modes {
					k := (i + j) % len(modes)
					start := time.Now()
					var wg sync.WaitGroup
					for range callers {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for range each {
								if err := modes[k].run(distinct(sn.src)); err != nil {
									b.Error(err)
									return
								}
							}
						}()
					}
					wg.Wait()
					spent[k] += time.Since(start)
				}
			}
			b.StopTimer()
			rates := make([]float64, len(modes))
			for k := range modes {
				rates[k] = float64(b.N*callers*each) / spent[k].Seconds()
			}
			reportRatios(b, modes, rates, "runs/s")
		})
	}
}

// BenchmarkRunsPerWorker measures what replacing workers costs a host
// that runs one snippet after another: the 30-line snippet, the same each
// time (the worker's compile cache serves it, as for a repeated snippet),
// on three 1-worker pools whose workers serve 10, 100 and 1000 runs. Each
// iteration runs a block of 200 runs on each pool, the pools in turn
// first; it reports each pool's mean run (runs<N>-ns/run: the mean, as it
// holds the runs that waited for a replacement; the replacements' CPU
// slows the others on a small machine) and the ratios to 1000 runs.
func BenchmarkRunsPerWorker(b *testing.B) {
	const block = 200
	reg := benchdata.Tools()
	limits := []int{10, 100, 1000}
	pools := make([]*Pool, len(limits))
	for i, n := range limits {
		pools[i], _ = testPool(b, Options{PoolSize: 1, MaxRunsPerWorker: n})
		waitIdle(b, pools[i], 1)
	}
	spent := make([]time.Duration, len(limits))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range pools {
			k := (i + j) % len(pools)
			start := time.Now()
			for range block {
				if res := pools[k].Run(context.Background(), benchdata.Snippet30, reg, runtime.Options{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			}
			spent[k] += time.Since(start)
		}
	}
	b.StopTimer()
	runs := float64(b.N * block)
	for k, n := range limits {
		b.ReportMetric(float64(spent[k].Nanoseconds())/runs, fmt.Sprintf("runs%d-ns/run", n))
	}
	for k, n := range limits[:len(limits)-1] {
		b.ReportMetric(float64(spent[k])/float64(spent[len(limits)-1]), fmt.Sprintf("runs%d/runs1000", n))
	}
}
