package runtime

import (
	"context"
	"testing"
)

// BenchmarkFreshRun measures the fixed cost of a run: transform, a fresh VM
// with the sandbox globals, and the event loop, for a one-line snippet.
func BenchmarkFreshRun(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		res := Run(context.Background(), "return 1", Options{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}
