package promptgen

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// nestedSchema exercises every kind of nesting the transforms must follow.
const nestedSchema = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "default": {"additionalProperties": true}},
		"additionalProperties": {"type": "string", "description": "a property with an awkward name"},
		"options": {
			"type": "object",
			"properties": {
				"depth": {"type": "integer"},
				"filter": {
					"type": "object",
					"properties": {"glob": {"type": "string"}},
					"additionalProperties": true
				}
			},
			"required": ["depth"]
		},
		"list": {
			"type": "array",
			"items": {
				"type": "object",
				"properties": {"id": {"type": "number"}, "tag": {"type": "string"}},
				"additionalProperties": false
			}
		},
		"either": {
			"anyOf": [
				{"type": "string"},
				{"type": ["object", "null"], "properties": {"x": {"type": "number"}}}
			]
		},
		"env": {"type": "object", "additionalProperties": {"type": "string"}},
		"ref": {"$ref": "#/$defs/point"},
		"enumObj": {"enum": [{"k": 1}]}
	},
	"required": ["name"],
	"$defs": {
		"point": {"properties": {"y": {"type": "number"}, "x": {"type": "number"}}}
	}
}`

const nestedOpenAI = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "default": {"additionalProperties": true}},
		"additionalProperties": {"type": "string", "description": "a property with an awkward name"},
		"options": {
			"type": "object",
			"properties": {
				"depth": {"type": "integer"},
				"filter": {
					"type": "object",
					"properties": {"glob": {"type": "string"}},
					"additionalProperties": false,
					"required": ["glob"]
				}
			},
			"required": ["depth", "filter"],
			"additionalProperties": false
		},
		"list": {
			"type": "array",
			"items": {
				"type": "object",
				"properties": {"id": {"type": "number"}, "tag": {"type": "string"}},
				"additionalProperties": false,
				"required": ["id", "tag"]
			}
		},
		"either": {
			"anyOf": [
				{"type": "string"},
				{"type": ["object", "null"], "properties": {"x": {"type": "number"}}, "additionalProperties": false, "required": ["x"]}
			]
		},
		"env": {"type": "object", "additionalProperties": false},
		"ref": {"$ref": "#/$defs/point"},
		"enumObj": {"enum": [{"k": 1}]}
	},
	"required": ["name", "additionalProperties", "either", "enumObj", "env", "list", "options", "ref"],
	"additionalProperties": false,
	"$defs": {
		"point": {"properties": {"y": {"type": "number"}, "x": {"type": "number"}}, "additionalProperties": false, "required": ["x", "y"]}
	}
}`

const nestedGoogle = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "default": {"additionalProperties": true}},
		"additionalProperties": {"type": "string", "description": "a property with an awkward name"},
		"options": {
			"type": "object",
			"properties": {
				"depth": {"type": "integer"},
				"filter": {
					"type": "object",
					"properties": {"glob": {"type": "string"}}
				}
			},
			"required": ["depth"]
		},
		"list": {
			"type": "array",
			"items": {
				"type": "object",
				"properties": {"id": {"type": "number"}, "tag": {"type": "string"}}
			}
		},
		"either": {
			"anyOf": [
				{"type": "string"},
				{"type": ["object", "null"], "properties": {"x": {"type": "number"}}}
			]
		},
		"env": {"type": "object"},
		"ref": {"$ref": "#/$defs/point"},
		"enumObj": {"enum": [{"k": 1}]}
	},
	"required": ["name"],
	"$defs": {
		"point": {"properties": {"y": {"type": "number"}, "x": {"type": "number"}}}
	}
}`

func TestSchemaTransforms(t *testing.T) {
	tests := []struct {
		name string
		fn   func(map[string]any) map[string]any
		in   string
		want string
	}{
		{"openai nested", ForOpenAI, nestedSchema, nestedOpenAI},
		{"google nested", ForGoogle, nestedSchema, nestedGoogle},
		{"openai empty object", ForOpenAI, `{"type":"object","properties":{}}`, `{"type":"object","properties":{},"additionalProperties":false}`},
		{"openai not an object", ForOpenAI, `{"type":"string"}`, `{"type":"string"}`},
		{"openai tuple items", ForOpenAI,
			`{"type":"array","items":[{"type":"object","properties":{"a":{}}}],"prefixItems":[{"properties":{"b":{}}}]}`,
			`{"type":"array","items":[{"type":"object","properties":{"a":{}},"additionalProperties":false,"required":["a"]}],"prefixItems":[{"properties":{"b":{}},"additionalProperties":false,"required":["b"]}]}`},
		{"openai oneOf allOf not", ForOpenAI,
			`{"oneOf":[{"type":"object"}],"allOf":[{"type":"object","properties":{"q":{}}}],"not":{"type":"object"}}`,
			`{"oneOf":[{"type":"object","additionalProperties":false}],"allOf":[{"type":"object","properties":{"q":{}},"additionalProperties":false,"required":["q"]}],"not":{"type":"object","additionalProperties":false}}`},
		{"openai keeps required order and extras", ForOpenAI,
			`{"type":"object","properties":{"b":{},"a":{},"c":{}},"required":["c","zz","c"]}`,
			`{"type":"object","properties":{"b":{},"a":{},"c":{}},"required":["c","zz","a","b"],"additionalProperties":false}`},
		{"google items anyOf", ForGoogle,
			`{"type":"array","additionalProperties":false,"items":{"anyOf":[{"type":"object","additionalProperties":{"type":"string"}}]}}`,
			`{"type":"array","items":{"anyOf":[{"type":"object"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := registry.MustParseSchema(tt.in)
			got := tt.fn(in)
			if want := registry.MustParseSchema(tt.want); !reflect.DeepEqual(normalize(t, got), want) {
				g, _ := json.MarshalIndent(got, "", "  ")
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
			if !reflect.DeepEqual(in, registry.MustParseSchema(tt.in)) {
				t.Error("input schema was modified")
			}
		})
	}
}

// normalize round-trips v through JSON so Go types compare like decoded JSON.
func normalize(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return registry.MustParseSchema(string(b))
}

func TestSchemaTransformsNil(t *testing.T) {
	if ForOpenAI(nil) != nil || ForGoogle(nil) != nil {
		t.Error("nil schema should give nil")
	}
}

// TestSchemaTransformsGoTypes checks schemas built in Go with typed maps and
// slices are followed, and that the result shares nothing with the input.
func TestSchemaTransformsGoTypes(t *testing.T) {
	build := func() map[string]any {
		return map[string]any{
			"type": "object",
			"properties": map[string]map[string]any{
				"inner": {
					"type":                 "object",
					"properties":           map[string]any{"k": map[string]any{"type": "string"}},
					"additionalProperties": true,
				},
			},
			"required": []string{"inner"},
			"raw":      []byte("x"),
		}
	}
	in := build()
	got := ForOpenAI(in)
	if !reflect.DeepEqual(in, build()) {
		t.Fatal("input modified")
	}
	inner := got["properties"].(map[string]any)["inner"].(map[string]any)
	if inner["additionalProperties"] != false || !reflect.DeepEqual(inner["required"], []any{"k"}) {
		t.Errorf("typed nested schema not adapted: %v", inner)
	}
	if !reflect.DeepEqual(got["required"], []any{"inner"}) {
		t.Errorf("required = %v", got["required"])
	}
	// Changing the result must not reach the input.
	inner["type"] = "changed"
	got["raw"].([]byte)[0] = 'y'
	if !reflect.DeepEqual(in, build()) {
		t.Error("result shares memory with the input")
	}

	in = build()
	g := ForGoogle(in)
	if _, ok := g["properties"].(map[string]any)["inner"].(map[string]any)["additionalProperties"]; ok {
		t.Error("google: nested additionalProperties kept")
	}
	if !reflect.DeepEqual(in, build()) {
		t.Error("google: input modified")
	}
}
