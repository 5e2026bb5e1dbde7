package registry

import (
	"encoding/json"
	"testing"
)

// FuzzCompileSchema compiles arbitrary JSON as a parameters schema and, when
// it compiles, validates a few params against it: neither may panic or
// hang, whatever a tool (or an executable tool's --schema output) declares.
// A schema compileSchema accepts must also give its full validator, which
// it builds only on first use for the simple ones.
func FuzzCompileSchema(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
		`{"type":"object","properties":{"mode":{"type":"string","enum":["a","b"]},"n":{"type":"integer"}},"additionalProperties":true}`,
		`{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}}}`,
		`{"type":"object","properties":{"n":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]}},"additionalProperties":{"type":"string"}}`,
		`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":1,"exclusiveMinimum":true}}}`,
		`{"type":"object","patternProperties":{"^x_":{"type":"array","items":{"enum":[1,"a",null]}}},"oneOf":[{"required":["x_a"]},{"required":["x_b"]}]}`,
		`{"$id":"https://example.com/r.json","type":"object","$defs":{"a":{"$anchor":"a","type":"object","properties":{"next":{"$ref":"#a"}}}},"properties":{"root":{"$ref":"#a"}}}`,
	} {
		f.Add(seed)
	}
	params := []map[string]any{
		{},
		{"path": "a", "n": 1.0, "x": map[string]any{"next": map[string]any{}}},
		{"x_a": []any{1.0, "a", nil}, "root": map[string]any{"next": "no"}},
		{"n": "x", "extra": true, "x": []any{[]any{}}},
	}
	f.Fuzz(func(t *testing.T, text string) {
		var doc map[string]any
		if json.Unmarshal([]byte(text), &doc) != nil {
			return
		}
		v, err := compileSchema(doc)
		if err != nil {
			return
		}
		if _, err := v.full(); err != nil {
			t.Fatalf("compileSchema accepted %s, whose full validator fails: %v", text, err)
		}
		for _, p := range params {
			v.validate(p)
		}
	})
}
