package registry

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestShapeOf(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"empty object", `{"type":"object"}`, "object"},
		{"object with empty properties", `{"type":"object","properties":{}}`, "object"},
		{"required first, each group sorted",
			`{"type":"object","properties":{"z":{"type":"string"},"b":{"type":"number"},"y":{"type":"boolean"},"a":{"type":"integer"}},"required":["z","b"]}`,
			"{b: number, z: string, a?: integer, y?: boolean}"},
		{"all optional", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}`, "{a?: string, b?: string}"},
		{"enum", `{"enum":["a",1,null,true]}`, `"a" | 1 | null | true`},
		{"enum wins over type", `{"type":"string","enum":["x","y"]}`, `"x" | "y"`},
		{"const-free scalar", `{"type":"integer","minimum":3}`, "integer"},
		{"type list", `{"type":["string","null"]}`, "string | null"},
		{"array with items", `{"type":"array","items":{"type":"number"}}`, "array of number"},
		{"array of objects", `{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}`, "array of {id: integer}"},
		{"array without items", `{"type":"array"}`, "array"},
		{"no type", `{"description":"anything"}`, "any"},
		{"property without schema object", `{"type":"object","properties":{"a":true}}`, "{a?: any}"},
		{"required names a missing property", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}`, "{a: string}"},
		{"nesting is bounded",
			`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"object","properties":{"e":{"type":"string"}}}}}}}}}}}`,
			"{a?: {b?: {c?: {d?: …}}}}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s map[string]any
			if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
				t.Fatal(err)
			}
			if got := shapeOf(s, 0); got != tc.want {
				t.Errorf("shapeOf(%s) = %q, want %q", tc.schema, got, tc.want)
			}
		})
	}
}

func TestCompileSchemaRefusesUndeclaredOnACopy(t *testing.T) {
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"a": map[string]any{"type": "string"}},
	}
	v, err := compileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	if _, has := schema["additionalProperties"]; has {
		t.Errorf("compileSchema added additionalProperties to the caller's map: %v", schema)
	}
	if _, has := schema["unevaluatedProperties"]; has {
		t.Errorf("compileSchema added unevaluatedProperties to the caller's map: %v", schema)
	}
	if msg := v.validate(map[string]any{"a": "x", "b": "y"}); !strings.Contains(msg, "'b'") {
		t.Errorf("undeclared property accepted: %q", msg)
	}
	// The compiled validator does not follow later edits of the caller's map.
	schema["additionalProperties"] = true
	schema["properties"].(map[string]any)["a"] = map[string]any{"type": "number"}
	if msg := v.validate(map[string]any{"a": "x"}); msg != "" {
		t.Errorf("validator changed after the caller edited the schema: %q", msg)
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema map[string]any
		want   string
	}{
		{"nil", nil, "parameters schema is missing"},
		{"array type", map[string]any{"type": "array"}, `got "array"`},
		{"type list", map[string]any{"type": []any{"object", "null"}}, `got ["object","null"]`},
		{"bad type name", map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "strnig"}}}, "parameters schema is invalid"},
		{"properties not an object", map[string]any{"type": "object", "properties": "a"}, "parameters schema is invalid"},
		{"bad additionalProperties", map[string]any{"type": "object", "additionalProperties": "no"}, "parameters schema is invalid"},
		{"unresolvable $ref", map[string]any{"type": "object", "$ref": "#/$defs/missing"}, "parameters schema"},
		{"NaN in schema", map[string]any{"type": "object", "maximum": math.NaN()}, "not JSON"},
		{"channel in schema", map[string]any{"type": "object", "default": make(chan int)}, "not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := compileSchema(tc.schema)
			if err == nil {
				t.Fatalf("compileSchema(%v) = %v, nil; want an error", tc.schema, v)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestValidateMessages(t *testing.T) {
	v, err := compileSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a": map[string]any{"type": "string"},
			"n": map[string]any{"type": "integer"},
			"l": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"required": []any{"a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	const shape = "expected {a: string, l?: array of string, n?: integer}"
	tests := []struct {
		name   string
		params map[string]any
		want   string // exact message; "" means valid
	}{
		{"valid", map[string]any{"a": "x"}, ""},
		{"valid json.Number integer", map[string]any{"a": "x", "n": json.Number("12")}, ""},
		{"json.Number fraction", map[string]any{"a": "x", "n": json.Number("1.5")}, "params.n: got number, want integer; " + shape},
		{"one problem", map[string]any{"a": 1.0}, "params.a: got number, want string; " + shape},
		{"problems sorted by path", map[string]any{"n": "x", "a": true},
			"params.a: got boolean, want string; params.n: got string, want integer; " + shape},
		{"array items", map[string]any{"a": "x", "l": []any{"ok", 2.0, false}},
			"params.l.1: got number, want string; params.l.2: got boolean, want string; " + shape},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := v.validate(tc.params); got != tc.want {
				t.Errorf("validate(%v) =\n %q\nwant\n %q", tc.params, got, tc.want)
			}
		})
	}
}

// Go callers (builtin tools calling tools, the bindings) may pass values that
// are JSON-able but not the types encoding/json decodes into. validate must
// not panic on them and must say which value is the problem.
func TestValidateNonJSONGoValues(t *testing.T) {
	v, err := compileSchema(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"l": map[string]any{"type": "array"},
			"f": map[string]any{"type": "number"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		params map[string]any
		path   string
	}{
		{"[]string", map[string]any{"l": []string{"a"}}, "params.l: "},
		{"NaN", map[string]any{"f": math.NaN()}, "params.f: "},
		{"struct", map[string]any{"f": struct{ X int }{1}}, "params.f: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var msg string
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("validate(%v) panicked: %v", tc.params, p)
					}
				}()
				msg = v.validate(tc.params)
			}()
			if msg == "" {
				t.Fatalf("validate(%#v) accepted a non-JSON value", tc.params)
			}
			if !strings.HasPrefix(msg, tc.path) {
				t.Errorf("validate(%#v) = %q, want it to start with %q", tc.params, msg, tc.path)
			}
		})
	}
}

func TestJSONText(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{"s", `"s"`},
		{[]any{"a", 1.0}, `["a",1]`},
		{math.Inf(1), "+Inf"}, // not JSON: falls back to fmt
	}
	for _, tc := range tests {
		if got := jsonText(tc.in); got != tc.want {
			t.Errorf("jsonText(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// parseSchema decodes a schema written as JSON text.
func parseSchema(t *testing.T, text string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// mustCompile compiles a schema written as JSON text.
func mustCompile(t *testing.T, text string) *validator {
	t.Helper()
	v, err := compileSchema(parseSchema(t, text))
	if err != nil {
		t.Fatalf("compileSchema: %v", err)
	}
	return v
}

// fullValid is the verdict of the compiled JSON Schema alone, without the
// quick path.
func fullValid(v *validator, params map[string]any) bool {
	return v.problems(params).empty()
}

// quickPathSchemas are schemas simple enough for the quick path.
var quickPathSchemas = map[string]string{
	"typed": `{"type":"object","properties":{
		"s":{"type":"string","description":"d"},
		"i":{"type":"integer"},
		"n":{"type":"number","default":1},
		"b":{"type":"boolean"},
		"z":{"type":"null"},
		"e":{"type":"string","enum":["x","y"]},
		"en":{"enum":[1,"one",true,null]},
		"any":{"description":"no type"}
	},"required":["s"]}`,
	"additional true": `{"type":"object","properties":{"s":{"type":"string"}},"additionalProperties":true}`,
	"draft-07":        `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"s":{"type":"string"},"i":{"type":"integer"}},"required":["s"]}`,
	// Bounds at the values below, as the built-in tools' schemas have them.
	"bounded": `{"type":"object","properties":{
		"i":{"type":"integer","minimum":1},
		"n":{"type":"number","exclusiveMinimum":0,"maximum":2.5},
		"m":{"type":"number","minimum":-3,"exclusiveMaximum":1e15},
		"s":{"type":"string","minLength":1,"maxLength":3},
		"t":{"type":"string","maxLength":0},
		"u":{"type":"string","minLength":3},
		"e":{"type":"integer","enum":[1,7],"maximum":5},
		"big":{"type":"integer","maximum":9007199254740992}
	},"additionalProperties":false}`,
	"draft-07 bounded": `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"i":{"type":"integer","minimum":0,"maximum":8}}}`,
	"draft-04 bounded": `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":1,"exclusiveMinimum":true,"maximum":2.5}}}`,
}

// checkQuickPath sets each property (and an undeclared one) of every quick
// path schema to each value in turn and checks that the quick check never
// accepts params the full validator refuses, and that validate as a whole
// agrees with the full validator. The quick check may say "not sure"
// (false) for valid params.
func checkQuickPath(t *testing.T, values []any) {
	t.Helper()
	for sname, text := range quickPathSchemas {
		var doc map[string]any
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		v, err := compileSchema(doc)
		if err != nil {
			t.Fatalf("%s: %v", sname, err)
		}
		if v.simple == nil {
			t.Fatalf("%s: schema not simplified; this test would not exercise the quick path", sname)
		}
		props, _ := doc["properties"].(map[string]any)
		keys := append(slices.Sorted(maps.Keys(props)), "undeclared")
		base := map[string]any{}
		if req, ok := doc["required"].([]any); ok {
			for _, r := range req {
				base[r.(string)] = "str"
			}
		}
		quickAccepted := 0
		check := func(params map[string]any) {
			t.Helper()
			full := fullValid(v, params)
			quick := v.simple.quickValid(params)
			if quick {
				quickAccepted++
			}
			if quick && !full {
				t.Errorf("%s: quick path accepts %#v, which the full validator refuses", sname, params)
			}
			if got := v.validate(params) == ""; got != full {
				t.Errorf("%s: validate(%#v) valid=%v, full validator says %v", sname, params, got, full)
			}
		}
		check(map[string]any{})
		check(maps.Clone(base))
		for _, k := range keys {
			for _, val := range values {
				p := maps.Clone(base)
				p[k] = val
				check(p)
			}
		}
		if quickAccepted == 0 {
			t.Errorf("%s: the quick path accepted nothing; it is not being exercised", sname)
		}
	}
}

// TestQuickPathAgreesWithFullValidator covers the values encoding/json
// decodes into, and the Go numbers callers commonly pass.
func TestQuickPathAgreesWithFullValidator(t *testing.T) {
	checkQuickPath(t, []any{
		"str", "", "x", "y", "one", "four", "éé", "ééé", "éééé", "\xff\xfe\xfd", true, false, nil,
		0.0, 1.0, -3.0, 2.5, 1e15, 1e300, -0.5, 2.5000000000000004, math.SmallestNonzeroFloat64, -3.0000000000000004,
		0, 1, -7, 7, int8(1), int16(2), int32(3), int64(4), uint(5), uint8(6), uint32(7), uint64(8), float32(1.5), float32(2), float32(2.5),
		int64(1<<53 + 1), uint64(1 << 60), int64(-1 << 62), int(1<<53 + 1),
		json.Number("1"), json.Number("1.5"), json.Number("-2"), json.Number("1e400"),
		[]any{}, []any{"a"}, map[string]any{}, map[string]any{"k": "v"},
	})
}

// TestQuickPathAgreesOnNonJSONValues covers Go values that are not JSON:
// NaN and infinities (goja exports a JS NaN as a float64 NaN), slices other
// than []any, structs. The full validator refuses them everywhere a schema
// applies; the quick path must not let them through.
func TestQuickPathAgreesOnNonJSONValues(t *testing.T) {
	checkQuickPath(t, []any{math.NaN(), math.Inf(1), math.Inf(-1), []string{"a"}, struct{}{}, json.Number("x")})
}

// Conflicting additionalProperties/unevaluatedProperties: additionalProperties
// false refuses undeclared properties whatever unevaluatedProperties says. The
// verdict must not depend on Go's map iteration order, so compile many times.
func TestQuickPathConflictingAdditionalKeywords(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		valid  bool
	}{
		{"additional false, unevaluated true",
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false,"unevaluatedProperties":true}`, false},
		{"additional true, unevaluated false",
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true,"unevaluatedProperties":false}`, true},
	}
	params := map[string]any{"a": "x", "extra": 1.0}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(tc.schema), &doc); err != nil {
				t.Fatal(err)
			}
			var wrong int
			const runs = 64
			for range runs {
				v, err := compileSchema(doc)
				if err != nil {
					t.Fatal(err)
				}
				if full := fullValid(v, params); full != tc.valid {
					t.Fatalf("full validator says valid=%v, test expects %v", full, tc.valid)
				}
				if got := v.validate(params) == ""; got != tc.valid {
					wrong++
				}
			}
			if wrong > 0 {
				t.Errorf("validate(%v) gave the wrong verdict in %d of %d compilations (want valid=%v)", params, wrong, runs, tc.valid)
			}
		})
	}
}

func TestRefuseUndeclaredByDraft(t *testing.T) {
	const d7 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	const d4 = `"$schema":"http://json-schema.org/draft-04/schema#",`
	const d2019 = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
	tests := []struct {
		name   string
		schema string
		params map[string]any
		want   string // "" valid, else a substring of the message
	}{
		{"draft-07 refuses undeclared", `{` + d7 + `"type":"object","properties":{"a":{"type":"string"}}}`,
			map[string]any{"b": 1.0}, "params: additional properties 'b' not allowed"},
		{"draft-04 refuses undeclared", `{` + d4 + `"type":"object","properties":{"a":{"type":"string"}}}`,
			map[string]any{"b": 1.0}, "'b'"},
		{"2019-09 refuses undeclared", `{` + d2019 + `"type":"object","properties":{"a":{"type":"string"}}}`,
			map[string]any{"b": 1.0}, "params: additional properties 'b' not allowed"},
		{"2019-09 allOf declares", `{` + d2019 + `"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			map[string]any{"a": "x"}, ""},
		{"2019-09 allOf does not declare others", `{` + d2019 + `"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			map[string]any{"a": "x", "b": 1.0}, "'b'"},
		{"default draft $ref declares", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
			map[string]any{"a": "x"}, ""},
		{"default draft $ref does not declare others", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
			map[string]any{"a": "x", "b": 1.0}, "'b'"},
		{"several undeclared named each", `{"type":"object","properties":{"a":{}}}`,
			map[string]any{"b": 1.0, "c": 2.0}, "params: additional properties 'b' not allowed; params: additional properties 'c' not allowed"},
		// The validator honours unevaluatedProperties in draft 07 too, so
		// what allOf declares is allowed and nothing else.
		{"draft-07 allOf declares", `{` + d7 + `"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			map[string]any{"a": "x"}, ""},
		{"draft-07 allOf does not declare others", `{` + d7 + `"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			map[string]any{"a": "x", "b": 1.0}, "params: additional properties 'b' not allowed"},
		{"draft-07 if/then declares", `{` + d7 + `"type":"object","properties":{"k":{"type":"string"}},"if":{"properties":{"k":{"const":"x"}}},"then":{"properties":{"x":{"type":"number"}}}}`,
			map[string]any{"k": "x", "x": 1.0}, ""},
		{"draft-07 dependencies left as written", `{` + d7 + `"type":"object","properties":{"a":{"type":"string"}},"dependencies":{"a":{"properties":{"b":{"type":"number"}}}}}`,
			map[string]any{"a": "x", "b": 1.0, "c": true}, ""},
		{"draft-07 patternProperties accepts matching", `{` + d7 + `"type":"object","patternProperties":{"^x_":{"type":"string"}}}`,
			map[string]any{"x_a": "v"}, ""},
		// additionalProperties: false accounts for patternProperties in every
		// draft, so a draft-07 schema with patternProperties can refuse the
		// names it does not match.
		{"draft-07 patternProperties refuses others", `{` + d7 + `"type":"object","patternProperties":{"^x_":{"type":"string"}}}`,
			map[string]any{"y": "v"}, "'y'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mustCompile(t, tc.schema)
			got := v.validate(tc.params)
			switch {
			case tc.want == "" && got != "":
				t.Errorf("validate(%v) = %q, want valid", tc.params, got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("validate(%v) = %q, want it to contain %q", tc.params, got, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestSimplify pins which schemas take the quick path. Falling back is always
// correct; taking it for a schema it cannot check fully would not be.
func TestSimplify(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   *simpleSchema // nil: falls back to the full validator
	}{
		{"plain", `{"type":"object","description":"d","properties":{"a":{"type":"string","title":"A"},"e":{"enum":["x",1,true,null]}},"required":["a"],"additionalProperties":true}`,
			&simpleSchema{props: map[string]simpleProp{"a": {typ: "string"}, "e": {enum: []any{"x", 1.0, true, nil}}}, required: []string{"a"}, additional: true}},
		{"no properties", `{"type":"object"}`, &simpleSchema{props: map[string]simpleProp{}}},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, nil},
		{"array property", `{"type":"object","properties":{"a":{"type":"array"}}}`, nil},
		{"object property", `{"type":"object","properties":{"a":{"type":"object"}}}`, nil},
		{"type list property", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, nil},
		{"enum of arrays", `{"type":"object","properties":{"a":{"enum":[[1]]}}}`, nil},
		{"string length", `{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":4}}}`,
			&simpleSchema{props: map[string]simpleProp{"a": {typ: "string", minLength: ptr(1.0), maxLength: ptr(4.0)}}}},
		{"number bounds", `{"type":"object","properties":{"a":{"type":"number","minimum":-1,"maximum":3,"exclusiveMinimum":-2,"exclusiveMaximum":3.5}}}`,
			&simpleSchema{props: map[string]simpleProp{"a": {typ: "number", minimum: ptr(-1.0), maximum: ptr(3.0), exclusiveMinimum: ptr(-2.0), exclusiveMaximum: ptr(3.5)}}}},
		// The compiled draft 04 schema words its boolean exclusiveMinimum
		// as later drafts do.
		{"draft-04 boolean exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"type":"number","minimum":1,"exclusiveMinimum":true}}}`,
			&simpleSchema{props: map[string]simpleProp{"a": {typ: "number", exclusiveMinimum: ptr(1.0)}}}},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}`, nil},
		{"multipleOf", `{"type":"object","properties":{"a":{"type":"number","multipleOf":2}}}`, nil},
		{"format", `{"type":"object","properties":{"a":{"type":"string","format":"email"}}}`, nil},
		{"const", `{"type":"object","properties":{"a":{"const":"x"}}}`, nil},
		{"boolean property schema", `{"type":"object","properties":{"a":true}}`, nil},
		{"composition", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`, nil},
		{"patternProperties", `{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, nil},
		{"minProperties", `{"type":"object","minProperties":1}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mustCompile(t, tc.schema)
			got := v.simple
			if tc.want == nil {
				if got != nil {
					t.Errorf("schema %s takes the quick path (%+v); it must fall back", tc.schema, got)
				}
				return
			}
			if got == nil {
				t.Fatalf("schema %s does not take the quick path", tc.schema)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("simplify = %+v, want %+v", got, tc.want)
			}
		})
	}
	// Schemas the compiler rejects never reach simplify through compileSchema,
	// but simplify itself must not accept malformed keywords.
	for _, bad := range []map[string]any{
		{"type": "object", "required": "a"},
		{"type": "object", "required": []any{1.0}},
		{"type": "object", "properties": "a"},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"type": 1.0}}},
		{"type": "object", "additionalProperties": "no"},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"enum": "x"}}},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"minLength": 1.5}}},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"maxLength": -1.0}}},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"minimum": "1"}}},
		{"type": "object", "properties": map[string]any{"a": map[string]any{"maximum": math.Inf(1)}}},
	} {
		if s := simplify(bad); s != nil {
			t.Errorf("simplify(%v) = %+v, want nil", bad, s)
		}
	}
}

// TestExplainMessages pins the message of each keyword explain covers; the
// validator decides, explain says why.
func TestExplainMessages(t *testing.T) {
	tests := []struct {
		name, schema string
		params       map[string]any
		want         string // the problems, without the expected shape
	}{
		{"minimum", `{"type":"object","properties":{"n":{"type":"number","minimum":1}}}`, map[string]any{"n": 0.5}, "params.n: minimum: got 0.5, want 1"},
		{"exclusiveMaximum", `{"type":"object","properties":{"n":{"type":"number","exclusiveMaximum":3}}}`, map[string]any{"n": 3.0}, "params.n: exclusiveMaximum: got 3, want 3"},
		{"multipleOf", `{"type":"object","properties":{"n":{"type":"integer","multipleOf":5}}}`, map[string]any{"n": 7.0}, "params.n: multipleOf: got 7, want a multiple of 5"},
		{"maxLength counts characters", `{"type":"object","properties":{"s":{"type":"string","maxLength":2}}}`, map[string]any{"s": "héé"}, "params.s: maxLength: got 3, want 2"},
		{"pattern", `{"type":"object","properties":{"s":{"type":"string","pattern":"^[a-z]+$"}}}`, map[string]any{"s": "A1"}, "params.s: does not match the pattern '^[a-z]+$'"},
		{"maxItems", `{"type":"object","properties":{"l":{"type":"array","maxItems":1}}}`, map[string]any{"l": []any{1.0, 2.0}}, "params.l: maxItems: got 2, want 1"},
		{"uniqueItems", `{"type":"object","properties":{"l":{"type":"array","uniqueItems":true}}}`, map[string]any{"l": []any{1.0, "a", 1.0}}, "params.l: uniqueItems: items 0 and 2 are equal"},
		{"prefixItems", `{"type":"object","properties":{"l":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number"}}}}`, map[string]any{"l": []any{1.0, "x"}}, "params.l.0: got number, want string; params.l.1: got string, want number"},
		{"const", `{"type":"object","properties":{"k":{"const":"v"}}}`, map[string]any{"k": "w"}, "params.k: value must be 'v'"},
		{"enum of numbers", `{"type":"object","properties":{"k":{"enum":[1,2]}}}`, map[string]any{"k": 3.0}, "params.k: value must be one of 1, 2"},
		{"type list", `{"type":"object","properties":{"k":{"type":["string","null"]}}}`, map[string]any{"k": 1.0}, "params.k: got number, want string or null"},
		{"missing properties", `{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}`, map[string]any{}, "params: missing properties 'a', 'b'"},
		{"local $ref", `{"type":"object","properties":{"p":{"$ref":"#/$defs/point"}},"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`,
			map[string]any{"p": map[string]any{}}, "params.p: missing property 'x'"},
		{"allOf", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}},{"required":["a"]}]}`, map[string]any{"b": 1.0}, "params: additional properties 'b' not allowed; params: missing property 'a'"},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, map[string]any{"x": 1.0}, "params.x: got number, want string"},
		{"false subschema", `{"type":"object","properties":{"never":false}}`, map[string]any{"never": 1.0}, "params.never: no value is allowed here"},
		{"anyOf", `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"number"}]}}}`, map[string]any{"v": true}, "params.v: got boolean, want string | number"},
		{"oneOf fits two", `{"type":"object","properties":{"v":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`, map[string]any{"v": 1.0}, "params.v: the value fits more than one of number | integer"},
		{"not", `{"type":"object","properties":{"v":{"not":{"type":"string"}}}}`, map[string]any{"v": "s"}, "params.v: must not be string"},
		{"if then", `{"type":"object","properties":{"k":{"type":"string"},"n":{"type":"number"}},"if":{"properties":{"k":{"const":"big"}}},"then":{"properties":{"n":{"minimum":100}}}}`,
			map[string]any{"k": "big", "n": 5.0}, "params.n: minimum: got 5, want 100"},
		{"if else", `{"type":"object","properties":{"k":{"type":"string"},"n":{"type":"number"}},"if":{"properties":{"k":{"const":"big"}}},"else":{"required":["n"]}}`,
			map[string]any{"k": "small"}, "params: missing property 'n'"},
		{"contains", `{"type":"object","properties":{"l":{"type":"array","contains":{"type":"string"},"minContains":2}}}`, map[string]any{"l": []any{"a", 1.0}}, "params.l: contains: want at least 2 items that are string, found 1"},
		{"dependentRequired", `{"type":"object","properties":{"a":{},"b":{}},"dependentRequired":{"a":["b"]}}`, map[string]any{"a": 1.0}, "params: property 'a' requires property 'b'"},
		{"propertyNames", `{"type":"object","additionalProperties":true,"propertyNames":{"pattern":"^[a-z]+$"}}`, map[string]any{"Bad": 1.0}, "params: property name 'Bad' is not allowed (does not match the pattern '^[a-z]+$')"},
		{"a keyword explain does not know", `{"type":"object","properties":{"l":{"type":"array","unevaluatedItems":false,"prefixItems":[{}]}}}`, map[string]any{"l": []any{1.0, 2.0}}, "params: validating /properties/l"},
		{"NaN", `{"type":"object","additionalProperties":true}`, map[string]any{"x": math.NaN()}, "params.x: got NaN, which is not a JSON number"},
		{"Go slice", `{"type":"object","additionalProperties":true}`, map[string]any{"x": []string{"a"}}, "params.x: got a Go []string, which is not a JSON value"},
		{"nested non-JSON", `{"type":"object","additionalProperties":true}`, map[string]any{"x": []any{map[string]any{"y": struct{}{}}}}, "params.x.0.y: got a Go struct {}"},
		{"draft-04 exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":1,"exclusiveMinimum":true}}}`,
			map[string]any{"n": 1.0}, "params.n: exclusiveMinimum: got 1, want 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mustCompile(t, tc.schema)
			got := v.validate(tc.params)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("validate(%v) =\n %q\nwant it to start with\n %q", tc.params, got, tc.want)
			}
		})
	}
}

// TestCheckKeywords pins the messages for schemas whose keywords have the
// wrong kind of value.
func TestCheckKeywords(t *testing.T) {
	tests := []struct{ name, schema, want string }{
		{"misspelled type", `{"type":"object","properties":{"a":{"type":"strnig"}}}`, `/properties/a/type: "strnig" is not a JSON Schema type`},
		{"type not a name", `{"type":"object","properties":{"a":{"type":3}}}`, `/properties/a/type: want a type name or a list of them, got 3`},
		{"negative minLength", `{"type":"object","properties":{"a":{"minLength":-1}}}`, `/properties/a/minLength: want a non-negative integer, got -1`},
		{"fractional maxItems", `{"type":"object","properties":{"a":{"maxItems":1.5}}}`, `/properties/a/maxItems: want a non-negative integer, got 1.5`},
		{"minimum a string", `{"type":"object","properties":{"a":{"minimum":"1"}}}`, `/properties/a/minimum: want a number, got "1"`},
		{"required of numbers", `{"type":"object","required":[1]}`, `/required: want a list of property names, got [1]`},
		{"enum not a list", `{"type":"object","properties":{"a":{"enum":"x"}}}`, `/properties/a/enum: want a list of values`},
		{"pattern not a string", `{"type":"object","properties":{"a":{"pattern":1}}}`, `/properties/a/pattern: want a regular expression`},
		{"bad regular expression", `{"type":"object","properties":{"a":{"pattern":"("}}}`, `parameters schema is invalid`},
		{"subschema not a schema", `{"type":"object","properties":{"a":"string"}}`, `/properties/a: a schema must be an object or a boolean, got "string"`},
		{"allOf not a list", `{"type":"object","allOf":{}}`, `/allOf: want a list of schemas`},
		{"nested in items", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"strin"}}}}`, `/properties/l/items/type: "strin"`},
		{"keyword in another case", `{"type":"object","Properties":true}`, `/Properties: keywords are case-sensitive; did you mean "properties"?`},
		{"nested keyword in another case", `{"type":"object","properties":{"a":{"type":"string","MinLength":1}}}`, `/properties/a/MinLength: keywords are case-sensitive; did you mean "minLength"?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileSchema(parseSchema(t, tc.schema))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("compileSchema error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// A schema that applies itself to the same value without end would make
// the validator recurse until the process's stack overflows: it is refused
// when the tool registers. Recursion through properties is a tree, fine.
func TestRefCycles(t *testing.T) {
	tests := []struct{ name, schema, want string }{
		{"allOf to itself", `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}}}`, "/$defs/a"},
		{"two allOf refs", `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"object","allOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/a"}]}}}`, "cycle"},
		{"root to itself", `{"type":"object","$ref":"#"}`, "the schema"},
		{"through anyOf and not", `{"type":"object","$defs":{"a":{"anyOf":[{"not":{"$ref":"#/$defs/b"}}]},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, "cycle"},
		{"draft-07 dependencies", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{}},"dependencies":{"a":{"$ref":"#"}}}`, "cycle"},
		{"anchor", `{"type":"object","$defs":{"a":{"$anchor":"self","allOf":[{"$ref":"#self"}]}},"properties":{"x":{"$ref":"#self"}}}`, "cycle"},
		{"embedded resource by URI", `{"$id":"https://example.com/root.json","type":"object","$defs":{"a":{"$id":"a.json","allOf":[{"$ref":"https://example.com/a.json"}]}},"properties":{"x":{"$ref":"a.json"}}}`, "cycle"},
		{"fragment inside a resource", `{"type":"object","$defs":{"a":{"$id":"https://example.com/a.json","$defs":{"b":{"not":{"$ref":"#/$defs/b"}}}}},"properties":{"x":{"$ref":"https://example.com/a.json#/$defs/b"}}}`, "cycle"},
		{"escaped pointer", `{"type":"object","$defs":{"a/b":{"allOf":[{"$ref":"#/$defs/a~1b"}]}},"properties":{"x":{"$ref":"#/$defs/a~1b"}}}`, "cycle"},
		{"tree through properties", `{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := compileSchema(parseSchema(t, tc.schema))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("compileSchema: %v", err)
				}
				msg := v.validate(map[string]any{"root": map[string]any{"kids": []any{map[string]any{"kids": "no"}}}})
				if !strings.Contains(msg, "params.root.kids.0.kids: got string, want array") {
					t.Errorf("validate = %q", msg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "parameters schema is invalid") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("compileSchema error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestFullValidatorOnDemand checks when the full validator is built: for a
// schema without references, anchors or patterns, only once a call's params
// need it (the quick check did not settle them); for one with any of
// those, at compile, so that Register refuses what does not resolve.
func TestFullValidatorOnDemand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema string
		eager        bool
	}{
		{"plain", `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`, false},
		{"a property called pattern", `{"type":"object","properties":{"pattern":{"type":"string"},"n":{"type":"integer"}}}`, false},
		{"nested plain", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","minLength":1}}}}`, false},
		{"a reference", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`, true},
		{"a pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}`, true},
		{"pattern properties", `{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var doc map[string]any
			if err := json.Unmarshal([]byte(tt.schema), &doc); err != nil {
				t.Fatal(err)
			}
			v, err := compileSchema(doc)
			if err != nil {
				t.Fatal(err)
			}
			if built := v.schema != nil; built != tt.eager {
				t.Errorf("full validator built at compile: %v, want %v", built, tt.eager)
			}
			// Invalid params; for a lazy validator only declared ones, since
			// an undeclared property is refused without the validator.
			params := map[string]any{"n": "x", "l": []any{1.0}, "a": 1.0, "xa": 1.0}
			props, _ := doc["properties"].(map[string]any)
			for k := range params {
				if _, declared := props[k]; !declared && !tt.eager {
					delete(params, k)
				}
			}
			if msg := v.validate(params); msg == "" {
				t.Error("invalid params passed")
			}
			if v.schema == nil {
				t.Error("the full validator is still not built after params the quick check cannot settle")
			}
		})
	}
}

// BenchmarkCompileSchema measures compiling a typical tool's schema (the
// shape of grep's), which the CLI does for every tool at start.
func BenchmarkCompileSchema(b *testing.B) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(`{"type":"object","additionalProperties":false,"required":["pattern"],"properties":{"pattern":{"type":"string","minLength":1,"description":"a regular expression"},"path":{"type":"string","description":"a file or directory"},"glob":{"type":"string"},"ignoreCase":{"type":"boolean"},"context":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":1}}}`), &doc); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := compileSchema(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJSONCopy holds jsonCopy to a JSON round trip: it gives what the
// round trip gives, or fails where it fails, and its copy shares no map or
// slice with the value copied.
func TestJSONCopy(t *testing.T) {
	deep := any("leaf")
	for range jsonDepth + 5 {
		deep = []any{deep, map[string]any{"n": 1}}
	}
	cycle := map[string]any{"type": "object"}
	cycle["self"] = cycle
	type point struct{ X, Y int }
	tests := []struct {
		name string
		v    any
	}{
		{"plain", map[string]any{"type": "object", "n": 1.5, "e": []any{"a", nil, true, math.Copysign(0, -1)}, "m": map[string]any{}}},
		{"empty slice", []any{}},
		{"string", "ü"},
		{"nil", nil},
		{"int", map[string]any{"n": 1, "big": int64(1<<53 + 1)}},
		{"float32", []any{float32(0.1)}},
		{"json.Number", []any{json.Number("12.50")}},
		{"string slice", map[string]any{"e": []string{"a"}}},
		{"nil map", map[string]any{"m": map[string]any(nil)}},
		{"nil slice", map[string]any{"s": []any(nil)}},
		{"invalid key", map[string]any{"bad\xff": "x", "ok": []any{1.0}}},
		{"invalid string", []any{"bad\xff"}},
		{"struct", []any{point{1, 2}}},
		{"raw message", json.RawMessage(`{"a":[1,2]}`)},
		{"deeper than jsonDepth", deep},
		{"NaN", []any{math.NaN()}},
		{"infinity", []any{math.Inf(1)}},
		{"function", map[string]any{"f": func() {}}},
		{"cycle", cycle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want any
			raw, wantErr := json.Marshal(tt.v)
			if wantErr == nil {
				wantErr = json.Unmarshal(raw, &want)
			}
			got, err := jsonCopy(tt.v)
			if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("jsonCopy error = %v, want %v", err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("jsonCopy = %#v, want %#v", got, want)
			}
			// The copy is its own: emptying its maps and slices leaves v's
			// encoding as it was.
			emptyAll(got)
			if again, _ := json.Marshal(tt.v); string(again) != string(raw) {
				t.Errorf("changing the copy changed the value: %s, was %s", again, raw)
			}
		})
	}
	if _, err := compileSchema(cycle); err == nil {
		t.Error("compileSchema accepted a cyclic map")
	}
}

// emptyAll empties every map and slice of v, in place.
func emptyAll(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			emptyAll(x)
			delete(v, k)
		}
	case []any:
		for i, x := range v {
			emptyAll(x)
			v[i] = nil
		}
	}
}
