package runtime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/bench/benchdata"
)

// BenchmarkCorpus runs each case of the CPU-bound corpus
// (benchdata.Corpus) in plain goja and in codeexec side by side, so that
// one run gives codeexec's overhead over the engine as the ratio of the
// two rows (benchstat lines them up):
//
//	go test ./runtime -run '^$' -bench Corpus -count 6 | tee out.txt
//
// goja runs the snippet as codeexec compiles a plain JavaScript one, in
// the same async wrapper, compiled once, in a fresh goja.New() each time;
// codeexec runs it with Run and default Options (a fresh hardened VM, the
// limits' watchdogs, the transform's cache), which is what a snippet
// costs a caller. Beside the wall time each row reports the process's CPU
// time per run (cpu-ns/op, on Unix), steadier on a busy machine; it
// includes the garbage collector's work, and codeexec's watchdogs.
func BenchmarkCorpus(b *testing.B) {
	for _, c := range benchdata.Corpus {
		prg := goja.MustCompile("corpus.js", "(async () => {"+c.JS+"\n})()", false)
		b.Run(c.Name+"/goja", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				vm := goja.New()
				v, err := vm.RunProgram(prg)
				if err != nil {
					b.Fatal(err)
				}
				p, ok := v.Export().(*goja.Promise)
				if !ok || p.State() != goja.PromiseStateFulfilled {
					b.Fatalf("%s: not a fulfilled promise: %v", c.Name, v)
				}
				if got, _ := json.Marshal(p.Result().Export()); string(got) != c.Want {
					b.Fatalf("%s: %s, want %s", c.Name, got, c.Want)
				}
			}
		})
		b.Run(c.Name+"/codeexec", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				res := Run(context.Background(), c.JS, Options{Filename: "corpus.js"})
				if res.Error != nil {
					b.Fatal(res.Error.Report())
				}
				if string(res.Value) != c.Want {
					b.Fatalf("%s: %s, want %s", c.Name, res.Value, c.Want)
				}
			}
		})
	}
}

// reportCPU starts measuring the process's CPU time; the function it
// returns reports it per operation (cpu-ns/op) when the benchmark ends.
func reportCPU(b *testing.B) func() {
	start, ok := processCPU()
	return func() {
		if end, ok2 := processCPU(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
