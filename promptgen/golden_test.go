package promptgen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

var update = flag.Bool("update", false, "rewrite golden files")

// checkGolden compares got with testdata/name byte for byte, or rewrites the
// file when -update is set.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./promptgen -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file (run with -update to accept)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// testTools is the fixed tool list the golden files are rendered from.
func testTools() []registry.Info {
	return []registry.Info{
		{
			Name:        "read",
			Label:       "Read",
			Description: "Read the contents of a file. Output is truncated to 2000 lines or 50KB.\nUse offset and limit for large files.",
			Parameters: registry.MustParseSchema(`{
				"type": "object",
				"properties": {
					"path": {"type": "string", "description": "Path to the file"},
					"offset": {"type": "number"},
					"limit": {"type": "number"}
				},
				"required": ["path"]
			}`),
			CallSignature: "async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>;",
			Source:        "builtin",
		},
		{
			Name:        "grep",
			Label:       "Grep",
			Description: "Search file contents for a pattern!  Respects .gitignore.\n\nReturns matching lines with file paths and line numbers.",
			Parameters: registry.MustParseSchema(`{
				"type": "object",
				"properties": {
					"pattern": {"type": "string"},
					"path": {"type": "string"},
					"glob": {"type": "string"},
					"ignoreCase": {"type": "boolean"}
				},
				"required": ["pattern"],
				"additionalProperties": false
			}`),
			CallSignature: "  async function grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean }): Promise<string>  ",
			Source:        "builtin",
		},
		{
			Name:        "deploy",
			Label:       "Deploy",
			Description: "Deploy the current build. Never bound in snippets.",
			Parameters:  registry.MustParseSchema(`{"type": "object", "properties": {}}`),
			Source:      "/usr/local/lib/tools/deploy",
		},
		{
			Name:          "todo-list",
			Label:         "Todos",
			Description:   "List the open items of the plan with their ids and status\nsecond line",
			Parameters:    registry.MustParseSchema(`{"type": "object", "properties": {}}`),
			CallSignature: "async function todo_list(): Promise<{ id: number; title: string; done: boolean }[]>",
		},
	}
}
