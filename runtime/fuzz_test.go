package runtime

import (
	"context"
	"testing"
	"time"
)

// fuzzTimeout is the timeout of the fuzz targets' runs: short, since
// inputs that loop run until it fires (the seeds' loops among them, in
// every go test), and what a run returns is not checked, only that it
// returns.
const fuzzTimeout = 50 * time.Millisecond

// FuzzRun runs arbitrary source with a short timeout: whatever it is, Run
// must return a result, never panic, and never fail internally.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"return 1", "for(;;){}", "for(;;) await null", "throw 1", "const x: number = ;",
		"import fs from 'fs'", "export default 1", "await import('x')", "eval('1')",
		"`${", "}", "(async () => {", "})()", "/^(a+)+\\1$/.test('a'.repeat(30)+'!')",
		"new Function('return 1')", "setInterval(() => {}, 0)", "Promise.reject(1)",
		"return new Map([[1, {a: [1, 2]}]])", "\uFEFFreturn 1", "a\r\nb\u2028c",
		"class A { #x = 1; static { } }", "for await (const x of [1]) {}",
		"async function* g() { yield 1 } for await (const v of g()) console.log(v)",
		"return [..." + "[1]" + "]", "label: for (;;) break label", "({}).constructor.constructor",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		res := Run(context.Background(), src, Options{Limits: Limits{Timeout: fuzzTimeout, MaxOutputBytes: 1 << 12}})
		if res == nil {
			t.Fatal("nil result")
		}
		if res.Error != nil && res.Error.Kind == KindInternal {
			t.Fatalf("internal error for %q: %s", src, res.Error.Report())
		}
	})
}
