package toolset_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/toolset"
)

// catalogRegistry registers n tools, get_item_000 and on, one of them
// (the 7th) frobnicate_widgets, which no other tool's text mentions.
func catalogRegistry(t *testing.T, n int) *registry.Registry {
	t.Helper()
	reg := registry.New()
	for i := range n {
		name := fmt.Sprintf("get_item_%03d", i)
		desc := fmt.Sprintf("Get the items of collection %d in the inventory service, with paging and filters.", i)
		if i == 7 {
			name, desc = "frobnicate-widgets", "Frobnicate the widgets of a warehouse. It reports how many changed."
		}
		err := reg.Register(registry.Tool{
			Name: name, Description: desc,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"warehouse":{"type":"string"}}}`),
			Execute: func(context.Context, registry.Call) (registry.Result, error) {
				return registry.TextResult("ok"), nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// TestCatalogTools calls search_tools and tool_doc through a registry (a
// number arrives as a float64, as from JSON and snippets):
// their answers are promptgen's texts, search_tools' limit defaults to
// DefaultSearchLimit, and tool_doc of an unknown name is an error result.
func TestCatalogTools(t *testing.T) {
	reg := catalogRegistry(t, 30)
	for _, tool := range toolset.CatalogTools(reg.Tools) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	call := func(name string, params map[string]any) registry.Result {
		t.Helper()
		res, err := reg.CallTool(context.Background(), name, params, registry.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	tests := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"search_tools", map[string]any{"query": "frobnicate"}, promptgen.SearchTools(reg.Tools(), "frobnicate", 10)},
		{"search_tools", map[string]any{"query": "items"}, promptgen.SearchTools(reg.Tools(), "items", toolset.DefaultSearchLimit)},
		{"search_tools", map[string]any{"query": "items", "limit": 2.0}, promptgen.SearchTools(reg.Tools(), "items", 2)},
		{"tool_doc", map[string]any{"name": "frobnicate_widgets"}, "async function frobnicate_widgets(params?: { warehouse?: string }): Promise<any>\n\n" +
			"Frobnicate the widgets of a warehouse. It reports how many changed.\n\nTool name for callTool: \"frobnicate-widgets\"\n"},
	}
	for _, tt := range tests {
		if res := call(tt.name, tt.params); res.IsError || res.Text() != tt.want {
			t.Errorf("%s(%v) = %q (error: %v), want %q", tt.name, tt.params, res.Text(), res.IsError, tt.want)
		}
	}
	if n := strings.Count(call("search_tools", map[string]any{"query": "items"}).Text(), "async function"); n != toolset.DefaultSearchLimit {
		t.Errorf("search_tools without a limit gave %d matches, want %d", n, toolset.DefaultSearchLimit)
	}
	res := call("tool_doc", map[string]any{"name": "nope"})
	if want := `no tool is named "nope"; search_tools finds tools by words`; !res.IsError || res.Text() != want {
		t.Errorf("tool_doc(nope) = %q (error: %v), want the error %q", res.Text(), res.IsError, want)
	}
}

// TestCatalogToolsMatchTheIndex checks that the index promptgen.Render
// writes for a large catalog declares search_tools and tool_doc with the
// signatures of the tools CatalogTools makes.
func TestCatalogToolsMatchTheIndex(t *testing.T) {
	reg := catalogRegistry(t, 300)
	if !promptgen.NeedsCatalog(reg.Summaries(), promptgen.Options{}) {
		t.Fatal("300 tools fit the default budget; the test needs more")
	}
	block := promptgen.Render(reg.Tools(), promptgen.Options{})
	for _, tool := range toolset.CatalogTools(reg.Tools) {
		if !strings.Contains(block, tool.CallSignature+"\n") {
			t.Errorf("the index does not declare %s as %q:\n%s", tool.Name, tool.CallSignature, block)
		}
	}
}
