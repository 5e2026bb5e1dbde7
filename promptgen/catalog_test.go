package promptgen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

func TestSearchAndDoc(t *testing.T) {
	tools := []registry.Info{
		{Name: "read", Description: "Read a file. More.", CallSignature: "async function read(path: string): Promise<string>"},
		{Name: "grep", Description: "Search files for a pattern.", CallSignature: "async function grep(pattern: string): Promise<string>"},
		{Name: "get-sum", Description: "Add numbers.", CallSignature: "async function get_sum(a: number): Promise<number>"},
	}
	tests := []struct {
		query string
		limit int
		want  string
	}{
		{"file", 10, "// Read a file.\nasync function read(path: string): Promise<string>\n\n// Search files for a pattern.\nasync function grep(pattern: string): Promise<string>\n"},
		{"grep files", 10, "// Search files for a pattern.\nasync function grep(pattern: string): Promise<string>\n"},
		{"a file", 10, "// Read a file.\nasync function read(path: string): Promise<string>\n\n// Search files for a pattern.\nasync function grep(pattern: string): Promise<string>\n\n// Add numbers.\nasync function get_sum(a: number): Promise<number>\n"},
		{"file", 1, "// Read a file.\nasync function read(path: string): Promise<string>\n"},
		{"zebra", 10, `No tool matches "zebra".`},
	}
	for _, tt := range tests {
		if got := SearchTools(tools, tt.query, tt.limit); got != tt.want {
			t.Errorf("SearchTools(%q, %d) =\n%s\nwant\n%s", tt.query, tt.limit, got, tt.want)
		}
	}
	doc, err := ToolDoc(tools, "get_sum")
	if err != nil || doc != "async function get_sum(a: number): Promise<number>\n\nAdd numbers.\n\nTool name for callTool: \"get-sum\"\n" {
		t.Errorf("ToolDoc(get_sum) = %q, %v", doc, err)
	}
	if doc, err := ToolDoc(tools, "read"); err != nil || doc != "async function read(path: string): Promise<string>\n\nRead a file. More.\n" {
		t.Errorf("ToolDoc(read) = %q, %v", doc, err)
	}
	if _, err := ToolDoc(tools, "nope"); err == nil || err.Error() != `no tool is named "nope"; search_tools finds tools by words` {
		t.Errorf("ToolDoc(nope): %v", err)
	}
}

func TestNeedsCatalogBudget(t *testing.T) {
	tools := []registry.Summary{{Name: "a", Description: strings.Repeat("x", 400) + ".", CallSignature: "async function a(): Promise<void>"}}
	for _, tt := range []struct {
		budget int
		want   bool
	}{{0, false}, {50, true}, {-1, false}, {200, false}} {
		if got := NeedsCatalog(tools, Options{Budget: tt.budget}); got != tt.want {
			t.Errorf("NeedsCatalog with budget %d = %v, want %v", tt.budget, got, tt.want)
		}
	}
}

// TestNeedsCatalogIgnoresFullDescriptions: whether the tools are listed as
// an index depends on the tools and the budget only, so `prompt --full`
// advertises search_tools and tool_doc exactly when `run` registers them.
func TestNeedsCatalogIgnoresFullDescriptions(t *testing.T) {
	var tools []registry.Info
	for i := range 20 {
		name := fmt.Sprintf("t%d", i)
		tools = append(tools, registry.Info{
			Name:          name,
			Description:   "Short.\n\n" + strings.Repeat("Long detail. ", 100),
			CallSignature: "async function " + name + "(): Promise<void>",
		})
	}
	summaries := make([]registry.Summary, len(tools))
	for i, tool := range tools {
		summaries[i] = tool.Summary()
	}
	short, full := NeedsCatalog(summaries, Options{}), NeedsCatalog(summaries, Options{FullDescriptions: true})
	if short || full {
		t.Fatalf("NeedsCatalog = %v, with FullDescriptions %v; want false for both", short, full)
	}
	if out := Render(tools, Options{FullDescriptions: true}); strings.Contains(out, SearchToolsName) || !strings.Contains(out, "Long detail.") {
		t.Errorf("Render with FullDescriptions lists the tools as an index, or without their whole descriptions:\n%s", out)
	}
}
