package runtime

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestJSONSyntaxMessage checks node v20's messages for invalid JSON
// (expected values printed by node).
func TestJSONSyntaxMessage(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{`{"a":1}`, ""},
		{` [1, {"b": null}, "\u00e9\n", -1.5e-3] `, ""},
		{`{"a":1,}`, "Expected double-quoted property name in JSON at position 7"},
		{``, "Unexpected end of JSON input"},
		{`{"a": tru}`, `Unexpected token '}', "{"a": tru}" is not valid JSON`},
		{`[1, 2`, "Expected ',' or ']' after array element in JSON at position 5"},
		{`{"a" 1}`, "Expected ':' after property name in JSON at position 5"},
		{`{"a":1,"b" 2}`, "Unexpected number in JSON at position 11"},
		{`{"a":1,"b" "c"}`, "Unexpected string in JSON at position 11"},
		{`{a:1}`, "Expected property name or '}' in JSON at position 1"},
		{`{"a":1 "b":2}`, "Expected ',' or '}' after property value in JSON at position 7"},
		{`"abc`, "Unterminated string in JSON at position 4"},
		{"\"a\tb\"", "Bad control character in string literal in JSON at position 2"},
		{`"\x"`, "Bad escaped character in JSON at position 2"},
		{`"\u12g4"`, "Bad Unicode escape in JSON at position 5"},
		{`"\`, "Unexpected end of JSON input"},
		{`-a`, "No number after minus sign in JSON at position 1"},
		{`1.e5`, "Unterminated fractional number in JSON at position 2"},
		{`1e+`, "Exponent part is missing a number in JSON at position 3"},
		{`01`, "Unexpected number in JSON at position 1"},
		{`{"a":1}x`, "Unexpected non-whitespace character after JSON at position 7"},
		{`undefined`, `"undefined" is not valid JSON`},
		{`[object Object]`, `"[object Object]" is not valid JSON`},
		{strings.Repeat("x", 40), `Unexpected token 'x', "xxxxxxxxxx"... is not valid JSON`},
		{`{"key": "value", "list": [1, 2, 3, oops], "more": "data here"}`, `Unexpected token 'o', ..."[1, 2, 3, oops], "mo"... is not valid JSON`},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":}`, `Unexpected token '}', ...""h":8,"i":}" is not valid JSON`},
		{`[1,😀]`, "Unexpected token '\uFFFD', \"[1,😀]\" is not valid JSON"}, // the first UTF-16 unit of a pair
		{`"😀`, "Unterminated string in JSON at position 3"},                 // UTF-16 positions
	}
	for _, tt := range tests {
		if got := jsonSyntaxMessage(tt.src); got != tt.want {
			t.Errorf("jsonSyntaxMessage(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	// Nesting deeper than maxJSONNesting gets no message of its own (the
	// engine's stays); just under it, the scanner still finds the end.
	if got := jsonSyntaxMessage(strings.Repeat("[", 1_000_000)); got != "" {
		t.Errorf("a million brackets: %q", got)
	}
	if got := jsonSyntaxMessage(strings.Repeat("[", maxJSONNesting)); got != "Unexpected end of JSON input" {
		t.Errorf("%d brackets: %q", maxJSONNesting, got)
	}
}

// FuzzJSONSyntaxMessage checks that jsonSyntaxMessage finds an error
// exactly in the texts Go's encoding/json finds invalid.
func FuzzJSONSyntaxMessage(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[1,]`, `"\u00e9"`, `-0.5e+3`, `{"a" 1}`, `tru`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		msg := jsonSyntaxMessage(s)
		if valid := json.Valid([]byte(s)); valid != (msg == "") {
			t.Fatalf("%q: encoding/json says valid %v, the message is %q", s, valid, msg)
		}
	})
}

func TestJSONNesting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want int
	}{
		{`1`, 0},
		{`[1, {"a": [2]}]`, 3},
		{`["[[[[", "\"[[["]`, 1}, // brackets in strings, and an escaped quote
		{`[]]]][[`, 1},           // stray closers: the engine stops at the first, never deeper
		{`{"a\\": [[1]]}`, 3},    // an escaped backslash ends before the quote
		{strings.Repeat("[", maxJSONNesting+5), maxJSONNesting + 1}, // stops counting past the limit
	}
	for _, tt := range tests {
		if got := jsonNesting(tt.s); got != tt.want {
			t.Errorf("jsonNesting(%.40q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}
