package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReplaceSection(t *testing.T) {
	const s, e = startMarker, endMarker
	for _, tc := range []struct {
		name, doc, body, want, err string
	}{
		{name: "replaces", doc: "intro\n" + s + "\nold\nlines\n" + e + "\nafter\n", body: "new\n",
			want: "intro\n" + s + "\nnew\n" + e + "\nafter\n"},
		{name: "adds the body's last newline", doc: s + "\n" + e + "\n", body: "new",
			want: s + "\nnew\n" + e + "\n"},
		{name: "an empty section", doc: "a\n" + s + "\n" + e + "\nb", body: "t\n",
			want: "a\n" + s + "\nt\n" + e + "\nb"},
		{name: "empty body empties it", doc: s + "\nold\n" + e + "\n", body: "",
			want: s + "\n" + e + "\n"},
		{name: "no markers", doc: "a table\n", body: "x", err: "no "},
		{name: "only one", doc: s + "\nold\n", body: "x", err: "no "},
		{name: "reversed", doc: e + "\nold\n" + s + "\n", body: "x", err: "comes before"},
		{name: "twice", doc: s + "\n" + e + "\n" + s + "\n" + e + "\n", body: "x", err: "more than once"},
		{name: "one line", doc: s + " " + e + "\n", body: "x", err: "no "},
		{name: "a marker inside a line is not one", doc: "see `" + s + "`\n" + s + "\nold\n" + e + "\n", body: "new\n",
			want: "see `" + s + "`\n" + s + "\nnew\n" + e + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := replaceSection(tc.doc, tc.body)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("replaceSection = %q, %v; want an error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("replaceSection = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestPerformancePage checks that docs/performance.md has the markers
// make bench-node writes between, around the table.
func TestPerformancePage(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "performance.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), startMarker+"\n")
	j := strings.Index(string(doc), "\n"+endMarker)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %s and %s lines", path, startMarker, endMarker)
	}
	section := string(doc)[i+len(startMarker)+1 : j+1]
	if !strings.Contains(section, "| figure | codeexec | peer | peer's figure | ratio | goal | met |") {
		t.Errorf("the section between the markers holds no bench-node table:\n%s", section)
	}
	if again, err := replaceSection(string(doc), section); err != nil || again != string(doc) {
		t.Errorf("writing the section back changes the page: %v", err)
	}
}

func TestWriteSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "perf.md")
	doc := "# Performance\n\nprose\n\n" + startMarker + "\nold\n" + endMarker + "\n\nmore prose\n"
	if err := os.WriteFile(path, []byte(doc), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, ""); err != errDryRun {
		t.Fatalf("the dry run: %v, want errDryRun", err)
	}
	if err := writeSection(path, "new\n"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(doc, "\nold\n", "\nnew\n", 1); string(got) != want {
		t.Errorf("the file is\n%s\nwant\n%s", got, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640 kept", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the file alone (no temporary left)", len(entries))
	}
	if err := writeSection(filepath.Join(t.TempDir(), "none.md"), "x"); err == nil {
		t.Error("writing into a missing file succeeded")
	}
}

func TestTable(t *testing.T) {
	b := &bench{rounds: 5}
	b.add(row{figure: "a figure", peer: "node vm", ce: "1.0 µs", other: "2.0 µs", ratio: 0.5, goal: "≤ 1.5", met: true})
	b.add(row{figure: "a floor", ce: "3.0 µs", goal: noGoal.text})
	b.add(row{figure: "missed", peer: "in process", ce: "2.0 µs", other: "1.0 µs", ratio: 2, goal: "≤ 1.5"})
	b.notes = append(b.notes, "isolated-vm skipped: why")
	m := machine{when: time.Date(2026, 11, 24, 6, 52, 0, 0, time.UTC), cpus: 2, goos: "linux", goarch: "amd64", loadavg: "0.05", node: "v20.20.2"}
	got := b.table(m, commandLine([]string{"-codeexec", "bin/codeexec", "-write", "docs/performance.md", "-x", "it's"}))
	want := "Measured 2026-11-24 06:52 UTC by `go run ./bench/nodecompare -codeexec bin/codeexec -write docs/performance.md -x 'it'\\''s'` " +
		"(5 alternating rounds a figure, node v20.20.2) on linux/amd64 with 2 CPUs, load average 0.05 at the start:\n\n" +
		"| figure | codeexec | peer | peer's figure | ratio | goal | met |\n" +
		"| --- | --- | --- | --- | --- | --- | --- |\n" +
		"| a figure | 1.0 µs | node vm | 2.0 µs | 0.50 | ≤ 1.5 | yes |\n" +
		"| a floor | 3.0 µs |  |  |  | (no goal) |  |\n" +
		"| missed | 2.0 µs | in process | 1.0 µs | 2.00 | ≤ 1.5 | no |\n" +
		"\nisolated-vm skipped: why\n"
	if got != want {
		t.Errorf("table =\n%s\nwant\n%s", got, want)
	}
}
