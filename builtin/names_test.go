package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestListName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.txt", "a.txt"},
		{"dir/é ü.md", "dir/é ü.md"},
		{`back\slash`, `back\slash`},
		{`mid"quote`, `mid"quote`},
		{"evil\nfake.txt", `"evil\nfake.txt"`},
		{"tab\there", `"tab\there"`},
		{"cr\r", `"cr\r"`},
		{"esc\x1b[31m", `"esc\u001b[31m"`},
		{"del\x7f", `"del\u007f"`},
		{"c1\u0085x", `"c1\u0085x"`},
		{"bad\xffutf8", `"bad\ufffdutf8"`},
		{`"quoted"`, `"\"quoted\""`},
		{"nl\nand\\back\"q/", `"nl\nand\\back\"q/"`},
	}
	for _, tt := range tests {
		got := listName(tt.in)
		if got != tt.want {
			t.Errorf("listName(%q) = %s, want %s", tt.in, got, tt.want)
			continue
		}
		if got == tt.in || !strings.HasPrefix(got, `"`) {
			continue
		}
		// Quoted names are JSON strings that give the name back (each
		// invalid UTF-8 byte as U+FFFD).
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("listName(%q) = %s is not a JSON string: %v", tt.in, got, err)
		} else if want := eachBadByte(tt.in); back != want {
			t.Errorf("JSON.parse(listName(%q)) = %q, want %q", tt.in, back, want)
		}
	}
}

// TestControlCharNames checks that a name with a control character makes
// one quoted line in ls, find and grep, never a line of its own.
func TestControlCharNames(t *testing.T) {
	e := newEnv(t, map[string]string{"ok.txt": "needle\n"})
	for name, content := range map[string]string{"evil\nfake.txt": "needle\n", "d\x1b/in.txt": "needle\n"} {
		p := filepath.Join(e.root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Skip("this file system refuses control characters in names:", err)
		}
	}
	tests := []struct {
		tool   string
		params map[string]any
		want   string
	}{
		{"ls", nil, `"d\u001b/"` + "\n" + `"evil\nfake.txt"` + "\nok.txt"},
		{"find", map[string]any{"pattern": "*.txt"}, `"d\u001b/in.txt"` + "\n" + `"evil\nfake.txt"` + "\nok.txt"},
		{"grep", map[string]any{"pattern": "needle"}, `"d\u001b/in.txt":1:needle` + "\n" + `"evil\nfake.txt":1:needle` + "\nok.txt:1:needle"},
		{"grep", map[string]any{"pattern": "needle", "path": "evil\nfake.txt"}, `"evil\nfake.txt":1:needle`},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			got, err := e.call(t, tt.tool, tt.params)
			check(t, got, err, tt.want)
		})
	}
}

// TestGrepLongLines checks that grep searches a line whole up to
// MaxFileBytes, and says exactly which part of a longer line it skipped.
func TestGrepLongLines(t *testing.T) {
	t.Run("default searches past 1 MiB", func(t *testing.T) {
		e := newEnv(t, map[string]string{"big.txt": strings.Repeat("x", 3<<20) + "NEEDLE"})
		got, err := e.call(t, "grep", map[string]any{"pattern": "NEEDLE", "path": "big.txt"})
		check(t, got, err, "big.txt:1:[... 3145234 bytes] "+strings.Repeat("x", 494)+"NEEDLE")
	})
	files := map[string]string{
		"a.txt": strings.Repeat("x", 90) + "NEEDLE\n" + // 96 bytes: searched whole
			strings.Repeat("y", 100) + "\n" + // 100 bytes: searched whole
			strings.Repeat("z", 100) + "NEEDLE\n", // 106: its last 6 bytes skipped
		"b.txt": strings.Repeat("w", 150), // no final newline: 50 skipped
	}
	e := newEnv(t, files, func(o *Options) { o.MaxFileBytes = 100 })
	const longNotice = `[grep searches only the first 100 bytes of each line; not searched: the last 6 bytes of line 3 of "a.txt" (106 bytes long), the last 50 bytes of line 1 of "b.txt" (150 bytes long); search those with bash (e.g. fold -w 4096 FILE | grep PATTERN)]`
	got, err := e.call(t, "grep", map[string]any{"pattern": "NEEDLE"})
	check(t, got, err, "a.txt:1:"+strings.Repeat("x", 90)+"NEEDLE\n"+
		longNotice)
	got, err = e.call(t, "grep", map[string]any{"pattern": "y"})
	check(t, got, err, "a.txt:2:"+strings.Repeat("y", 100)+"\n"+
		longNotice)
	t.Run("many long lines", func(t *testing.T) {
		e := newEnv(t, map[string]string{"c.txt": strings.Repeat(strings.Repeat("v", 101)+"\n", 5)}, func(o *Options) { o.MaxFileBytes = 100 })
		got, err := e.call(t, "grep", map[string]any{"pattern": "NEEDLE"})
		check(t, got, err, `[grep searches only the first 100 bytes of each line; not searched: the last 1 byte of line 1 of "c.txt" (101 bytes long), the last 1 byte of line 2 of "c.txt" (101 bytes long), the last 1 byte of line 3 of "c.txt" (101 bytes long), and the ends of 2 more lines; search those with bash (e.g. fold -w 4096 FILE | grep PATTERN)]`)
	})
}

// FuzzListName checks listName's promises on any name: the printed form has
// no control character, starts with '"' only when quoted, is the name itself
// otherwise, and a quoted form is a JSON string that gives the name back
// (invalid UTF-8 as U+FFFD).
func FuzzListName(f *testing.F) {
	for _, seed := range []string{"a.txt", "evil\nfake.txt", `"x"`, "\x00", "\xff", "é\u0085", "\xe9\xe9", `a\b`, ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := listName(name)
		if strings.IndexFunc(got, isControl) >= 0 || !utf8.ValidString(got) {
			t.Fatalf("listName(%q) = %q holds a control character or invalid UTF-8", name, got)
		}
		if got == name {
			if strings.HasPrefix(name, `"`) {
				t.Fatalf("listName(%q) left a leading quote unquoted", name)
			}
			return
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != eachBadByte(name) {
			t.Fatalf("listName(%q) = %s gives back %q, %v", name, got, back, err)
		}
	})
}

// eachBadByte returns s with each byte that is not part of valid UTF-8
// replaced by U+FFFD.
func eachBadByte(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // range yields U+FFFD for each invalid byte
	}
	return b.String()
}
