package main

import (
	"reflect"
	"strings"
	"testing"
)

// TestSplitSnippets checks how piped repl input is cut into snippets.
func TestSplitSnippets(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"one", "a\nb\n", []string{"a\nb\n"}},
		{"separated", "a\n---\nb", []string{"a\n", "b\n"}},
		{"CRLF separator", "a\r\n---\r\nb\r\n", []string{"a\n", "b\n"}},
		{"blank snippets dropped", "---\n\n---\n  \n---\na\n---\n", []string{"a\n"}},
		{"not a separator", "x = 1 ---\n --- \n----\n", []string{"x = 1 ---\n --- \n----\n"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitSnippets(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("splitSnippets(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestIncomplete checks when a terminal reads on for the rest of a
// statement.
func TestIncomplete(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"const a = 1\n", false},
		{"function f() {\n", true},
		{"const o = {\n  a: 1,\n", true},
		{"call(1,\n", true},
		{"const s = `line one\n", true},
		{"/* a comment\n", true},
		{"const a = ;\n", false}, // a syntax error, not an unfinished statement
		{"}\n", false},
		{"const s = 'open string\n", false},
		{"const t: number = await x(\n", true},
	}
	for _, tt := range tests {
		if got := incomplete(tt.src); got != tt.want {
			t.Errorf("incomplete(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
