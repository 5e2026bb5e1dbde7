package bindings_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// The README's library example: register a tool, run a snippet that calls
// it, and print what a model should see.
func Example() {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name:          "word_count",
		Description:   "Count the words in a text.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		CallSignature: "async function wordCount(text: string): Promise<{ words: number }>",
		Execute: func(ctx context.Context, call registry.Call) (registry.Result, error) {
			n := len(strings.Fields(call.Params["text"].(string)))
			return registry.Result{Content: []registry.Content{registry.TextContent(fmt.Sprint(n))},
				Details: map[string]any{"words": n}}, nil
		},
	})
	if err != nil {
		panic(err)
	}
	res := runtime.Run(context.Background(), `return (await wordCount("a b c")).words`, runtime.Options{
		Setup: bindings.New(reg).Setup,
	})
	fmt.Println(res.Text())
	// Output: Return value: 3
}
