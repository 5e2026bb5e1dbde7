package builtin

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// escapeEnv is a root with ways out: symbolic links to /etc, to "..", to a
// directory beside the root (absolute and relative) and a dangling one
// pointing outside; beside the root are a secret file and a directory.
func escapeEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, map[string]string{"a/in.txt": "inside\n"})
	if err := os.WriteFile(filepath.Join(e.parent, "secret"), []byte("TOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.parent, "outside"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.symlink(t, "/etc", "etc")
	e.symlink(t, "..", "up")
	e.symlink(t, filepath.Join(e.parent, "outside"), "abs-out")
	e.symlink(t, "../outside", "rel-out")
	e.symlink(t, filepath.Join(e.parent, "created-through-link"), "dangling")
	return e
}

// snapshot records every path beside and below e.parent, except inside the
// root, with the content of files.
func snapshot(t *testing.T, e *env) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(e.parent, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == e.root {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[p] = string(b)
		} else {
			m[p] = d.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// escapePaths are paths that lead outside the root, each with a substring
// the refusal must contain.
func escapePaths(e *env) map[string]string {
	return map[string]string{
		"../secret":                          "is outside the root directory",
		"a/../../secret":                     "is outside the root directory",
		"/etc/passwd":                        "is outside the root directory",
		"/etc":                               "is outside the root directory",
		filepath.Join(e.parent, "secret"):    "is outside the root directory",
		"etc/passwd":                         "leads outside the root directory",
		"etc":                                "leads outside the root directory",
		"up/secret":                          "leads outside the root directory",
		"up":                                 "leads outside the root directory",
		"up/root/a/in.txt":                   "leads outside the root directory",
		"abs-out":                            "leads outside the root directory",
		"rel-out":                            "leads outside the root directory",
		"a\x00b":                             "contains a NUL byte",
		"a/in.txt\x00../../secret":           "contains a NUL byte",
		"../" + filepath.Base(e.root) + "/a": "is outside the root directory",
	}
}

func TestEscapesRefused(t *testing.T) {
	e := escapeEnv(t)
	before := snapshot(t, e)
	type attempt struct {
		tool   string
		params func(p string) map[string]any
	}
	attempts := []attempt{
		{"read", func(p string) map[string]any { return map[string]any{"path": p} }},
		{"read", func(p string) map[string]any { return map[string]any{"path": p, "offset": 1, "limit": 5} }},
		{"edit", func(p string) map[string]any {
			return map[string]any{"path": p, "oldText": "\x01never present", "newText": "x", "replaceAll": true}
		}},
		{"grep", func(p string) map[string]any { return map[string]any{"pattern": ".", "path": p} }},
		{"ls", func(p string) map[string]any { return map[string]any{"path": p} }},
		{"find", func(p string) map[string]any { return map[string]any{"pattern": "*", "path": p} }},
	}
	for _, a := range attempts {
		for p, want := range escapePaths(e) {
			t.Run(a.tool+"/"+p, func(t *testing.T) {
				got, err := e.call(t, a.tool, a.params(p))
				check(t, got, err, "", a.tool+": ", want)
				for _, leak := range []string{"TOPSECRET", "root:x:"} {
					if strings.Contains(err.Error(), leak) {
						t.Fatalf("error leaks outside content: %q", err)
					}
				}
			})
		}
	}
	if after := snapshot(t, e); !maps.Equal(before, after) {
		t.Fatalf("outside changed:\nbefore %v\nafter  %v", before, after)
	}
}

func TestEscapeWritesRefused(t *testing.T) {
	e := escapeEnv(t)
	before := snapshot(t, e)
	const probe = "codeexec-escape-probe.txt"
	paths := map[string]string{
		"../" + probe:                       "is outside the root directory",
		"a/../../" + probe:                  "is outside the root directory",
		"/etc/" + probe:                     "is outside the root directory",
		filepath.Join(e.parent, probe):      "is outside the root directory",
		"etc/" + probe:                      "leads outside the root directory",
		"up/" + probe:                       "leads outside the root directory",
		"up/newdir/" + probe:                "leads outside the root directory",
		"abs-out/" + probe:                  "leads outside the root directory",
		"rel-out/" + probe:                  "leads outside the root directory",
		"rel-out/deeper/" + probe:           "leads outside the root directory",
		"dangling":                          "leads outside the root directory",
		"up/secret":                         "leads outside the root directory",
		"a/x\x00" + probe:                   "contains a NUL byte",
		"../root/../" + probe:               "is outside the root directory",
		"up/" + filepath.Base(e.root) + "/": "leads outside the root directory",
	}
	for p, want := range paths {
		t.Run(p, func(t *testing.T) {
			got, err := e.call(t, "write", map[string]any{"path": p, "content": "ESCAPED\n"})
			check(t, got, err, "", "write: ", want)
		})
	}
	if _, err := os.Lstat("/etc/" + probe); err == nil {
		os.Remove("/etc/" + probe)
		t.Fatal("a write escaped to /etc")
	}
	if after := snapshot(t, e); !maps.Equal(before, after) {
		t.Fatalf("outside changed:\nbefore %v\nafter  %v", before, after)
	}
	// Nothing was created inside the root either, apart from what was there.
	var inside []string
	filepath.WalkDir(e.root, func(p string, d fs.DirEntry, err error) error {
		inside = append(inside, strings.TrimPrefix(p, e.root))
		return nil
	})
	if want := "|/a|/a/in.txt|/abs-out|/dangling|/etc|/rel-out|/up"; "|"+strings.Join(inside[1:], "|") != want {
		t.Fatalf("root holds %v", inside)
	}
}

// TestWalksStayInside checks that grep and find over the whole root neither
// follow the links that lead out nor report anything beyond them.
func TestWalksStayInside(t *testing.T) {
	e := escapeEnv(t)
	tests := []struct {
		tool   string
		params map[string]any
		want   string
	}{
		{"grep", map[string]any{"pattern": "TOPSECRET|root:"}, ""},
		{"grep", map[string]any{"pattern": "inside"}, "a/in.txt:1:inside"},
		{"find", map[string]any{"pattern": "*"}, "a\na/in.txt\nabs-out\ndangling\netc\nrel-out\nup"},
		{"find", map[string]any{"pattern": "passwd"}, ""},
		{"ls", map[string]any{}, "a/\nabs-out\ndangling\netc\nrel-out\nup"},
	}
	for _, tt := range tests {
		got, err := e.call(t, tt.tool, tt.params)
		if err != nil || got != tt.want {
			t.Errorf("%s %v = %q, %v; want %q", tt.tool, tt.params, got, err, tt.want)
		}
	}
}
