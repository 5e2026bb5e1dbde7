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

// BenchmarkSessionRun measures a run in a warm session, against
// BenchmarkFreshRun: the VM and the once-per-session hardening are
// reused, the sandbox globals are installed again, and the snippet's
// top-level declaration is hoisted to a global.
func BenchmarkSessionRun(b *testing.B) {
	s := NewSession()
	defer s.Close()
	if res := s.Run(context.Background(), "const n = 0", Options{}); res.Error != nil {
		b.Fatal(res.Error.Report())
	}
	b.ReportAllocs()
	for b.Loop() {
		res := s.Run(context.Background(), "const n = 1; return n", Options{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkFreshRunDeclaring is BenchmarkFreshRun with the snippet of
// BenchmarkSessionRun, for a like-for-like comparison.
func BenchmarkFreshRunDeclaring(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		res := Run(context.Background(), "const n = 1; return n", Options{})
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}
