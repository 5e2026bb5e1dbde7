package promptgen

import (
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

func TestRenderExamples(t *testing.T) {
	tools := []registry.Info{
		{
			Name: "search", Description: "Search.",
			CallSignature: "async function search(q: string, options?: { limit?: number; exact?: boolean }): Promise<{ total: number }>",
			Examples: []registry.Example{
				{Description: "Find TODOs", Input: map[string]any{"q": "TODO", "limit": 2.0}, Output: map[string]any{"total": 1.0}},
				{Description: "Only q", Input: map[string]any{"q": "x"}, Output: map[string]any{"total": 0.0}},
			},
		},
		{
			Name: "word_count", Description: "Count words.",
			CallSignature: "async function word_count(params: { text: string }): Promise<any>",
			Examples:      []registry.Example{{Description: "Two words", Input: map[string]any{"text": "a b"}, Output: 2.0}},
		},
		{
			Name: "touch", Namespace: "fs", Description: "Touch a file.",
			CallSignature: "async function touch(path: string): Promise<void>",
			Examples:      []registry.Example{{Description: "A new file", Input: map[string]any{"path": "a.txt"}}},
		},
	}
	tools[2].Name = "fs.touch"
	got := Render(tools, Options{Header: "H"})
	for _, want := range []string{
		"async function search(q: string, options?: { limit?: number; exact?: boolean }): Promise<{ total: number }>\n" +
			"// e.g. Find TODOs: await search(\"TODO\", { limit: 2 }) → {\"total\":1}\n" +
			"// e.g. Only q: await search(\"x\") → {\"total\":0}\n",
		"// e.g. Two words: await word_count({ text: \"a b\" }) → 2\n",
		"  function touch(path: string): Promise<void>;\n  // e.g. A new file: await fs.touch(\"a.txt\") → undefined\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the block lacks\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(Render(tools, Options{Header: "H", NoExamples: true}), "e.g.") {
		t.Errorf("NoExamples still renders examples")
	}
}
