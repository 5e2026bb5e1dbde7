package bindings

import (
	"context"
	"strconv"
	"testing"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/runtime"
)

// BenchmarkRun30Lines measures one fresh run of a 30-line TypeScript snippet
// with two tool calls, including the esbuild transform and VM setup: each
// run's source differs by a comment, so the compile cache never answers.
func BenchmarkRun30Lines(b *testing.B) {
	benchRun30(b, func(i int) string { return benchdata.Snippet30 + "\n// run " + strconv.Itoa(i) })
}

// BenchmarkRun30LinesCached is BenchmarkRun30Lines with the same source
// every run: the compiled program comes from the compile cache.
func BenchmarkRun30LinesCached(b *testing.B) {
	benchRun30(b, func(int) string { return benchdata.Snippet30 })
}

func benchRun30(b *testing.B, source func(i int) string) {
	binder := New(benchdata.Tools())
	opts := runtime.Options{Setup: binder.Setup}
	var timer benchdata.Timer
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		src := source(i)
		i++
		timer.Time(func() {
			if res := runtime.Run(context.Background(), src, opts); res.Error != nil {
				b.Fatal(res.Error.Report())
			}
		})
	}
	timer.Report(b)
}

// BenchmarkToolCallRoundTrip measures one awaited tool call from a snippet:
// argument mapping, validation, the goroutine, and resolution on the loop.
// Besides the mean it reports the median and 90th percentile of the calls
// as the snippet timed them.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	binder := New(benchdata.Tools())
	b.ReportAllocs()
	b.ResetTimer()
	res := runtime.Run(context.Background(), benchdata.RoundTrip(b.N), runtime.Options{Setup: binder.Setup})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
	benchdata.ReportRoundTrip(b, res.Value)
}

// BenchmarkToolCallSequential measures an awaited tool call in a loop of
// b.N with nothing else in it: what one in-process call costs and
// allocates (BenchmarkToolCallRoundTrip's figures include the snippet's
// own timing of each call). BenchmarkPromiseSequential is the engine's
// part of it.
func BenchmarkToolCallSequential(b *testing.B) {
	binder := New(benchdata.Tools())
	benchLoop(b, `await read("x")`, binder.Setup)
}

// BenchmarkPromiseSequential is the engine's part of a call: the same loop
// awaiting a native function that returns a promise it has resolved (the
// promise and its resolving functions, the await), with no tool, no
// goroutine and no conversion.
func BenchmarkPromiseSequential(b *testing.B) {
	benchLoop(b, `await resolved()`, func(env *runtime.Env) error {
		vm := env.VM()
		return vm.Set("resolved", func(goja.FunctionCall) goja.Value {
			p, resolve, _ := vm.NewPromise()
			_ = resolve(1)
			return vm.ToValue(p)
		})
	})
}

func benchLoop(b *testing.B, body string, setup func(*runtime.Env) error) {
	src := "for (let i = 0; i < " + strconv.Itoa(b.N) + "; i++) " + body
	b.ReportAllocs()
	b.ResetTimer()
	if res := runtime.Run(context.Background(), src, runtime.Options{Setup: setup}); res.Error != nil {
		b.Fatal(res.Error.Report())
	}
}
