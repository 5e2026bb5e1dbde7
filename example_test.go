package codeexec_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// docs/library.md's fuller example (the README's quick start is
// examples/quickstart): register a hand-written tool and a permission
// hook, build a Runner, run snippets, print what a model should see.
// Isolation: codeexec.Process runs the same snippets in worker processes.
func Example() {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name:          "word_count",
		Description:   "Count the words in a text.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		CallSignature: "async function word_count(text: string): Promise<{ words: number }>",
		Execute: func(ctx context.Context, call registry.Call) (registry.Result, error) {
			n := len(strings.Fields(call.Params["text"].(string)))
			return registry.Result{Content: []registry.Content{registry.TextContent(fmt.Sprint(n))},
				Details: map[string]any{"words": n}}, nil
		},
	})
	if err != nil {
		panic(err)
	}
	// A tool_call hook sees every call a snippet makes, and may refuse it.
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if strings.Contains(ev.Params["text"].(string), "secret") {
			return "no secrets"
		}
		return ""
	})

	runner, err := codeexec.New(reg, codeexec.Options{Isolation: codeexec.InProcess})
	if err != nil {
		panic(err)
	}
	defer runner.Close()

	res := runner.Run(context.Background(), `return (await word_count("a b c")).words`, codeexec.RunOptions{})
	fmt.Println(res.Text())
	res = runner.Run(context.Background(), `return await word_count("the secret")`, codeexec.RunOptions{})
	fmt.Println(res.Error)
	// Output:
	// Return value: 3
	// ToolError: Tool call word_count blocked: no secrets
}
