package codeexec_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/toolset"
)

// TestLargeCatalog registers 500 generated tools: the prompt block stays
// under the budget by listing them as an index, and a snippet finds, with
// search_tools and tool_doc, a tool it was not shown, and calls it.
func TestLargeCatalog(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	verbs := []string{"list", "get", "create", "update", "delete"}
	for i := range 500 {
		name := fmt.Sprintf("%s_item_%03d", verbs[i%len(verbs)], i)
		desc := fmt.Sprintf("%s the items of collection %d in the inventory service, with paging and filters.", verbs[i%len(verbs)], i)
		if i == 417 {
			name, desc = "frobnicate_widgets", "Frobnicate the widgets of a warehouse and report how many changed."
		}
		n := i
		err := reg.Register(registry.Tool{
			Name: name, Description: desc,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"warehouse":{"type":"string"}},"required":["warehouse"]}`),
			Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
				return registry.TextResult(fmt.Sprintf("tool %d frobnicated %s", n, c.Params["warehouse"])), nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !promptgen.NeedsCatalog(reg.Summaries(), promptgen.Options{}) {
		t.Fatal("500 tools fit the default budget; the test needs more")
	}
	for _, tool := range toolset.CatalogTools(reg.Tools) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	block := promptgen.Render(reg.Tools(), promptgen.Options{})
	if tokens := len(block) / 4; tokens > promptgen.DefaultBudget {
		t.Errorf("the block is %d tokens, over the budget of %d:\n%s", tokens, promptgen.DefaultBudget, block)
	}
	for _, want := range []string{"async function search_tools(", "async function tool_doc(", "There are 500 tools"} {
		if !strings.Contains(block, want) {
			t.Errorf("the block lacks %q", want)
		}
	}
	if strings.Contains(block, "frobnicate_widgets(") {
		t.Errorf("the block shows the hidden tool's signature")
	}
	src := `const found = await search_tools("frobnicate widgets", { limit: 3 });
const fn = found.match(/function (\w+)\(/)![1];
const doc = await tool_doc(fn);
return [fn, doc.includes("how many changed"), await (globalThis as any)[fn]({ warehouse: "north" })];`
	forEachMode(t, reg, codeexec.Options{}, func(t *testing.T, r *codeexec.Runner) {
		res := r.Run(context.Background(), src, codeexec.RunOptions{})
		if res.Error != nil {
			t.Fatal(res.Error.Report())
		}
		if want := `["frobnicate_widgets",true,"tool 417 frobnicated north"]`; string(res.Value) != want {
			t.Errorf("value %s, want %s", res.Value, want)
		}
	})
}
