package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/bench/benchdata"
)

// corpus: each case of the CPU-bound corpus (benchdata.Corpus) in
// process against plain goja running the same JavaScript (the engine
// without codeexec: its overhead, goal 1.15), and against node vm (string
// building, goal 10: goja was quadratic there).
func (b *bench) corpus() error {
	for _, c := range benchdata.Corpus {
		ce, peer, err := b.alternate(
			func() (float64, error) { return runMedian(b.inProc, c.JS, 1, 5, false) },
			func() (float64, error) { return gojaMedian(c, 1, 5) })
		if err != nil {
			return fmt.Errorf("corpus %s: %w", c.Name, err)
		}
		b.compare("CPU-bound corpus: "+c.Name+", in process", "plain goja, same JS", ce, peer, dur, ratioAtMost(1.15))
		g := noGoal
		if c.Name == "append" || c.Name == "report" {
			g = ratioAtMost(10)
		}
		if err := b.againstNode(nodeFigure{figure: "CPU-bound corpus: " + c.Name + ", in process", peer: "node vm", src: c.JS, mode: "fresh", warm: 1, n: 5, goal: g}); err != nil {
			return fmt.Errorf("corpus %s: %w", c.Name, err)
		}
	}
	return nil
}

// gojaMedian runs c in plain goja as codeexec compiles plain JavaScript
// (in its async wrapper, compiled once) in a fresh goja.New() each run,
// warm runs unmeasured, then n, and returns the median wall time in
// seconds; a run that does not return c.Want is an error.
func gojaMedian(c benchdata.CorpusCase, warm, n int) (float64, error) {
	prg, err := goja.Compile("corpus.js", "(async () => {"+c.JS+"\n})()", false)
	if err != nil {
		return 0, err
	}
	run := func() error {
		v, err := goja.New().RunProgram(prg)
		if err != nil {
			return err
		}
		p, ok := v.Export().(*goja.Promise)
		if !ok || p.State() != goja.PromiseStateFulfilled {
			return fmt.Errorf("plain goja: not a fulfilled promise: %v", v)
		}
		if got, _ := json.Marshal(p.Result().Export()); string(got) != c.Want {
			return fmt.Errorf("plain goja: %s, want %s", got, c.Want)
		}
		return nil
	}
	for range warm {
		if err := run(); err != nil {
			return 0, err
		}
	}
	d := make([]float64, n)
	for i := range d {
		t := time.Now()
		if err := run(); err != nil {
			return 0, err
		}
		d[i] = time.Since(t).Seconds()
	}
	return medianOf(d), nil
}
