package codeexec_test

import (
	"context"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/bench/benchdata"
)

// BenchmarkRunnerToolCallRoundTrip measures one awaited tool call from a
// snippet run in process by a Runner: what BenchmarkToolCallRoundTrip in
// package bindings measures, plus the Runner's accounting of the call (its
// limits, id, trace record and events). Besides the mean it reports the
// median and 90th percentile of the calls as the snippet timed them.
func BenchmarkRunnerToolCallRoundTrip(b *testing.B) {
	r, err := codeexec.New(benchdata.Tools(), codeexec.Options{Limits: codeexec.Limits{MaxCalls: b.N + 1, Timeout: time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	b.ResetTimer()
	res := r.Run(context.Background(), benchdata.RoundTrip(b.N), codeexec.RunOptions{})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
	benchdata.ReportRoundTrip(b, res.Value)
}
