// Package benchdata holds the inputs that benchmarks in several packages
// share, so that in-process and isolated numbers measure the same work.
package benchdata

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
)

// Snippet30 is a typical 30-line snippet: types, a class, a loop, two read
// calls and a returned summary.
//
//go:embed snippet30.ts
var Snippet30 string

// Tools returns a registry with the read tool Snippet30 calls, which answers
// at once without touching the disk.
func Tools() *registry.Registry {
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
		panic(err) // a fixed, valid definition
	}
	return reg
}

// RoundTrip returns a snippet that awaits read n times in a row, timing
// each call with performance.now, and returns the latencies' Percentiles:
// what a snippet sees of one call, where the benchmark's ns/op (the run's
// wall time over n) also counts the loop, the timing itself and the run's
// trace of n calls.
func RoundTrip(n int) string {
	// A typed array sorts natively: a comparator called from Go for each
	// comparison would add microseconds per call to the benchmark's mean.
	return fmt.Sprintf(`const n = %d, d = new Float64Array(n);
for (let i = 0; i < n; i++) { const t = performance.now(); await read("x"); d[i] = performance.now() - t; }
let sum = 0;
for (const x of d) sum += x;
d.sort();
return { mean: sum / n, median: d[Math.floor((n - 1) / 2)], p90: d[Math.floor((n - 1) * 0.9)] };`, n)
}

// Percentiles are the mean (when known), the median and the 90th
// percentile of a latency, in milliseconds, as RoundTrip returns them.
type Percentiles struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
}

// Report adds p to b's results as call-mean-ns/op (when known),
// median-ns/op and p90-ns/op.
func (p Percentiles) Report(b *testing.B) {
	if p.Mean > 0 {
		b.ReportMetric(p.Mean*1e6, "call-mean-ns/op")
	}
	b.ReportMetric(p.Median*1e6, "median-ns/op")
	b.ReportMetric(p.P90*1e6, "p90-ns/op")
}

// ReportRoundTrip decodes the value a RoundTrip snippet returned and
// reports it on b.
func ReportRoundTrip(b *testing.B, value json.RawMessage) {
	var p Percentiles
	if err := json.Unmarshal(value, &p); err != nil {
		b.Fatalf("round-trip snippet returned %s: %v", value, err)
	}
	p.Report(b)
}

// Quantile is the q-quantile of xs (0 <= q <= 1), interpolated between
// its two nearest ranks: Quantile(xs, 0.5) is the median. xs is not
// changed; it must not be empty.
func Quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// Timer collects the duration of each iteration of a benchmark, for
// percentiles beside the benchmark's mean.
type Timer struct {
	d []time.Duration
}

// Time runs f and records how long it took.
func (t *Timer) Time(f func()) {
	start := time.Now()
	f()
	t.d = append(t.d, time.Since(start))
}

// Median returns the median of the recorded durations (0 when none).
func (t *Timer) Median() time.Duration { return t.percentile(50) }

// P90 returns the 90th percentile of the recorded durations (0 when none).
func (t *Timer) P90() time.Duration { return t.percentile(90) }

func (t *Timer) percentile(p int) time.Duration {
	if len(t.d) == 0 {
		return 0
	}
	slices.Sort(t.d)
	return t.d[(len(t.d)-1)*p/100]
}

// Report adds the recorded durations' median and 90th percentile to b.
func (t *Timer) Report(b *testing.B) {
	if len(t.d) == 0 {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	Percentiles{Median: ms(t.Median()), P90: ms(t.P90())}.Report(b)
}
