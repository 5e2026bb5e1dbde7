package builtin

import (
	"fmt"
	"strings"
	"testing"
)

// searchTree is a small project used by the grep, ls and find tests.
var searchTree = map[string]string{
	"a.go":               "package a\n\nfunc Hello() {}\n",
	"a/b.go":             "package b\n// hello from b\n",
	"a/c.ts":             "export const hello = 1;\n",
	"src/x/y.ts":         "// TODO: hello\nlet x = 1;\n",
	"src/z.tsx":          "HELLO\n",
	"README.md":          "# Hello\nsay hello.\n",
	".gitignore":         "*.log\nbuild/\n/top-only.txt\n!keep.log\n",
	"debug.log":          "hello log\n",
	"keep.log":           "hello kept\n",
	"build/out.go":       "hello build\n",
	"top-only.txt":       "hello top\n",
	"a/top-only.txt":     "hello nested\n",
	"nested/.gitignore":  "secret.txt\n",
	"nested/secret.txt":  "hello secret\n",
	"nested/public.txt":  "hello public\n",
	".git/config":        "hello git\n",
	".git/info/exclude":  "excluded.txt\n",
	"excluded.txt":       "hello excluded\n",
	"img.png":            "hello\x00binary",
	".hidden/h.txt":      "hello hidden\n",
	"empty/":             "",
	"x-y:z.txt":          "hello odd name\n",
	"min.js":             strings.Repeat("a", 1000) + "hello" + strings.Repeat("b", 1000) + "\n",
	"ctx.txt":            "l1\nl2 hello\nl3\nl4\nl5\nl6\nl7 hello\nl8\nl9 hello\nl10\n",
	"deep/1/2/3/leaf.md": "hello leaf\n",
}

func TestGrep(t *testing.T) {
	e := newEnv(t, searchTree)
	lines := func(l ...string) string { return strings.Join(l, "\n") }
	tests := []struct {
		name    string
		params  map[string]any
		want    string
		wantErr []string
	}{
		{"sorted by path then line, ignores and binary skipped", map[string]any{"pattern": "hello", "glob": "!min.js"}, lines(
			".hidden/h.txt:1:hello hidden",
			"README.md:2:say hello.",
			"a/b.go:2:// hello from b",
			"a/c.ts:1:export const hello = 1;",
			"a/top-only.txt:1:hello nested",
			"ctx.txt:2:l2 hello",
			"ctx.txt:7:l7 hello",
			"ctx.txt:9:l9 hello",
			"deep/1/2/3/leaf.md:1:hello leaf",
			"keep.log:1:hello kept",
			"nested/public.txt:1:hello public",
			"src/x/y.ts:1:// TODO: hello",
			"x-y:z.txt:1:hello odd name",
		), nil},
		{"ignore case", map[string]any{"pattern": "hello", "ignoreCase": true, "path": "src"}, lines(
			"src/x/y.ts:1:// TODO: hello",
			"src/z.tsx:1:HELLO",
		), nil},
		{"regex", map[string]any{"pattern": `^package \w$`}, lines("a.go:1:package a", "a/b.go:1:package b"), nil},
		{"literal", map[string]any{"pattern": "Hello()", "literal": true}, "a.go:3:func Hello() {}", nil},
		{"not literal", map[string]any{"pattern": "Hello()"}, lines("README.md:1:# Hello", "a.go:3:func Hello() {}"), nil},
		{"glob base name", map[string]any{"pattern": "hello", "glob": "*.ts"}, lines("a/c.ts:1:export const hello = 1;", "src/x/y.ts:1:// TODO: hello"), nil},
		{"glob alternatives", map[string]any{"pattern": "hello", "glob": "*.{ts,tsx}", "ignoreCase": true}, lines("a/c.ts:1:export const hello = 1;", "src/x/y.ts:1:// TODO: hello", "src/z.tsx:1:HELLO"), nil},
		{"glob path", map[string]any{"pattern": "hello", "glob": "src/**/*.ts"}, "src/x/y.ts:1:// TODO: hello", nil},
		{"glob path relative to search path", map[string]any{"pattern": "hello", "path": "src", "glob": "x/*.ts"}, "src/x/y.ts:1:// TODO: hello", nil},
		{"negated glob dir", map[string]any{"pattern": "hello", "path": "a", "glob": "!*.go"}, lines("a/c.ts:1:export const hello = 1;", "a/top-only.txt:1:hello nested"), nil},
		{"path is a file", map[string]any{"pattern": "l\\d", "path": "ctx.txt", "limit": 2}, lines("ctx.txt:1:l1", "ctx.txt:2:l2 hello", "[8 more matches not shown (limit 2 reached); narrow the pattern, path or glob, or pass a higher { limit }]"), nil},
		{"explicit ignored file is searched", map[string]any{"pattern": "hello", "path": "debug.log"}, "debug.log:1:hello log", nil},
		{"search inside ignored dir", map[string]any{"pattern": "hello", "path": "build"}, "build/out.go:1:hello build", nil},
		{"nested gitignore from a subdirectory", map[string]any{"pattern": "hello", "path": "nested"}, "nested/public.txt:1:hello public", nil},
		{"context", map[string]any{"pattern": "hello", "path": "ctx.txt", "context": 1}, lines(
			"ctx.txt-1-l1",
			"ctx.txt:2:l2 hello",
			"ctx.txt-3-l3",
			"--",
			"ctx.txt-6-l6",
			"ctx.txt:7:l7 hello",
			"ctx.txt-8-l8",
			"ctx.txt:9:l9 hello",
			"ctx.txt-10-l10",
		), nil},
		{"context across files", map[string]any{"pattern": "hello", "glob": "*.ts", "context": 1}, lines(
			"a/c.ts:1:export const hello = 1;",
			"--",
			"src/x/y.ts:1:// TODO: hello",
			"src/x/y.ts-2-let x = 1;",
		), nil},
		{"context with limit keeps trailing context", map[string]any{"pattern": "hello", "path": "ctx.txt", "context": 2, "limit": 1}, lines(
			"ctx.txt-1-l1",
			"ctx.txt:2:l2 hello",
			"ctx.txt-3-l3",
			"ctx.txt-4-l4",
			"[2 more matches not shown (limit 1 reached); narrow the pattern, path or glob, or pass a higher { limit }]",
		), nil},
		{"huge context is clamped", map[string]any{"pattern": "l10", "path": "ctx.txt", "context": 1000000}, lines(
			"ctx.txt-1-l1", "ctx.txt-2-l2 hello", "ctx.txt-3-l3", "ctx.txt-4-l4", "ctx.txt-5-l5",
			"ctx.txt-6-l6", "ctx.txt-7-l7 hello", "ctx.txt-8-l8", "ctx.txt-9-l9 hello", "ctx.txt:10:l10",
		), nil},
		{"long line clipped around match", map[string]any{"pattern": "hello", "path": "min.js"},
			fmt.Sprintf("min.js:1:[... 875 bytes] %s [... 630 bytes]", strings.Repeat("a", 125)+"hello"+strings.Repeat("b", 370)), nil},
		{"no match", map[string]any{"pattern": "zzz-nothing"}, "", nil},
		{"bad regex", map[string]any{"pattern": "foo("}, "", []string{`grep: invalid regular expression "foo(": missing closing ): ` + "`foo(`", "literal: true"}},
		{"lookahead unsupported", map[string]any{"pattern": "a(?=b)"}, "", []string{"invalid regular expression", "RE2"}},
		{"bad glob", map[string]any{"pattern": "x", "glob": "[abc"}, "", []string{`glob "[abc" is not a valid glob`}},
		{"empty pattern", map[string]any{"pattern": ""}, "", []string{"pattern is empty"}},
		{"missing path", map[string]any{"pattern": "x", "path": "nope"}, "", []string{`grep: path "nope" not found`}},
		{"binary file named", map[string]any{"pattern": "x", "path": "img.png"}, "", []string{`"img.png" is a binary file`}},
		{"fractional limit", map[string]any{"pattern": "x", "limit": 2.5}, "", []string{"limit must be a whole number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "grep", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
}

func TestGrepCaps(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("match me\n", 10)
	}
	e := newEnv(t, files, func(o *Options) { o.MaxOutputBytes = 200 })
	got, err := e.call(t, "grep", map[string]any{"pattern": "match"})
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(got, "\n")
	// "f00.txt:1:match me" is 18 bytes; 10 lines with separators fit in 200.
	if len(ls) != 11 || ls[9] != "f00.txt:10:match me" {
		t.Fatalf("got %q", got)
	}
	if want := "[290 more matches not shown (output capped at 200 bytes); narrow the pattern, path or glob]"; ls[10] != want {
		t.Fatalf("notice %q, want %q", ls[10], want)
	}

	e = newEnv(t, files)
	got, err = e.call(t, "grep", map[string]any{"pattern": "match"})
	if err != nil {
		t.Fatal(err)
	}
	ls = strings.Split(got, "\n")
	if len(ls) != DefaultGrepLimit+1 || ls[DefaultGrepLimit] != "[100 more matches not shown (limit 200 reached); narrow the pattern, path or glob, or pass a higher { limit }]" {
		t.Fatalf("got %d lines ending %q", len(ls), ls[len(ls)-1])
	}
}

func TestLs(t *testing.T) {
	e := newEnv(t, searchTree)
	e.symlink(t, "a", "link-to-a")
	e.symlink(t, "/etc", "link-out")
	tests := []struct {
		name    string
		params  map[string]any
		want    string
		wantErr []string
	}{
		{"root by default", nil, strings.Join([]string{
			".git/", ".gitignore", ".hidden/", "README.md", "a/", "a.go", "build/", "ctx.txt", "debug.log", "deep/",
			"empty/", "excluded.txt", "img.png", "keep.log", "link-out", "link-to-a", "min.js", "nested/", "src/", "top-only.txt", "x-y:z.txt",
		}, "\n"), nil},
		{"subdirectory", map[string]any{"path": "src"}, "x/\nz.tsx", nil},
		{"trailing slash", map[string]any{"path": "src/"}, "x/\nz.tsx", nil},
		{"empty directory", map[string]any{"path": "empty"}, "", nil},
		{"through symlink inside root", map[string]any{"path": "link-to-a"}, "b.go\nc.ts\ntop-only.txt", nil},
		{"a file", map[string]any{"path": "a.go"}, "", []string{`ls: "a.go" is a file, not a directory; use read("a.go")`}},
		{"missing", map[string]any{"path": "nope"}, "", []string{`ls: directory "nope" not found`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "ls", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
	t.Run("capped", func(t *testing.T) {
		e := newEnv(t, searchTree, func(o *Options) { o.MaxOutputBytes = 20 })
		got, err := e.call(t, "ls", nil)
		check(t, got, err, ".git/\n.gitignore\n"+`[17 more entries not shown (output capped at 20 bytes); use find(pattern, { path: ".", maxDepth: 1 }) to filter them]`)
	})
}

func TestFind(t *testing.T) {
	e := newEnv(t, searchTree)
	e.symlink(t, "a", "link-to-a")
	lines := func(l ...string) string { return strings.Join(l, "\n") }
	tests := []struct {
		name    string
		params  map[string]any
		want    string
		wantErr []string
	}{
		{"base name at any depth, sorted, ignores", map[string]any{"pattern": "*.go"}, lines("a.go", "a/b.go"), nil},
		{"dir/** is inside only", map[string]any{"pattern": "src/x/**"}, "src/x/y.ts", nil},
		{"dir/** in a group is inside only", map[string]any{"pattern": "{src/x/**,a/*.go}"}, lines("a/b.go", "src/x/y.ts"), nil},
		{"double star", map[string]any{"pattern": "**/*.ts"}, lines("a/c.ts", "src/x/y.ts"), nil},
		{"path pattern", map[string]any{"pattern": "src/**"}, lines("src/x", "src/x/y.ts", "src/z.tsx"), nil},
		{"relative to path", map[string]any{"pattern": "x/*", "path": "src"}, "src/x/y.ts", nil},
		{"alternatives", map[string]any{"pattern": "*.{ts,tsx}"}, lines("a/c.ts", "src/x/y.ts", "src/z.tsx"), nil},
		{"directories", map[string]any{"pattern": "*", "type": "directory"}, lines(".hidden", "a", "deep", "deep/1", "deep/1/2", "deep/1/2/3", "empty", "nested", "src", "src/x"), nil},
		{"files only", map[string]any{"pattern": "*", "type": "file", "path": "src"}, lines("src/x/y.ts", "src/z.tsx"), nil},
		{"trailing slash means directories", map[string]any{"pattern": "x/", "path": "src"}, "src/x", nil},
		{"max depth 1", map[string]any{"pattern": "*", "path": "deep", "maxDepth": 1}, "deep/1", nil},
		{"max depth 2", map[string]any{"pattern": "*", "path": "deep", "maxDepth": 2}, lines("deep/1", "deep/1/2"), nil},
		{"symlink listed not followed", map[string]any{"pattern": "link-*"}, "link-to-a", nil},
		{"gitignore and info/exclude", map[string]any{"pattern": "*.{log,txt}", "path": "."}, lines(".hidden/h.txt", "a/top-only.txt", "ctx.txt", "keep.log", "nested/public.txt", "x-y:z.txt"), nil},
		{"limit", map[string]any{"pattern": "*", "type": "file", "path": "src", "limit": 1}, lines("src/x/y.ts", "[1 more paths not shown (limit 1 reached); narrow the pattern or path, or pass a higher { limit }]"), nil},
		{"nothing", map[string]any{"pattern": "*.rs"}, "", nil},
		{"bad type", map[string]any{"pattern": "*", "type": "symlink"}, "", []string{`type must be "file" or "directory"`}},
		{"bad glob", map[string]any{"pattern": "{a,b"}, "", []string{"not a valid glob"}},
		{"empty pattern", map[string]any{"pattern": ""}, "", []string{"pattern is empty"}},
		{"path is a matching file", map[string]any{"pattern": "*.go", "path": "a/b.go"}, "a/b.go", nil},
		{"path is another file", map[string]any{"pattern": "*.ts", "path": "a/b.go"}, "", nil},
		{"missing path", map[string]any{"pattern": "*", "path": "nope"}, "", []string{`find: directory "nope" not found`}},
		{"zero depth", map[string]any{"pattern": "*", "maxDepth": 0}, "", []string{"maxDepth must be at least 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "find", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
	t.Run("capped", func(t *testing.T) {
		e := newEnv(t, searchTree, func(o *Options) { o.MaxOutputBytes = 12 })
		got, err := e.call(t, "find", map[string]any{"pattern": "*.go"})
		check(t, got, err, "a.go\na/b.go")
		got, err = e.call(t, "find", map[string]any{"pattern": "*.ts"})
		check(t, got, err, "a/c.ts\n"+`[1 more paths not shown (output capped at 12 bytes); narrow the pattern or path]`)
	})
}
