package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		opts Options
		err  string
	}{
		{"missing root", Options{Root: filepath.Join(dir, "nope")}, "builtin: open root"},
		{"file as root", Options{Root: file}, "builtin: open root"},
		{"negative option", Options{Root: dir, MaxOutputBytes: -1}, "must not be negative"},
	} {
		if _, err := Open(tt.opts); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
		}
	}

	ts, err := Open(Options{Root: dir, BashTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if ts.Root() != dir {
		t.Errorf("Root() = %q, want %q", ts.Root(), dir)
	}
	o := ts.opts
	if o.BashTimeout != DefaultMaxBashTimeout || o.MaxOutputBytes != DefaultMaxOutputBytes || o.MaxReadBytes != DefaultMaxReadBytes {
		t.Errorf("defaults not applied: %+v", o)
	}
	if err := ts.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := ts.Tools()[0].Execute(context.Background(), callOf(map[string]any{"path": "f"}))
	if err == nil || !strings.Contains(err.Error(), "shut down") {
		t.Errorf("read after Close = %v, %v", res, err)
	}

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ts, err = Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if ts.Root() != wd {
		t.Errorf("default root %q, want the working directory %q", ts.Root(), wd)
	}
}

// sigParam matches a parameter or options-bag field in a call signature.
var sigParam = regexp.MustCompile(`(\w+)(\??):`)

func TestToolsMetadata(t *testing.T) {
	e := newEnv(t, nil)
	wantSigs := []string{
		`async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>`,
		`async function write(path: string, content: string): Promise<string>`,
		`async function edit(path: string, oldText: string, newText: string, options?: { replaceAll?: boolean }): Promise<string>`,
		`async function bash(command: string, options?: { timeoutSeconds?: number }): Promise<string>`,
		`async function grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean; literal?: boolean; context?: number; limit?: number }): Promise<string>`,
		`async function ls(path?: string): Promise<string>`,
		`async function find(pattern: string, options?: { path?: string; type?: "file" | "directory"; maxDepth?: number; limit?: number }): Promise<string>`,
	}
	tools := e.ts.Tools()
	if len(tools) != len(wantSigs) {
		t.Fatalf("%d tools", len(tools))
	}
	for i, tool := range tools {
		if tool.CallSignature != wantSigs[i] {
			t.Errorf("tool %d signature %q, want %q", i, tool.CallSignature, wantSigs[i])
		}
		if !strings.HasPrefix(tool.CallSignature, "async function "+tool.Name+"(") {
			t.Errorf("%s: name does not match signature", tool.Name)
		}
		if tool.Source != "builtin" || tool.Label == "" || tool.Execute == nil {
			t.Errorf("%s: source %q, label %q", tool.Name, tool.Source, tool.Label)
		}
		if first, _, _ := strings.Cut(tool.Description, ". "); len(first) < 40 || strings.Contains(first, "\n") {
			t.Errorf("%s: first sentence %q", tool.Name, first)
		}
		s := tool.Parameters
		if s["type"] != "object" || s["additionalProperties"] != false {
			t.Errorf("%s: schema %v", tool.Name, s)
		}
		props, _ := s["properties"].(map[string]any)
		var propNames []string
		for name, p := range props {
			propNames = append(propNames, name)
			pm := p.(map[string]any)
			if d, _ := pm["description"].(string); d == "" {
				t.Errorf("%s.%s has no description", tool.Name, name)
			}
			if typ := pm["type"]; typ != "string" && typ != "integer" && typ != "boolean" && typ != "number" {
				t.Errorf("%s.%s type %v", tool.Name, name, typ)
			}
		}
		// The signature's parameter and options-bag field names are exactly
		// the schema's properties, and its required positional parameters
		// are the schema's required list.
		params := tool.CallSignature[strings.Index(tool.CallSignature, "(")+1 : strings.LastIndex(tool.CallSignature, "): Promise")]
		var sigNames, required []string
		for _, m := range sigParam.FindAllStringSubmatch(params, -1) {
			if m[1] == "options" {
				continue
			}
			sigNames = append(sigNames, m[1])
			if m[2] == "" && !strings.Contains(params, "{ "+m[1]) && !strings.Contains(params, "; "+m[1]) {
				required = append(required, m[1])
			}
		}
		slices.Sort(sigNames)
		slices.Sort(propNames)
		if !slices.Equal(sigNames, propNames) {
			t.Errorf("%s: signature names %v, schema properties %v", tool.Name, sigNames, propNames)
		}
		var schemaReq []string
		if r, ok := s["required"].([]any); ok {
			for _, x := range r {
				schemaReq = append(schemaReq, x.(string))
			}
		}
		if !slices.Equal(required, schemaReq) {
			t.Errorf("%s: signature requires %v, schema %v", tool.Name, required, schemaReq)
		}
	}
	find := tools[6].Parameters["properties"].(map[string]any)["type"].(map[string]any)
	if enum, _ := find["enum"].([]any); len(enum) != 2 || enum[0] != "file" || enum[1] != "directory" {
		t.Errorf("find type enum %v", find["enum"])
	}
}

func TestCancelledContext(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "abc\n", "d/g.txt": "abc\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := []struct {
		tool   string
		params map[string]any
	}{
		{"read", map[string]any{"path": "f.txt"}},
		{"read", map[string]any{"path": "f.txt", "offset": 1}},
		{"write", map[string]any{"path": "new.txt", "content": "x"}},
		{"edit", map[string]any{"path": "f.txt", "oldText": "abc", "newText": "xyz"}},
		{"bash", map[string]any{"command": "echo hi"}},
		{"grep", map[string]any{"pattern": "abc"}},
		{"grep", map[string]any{"pattern": "abc", "path": "f.txt"}},
		{"ls", map[string]any{}},
		{"find", map[string]any{"pattern": "*"}},
	}
	for _, c := range calls {
		_, err := e.callCtx(t, ctx, c.tool, c.params)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), c.tool+": ") {
			t.Errorf("%s %v with a cancelled context: %v", c.tool, c.params, err)
		}
	}
	if _, err := os.Stat(filepath.Join(e.root, "new.txt")); err == nil {
		t.Error("write ran despite the cancelled context")
	}
	if got := e.readFile(t, "f.txt"); got != "abc\n" {
		t.Errorf("edit ran despite the cancelled context: %q", got)
	}
}

// TestAbsolutePathsThroughLinkedRoot checks that absolute paths inside the
// root are accepted both as given and with symbolic links resolved.
func TestAbsolutePathsThroughLinkedRoot(t *testing.T) {
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	if err := os.MkdirAll(filepath.Join(real, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "src", "a.txt"), []byte("A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(parent, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	ts, err := Open(Options{Root: link})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	e := &env{ts: ts, root: link, parent: parent}
	for _, p := range []string{filepath.Join(link, "src/a.txt"), filepath.Join(real, "src/a.txt")} {
		got, err := e.call(t, "read", map[string]any{"path": p})
		check(t, got, err, "A\n")
	}
	got, err := e.call(t, "find", map[string]any{"pattern": "*.txt", "path": real})
	check(t, got, err, "src/a.txt")
	got, err = e.call(t, "ls", map[string]any{"path": link})
	check(t, got, err, "src/")
}
