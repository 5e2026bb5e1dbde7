package bindings

import (
	"context"
	"fmt"
	"testing"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// snippet30 is a typical 30-line snippet: types, a class, a loop, two tool
// calls and a returned summary.
const snippet30 = `interface FileInfo { path: string; words: number }
type Summary = { files: number; words: number; longest?: string };

class Tally {
  #items: FileInfo[] = [];
  add(f: FileInfo): void { this.#items.push(f); }
  get summary(): Summary {
    let words = 0;
    let longest: FileInfo | undefined;
    for (const f of this.#items) {
      words += f.words;
      if (!longest || f.words > longest.words) longest = f;
    }
    return { files: this.#items.length, words, longest: longest?.path };
  }
}

const paths = ["README.md", "main.go"];
const tally = new Tally();
const texts = await Promise.all(paths.map((p) => read(p)));
texts.forEach((text, i) => {
  const words = text.split(/\s+/).filter(Boolean).length;
  tally.add({ path: paths[i], words });
});
const s = tally.summary;
if (s.words === 0) {
  console.log("no words found");
}
console.log(` + "`${s.files} files, ${s.words} words`" + `);
return s;
`

func benchTools(b *testing.B) *registry.Registry {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "read", Description: "Read a file.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		CallSignature: "async function read(path: string): Promise<string>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult("some words in a file named " + c.Params["path"].(string)), nil
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkRun30Lines measures one fresh run of a 30-line TypeScript snippet
// with two tool calls, including the esbuild transform and VM setup.
func BenchmarkRun30Lines(b *testing.B) {
	binder := New(benchTools(b), Options{})
	opts := runtime.Options{Setup: binder.Setup}
	b.ReportAllocs()
	for b.Loop() {
		res := runtime.Run(context.Background(), snippet30, opts)
		if res.Error != nil {
			b.Fatal(res.Error.Report())
		}
	}
}

// BenchmarkToolCallRoundTrip measures one awaited tool call from a snippet:
// argument mapping, validation, the goroutine, and resolution on the loop.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	binder := New(benchTools(b), Options{})
	src := fmt.Sprintf(`for (let i = 0; i < %d; i++) await read("x");`, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	res := runtime.Run(context.Background(), src, runtime.Options{Setup: binder.Setup, MaxCalls: b.N + 1})
	if res.Error != nil {
		b.Fatal(res.Error.Report())
	}
}
