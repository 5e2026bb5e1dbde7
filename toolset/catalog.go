package toolset

import (
	"context"
	"fmt"

	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
)

// DefaultSearchLimit is how many matches search_tools gives when a call
// does not say (options.limit).
const DefaultSearchLimit = 10

// CatalogTools returns search_tools and tool_doc, which search and document
// the tools that list returns (a registry's Tools, called at each call so
// that they see the registry as it is). Register them when
// promptgen.NeedsCatalog says the prompt lists the tools as an index: Open
// does. Their names and signatures are promptgen's (SearchToolsName,
// SearchToolsSignature, ...), which the index declares, and their answers
// are the texts promptgen.SearchTools and promptgen.ToolDoc render. The
// tools hold no state and are safe for concurrent calls when list is.
func CatalogTools(list func() []registry.Info) []registry.Tool {
	search := func(_ context.Context, call registry.Call) (registry.Result, error) {
		query, _ := call.Params["query"].(string)
		limit := DefaultSearchLimit
		if n, ok := call.Params["limit"].(float64); ok && n >= 1 {
			limit = int(n)
		}
		return registry.TextResult(promptgen.SearchTools(list(), query, limit)), nil
	}
	doc := func(_ context.Context, call registry.Call) (registry.Result, error) {
		name, _ := call.Params["name"].(string)
		text, err := promptgen.ToolDoc(list(), name)
		if err != nil {
			return registry.Result{}, err
		}
		return registry.TextResult(text), nil
	}
	return []registry.Tool{
		{
			Name: promptgen.SearchToolsName, Label: "Search tools",
			Description: fmt.Sprintf("Find tools by words in their names and descriptions; resolves to the best matches' signatures, "+
				"each under its first sentence, best first (at most options.limit, default %d), or a line saying that nothing matched.", DefaultSearchLimit),
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1}},"required":["query"]}`),
			CallSignature: promptgen.SearchToolsSignature,
			Execute:       search,
		},
		{
			Name: promptgen.ToolDocName, Label: "Tool documentation",
			Description:   "The whole documentation of one tool, by its tool name or function name: its signature, its full description and its examples.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			CallSignature: promptgen.ToolDocSignature,
			Execute:       doc,
		},
	}
}
