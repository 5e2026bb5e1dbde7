package main

import (
	"context"
	"go/parser"
	"go/token"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/codeexec/codeexec"
)

// TestMain lets the test binary serve as the Process isolation worker, as
// the example's main does.
func TestMain(m *testing.M) {
	codeexec.Main()
	m.Run()
}

// TestEmbed runs the example and checks what it prints in both modes.
func TestEmbed(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("Process isolation runs on Linux only")
	}
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	const each = `counted 3 and 2
Return value: 5
trace: call_1 word_count(map[text:one two three]) error=false
trace: call_2 word_count(map[text:four five]) error=false
`
	if want := "== isolation none\n" + each + "== isolation process\n" + each; out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestFrontDoor checks that the example needs at most four packages
// beyond the standard library: the front door is small.
func TestFrontDoor(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var outside []string
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			outside = append(outside, path)
		}
	}
	if len(outside) > 4 {
		t.Errorf("the example imports %d packages beyond the standard library, want at most 4: %v", len(outside), outside)
	}
}
