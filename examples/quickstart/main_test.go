package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestRun runs the quick start in process and checks what it prints.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	const want = "counted 4\nReturn value: { words: 4, double: 8 }\n"
	if out.String() != want {
		t.Errorf("the quick start printed\n%q\nwant\n%q", out.String(), want)
	}
}

// TestREADMEShowsThisFile checks that the README's library quick start is
// this directory's main.go, byte for byte, in a go code fence: the README
// shows a program that compiles and that TestRun runs.
func TestREADMEShowsThisFile(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	fenced := "```go\n" + string(src) + "```\n"
	if !strings.Contains(string(readme), fenced) {
		t.Errorf("README.md does not show examples/quickstart/main.go verbatim in a ```go fence; paste the file's text between \"```go\" and \"```\"")
	}
}
