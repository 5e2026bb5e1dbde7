package promptgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// DefaultBudget is the size, in tokens (characters / 4), that the list of
// tool functions may take in the prompt block before Render lists the tools
// as a compact index instead (see NeedsCatalog).
const DefaultBudget = 2000

// The two tools a large catalog offers in the sandbox. Package toolset
// makes them (toolset.CatalogTools), with these names and signatures, and
// their results are the texts SearchTools and ToolDoc render: the prompt
// that names them and the tools that answer agree by construction.
const (
	SearchToolsName = "search_tools"
	ToolDocName     = "tool_doc"
	// SearchToolsSignature is search_tools' call signature, as the index
	// Render writes for a large catalog declares it.
	SearchToolsSignature = "async function search_tools(query: string, options?: { limit?: number }): Promise<string>"
	// ToolDocSignature is tool_doc's call signature, as the index declares
	// it.
	ToolDocSignature = "async function tool_doc(name: string): Promise<string>"
)

// budget is opts' budget in tokens; -1 means none.
func (opts Options) budget() int {
	switch {
	case opts.Budget < 0:
		return -1
	case opts.Budget == 0:
		return DefaultBudget
	}
	return opts.Budget
}

// isCatalogTool reports whether t is search_tools or tool_doc.
func isCatalogTool(name string) bool { return name == SearchToolsName || name == ToolDocName }

// listed reports whether t is one of the tools a catalog lists, searches
// and counts: it has a signature and is not search_tools or tool_doc.
func listed(t registry.Info) bool { return listedName(t.Name, t.CallSignature) }

// listedName is listed for the tool called name with signature sig.
func listedName(name, sig string) bool {
	return !isCatalogTool(name) && strings.TrimSpace(sig) != ""
}

// NeedsCatalog reports whether the function list of tools (each tool's
// signature and the first paragraph of its text) is over opts' budget.
// Render then writes a compact index of the tools and the full signatures
// of search_tools and tool_doc only, and the sandbox must offer those two:
// register toolset.CatalogTools alongside the tools (toolset.Open does so
// under this same test, for the CLI and the MCP server alike, so the
// prompt and the sandbox always agree). Only the tools
// and opts.Budget decide: the other options, FullDescriptions among them,
// change what Render writes but not whether it writes an index, so a caller
// that does not know them (the CLI's run, the MCP server) decides alike.
// It reads the tools' names, signatures and descriptions only: pass
// Registry.Summaries, which copies no schema.
func NeedsCatalog(tools []registry.Summary, opts Options) bool {
	budget := opts.budget()
	if budget < 0 {
		return false
	}
	chars := 0
	for _, t := range tools {
		if listedName(t.Name, t.CallSignature) {
			chars += len(firstParagraph(description(t.Description))) + len(strings.TrimSpace(t.CallSignature)) + 5
		}
	}
	return chars/4 > budget
}

// renderIndex is Render for a catalog over its budget: the header, the two
// catalog functions, and the other tools by name, grouped as they are
// registered (a namespace per line), cut to fit the budget.
func renderIndex(tools []registry.Info, opts Options, header string) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("\n\n```ts\n")
	b.WriteString("// Find tools by words in their names and descriptions; resolves to the best matches' signatures, each under its first sentence.\n")
	b.WriteString(SearchToolsSignature + "\n\n")
	b.WriteString("// The whole documentation of one tool, by its tool name or function name: signature, description and examples.\n")
	b.WriteString(ToolDocSignature + "\n```\n")
	var names []string
	for _, t := range tools {
		if listed(t) {
			names = append(names, functionName(t))
		}
	}
	fmt.Fprintf(&b, "\nThere are %d tools, too many to list here: find the ones you need with search_tools, read one with tool_doc, "+
		"then call them as their signatures say. Their function names:\n", len(names))
	// What the names may take: the budget less what is written and the
	// closing line that says how many were left out.
	const closing = 64
	room := opts.budget()*4 - b.Len() - closing
	line := ""
	for i, n := range names {
		next := n
		if line != "" {
			next = line + ", " + n
		}
		if len(next) > 100 {
			if room -= len(line) + 2; room < 0 {
				fmt.Fprintf(&b, "... and %d more (search_tools finds them)\n", len(names)-i)
				return b.String()
			}
			b.WriteString(line + ",\n")
			next = n
		}
		line = next
	}
	if line != "" {
		if room-len(line)-1 < 0 {
			fmt.Fprintf(&b, "... and %d more (search_tools finds them)\n", strings.Count(line, ",")+1)
		} else {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// functionName is the JavaScript name a tool is called by. The signature
// is the one Register parsed (signature.ParseShared keeps it), so the
// catalog's searches do not parse every tool's again.
func functionName(t registry.Info) string {
	if sig, err := signature.ParseShared(t.CallSignature); err == nil {
		return sig.Name
	}
	return t.Name
}

// SearchTools renders search_tools' answer: the tools a catalog lists
// (those with a signature, not search_tools or tool_doc) ranked by how
// many of the query's words their name, function name and description
// hold (a word in the name counts twice), then by their order in tools;
// the best limit (at least one) each as its first sentence as a comment
// above its declaration, or a line saying that nothing matched.
func SearchTools(tools []registry.Info, query string, limit int) string {
	limit = max(limit, 1)
	words := strings.Fields(strings.ToLower(query))
	type hit struct {
		t     registry.Info
		score int
		order int
	}
	var hits []hit
	for i, t := range tools {
		if !listed(t) {
			continue
		}
		name := strings.ToLower(t.Name + " " + functionName(t))
		desc := strings.ToLower(t.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(name, w) {
				score += 2
			}
			if strings.Contains(desc, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{t, score, i})
		}
	}
	if len(hits) == 0 {
		return fmt.Sprintf("No tool matches %q.", query)
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score })
	var b strings.Builder
	for i, h := range hits[:min(limit, len(hits))] {
		if i > 0 {
			b.WriteString("\n")
		}
		if s := FirstSentence(h.t.Description); s != "" {
			b.WriteString("// " + s + "\n")
		}
		b.WriteString(declaration(h.t) + "\n")
	}
	return b.String()
}

// ToolDoc renders tool_doc's answer: the whole documentation of the tool
// of tools named name, by its tool name or its function name (its
// declaration, its description, and its tool name when the function name
// differs). It returns an error whose text is for the model, saying that
// no tool has the name, when none has; search_tools and tool_doc
// themselves are not documented.
func ToolDoc(tools []registry.Info, name string) (string, error) {
	for _, t := range tools {
		if !isCatalogTool(t.Name) && (t.Name == name || functionName(t) == name) {
			return toolDoc(t), nil
		}
	}
	return "", fmt.Errorf("no tool is named %q; search_tools finds tools by words", name)
}

// toolDoc renders one tool's whole documentation.
func toolDoc(t registry.Info) string {
	var b strings.Builder
	b.WriteString(declaration(t) + "\n\n")
	b.WriteString(strings.TrimSpace(t.Description) + "\n")
	if t.Name != functionName(t) {
		fmt.Fprintf(&b, "\nTool name for callTool: %q\n", t.Name)
	}
	return b.String()
}
