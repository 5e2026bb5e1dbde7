package promptgen

import (
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// namespaceTools is a global tool and an MCP server's tools, as the mcp
// package registers them (namespace "everything"), with a global tool
// between them: the namespace is still written as one block.
func namespaceTools() []registry.Info {
	obj := map[string]any{"type": "object"}
	return []registry.Info{
		{Name: "everything.echo", Namespace: "everything", Description: "Echoes back the input string.", Parameters: obj,
			CallSignature: "async function echo(params: { message: string }): Promise<string>"},
		{Name: "read", Description: "Read a file.", Parameters: obj,
			CallSignature: "async function read(path: string): Promise<string>"},
		{Name: "everything.get-sum", Namespace: "everything", Description: "Returns the sum of two numbers. Both are required.", Parameters: obj,
			CallSignature: "async function get_sum(params: { a: number; b: number }): Promise<string>"},
		{Name: "everything.get-structured-content", Namespace: "everything", Description: "Returns structured content along with an output schema for client data validation", Parameters: obj,
			CallSignature: "async function get_structured_content(params: { location: \"New York\" | \"Chicago\" | \"Los Angeles\" }): Promise<{ temperature: number; conditions: string; humidity: number }>"},
	}
}

func TestRenderNamespaceGolden(t *testing.T) {
	checkGolden(t, "render_namespace.golden", []byte(Render(namespaceTools(), Options{})))
}

func TestRenderNamespace(t *testing.T) {
	got := Render(namespaceTools(), Options{FullDescriptions: true})
	for _, want := range []string{
		"declare namespace everything {\n  // Echoes back the input string.\n  function echo(params: { message: string }): Promise<string>;\n",
		"  // (tool name for callTool: \"everything.get-sum\")\n  function get_sum(",
		"// Returns the sum of two numbers. Both are required.\n",
		"}\n\n// Read a file.\nasync function read(path: string): Promise<string>\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Render lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "declare namespace"); n != 1 {
		t.Errorf("%d namespace blocks, want 1:\n%s", n, got)
	}
	if strings.Contains(got, "(tool name for callTool: \"everything.echo\")") {
		t.Error("a tool whose function is named as the tool gets a callTool note")
	}
}
