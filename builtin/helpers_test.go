package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/registry"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// env is a root directory inside a parent directory (so tests can check that
// nothing outside the root changes) with its toolset.
type env struct {
	ts     *Toolset
	root   string
	parent string
}

// newEnv creates files (path -> content; a path ending in "/" makes a
// directory) in a fresh root and opens a toolset on it.
func newEnv(t *testing.T, files map[string]string, opts ...func(*Options)) *env {
	t.Helper()
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Root: root}
	for _, f := range opts {
		f(&o)
	}
	ts, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return &env{ts: ts, root: root, parent: parent}
}

// symlink creates a symbolic link at name (inside the root) pointing to target.
func (e *env) symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(e.root, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
}

// tool returns the tool called name.
func (e *env) tool(t *testing.T, name string) registry.Tool {
	t.Helper()
	for _, tool := range e.ts.Tools() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q", name)
	return registry.Tool{}
}

// call runs tool name with params and returns its text.
func (e *env) call(t *testing.T, name string, params map[string]any) (string, error) {
	t.Helper()
	return e.callCtx(t, context.Background(), name, params)
}

func (e *env) callCtx(t *testing.T, ctx context.Context, name string, params map[string]any) (string, error) {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	res, err := e.tool(t, name).Execute(ctx, registry.Call{ID: "test", Params: params})
	if err != nil {
		return "", err
	}
	return res.Text(), nil
}

// readFile returns the content of a file below the root.
func (e *env) readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// check compares a call's outcome with want (text) or wantErr (substrings of
// the error message, all required; empty means no error expected).
func check(t *testing.T, got string, err error, want string, wantErr ...string) {
	t.Helper()
	if len(wantErr) > 0 {
		if err == nil {
			t.Fatalf("got no error, output %q; want error containing %q", got, wantErr)
		}
		for _, w := range wantErr {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("error %q does not contain %q", err, w)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// callOf builds a registry call with params.
func callOf(params map[string]any) registry.Call {
	return registry.Call{ID: "test", Params: params}
}
