package builtin

import (
	"strings"
	"testing"

	"github.com/codeexec/codeexec/internal/tail"
)

func TestNotices(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"append to text", appendNotice("a\nb", "cut"), "a\nb\n[cut]"},
		{"append after newline", appendNotice("a\n", "cut"), "a\n[cut]"},
		{"append to empty", appendNotice("", "cut"), "[cut]"},
		{"append nothing", appendNotice("a", ""), "a"},
		{"prepend", prependNotice("cut", "tail\n"), "[cut]\ntail\n"},
		{"prepend nothing", prependNotice("", "tail"), "tail"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestTailText(t *testing.T) {
	b := tail.New(8)
	b.Write([]byte("line1\nline2\nline3\n"))
	text, notice := tailText(b)
	if text != "line3\n" {
		t.Errorf("text = %q", text)
	}
	if !strings.Contains(notice, "last 6 bytes of 18 bytes") {
		t.Errorf("notice = %q", notice)
	}
	b = tail.New(8)
	b.Write([]byte("short"))
	if text, notice := tailText(b); text != "short" || notice != "" {
		t.Errorf("uncut: %q, %q", text, notice)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		isDir   bool
		want    bool
	}{
		{"*.go", "main.go", false, true},
		{"*.go", "a/b/main.go", false, true},
		{"*.go", "a/b/main.ts", false, false},
		{"src/**/*.ts", "src/a.ts", false, true},
		{"src/**/*.ts", "src/x/y/a.ts", false, true},
		{"src/**/*.ts", "lib/src/a.ts", false, false},
		{"/src/*.ts", "src/a.ts", false, true},
		{"*.{ts,tsx}", "a/b.tsx", false, true},
		{"**", "a/b/c", false, true},
		{"build/", "build", true, true},
		{"build/", "build", false, false},
		{"[a-c]?.txt", "x/b1.txt", false, true},
		{"*", "a/b/c.txt", false, true},
		{"a/*", "a/b/c.txt", false, false},
	}
	for _, tt := range tests {
		g, err := compileGlob("find", "pattern", tt.pattern, false)
		if err != nil {
			t.Fatalf("%q: %v", tt.pattern, err)
		}
		if got := g.match(tt.path, tt.isDir); got != tt.want {
			t.Errorf("glob %q on %q (dir %v) = %v, want %v", tt.pattern, tt.path, tt.isDir, got, tt.want)
		}
	}
	for _, bad := range []string{"[abc", "{a,b", "/", ""} {
		if _, err := compileGlob("find", "pattern", bad, false); err == nil {
			t.Errorf("compileGlob(%q) succeeded", bad)
		}
	}
	g, err := compileGlob("grep", "glob", "!*.min.js", true)
	if err != nil || !g.negate || !g.match("a/x.min.js", false) {
		t.Errorf("negated glob: %+v, %v", g, err)
	}
}

func TestGitignore(t *testing.T) {
	tests := []struct {
		name  string
		dir   string
		text  string
		path  string
		isDir bool
		want  bool // ignored
	}{
		{"base name any depth", ".", "*.log\n", "a/b/x.log", false, true},
		{"no match", ".", "*.log\n", "a/b/x.txt", false, false},
		{"comment and blank", ".", "# *.txt\n\n", "x.txt", false, false},
		{"dir only matches dir", ".", "build/\n", "sub/build", true, true},
		{"dir only skips file", ".", "build/\n", "sub/build", false, false},
		{"anchored", ".", "/only-top\n", "only-top", false, true},
		{"anchored not deeper", ".", "/only-top\n", "a/only-top", false, false},
		{"middle slash anchors", ".", "doc/*.md\n", "doc/a.md", false, true},
		{"middle slash not deeper", ".", "doc/*.md\n", "x/doc/a.md", false, false},
		{"double star", ".", "**/gen/**\n", "a/gen/b/c.go", false, true},
		{"negation re-includes", ".", "*.log\n!keep.log\n", "keep.log", false, false},
		{"last rule wins", ".", "!keep.log\n*.log\n", "keep.log", false, true},
		{"nested dir relative", "sub", "/x.txt\n", "sub/x.txt", false, true},
		{"nested dir anchored to itself", "sub", "/x.txt\n", "sub/deeper/x.txt", false, false},
		{"crlf", ".", "*.tmp\r\n", "a.tmp", false, true},
		{"trailing spaces", ".", "*.tmp   \n", "a.tmp", false, true},
		{"braces are literal", ".", "{a}.txt\n", "{a}.txt", false, true},
		{"escaped hash", ".", "\\#x\n", "#x", false, true},
	}
	for _, tt := range tests {
		f := parseIgnore(tt.dir, []byte(tt.text))
		_, got := f.match(tt.path, tt.isDir)
		if got != tt.want {
			t.Errorf("%s: %q in %s on %q = %v, want %v", tt.name, tt.text, tt.dir, tt.path, got, tt.want)
		}
	}
}
