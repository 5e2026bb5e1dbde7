package registry

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// jsonTextCases are texts for decodeObject: ones it decodes and ones it
// leaves to encoding/json, valid or not.
var jsonTextCases = []string{
	`{}`, ` { } `, `{"a":1}`, "{\"a\" :\t[1, -2.5e3, 0, -0, 1E+2, 0.125, true, false, null, \"x\"]\n}",
	`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`,
	`{"a":{"b":{"c":[[],{}]}}}`, `{"a":1,"a":2}`, `{"a":{"x":1},"a":{"y":2}}`,
	`{"s":"q\"\\\/\b\f\n\r\t end"}`, `{"s":"ü €"}`, `{"\n":"k"}`,
	`{"s":"\u00fc"}`, `{"s":"\ud83d\ude00"}`, "{\"s\":\"\xff\"}", "{\"s\":\"a\x01\"}", `{"s":"\x"}`,
	`{"a":1,}`, `[1]`, `null`, `1`, `"s"`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`,
	`{"a":1e999}`, `{"a":tru}`, `{"a":truex}`, `{"a" 1}`, `{a:1}`, `{"a":1} x`, `{"a":[1,]}`, `{"a":[1 2]}`,
	`{"a":"unterminated}`, `{"a":1`, `{`, ``, ` `, `{"a":NaN}`, `{"a":+1}`,
}

// TestDecodeObject holds decodeObject to encoding/json: what it decodes,
// encoding/json decodes to the same value.
func TestDecodeObject(t *testing.T) {
	decoded := 0
	for _, text := range jsonTextCases {
		if checkDecodeObject(t, text) {
			decoded++
		}
	}
	if decoded < 10 {
		t.Errorf("decodeObject decoded %d of the cases, want the plain ones (at least 10)", decoded)
	}
	// Nesting past jsonMaxDepth is left to encoding/json.
	deep := `{"a":` + strings.Repeat("[", jsonMaxDepth+5) + strings.Repeat("]", jsonMaxDepth+5) + `}`
	if _, ok := decodeObject(deep); ok {
		t.Error("decodeObject decoded text nested past jsonMaxDepth")
	}
}

// checkDecodeObject reports whether decodeObject decoded text, failing t
// if it did and encoding/json decodes text otherwise, or refuses it.
func checkDecodeObject(t *testing.T, text string) bool {
	t.Helper()
	got, ok := decodeObject(text)
	if !ok {
		return false
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Errorf("decodeObject(%q) = %v; encoding/json refuses it: %v", text, got, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeObject(%q) = %#v, encoding/json gives %#v", text, got, want)
	}
	return true
}

// FuzzDecodeObject holds decodeObject to encoding/json on any text.
func FuzzDecodeObject(f *testing.F) {
	for _, text := range jsonTextCases {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkDecodeObject(t, text)
	})
}
