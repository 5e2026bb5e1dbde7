package tail

import (
	"strings"
	"testing"
)

func TestPrefix(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		at    Boundary
		want  string
		cut   bool
	}{
		{"abc\n", 10, AtLine, "abc\n", false},
		{"abc\ndef\nghi\n", 9, AtLine, "abc\ndef\n", true},
		{"abc\ndef\nghi\n", 8, AtLine, "abc\ndef\n", true},
		{"abc\ndef\nghi\n", 9, AtRune, "abc\ndef\ng", true},
		{"abcdefgh", 4, AtLine, "abcd", true}, // no line end: cut at a rune
		{"ab€cd", 4, AtLine, "ab", true},      // € is 3 bytes: never split a rune
		{"ab€cd", 4, AtRune, "ab", true},
		{"ab€cd", 5, AtRune, "ab€", true},
		{"", 0, AtLine, "", false},
		{"abc", 0, AtRune, "", true},
		{"abc", -1, AtRune, "", true},
	}
	for _, tt := range tests {
		got, cut := Prefix(tt.in, tt.limit, tt.at)
		if got != tt.want || cut != tt.cut {
			t.Errorf("Prefix(%q, %d, %v) = %q, %v; want %q, %v", tt.in, tt.limit, tt.at, got, cut, tt.want, tt.cut)
		}
	}
}

func TestSuffix(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		at    Boundary
		want  string
		cut   bool
	}{
		{"abc\n", 10, AtLine, "abc\n", false},
		{"abc\ndef\nghi\n", 6, AtLine, "ghi\n", true},
		{"abc\ndef\nghi", 9, AtLine, "def\nghi", true},
		{"abc\ndef\nghi", 9, AtRune, "c\ndef\nghi", true},
		{"aaaaaaaa\n", 4, AtLine, "aaa\n", true}, // only a final newline: keep the partial line
		{"abcd€", 4, AtLine, "d€", true},
		{"ab€cd", 4, AtLine, "cd", true}, // "\xac" is a continuation byte
		{"ab€cd", 4, AtRune, "cd", true},
		{strings.Repeat("x", 10), 3, AtLine, "xxx", true},
		{"abc", 0, AtRune, "", true},
	}
	for _, tt := range tests {
		got, cut := Suffix(tt.in, tt.limit, tt.at)
		if got != tt.want || cut != tt.cut {
			t.Errorf("Suffix(%q, %d, %v) = %q, %v; want %q, %v", tt.in, tt.limit, tt.at, got, cut, tt.want, tt.cut)
		}
	}
}

func TestBufferText(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		writes []string
		at     Boundary
		want   string
		cut    bool
	}{
		{"uncut", 8, []string{"short"}, AtLine, "short", false},
		{"from a line start", 8, []string{"line1\nline2\nline3\n"}, AtLine, "line3\n", true},
		{"from a rune start", 4, []string{"ab€cd"}, AtRune, "cd", true},
		{"across writes", 6, []string{"ab\nc", "d\nef"}, AtLine, "cd\nef", true},
	}
	for _, tt := range tests {
		b := New(tt.max)
		for _, w := range tt.writes {
			b.Write([]byte(w))
		}
		if got, cut := b.Text(tt.at); got != tt.want || cut != tt.cut {
			t.Errorf("%s: Text = %q, %v; want %q, %v", tt.name, got, cut, tt.want, tt.cut)
		}
	}
}

func TestHeadText(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		writes []string
		at     Boundary
		want   string
		cut    bool
	}{
		{"uncut", 8, []string{"short\n"}, AtLine, "short\n", false},
		{"to a line end", 9, []string{"abc\ndef\n", "ghi\n"}, AtLine, "abc\ndef\n", true},
		{"to a rune end", 4, []string{"ab€cd"}, AtRune, "ab", true},
		{"a long first line", 4, []string{"abcdefgh\n"}, AtLine, "abcd", true},
	}
	for _, tt := range tests {
		h := NewHead(tt.max, nil)
		for _, w := range tt.writes {
			h.Write([]byte(w))
		}
		if got, cut := h.Text(tt.at); got != tt.want || cut != tt.cut {
			t.Errorf("%s: Text = %q, %v; want %q, %v", tt.name, got, cut, tt.want, tt.cut)
		}
	}
}

func TestLines(t *testing.T) {
	l := NewLines(7)
	if !l.Add("abc") || !l.Add("def") { // "abc\ndef" is 7 bytes
		t.Fatal("lines that fit were refused")
	}
	if l.Add("g") {
		t.Fatal("line past the budget was kept")
	}
	if l.Add("") {
		t.Fatal("a line after a refused one was kept")
	}
	if got := l.String(); got != "abc\ndef" || l.Len() != 2 {
		t.Fatalf("String() = %q, Len() = %d", got, l.Len())
	}
	l = NewLines(5)
	if l.Add("--", "abcd") || l.Len() != 0 {
		t.Fatal("a group that does not fit must be refused whole")
	}
	if l = NewLines(0); !l.Add("") || l.Add("") || l.String() != "" {
		t.Fatal("an empty first line fits in no bytes; a second needs its newline")
	}
}
