package doclinks

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// readmeMaxLines is the most lines the README may have: it is the front
// page, and the reference lives in docs/.
const readmeMaxLines = 200

// TestRepositoryDocs checks the links of README.md and docs/*.md, and the
// README's length.
func TestRepositoryDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	files := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	problems, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}

	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := LineCount(string(readme)); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, over %d: it is the front page; move the reference to docs/", n, readmeMaxLines)
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Worker reuse", "worker-reuse"},
		{"The goals, each against its peer", "the-goals-each-against-its-peer"},
		{"The CLI's start", "the-clis-start"},
		{"codeexec as an MCP server", "codeexec-as-an-mcp-server"},
		{"Isolation modes", "isolation-modes"},
		{"`--state` and locks", "--state-and-locks"},
		{"snake_case stays", "snake_case-stays"},
		{"a - b", "a---b"},
		{"**Bold** and *em*", "bold-and-em"},
		{"See [the CLI](cli.md) first", "see-the-cli-first"},
		{"Tests (make test)", "tests-make-test"},
		{"Ünïcödé 2026", "ünïcödé-2026"},
		{"What? Why! How.", "what-why-how"},
	} {
		if got := Slug(tc.heading); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

func TestAnchors(t *testing.T) {
	md := strings.Join([]string{
		"# Title",
		"## Set-up",
		"## Set-up",
		"### Set-up ###",
		"```",
		"# not a heading",
		"```",
		"#not a heading either",
		"    # indented code, not a heading",
		`<a id="explicit"></a>`,
		"## The `run` command",
	}, "\n")
	got := Anchors(md)
	want := []string{"title", "set-up", "set-up-1", "set-up-2", "explicit", "the-run-command"}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Sort(want)
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("Anchors = %v, want %v", keys, want)
	}
}

func TestLinks(t *testing.T) {
	for _, tc := range []struct {
		name string
		md   string
		want []Link
	}{
		{"inline", "See [the CLI](docs/cli.md).", []Link{{Line: 1, Text: "the CLI", Target: "docs/cli.md"}}},
		{"image", "![logo](img/logo.png)", []Link{{Line: 1, Text: "logo", Target: "img/logo.png", Image: true}}},
		{"title", `[a](b.md "a title")`, []Link{{Line: 1, Text: "a", Target: "b.md"}}},
		{"angle brackets", "[a](<b c.md>)", []Link{{Line: 1, Text: "a", Target: "b c.md"}}},
		{"anchor", "[x](#worker-reuse) and [y](semantics.md#limits)", []Link{
			{Line: 1, Text: "x", Target: "#worker-reuse"},
			{Line: 1, Text: "y", Target: "semantics.md#limits"},
		}},
		{"parentheses in the target", "[wiki](https://en.wikipedia.org/wiki/Go_(programming_language))", []Link{
			{Line: 1, Text: "wiki", Target: "https://en.wikipedia.org/wiki/Go_(programming_language)"},
		}},
		{"code in the text", "[`run`](cli.md)", []Link{{Line: 1, Text: "     ", Target: "cli.md"}}},
		{"bold link", "- **[registry](https://pkg.go.dev/x/registry)**: tools", []Link{
			{Line: 1, Text: "registry", Target: "https://pkg.go.dev/x/registry"},
		}},
		{"image in a link", "[![badge](b.svg)](https://ci.example.com)", []Link{
			{Line: 1, Text: "![badge](b.svg)", Target: "https://ci.example.com"},
			{Line: 1, Text: "badge", Target: "b.svg", Image: true},
		}},
		{"line numbers", "one\n\n[a](a.md)\n[b](b.md)", []Link{
			{Line: 3, Text: "a", Target: "a.md"},
			{Line: 4, Text: "b", Target: "b.md"},
		}},
		{"reference definition", "[ref]: docs/cli.md", []Link{{Line: 1, Text: "ref", Target: "docs/cli.md"}}},
		{"backtick fence", "```go\nx := a[i](b)\n[no](link.md)\n```\n[yes](y.md)", []Link{{Line: 5, Text: "yes", Target: "y.md"}}},
		{"tilde fence", "~~~\n[no](link.md)\n~~~\n", nil},
		{"longer fence", "````\n```\n[no](link.md)\n```\n````\n[yes](y.md)", []Link{{Line: 6, Text: "yes", Target: "y.md"}}},
		{"indented fence", "- item\n\n  ```sh\n  [no](link.md)\n  ```\n", nil},
		{"code span", "run `[no](link.md)` and ``[no](x) ` `` then [yes](y.md)", []Link{{Line: 1, Text: "yes", Target: "y.md"}}},
		{"unclosed backtick", "a ` b [yes](y.md)", []Link{{Line: 1, Text: "yes", Target: "y.md"}}},
		{"escaped bracket", `\[not](a link)`, nil},
		{"brackets without a target", "[x] and [y] (z)", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Links(tc.md); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Links(%q) =\n%+v\nwant\n%+v", tc.md, got, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/a.md", "# A\n## Twice\n## Twice\n")
	write("src/main.go", "package main\n")
	write("README.md", strings.Join([]string{
		"# Front",
		"[ok](docs/a.md) [ok](docs/a.md#twice-1) [ok](#front) [ok](src/main.go#L1) [ok](src) [ok](https://example.com/x)",
		"[missing](docs/b.md)",
		"[bad anchor](docs/a.md#twice-2)",
		"[bad self anchor](#nowhere)",
		"[bad line anchor](src/main.go#main)",
		"[no host](https:///x)",
		"[scheme](ftp://example.com/f)",
		"[absolute](/docs/a.md)",
		"[outside](../elsewhere.md)",
		"```",
		"[in a fence](nowhere.md)",
		"```",
	}, "\n"))
	problems, err := Check(root, []string{"README.md", "docs/a.md"})
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range problems {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 4, 5, 6, 7, 8, 9, 10}; !reflect.DeepEqual(lines, want) {
		t.Errorf("problems on lines %v, want %v:\n%v", lines, want, problems)
	}
}

func TestLineCount(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{{"", 0}, {"a", 1}, {"a\n", 1}, {"a\nb", 2}, {"a\n\n", 2}} {
		if got := LineCount(tc.text); got != tc.want {
			t.Errorf("LineCount(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
