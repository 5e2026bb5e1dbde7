package codeexec_test

import (
	"context"
	"testing"

	"github.com/codeexec/codeexec"
)

// BenchmarkSessionVsFresh compares, per isolation mode, a run in a warm
// session with a fresh run of the same snippet (one tool call and a
// top-level declaration): a session reuses its VM (and in Process
// isolation its worker), so its runs cost no more than fresh ones.
func BenchmarkSessionVsFresh(b *testing.B) {
	const src = `const got = await echo("x"); return got`
	reg, _ := testTools(b)
	for _, m := range []codeexec.Isolation{codeexec.InProcess, codeexec.Process} {
		r, err := codeexec.New(reg, codeexec.Options{Isolation: m})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(m.String()+"/fresh", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := r.Run(context.Background(), src, codeexec.RunOptions{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			}
		})
		b.Run(m.String()+"/session", func(b *testing.B) {
			s := r.NewSession()
			defer s.Close()
			if res := s.Run(context.Background(), src, codeexec.RunOptions{}); res.Error != nil {
				b.Fatal(res.Error.Report())
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Run(context.Background(), src, codeexec.RunOptions{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			}
		})
		_ = r.Close()
	}
}
