package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPaths gives every path-taking tool arbitrary paths inside a root whose
// parent holds a secret and whose symlinks lead outside: whatever the path,
// no tool may return the secret, and nothing may appear outside the root.
func FuzzPaths(f *testing.F) {
	for _, seed := range []string{
		"a.txt", ".", "..", "../secret.txt", "a/../../secret.txt", "/etc/passwd", "up/secret.txt",
		"etc/passwd", "./up/../up/secret.txt", "a.txt\x00", "//secret.txt", "sub/../../secret.txt",
		"up", "up/", "sub/./../up/secret.txt", strings.Repeat("a/", 200) + "x", "\\..\\secret.txt",
	} {
		f.Add(seed)
	}
	parent := f.TempDir()
	root := filepath.Join(parent, "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		f.Fatal(err)
	}
	const secret = "TOP-SECRET-CONTENT"
	for name, content := range map[string]string{
		filepath.Join(parent, "secret.txt"): secret + "\n",
		filepath.Join(root, "a.txt"):        "inside\n",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for link, target := range map[string]string{"up": "..", "etc": "/etc", "sub/abs": parent} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			f.Fatal(err)
		}
	}
	ts, err := Open(Options{Root: root})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = ts.Close() })
	tools := map[string]func(p string) map[string]any{
		"read":  func(p string) map[string]any { return map[string]any{"path": p} },
		"ls":    func(p string) map[string]any { return map[string]any{"path": p} },
		"find":  func(p string) map[string]any { return map[string]any{"pattern": "**", "path": p} },
		"grep":  func(p string) map[string]any { return map[string]any{"pattern": "SECRET", "path": p} },
		"write": func(p string) map[string]any { return map[string]any{"path": p, "content": "fuzz"} },
		"edit": func(p string) map[string]any {
			return map[string]any{"path": p, "oldText": "inside", "newText": "inside"}
		},
	}
	byName := map[string]func(context.Context, map[string]any) (string, error){}
	for _, tool := range ts.Tools() {
		if _, ok := tools[tool.Name]; ok {
			tool := tool
			byName[tool.Name] = func(ctx context.Context, params map[string]any) (string, error) {
				res, err := tool.Execute(ctx, callOf(params))
				if err != nil {
					return err.Error(), err
				}
				return res.Text(), nil
			}
		}
	}
	f.Fuzz(func(t *testing.T, p string) {
		for name, params := range tools {
			out, _ := byName[name](context.Background(), params(p))
			if strings.Contains(out, secret) {
				t.Fatalf("%s(%q) revealed the secret: %q", name, p, out)
			}
		}
		entries, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 2 {
			t.Fatalf("something appeared beside the root after %q: %v", p, entries)
		}
		if b, err := os.ReadFile(filepath.Join(parent, "secret.txt")); err != nil || string(b) != secret+"\n" {
			t.Fatalf("the secret changed after %q: %q %v", p, b, err)
		}
	})
}
