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
// costs a caller.
func BenchmarkCorpus(b *testing.B) {
	for _, c := range benchdata.Corpus {
		prg := goja.MustCompile("corpus.js", "(async () => {"+c.JS+"\n})()", false)
		b.Run(c.Name+"/goja", func(b *testing.B) {
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
