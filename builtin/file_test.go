package builtin

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	big := strings.Repeat("0123456789\n", 20) // 220 bytes, 20 lines
	e := newEnv(t, map[string]string{
		"a.txt":        "one\ntwo\nthree\n",
		"noeol.txt":    "one\ntwo",
		"crlf.txt":     "one\r\ntwo\r\n",
		"empty.txt":    "",
		"pkg.json":     `{"name": "x"}`,
		"big.txt":      big,
		"long.txt":     strings.Repeat("x", 300) + "\nshort\n",
		"bin.dat":      "PNG\x00\x01\x02",
		"latin1.txt":   "caf\xe9\n",
		"dir/file.txt": "inside\n",
		"utf8.txt":     "héllo wörld\n",
	}, func(o *Options) { o.MaxReadBytes = 100 })

	tests := []struct {
		name    string
		params  map[string]any
		want    string
		wantErr []string
	}{
		{"whole file exactly", map[string]any{"path": "a.txt"}, "one\ntwo\nthree\n", nil},
		{"no final newline", map[string]any{"path": "noeol.txt"}, "one\ntwo", nil},
		{"crlf kept", map[string]any{"path": "crlf.txt"}, "one\r\ntwo\r\n", nil},
		{"empty file", map[string]any{"path": "empty.txt"}, "", nil},
		{"json as is", map[string]any{"path": "pkg.json"}, `{"name": "x"}`, nil},
		{"utf8", map[string]any{"path": "utf8.txt"}, "héllo wörld\n", nil},
		{"dot slash path", map[string]any{"path": "./dir/../dir/file.txt"}, "inside\n", nil},
		{"window", map[string]any{"path": "a.txt", "offset": 2, "limit": 1}, "two\n", nil},
		{"window float64 and int64", map[string]any{"path": "a.txt", "offset": float64(2), "limit": int64(2)}, "two\nthree\n", nil},
		{"offset only", map[string]any{"path": "a.txt", "offset": 3}, "three\n", nil},
		{"limit only", map[string]any{"path": "a.txt", "limit": 2}, "one\ntwo\n", nil},
		{"limit past end", map[string]any{"path": "noeol.txt", "offset": 2, "limit": 10}, "two", nil},
		{"window of empty file", map[string]any{"path": "empty.txt", "offset": 1}, "", nil},
		{"offset past end", map[string]any{"path": "a.txt", "offset": 5}, "", []string{`offset 5 is past the end of "a.txt", which has 3 lines`}},
		{"offset just past end", map[string]any{"path": "noeol.txt", "offset": 3}, "", []string{"which has 2 lines"}},
		{"offset past int32", map[string]any{"path": "a.txt", "offset": 5e9}, "", []string{`offset 5000000000 is past the end of "a.txt", which has 3 lines`}},
		{"offset and limit at the safe integers", map[string]any{"path": "a.txt", "offset": float64(1<<53 - 1), "limit": float64(1<<53 - 1)}, "", []string{`offset 9007199254740991 is past the end`}},
		{"huge limit", map[string]any{"path": "a.txt", "offset": 2, "limit": 5e9}, "two\nthree\n", nil},
		{"offset past the safe integers", map[string]any{"path": "a.txt", "offset": 1e300}, "", []string{"read: offset must be at most 9007199254740991, got 1e+300"}},
		{"fractional offset", map[string]any{"path": "a.txt", "offset": 1.5}, "", []string{"offset must be a whole number"}},
		{"zero limit", map[string]any{"path": "a.txt", "limit": 0}, "", []string{"limit must be at least 1"}},
		{"window of big file", map[string]any{"path": "big.txt", "offset": 19}, "0123456789\n0123456789\n", nil},
		{"too large whole", map[string]any{"path": "big.txt"}, "", []string{`"big.txt" is too large to return whole (220 bytes, 20 lines; the limit is 100 bytes)`, `read("big.txt", { offset: 1, limit: 2000 })`}},
		{"window capped", map[string]any{"path": "big.txt", "offset": 2, "limit": 15},
			strings.Repeat("0123456789\n", 9) + `[output capped at 100 bytes: showing lines 2-10; continue with read("big.txt", { offset: 11, limit: 2000 })]`, nil},
		{"overlong first line", map[string]any{"path": "long.txt", "offset": 1, "limit": 2},
			strings.Repeat("x", 100) + "\n" + `[line 1 is longer than 100 bytes; only its first 100 bytes is shown; continue with read("long.txt", { offset: 2 }), or look inside the line with grep or bash("cut -c1-2000 long.txt")]`, nil},
		{"line after overlong", map[string]any{"path": "long.txt", "offset": 2}, "short\n", nil},
		{"binary", map[string]any{"path": "bin.dat"}, "", []string{`"bin.dat" looks like a binary file (it contains NUL bytes)`, "bash("}},
		{"binary window", map[string]any{"path": "bin.dat", "offset": 1}, "", []string{"binary"}},
		{"invalid utf8", map[string]any{"path": "latin1.txt"}, "", []string{"not valid UTF-8", "offset 3"}},
		{"directory", map[string]any{"path": "dir"}, "", []string{`"dir" is a directory`, `ls("dir")`}},
		{"missing", map[string]any{"path": "dir/nope.ts"}, "", []string{`read: file "dir/nope.ts" not found; use ls("dir") or find("**/nope.ts") to locate it`}},
		{"missing parent is a file", map[string]any{"path": "a.txt/x"}, "", []string{"not found"}},
		{"empty path", map[string]any{"path": ""}, "", []string{"path is empty"}},
		{"no path", map[string]any{}, "", []string{"missing required parameter path"}},
		{"absolute inside root", map[string]any{"path": filepath.Join(e.root, "a.txt")}, "one\ntwo\nthree\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "read", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
		})
	}
}

// TestSpecialFilesRefused checks that every file tool refuses a named pipe
// and a socket at once, with the one message of special, and that grep's and
// find's walks pass them by. A call that blocked would hang the test.
func TestSpecialFilesRefused(t *testing.T) {
	e := newEnv(t, map[string]string{"a.txt": "a\n"})
	if err := mkfifo(filepath.Join(e.root, "pipe")); err != nil {
		t.Skip("mkfifo:", err)
	}
	e.symlink(t, "pipe", "pipe-link")
	specials := map[string]string{"pipe": "a named pipe (FIFO)", "pipe-link": "a named pipe (FIFO)"}
	if l, err := net.Listen("unix", filepath.Join(e.root, "sock")); err == nil {
		defer l.Close()
		specials["sock"] = "a socket"
	}
	for name, kind := range specials {
		for _, c := range []struct {
			tool   string
			params map[string]any
		}{
			{"read", map[string]any{"path": name}},
			{"write", map[string]any{"path": name, "content": "x"}},
			{"edit", map[string]any{"path": name, "oldText": "a", "newText": "b"}},
			{"grep", map[string]any{"pattern": "a", "path": name}},
			{"ls", map[string]any{"path": name}},
			{"find", map[string]any{"pattern": "*", "path": name}},
		} {
			t.Run(c.tool+"/"+name, func(t *testing.T) {
				_, err := e.call(t, c.tool, c.params)
				check(t, "", err, "", fmt.Sprintf("%s: %q is not a regular file but %s; the file tools refuse named pipes, sockets and devices", c.tool, name, kind))
			})
		}
	}
	got, err := e.call(t, "grep", map[string]any{"pattern": "a"})
	check(t, got, err, "a.txt:1:a")
	if fi, err := os.Lstat(filepath.Join(e.root, "pipe")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe changed: %v %v", fi, err)
	}
}

// TestFileSizeLimit checks that write and edit refuse to produce a file
// over MaxFileBytes, before touching it, and that edit refuses to load one.
func TestFileSizeLimit(t *testing.T) {
	const limit = 100
	tests := []struct {
		name     string
		file     string // content of f.txt before the call
		tool     string
		params   map[string]any
		want     string
		wantFile string
		wantErr  string
	}{
		{"write at the limit", "old", "write", map[string]any{"content": strings.Repeat("x", limit)},
			"wrote 100 bytes to f.txt", strings.Repeat("x", limit), ""},
		{"write over the limit", "old", "write", map[string]any{"content": strings.Repeat("x", limit+1)},
			"", "old", `write: "f.txt" would be 101 bytes (101 bytes), over the limit of 100 bytes on files the tools write; the file was not changed`},
		{"edit to the limit", strings.Repeat("a", 10), "edit", map[string]any{"oldText": "a", "newText": "0123456789", "replaceAll": true},
			"replaced 10 occurrences in f.txt", strings.Repeat("0123456789", 10), ""},
		{"edit over the limit", strings.Repeat("a", 10), "edit", map[string]any{"oldText": "a", "newText": "0123456789a", "replaceAll": true},
			"", strings.Repeat("a", 10), `edit: "f.txt" would be 110 bytes (110 bytes), over the limit of 100 bytes on files the tools write; the file was not changed`},
		{"edit one occurrence over the limit", "ab" + strings.Repeat("c", 90), "edit", map[string]any{"oldText": "ab", "newText": strings.Repeat("b", 11)},
			"", "ab" + strings.Repeat("c", 90), `edit: "f.txt" would be 101 bytes (101 bytes), over the limit`},
		{"edit shrinking", strings.Repeat("a", 100), "edit", map[string]any{"oldText": strings.Repeat("a", 100), "newText": "b"},
			"replaced 1 occurrence in f.txt", "b", ""},
		{"edit a file over the limit", strings.Repeat("a", limit+1), "edit", map[string]any{"oldText": "a", "newText": "", "replaceAll": true},
			"", strings.Repeat("a", limit+1), `edit: "f.txt" is too large to edit (over 100 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"f.txt": tt.file}, func(o *Options) { o.MaxFileBytes = limit })
			tt.params["path"] = "f.txt"
			got, err := e.call(t, tt.tool, tt.params)
			if tt.wantErr != "" {
				check(t, got, err, "", tt.wantErr)
			} else {
				check(t, got, err, tt.want)
			}
			if c := e.readFile(t, "f.txt"); c != tt.wantFile {
				t.Fatalf("file holds %q, want %q", c, tt.wantFile)
			}
		})
	}
	t.Run("write over the limit creates nothing", func(t *testing.T) {
		e := newEnv(t, nil, func(o *Options) { o.MaxFileBytes = limit })
		_, err := e.call(t, "write", map[string]any{"path": "d/new.txt", "content": strings.Repeat("x", limit+1)})
		check(t, "", err, "", "over the limit of 100 bytes")
		if _, err := os.Stat(filepath.Join(e.root, "d")); !os.IsNotExist(err) {
			t.Fatalf("d was created: %v", err)
		}
	})
	t.Run("default", func(t *testing.T) {
		e := newEnv(t, map[string]string{"f.txt": strings.Repeat("a", 1<<20)})
		// 1 MiB of "a", each made 100 bytes: 100 MiB, over the default.
		_, err := e.call(t, "edit", map[string]any{"path": "f.txt", "oldText": "a", "newText": strings.Repeat("b", 100), "replaceAll": true})
		check(t, "", err, "", `edit: "f.txt" would be 100 MiB (104857600 bytes), over the limit of 64 MiB on files the tools write`)
	})
	t.Run("negative", func(t *testing.T) {
		if _, err := Open(Options{Root: t.TempDir(), MaxFileBytes: -1}); err == nil {
			t.Fatal("a negative MaxFileBytes was accepted")
		}
	})
}

func TestWrite(t *testing.T) {
	e := newEnv(t, map[string]string{"old.txt": "old content\n", "file": "x", "dir/": ""})
	tests := []struct {
		name    string
		path    string
		content string
		want    string
		wantErr []string
	}{
		{"new file", "new.txt", "hello\n", "wrote 6 bytes to new.txt", nil},
		{"creates parents", "src/deep/a.ts", "export {}\n", "wrote 10 bytes to src/deep/a.ts", nil},
		{"overwrites", "old.txt", "new", "wrote 3 bytes to old.txt", nil},
		{"empty content", "empty.txt", "", "wrote 0 bytes to empty.txt", nil},
		{"one byte", "one.txt", "x", "wrote 1 byte to one.txt", nil},
		{"utf8 bytes", "u.txt", "é", "wrote 2 bytes to u.txt", nil},
		{"clean path in message", "./src/../b.txt", "b", "wrote 1 byte to b.txt", nil},
		{"directory", "dir", "x", "", []string{`"dir" is a directory`}},
		{"root", ".", "x", "", []string{"is the root directory"}},
		{"file in the way", "file/sub/x.txt", "x", "", []string{`cannot create directory "file/sub"`, "a file is in the way"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.call(t, "write", map[string]any{"path": tt.path, "content": tt.content})
			check(t, got, err, tt.want, tt.wantErr...)
			if err == nil {
				if c := e.readFile(t, tt.path); c != tt.content {
					t.Fatalf("file holds %q, want %q", c, tt.content)
				}
			}
		})
	}
}

func TestEdit(t *testing.T) {
	const src = "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	tests := []struct {
		name     string
		file     string
		params   map[string]any
		want     string
		wantFile string
		wantErr  []string
	}{
		{"unique", src, map[string]any{"oldText": "func a() {\n\treturn 1", "newText": "func a() {\n\treturn 2"},
			"replaced 1 occurrence in f.go", strings.Replace(src, "return 1", "return 2", 1), nil},
		{"delete", src, map[string]any{"oldText": "\nfunc b() {\n\treturn 1\n}\n", "newText": ""},
			"replaced 1 occurrence in f.go", "func a() {\n\treturn 1\n}\n", nil},
		{"replace all", src, map[string]any{"oldText": "return 1", "newText": "return 3", "replaceAll": true},
			"replaced 2 occurrences in f.go", strings.ReplaceAll(src, "return 1", "return 3"), nil},
		{"ambiguous", src, map[string]any{"oldText": "return 1", "newText": "return 2"},
			"", src, []string{"oldText matches 2 times in f.go (lines 2, 6); add more surrounding context to make it unique or pass { replaceAll: true }"}},
		{"not found", src, map[string]any{"oldText": "return 9", "newText": "x"},
			"", src, []string{`oldText not found in f.go; read the file first (read("f.go"))`}},
		{"whitespace differs", src, map[string]any{"oldText": "    return 1", "newText": "x"},
			"", src, []string{"oldText not found in f.go", "including whitespace and indentation"}},
		{"crlf hint", "a\r\nb\r\n", map[string]any{"oldText": "a\nb", "newText": "c"},
			"", "a\r\nb\r\n", []string{`Windows (\r\n) line endings`}},
		{"empty oldText", src, map[string]any{"oldText": "", "newText": "x"},
			"", src, []string{"oldText is empty", `write("f.go", content)`}},
		{"identical", src, map[string]any{"oldText": "return 1", "newText": "return 1"},
			"", src, []string{"identical"}},
		{"binary", "a\x00b", map[string]any{"oldText": "a", "newText": "c"},
			"", "a\x00b", []string{"binary"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"f.go": tt.file})
			tt.params["path"] = "f.go"
			got, err := e.call(t, "edit", tt.params)
			check(t, got, err, tt.want, tt.wantErr...)
			if c := e.readFile(t, "f.go"); c != tt.wantFile {
				t.Fatalf("file holds %q, want %q", c, tt.wantFile)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		e := newEnv(t, nil)
		_, err := e.call(t, "edit", map[string]any{"path": "src/x.ts", "oldText": "a", "newText": "b"})
		check(t, "", err, "", `edit: file "src/x.ts" not found; use write("src/x.ts", content) to create it, or find("**/x.ts") to locate it`)
	})
	t.Run("keeps mode", func(t *testing.T) {
		e := newEnv(t, map[string]string{"run.sh": "echo a\n"})
		p := filepath.Join(e.root, "run.sh")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := e.call(t, "edit", map[string]any{"path": "run.sh", "oldText": "a", "newText": "b"}); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o755 {
			t.Fatalf("mode changed to %v", fi.Mode())
		}
	})
	t.Run("through symlink inside root", func(t *testing.T) {
		e := newEnv(t, map[string]string{"real.txt": "abc"})
		e.symlink(t, "real.txt", "link.txt")
		got, err := e.call(t, "edit", map[string]any{"path": "link.txt", "oldText": "b", "newText": "B"})
		check(t, got, err, "replaced 1 occurrence in link.txt")
		if c := e.readFile(t, "real.txt"); c != "aBc" {
			t.Fatalf("real.txt holds %q", c)
		}
	})
}
