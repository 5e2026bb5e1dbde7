// Command quickstart is the library quick start of the README: a typed
// tool, a Runner, one snippet, and the text a model would be shown.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

type countIn struct {
	Text string `json:"text" jsonschema:"the text whose words to count"`
}

type countOut struct {
	Words int `json:"words"`
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer) error {
	// A typed tool: its JSON Schema and TypeScript signature come from the types.
	wordCount, err := registry.NewTool("word_count", "Count the words in a text.",
		func(ctx context.Context, in countIn) (countOut, error) {
			return countOut{Words: len(strings.Fields(in.Text))}, nil
		})
	if err != nil {
		return err
	}
	reg := registry.New()
	if err := reg.Register(wordCount); err != nil {
		return err
	}

	// codeexec.Process would run snippets in worker processes instead
	// (and needs codeexec.Main() first thing in main).
	runner, err := codeexec.New(reg, codeexec.Options{Isolation: codeexec.InProcess})
	if err != nil {
		return err
	}
	defer runner.Close()

	res := runner.Run(ctx, `
const { words } = await word_count({ text: "the quick brown fox" });
console.log("counted", words);
return { words, double: words * 2 };`, codeexec.RunOptions{})
	fmt.Fprintln(w, res.Text()) // what the model should see
	return nil
}
