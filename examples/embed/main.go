// Command embed shows codeexec embedded in a Go program: it registers one
// typed tool, runs the same snippet in process and in a worker process,
// and prints what a model would see and the trace of the tool calls.
//
//	go run ./examples/embed
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// wordCountIn is the tool's params: the struct's fields (and their json
// tags) become the parameters of the snippet's word_count function.
type wordCountIn struct {
	Text string `json:"text" jsonschema:"the text to count the words of"`
}

// wordCountOut is the tool's result, which the snippet gets as an object.
type wordCountOut struct {
	Words int `json:"words"`
}

// snippet is what a model might write: two calls at once, and a sum.
const snippet = `const [a, b] = await Promise.all([
  word_count({ text: "one two three" }),
  word_count({ text: "four five" }),
]);
console.log("counted", a.words, "and", b.words);
return a.words + b.words;`

func main() {
	// A worker process is this program started again: Main serves its
	// runs and exits, and returns at once in the program itself.
	codeexec.Main()
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

// run registers the tool and runs the snippet in both isolation modes,
// writing what each run produced to w.
func run(ctx context.Context, w io.Writer) error {
	tool, err := registry.NewTool("word_count", "Count the words of a text.",
		func(_ context.Context, in wordCountIn) (wordCountOut, error) {
			return wordCountOut{Words: len(strings.Fields(in.Text))}, nil
		})
	if err != nil {
		return err
	}
	reg := registry.New()
	if err := reg.Register(tool); err != nil {
		return err
	}
	for _, mode := range []codeexec.Isolation{codeexec.InProcess, codeexec.Process} {
		r, err := codeexec.New(reg, codeexec.Options{Isolation: mode, Limits: codeexec.Limits{Timeout: 10 * time.Second}})
		if err != nil {
			return fmt.Errorf("isolation %s: %w", mode, err)
		}
		res := r.Run(ctx, snippet, codeexec.RunOptions{})
		_ = r.Close()
		fmt.Fprintf(w, "== isolation %s\n%s\n", mode, res.Text())
		for _, c := range res.ToolCalls {
			fmt.Fprintf(w, "trace: %s %s(%v) error=%t\n", c.ID, c.Name, c.Params, c.IsError)
		}
		if !res.OK() {
			return fmt.Errorf("isolation %s: the run failed: %w", mode, res.Error)
		}
	}
	return nil
}
