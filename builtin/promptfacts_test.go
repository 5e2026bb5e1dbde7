package builtin

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// exampleNotice returns the notice line a description quotes after "such as
// " (the text between the quotes that follow), or fails the test.
func exampleNotice(t *testing.T, desc, after string) string {
	t.Helper()
	i := strings.Index(desc, after)
	if i < 0 {
		t.Fatalf("description does not say %q:\n%s", after, desc)
	}
	rest := desc[i+len(after):]
	rest, ok := strings.CutPrefix(rest, `"`)
	if !ok {
		t.Fatalf("no quoted example after %q", after)
	}
	end := strings.Index(rest, `]"`)
	if end < 0 {
		t.Fatalf("unterminated example after %q", after)
	}
	return rest[:end+1]
}

var (
	numberRun = regexp.MustCompile(`[0-9]+(\\\.[0-9]+)?`)
	sizeUnit  = regexp.MustCompile(`bytes|KiB|MiB|GiB`)
)

// noticePattern turns a documented example notice into a pattern of the
// notices it stands for: numbers match any number (with a "+" for counts
// that stopped counting), size units any unit, "…" any text, and a path in
// read(…) any quoted path.
func noticePattern(example string) *regexp.Regexp {
	p := regexp.QuoteMeta(example)
	p = numberRun.ReplaceAllString(p, `[0-9.]+\+?`)
	p = sizeUnit.ReplaceAllString(p, `(bytes|KiB|MiB|GiB)`)
	p = strings.ReplaceAll(p, "…", ".*")
	return regexp.MustCompile("^" + p + "$")
}

// TestPromptFacts checks each fact the built-in tools' descriptions (the
// text the default prompt block shows) state about their output against
// what the tools really do: every notice line quoted as an example is the
// shape of a line the tool prints, and each documented default, unit and
// refusal holds.
func TestPromptFacts(t *testing.T) {
	t.Parallel()
	many := func(n int, line string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s %d\n", line, i)
		}
		return b.String()
	}
	files := map[string]string{
		"a/b/deep.json":   "{}\n",
		"top.json":        "{}\n",
		".gitignore":      "ignored/\n",
		"ignored/x.json":  "hit\n",
		"ignored/hit.txt": "hit\n",
		"many.txt":        many(250, "hit"),
		"twice.txt":       "x = 1\nx = 1\n",
		"ctx.txt":         "one\nhit\nthree\nfour\nfive\nhit\nseven\n",
	}
	for i := range 1005 {
		files[fmt.Sprintf("f/%04d.txt", i)] = ""
	}
	e := newEnv(t, files)
	small := newEnv(t, map[string]string{"big.txt": many(200, "line"), "dir/" + strings.Repeat("n", 60): ""}, func(o *Options) {
		o.MaxOutputBytes = 100
		o.MaxReadBytes = 200
	})
	for _, n := range []string{"1", "2", "3", "4"} {
		small.symlink(t, "big.txt", "dir/link"+n+strings.Repeat("x", 40))
	}
	desc := func(env *env, name string) string { return env.tool(t, name).Description }
	lastLine := func(s string) string {
		s = strings.TrimSuffix(s, "\n")
		return s[strings.LastIndex(s, "\n")+1:]
	}
	firstLine := func(s string) string { first, _, _ := strings.Cut(s, "\n"); return first }

	t.Run("grep default cap appends the documented notice", func(t *testing.T) {
		d := desc(e, "grep")
		if !strings.Contains(d, fmt.Sprintf("At most %d matches", DefaultGrepLimit)) {
			t.Errorf("grep description does not give the default cap %d", DefaultGrepLimit)
		}
		out, err := e.call(t, "grep", map[string]any{"pattern": "hit", "path": "many.txt"})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != DefaultGrepLimit+1 || !noticePattern(exampleNotice(t, d, "such as ")).MatchString(lastLine(out)) {
			t.Errorf("%d lines, last %q; want %d matches and a notice like the description's", len(lines), lastLine(out), DefaultGrepLimit)
		}
	})
	t.Run("grep limit appends the documented notice", func(t *testing.T) {
		out, err := e.call(t, "grep", map[string]any{"pattern": "hit", "path": "many.txt", "limit": 3})
		if err != nil {
			t.Fatal(err)
		}
		if p := noticePattern(exampleNotice(t, desc(e, "grep"), "such as ")); !p.MatchString(lastLine(out)) || !strings.HasPrefix(lastLine(out), "[247 more matches") {
			t.Errorf("last line %q does not match %v", lastLine(out), p)
		}
	})
	t.Run("grep context format", func(t *testing.T) {
		if !strings.Contains(desc(e, "grep"), `context lines are written "file-line-text" and "--" separates groups`) {
			t.Error("grep description does not give the context format")
		}
		out, err := e.call(t, "grep", map[string]any{"pattern": "hit", "path": "ctx.txt", "context": 1})
		want := "ctx.txt-1-one\nctx.txt:2:hit\nctx.txt-3-three\n--\nctx.txt-5-five\nctx.txt:6:hit\nctx.txt-7-seven"
		check(t, out, err, want)
	})
	t.Run("grep and find skip gitignored paths", func(t *testing.T) {
		for _, name := range []string{"grep", "find"} {
			if !strings.Contains(desc(e, name), "paths ignored by .gitignore files are skipped") {
				t.Errorf("%s description does not say it skips .gitignore'd paths", name)
			}
		}
		out, err := e.call(t, "grep", map[string]any{"pattern": "hit", "path": ".", "glob": "*.txt", "limit": 1000})
		if err != nil || strings.Contains(out, "ignored/") {
			t.Errorf("grep: %v, output has ignored/: %v", err, strings.Contains(out, "ignored/"))
		}
		out, err = e.call(t, "find", map[string]any{"pattern": "*.json"})
		check(t, out, err, "a/b/deep.json\ntop.json")
	})
	t.Run("grep, ls and find print no trailing newline", func(t *testing.T) {
		for _, c := range []struct {
			name   string
			params map[string]any
		}{
			{"grep", map[string]any{"pattern": "hit", "path": "ctx.txt"}},
			{"ls", map[string]any{"path": "a"}},
			{"find", map[string]any{"pattern": "*.json"}},
		} {
			if !strings.Contains(desc(e, c.name), "one per line (no trailing newline)") {
				t.Errorf("%s description does not say its output has no trailing newline", c.name)
			}
			out, err := e.call(t, c.name, c.params)
			if err != nil || out == "" || strings.HasSuffix(out, "\n") {
				t.Errorf("%s: %q, %v; want lines without a trailing newline", c.name, out, err)
			}
		}
	})
	t.Run("find lists directories without the slash ls adds", func(t *testing.T) {
		if !strings.Contains(desc(e, "find"), `directories without a trailing "/" (unlike ls)`) || !strings.Contains(desc(e, "ls"), `with a trailing "/" on directories`) {
			t.Error("find and ls descriptions do not say how directories are written")
		}
		out, err := e.call(t, "find", map[string]any{"pattern": "b", "type": "directory"})
		check(t, out, err, "a/b")
		out, err = e.call(t, "ls", map[string]any{"path": "a"})
		check(t, out, err, "b/")
	})
	t.Run("find alternatives and maxDepth 1", func(t *testing.T) {
		d := desc(e, "find")
		if !strings.Contains(d, `"*.{ts,tsx}" gives alternatives`) || !strings.Contains(d, "{ maxDepth: 1 } keeps the entries directly in the search path") {
			t.Error("find description does not give alternatives and maxDepth")
		}
		out, err := e.call(t, "find", map[string]any{"pattern": "{top,deep}.json"})
		check(t, out, err, "a/b/deep.json\ntop.json")
		out, err = e.call(t, "find", map[string]any{"pattern": "*.json", "maxDepth": 1})
		check(t, out, err, "top.json")
	})
	t.Run("grep glob matches base names or paths", func(t *testing.T) {
		if !strings.Contains(desc(e, "grep"), `"*.ts" matches base names at any depth, "src/**/*.ts" paths relative to { path }`) {
			t.Error("grep description does not say how glob matches")
		}
		out, err := e.call(t, "grep", map[string]any{"pattern": "{}", "literal": true, "glob": "*.json"})
		check(t, out, err, "a/b/deep.json:1:{}\ntop.json:1:{}")
		out, err = e.call(t, "grep", map[string]any{"pattern": "{}", "literal": true, "glob": "a/**/*.json"})
		check(t, out, err, "a/b/deep.json:1:{}")
	})
	t.Run("an ignored path given explicitly is searched", func(t *testing.T) {
		for _, name := range []string{"grep", "find"} {
			if !strings.Contains(desc(e, name), "a { path } given explicitly is searched even if ignored") {
				t.Errorf("%s description does not say an explicit ignored path is searched", name)
			}
		}
		out, err := e.call(t, "grep", map[string]any{"pattern": "hit", "path": "ignored"})
		check(t, out, err, "ignored/hit.txt:1:hit\nignored/x.json:1:hit")
		out, err = e.call(t, "find", map[string]any{"pattern": "*.json", "path": "ignored"})
		check(t, out, err, "ignored/x.json")
	})
	t.Run("replaceAll confirms the occurrences", func(t *testing.T) {
		if !strings.Contains(desc(e, "edit"), `("replaced 3 occurrences" with replaceAll)`) {
			t.Error("edit description does not give replaceAll's confirmation")
		}
		own := newEnv(t, map[string]string{"three.txt": "a a a\n"})
		out, err := own.call(t, "edit", map[string]any{"path": "three.txt", "oldText": "a", "newText": "b", "replaceAll": true})
		check(t, out, err, "replaced 3 occurrences in three.txt")
	})
	t.Run("find matches base names at any depth", func(t *testing.T) {
		if !strings.Contains(desc(e, "find"), `A pattern without "/" matches base names at any depth`) {
			t.Error("find description does not say how a pattern without / matches")
		}
		out, err := e.call(t, "find", map[string]any{"pattern": "deep.json"})
		check(t, out, err, "a/b/deep.json")
	})
	t.Run("find default cap appends the documented notice", func(t *testing.T) {
		d := desc(e, "find")
		if !strings.Contains(d, fmt.Sprintf("At most %d paths", DefaultFindLimit)) {
			t.Errorf("find description does not give the default cap %d", DefaultFindLimit)
		}
		out, err := e.call(t, "find", map[string]any{"pattern": "*.txt", "path": "f"})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if p := noticePattern(exampleNotice(t, d, "such as ")); len(lines) != DefaultFindLimit+1 || !p.MatchString(lastLine(out)) || !strings.HasPrefix(lastLine(out), "[5 more paths") {
			t.Errorf("%d lines, last %q; want %d paths and a notice matching %v", len(lines), lastLine(out), DefaultFindLimit, p)
		}
	})
	t.Run("ls cap appends the documented notice", func(t *testing.T) {
		out, err := small.call(t, "ls", map[string]any{"path": "dir"})
		if err != nil {
			t.Fatal(err)
		}
		if p := noticePattern(exampleNotice(t, desc(small, "ls"), "such as ")); !p.MatchString(lastLine(out)) {
			t.Errorf("last line %q does not match %v", lastLine(out), p)
		}
	})
	t.Run("read window cap ends with the documented notice", func(t *testing.T) {
		out, err := small.call(t, "read", map[string]any{"path": "big.txt", "offset": 1, "limit": 100})
		if err != nil {
			t.Fatal(err)
		}
		if p := noticePattern(exampleNotice(t, desc(small, "read"), "such as ")); !p.MatchString(lastLine(out)) {
			t.Errorf("last line %q does not match %v", lastLine(out), p)
		}
	})
	t.Run("read past the end throws", func(t *testing.T) {
		if !strings.Contains(desc(e, "read"), "fails (throws) on an offset past the end of the file") {
			t.Error("read description does not say an offset past the end fails")
		}
		_, err := e.call(t, "read", map[string]any{"path": "twice.txt", "offset": 3})
		if err == nil || !strings.Contains(err.Error(), "past the end") {
			t.Errorf("err %v, want an offset past the end refused", err)
		}
	})
	t.Run("edit fails on several matches", func(t *testing.T) {
		if !strings.Contains(desc(e, "edit"), "must occur exactly once unless { replaceAll: true }") {
			t.Error("edit description does not say oldText must occur once")
		}
		_, err := e.call(t, "edit", map[string]any{"path": "twice.txt", "oldText": "x = 1", "newText": "x = 2"})
		if err == nil || !strings.Contains(err.Error(), "2") {
			t.Errorf("err %v, want a failure giving the 2 matches", err)
		}
		if got := e.readFile(t, "twice.txt"); got != "x = 1\nx = 1\n" {
			t.Errorf("file changed to %q", got)
		}
	})
	t.Run("bash output cap starts with the documented notice", func(t *testing.T) {
		out, err := small.call(t, "bash", map[string]any{"command": "seq 1 100"})
		if err != nil {
			t.Fatal(err)
		}
		if p := noticePattern(exampleNotice(t, desc(small, "bash"), "after a first line such as ")); !p.MatchString(firstLine(out)) {
			t.Errorf("first line %q does not match %v", firstLine(out), p)
		}
	})
	t.Run("bash exit code line", func(t *testing.T) {
		if !strings.Contains(desc(e, "bash"), `a final line "[exit code N]" when it exits non-zero`) {
			t.Error("bash description does not give the exit code line")
		}
		out, err := e.call(t, "bash", map[string]any{"command": "echo x; exit 3"})
		check(t, out, err, "x\n[exit code 3]")
	})
	t.Run("bash timeout is in seconds", func(t *testing.T) {
		d := desc(e, "bash")
		if !strings.Contains(d, "{ timeoutSeconds: N } (in seconds, not milliseconds") || !strings.Contains(e.tool(t, "bash").CallSignature, "timeoutSeconds?: number") {
			t.Error("bash description or signature does not name the unit")
		}
		_, err := e.call(t, "bash", map[string]any{"command": "sleep 5", "timeoutSeconds": 0.2})
		if err == nil || !strings.Contains(err.Error(), "timed out after 0.2s") {
			t.Errorf("err %v, want a timeout after 0.2s", err)
		}
	})
}
