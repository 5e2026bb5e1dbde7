package registry_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/codeexec/codeexec/registry"
)

// A Go function of a struct becomes a tool: its schema comes from the
// struct, and the params arrive decoded into it.
func ExampleNewTool() {
	type countIn struct {
		Text string `json:"text" jsonschema:"the text to count"`
		// Unit is optional: omitempty makes it so.
		Unit string `json:"unit,omitempty" jsonschema:"words (the default) or lines"`
	}
	type countOut struct {
		Count int `json:"count"`
	}
	tool, err := registry.NewTool("word_count", "Count the words or lines of a text.",
		func(ctx context.Context, in countIn) (countOut, error) {
			if in.Unit == "lines" {
				return countOut{Count: len(strings.Split(in.Text, "\n"))}, nil
			}
			return countOut{Count: len(strings.Fields(in.Text))}, nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := registry.New()
	if err := reg.Register(tool); err != nil {
		fmt.Println(err)
		return
	}
	info, _ := reg.Lookup("word_count")
	fmt.Println(info.CallSignature)

	res, err := reg.CallTool(context.Background(), "word_count", map[string]any{"text": "one two three"}, registry.CallOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Text(), res.Details.(countOut).Count)

	res, _ = reg.CallTool(context.Background(), "word_count", map[string]any{"txt": "one"}, registry.CallOptions{})
	fmt.Println(res.IsError)
	// Output:
	// async function word_count(params: { text: string; unit?: string }): Promise<{ count: number }>
	// {"count":3} 3
	// true
}
