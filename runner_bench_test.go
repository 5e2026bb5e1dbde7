package codeexec_test

import (
	"context"
	"testing"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/registry"
)

// BenchmarkRunnerRunBuiltins measures a Runner's in-process run of a
// snippet that calls no tool, with the built-in tools registered: the
// per-run cost of binding a realistic tool set.
func BenchmarkRunnerRunBuiltins(b *testing.B) {
	ts, err := builtin.Open(builtin.Options{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = ts.Close() }()
	reg := registry.New()
	for _, t := range append(ts.Tools(), builtin.PlanningTools(&builtin.Session{})...) {
		if err := reg.Register(t); err != nil {
			b.Fatal(err)
		}
	}
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Run(context.Background(), "return 1", codeexec.RunOptions{}); res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}
