package signature

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/fromschema")

// decodeSchema decodes JSON text the way tool definitions arrive (numbers
// as float64); "" gives nil.
func decodeSchema(t testing.TB, text string) map[string]any {
	t.Helper()
	if text == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("bad test schema %s: %v", text, err)
	}
	return m
}

// assertCanonical fails unless sig parses and is its own canonical form.
func assertCanonical(t testing.TB, sig string) *Signature {
	t.Helper()
	if strings.ContainsAny(sig, "\n\r\u2028\u2029") {
		t.Fatalf("generated signature spans lines: %q", sig)
	}
	parsed, err := Parse(sig)
	if err != nil {
		t.Fatalf("generated signature %q does not parse: %v", sig, err)
	}
	if got := parsed.String(); got != sig {
		t.Fatalf("generated signature is not canonical:\n got %s\nwant %s", got, sig)
	}
	return parsed
}

func TestFromSchema(t *testing.T) {
	const obj = `{"type":"object","properties":%s,"required":%s}`
	tests := []struct {
		name, tool, params, output string
		want                       string
	}{
		{"one required", "word_count", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`, "",
			`async function word_count(params: { text: string }): Promise<any>`},
		{"no required makes params optional", "file-read", `{"type":"object","properties":{"path":{"type":"string"}}}`, "",
			`async function file_read(params?: { path?: string }): Promise<any>`},
		{"no properties and closed: no argument", "ping", `{"type":"object","properties":{}}`, "",
			`async function ping(): Promise<any>`},
		{"no parameters schema: no argument", "ping", ``, "",
			`async function ping(): Promise<any>`},
		{"open top level object", "kv", `{"type":"object","additionalProperties":true}`, "",
			`async function kv(params?: Record<string, unknown>): Promise<any>`},
		{"typed additional properties at top level", "kv", `{"type":"object","additionalProperties":{"type":"number"}}`, "",
			`async function kv(params?: Record<string, number>): Promise<any>`},
		{"required first, then sorted", "t", fmt.Sprintf(obj, `{"b":{"type":"string"},"a":{"type":"string"},"d":{"type":"string"},"c":{"type":"string"}}`, `["d","b"]`), "",
			`async function t(params: { b: string; d: string; a?: string; c?: string }): Promise<any>`},
		{"scalar types", "t", fmt.Sprintf(obj, `{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"z":{"type":"null"},"w":{"type":"weird"}}`, `[]`), "",
			`async function t(params?: { b?: boolean; i?: number; n?: number; s?: string; w?: unknown; z?: null }): Promise<any>`},
		{"string and number enums", "t", fmt.Sprintf(obj, `{"mode":{"type":"string","enum":["fast","slow"]},"level":{"enum":[1,2.5,-3,1e21]},"mixed":{"enum":["a",1,true,null]}}`, `["mode"]`), "",
			`async function t(params: { mode: "fast" | "slow"; level?: 1 | 2.5 | -3 | 1e+21; mixed?: "a" | 1 | true | null }): Promise<any>`},
		{"enum with object member falls back to the type", "t", fmt.Sprintf(obj, `{"e":{"type":"string","enum":["a",{"x":1}]}}`, `[]`), "",
			`async function t(params?: { e?: string }): Promise<any>`},
		{"empty enum is never", "t", fmt.Sprintf(obj, `{"e":{"enum":[]}}`, `[]`), "",
			`async function t(params?: { e?: never }): Promise<any>`},
		{"const", "t", fmt.Sprintf(obj, `{"k":{"const":"file"},"n":{"const":0},"o":{"const":{"a":1},"type":"object"}}`, `["k"]`), "",
			`async function t(params: { k: "file"; n?: 0; o?: Record<string, unknown> }): Promise<any>`},
		{"arrays", "t", fmt.Sprintf(obj, `{"a":{"type":"array","items":{"type":"string"}},"u":{"type":"array","items":{"type":["string","number"]}},"x":{"type":"array"},"nested":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},"inferred":{"items":{"type":"boolean"}}}`, `[]`), "",
			`async function t(params?: { a?: string[]; inferred?: boolean[]; nested?: number[][]; u?: (string | number)[]; x?: unknown[] }): Promise<any>`},
		{"tuples", "t", fmt.Sprintf(obj, `{"p":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false},"q":{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"integer"}}}`, `[]`), "",
			`async function t(params?: { p?: [number, number]; q?: [string, ...number[]] }): Promise<any>`},
		{"nested object", "t", fmt.Sprintf(obj, `{"opts":{"type":"object","properties":{"deep":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}}}}`, `["opts"]`), "",
			`async function t(params: { opts: { deep?: { x: number } } }): Promise<any>`},
		{"records and index signatures", "t", fmt.Sprintf(obj, `{"m":{"type":"object","additionalProperties":{"type":"string"}},"open":{"type":"object"},"closed":{"type":"object","additionalProperties":false},"mixed":{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":{"type":"number"},"required":["id"]},"pat":{"type":"object","patternProperties":{"^x-":{"type":"string"}}}}`, `[]`), "",
			`async function t(params?: { closed?: {}; m?: Record<string, string>; mixed?: { id: string; [key: string]: number }; open?: Record<string, unknown>; pat?: Record<string, string> }): Promise<any>`},
		{"required but undeclared property", "t", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","zz","b"]}`, "",
			`async function t(params: { a: string; b: unknown; zz: unknown }): Promise<any>`},
		{"anyOf and oneOf are unions", "t", fmt.Sprintf(obj, `{"a":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"number"}]},"o":{"oneOf":[{"type":"object","properties":{"kind":{"const":"a"}},"required":["kind"]},{"type":"null"}]}}`, `[]`), "",
			`async function t(params?: { a?: string | number; o?: { kind: "a" } | null }): Promise<any>`},
		{"anyOf with only constraints keeps the type", "t", fmt.Sprintf(obj, `{"a":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"anyOf":[{"required":["x"]},{"required":["y"]}]}}`, `[]`), "",
			`async function t(params?: { a?: { x?: string; y?: string } }): Promise<any>`},
		{"allOf is an intersection", "t", fmt.Sprintf(obj, `{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"object","properties":{"y":{"type":"number"}}}]}}`, `[]`), "",
			`async function t(params?: { a?: { x?: string } & { y?: number } }): Promise<any>`},
		{"nullable and type arrays", "t", fmt.Sprintf(obj, `{"a":{"type":"string","nullable":true},"b":{"type":["integer","null"]},"c":{"type":["array","null"],"items":{"type":"string"}},"d":{"enum":["x","y"],"nullable":true}}`, `[]`), "",
			`async function t(params?: { a?: string | null; b?: number | null; c?: string[] | null; d?: "x" | "y" | null }): Promise<any>`},
		{"unknown, true, false and $ref", "t", fmt.Sprintf(obj, `{"any":{},"t":true,"f":false,"r":{"$ref":"#/$defs/x","type":"string"},"d":{"description":"no type"}}`, `[]`), "",
			`async function t(params?: { any?: unknown; d?: unknown; f?: never; r?: unknown; t?: unknown }): Promise<any>`},
		{"property names that are not identifiers are quoted", "t", fmt.Sprintf(obj, `{"a-b":{"type":"string"},"1x":{"type":"string"},"":{"type":"string"},"with \"quote\"":{"type":"string"},"class":{"type":"string"},"ünï":{"type":"string"},"line\nbreak":{"type":"string"}}`, `["a-b"]`), "",
			`async function t(params: { "a-b": string; ""?: string; "1x"?: string; class?: string; "line\nbreak"?: string; "with \"quote\""?: string; "ünï"?: string }): Promise<any>`},
		{"a property named params moves the argument", "t", fmt.Sprintf(obj, `{"params":{"type":"object"},"args":{"type":"string"}}`, `["params"]`), "",
			`async function t(input: { params: Record<string, unknown>; args?: string }): Promise<any>`},
		{"output schema sets the return type", "t", fmt.Sprintf(obj, `{}`, `[]`), `{"type":"object","properties":{"words":{"type":"integer"},"lines":{"type":"array","items":{"type":"string"}}},"required":["words"]}`,
			`async function t(): Promise<{ words: number; lines?: string[] }>`},
		{"open output object", "t", ``, `{"type":"object"}`,
			`async function t(): Promise<Record<string, unknown>>`},
		{"scalar output", "t", ``, `{"type":"integer"}`,
			`async function t(): Promise<number>`},
		{"empty output schema", "t", ``, `{}`,
			`async function t(): Promise<unknown>`},
		{"reserved function name", "delete", ``, ``,
			`async function delete_(): Promise<any>`},
		{"global function name", "fetch", ``, ``,
			`async function fetch_(): Promise<any>`},
		{"leading digit", "3d-render", ``, ``,
			`async function _3d_render(): Promise<any>`},
		{"$ref parameters schema is an open record", "t", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`, "",
			`async function t(params?: Record<string, unknown>): Promise<any>`},
		{"anyOf of non-objects at the top is an open record", "t", `{"type":"object","anyOf":[{"type":"string"},{"type":"number"}]}`, "",
			`async function t(params?: Record<string, unknown>): Promise<any>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			params, output := decodeSchema(t, tc.params), decodeSchema(t, tc.output)
			got, err := FromSchema(tc.tool, params, output)
			if err != nil {
				t.Fatalf("FromSchema: %v", err)
			}
			if got != tc.want {
				t.Errorf("FromSchema\n got %s\nwant %s", got, tc.want)
			}
			assertCanonical(t, got)
			again, _ := FromSchema(tc.tool, params, output)
			if again != got {
				t.Errorf("FromSchema is not deterministic:\n%s\n%s", got, again)
			}
		})
	}
}

func TestFromSchemaErrors(t *testing.T) {
	tests := []struct {
		name, tool, params, want string
	}{
		{"non-object parameters", "t", `{"type":"string"}`, `signature from schema of "t": parameters schema must have "type": "object", got "string"`},
		{"type array parameters", "t", `{"type":["object","null"]}`, `parameters schema must have "type": "object", got ["object","null"]`},
		{"empty name", "", `{"type":"object"}`, `tool name is empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromSchema(tc.tool, decodeSchema(t, tc.params), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("FromSchema = %q, %v; want error containing %q", got, err, tc.want)
			}
		})
	}
}

func TestFunctionName(t *testing.T) {
	tests := []struct{ in, want string }{
		// Valid identifiers that name no global are kept as they are.
		{"word_count", "word_count"},
		{"read", "read"},
		{"planning_read_plan", "planning_read_plan"},
		{"_count", "_count"},
		{"trailing_", "trailing_"},
		{"getUser", "getUser"},
		{"$x", "$x"},
		{"_", "_"},
		// Characters that cannot appear in an identifier become "_", one each.
		{"get-sum", "get_sum"},
		{"file-read", "file_read"},
		{"a__b--c", "a__b__c"},
		{"_-_", "___"},
		{"mcp.server/tool name", "mcp_server_tool_name"},
		{"café", "caf_"},
		{"日本", "__"},
		// A leading digit gets a "_" before it.
		{"3d_render", "_3d_render"},
		{"42", "_42"},
		{"3-d", "_3_d"},
		// Reserved words and globals get a "_" after them.
		{"delete", "delete_"},
		{"class", "class_"},
		{"null", "null_"},
		{"await", "await_"},
		{"private", "private_"},
		{"console", "console_"},
		{"fetch", "fetch_"},
		{"eval", "eval_"},
		{"constructor", "constructor_"},
		// Only the whole name is checked: parts of it may be anything.
		{"to_string", "to_string"},
		{"set-timeout", "set_timeout"},
		{"call_tool", "call_tool"},
		{"delete_file", "delete_file"},
	}
	for _, tc := range tests {
		got, err := FunctionName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("FunctionName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			continue
		}
		if !isIdentifier(got) || Reserved(got) {
			t.Errorf("FunctionName(%q) = %q is not a usable function name", tc.in, got)
		}
	}
	if got, err := FunctionName(""); err == nil {
		t.Errorf("FunctionName(\"\") = %q, nil; want an error", got)
	}
}

// TestFromSchemaGolden pins the signatures generated for the schemas in
// testdata/fromschema/*.json ({"name", "parameters", "returns"}) in the
// .golden file beside each. go test -update rewrites the golden files.
func TestFromSchemaGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fromschema", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var def struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
				Returns    map[string]any `json:"returns"`
			}
			if err := json.Unmarshal(raw, &def); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			sig, err := FromSchema(def.Name, def.Parameters, def.Returns)
			if err != nil {
				t.Fatal(err)
			}
			assertCanonical(t, sig)
			got := []byte(sig + "\n")
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *updateGolden {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./registry/signature -run TestFromSchemaGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run with -update to accept)\n--- got ---\n%s--- want ---\n%s", file, golden, got, want)
			}
		})
	}
}

// TestFromSchemaLimits checks that schemas too deep or too large for a
// readable signature still give one that parses.
func TestFromSchemaLimits(t *testing.T) {
	t.Run("deep nesting becomes unknown", func(t *testing.T) {
		leaf := map[string]any{"type": "string"}
		for range 100 {
			leaf = map[string]any{"type": "object", "properties": map[string]any{"n": leaf}, "required": []any{"n"}}
		}
		sig, err := FromSchema("deep", leaf, nil)
		if err != nil {
			t.Fatal(err)
		}
		assertCanonical(t, sig)
		if strings.Count(sig, "{ n:") != schemaDepth+1 || !strings.Contains(sig, "n: unknown") {
			t.Errorf("want %d object levels then unknown, got %s", schemaDepth+1, sig)
		}
	})
	t.Run("deep arrays", func(t *testing.T) {
		leaf := map[string]any{"type": "string"}
		for range 100 {
			leaf = map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{leaf, map[string]any{"type": "null"}}}}
		}
		sig, err := FromSchema("deep", map[string]any{"type": "object", "properties": map[string]any{"a": leaf}}, leaf)
		if err != nil {
			t.Fatal(err)
		}
		assertCanonical(t, sig)
	})
	t.Run("huge schema is cut down to fit", func(t *testing.T) {
		props := map[string]any{}
		for i := range 2000 {
			enum := []any{}
			for j := range 20 {
				enum = append(enum, fmt.Sprintf("value-%d-%d", i, j))
			}
			props[fmt.Sprintf("property_number_%04d", i)] = map[string]any{"enum": enum}
		}
		sig, err := FromSchema("huge", map[string]any{"type": "object", "properties": props}, nil)
		if err != nil {
			t.Fatal(err)
		}
		assertCanonical(t, sig)
		if len(sig) > maxSourceLen {
			t.Errorf("signature is %d bytes, over maxSourceLen", len(sig))
		}
		want := `async function huge(params?: Record<string, unknown>): Promise<any>`
		if sig != want {
			t.Errorf("got %.200s…, want %s", sig, want)
		}
	})
	t.Run("large enum keeps the outer shape", func(t *testing.T) {
		enum := []any{}
		for j := range 2000 {
			enum = append(enum, fmt.Sprintf("value-%d", j))
		}
		params := map[string]any{"type": "object", "properties": map[string]any{
			"pick": map[string]any{"type": "object", "properties": map[string]any{"v": map[string]any{"enum": enum}}},
			"name": map[string]any{"type": "string"},
		}, "required": []any{"name"}}
		sig, err := FromSchema("pick", params, nil)
		if err != nil {
			t.Fatal(err)
		}
		assertCanonical(t, sig)
		want := `async function pick(params: { name: string; pick?: { v?: unknown } }): Promise<any>`
		if sig != want {
			t.Errorf("got %.300s, want %s", sig, want)
		}
	})
}

// TestFromSchemaRandom generates many random schemas, including malformed
// keyword values and awkward names and literals, and checks that every
// generated signature parses, is canonical, and binds as expected.
func TestFromSchemaRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		params := randomObjectSchema(r, 0)
		var output map[string]any
		if r.IntN(2) == 0 {
			output, _ = randomSchema(r, 0).(map[string]any)
		}
		sig, err := FromSchema(randomName(r), params, output)
		if err != nil {
			if strings.Contains(err.Error(), "tool name is empty") {
				continue
			}
			raw, _ := json.Marshal(params)
			t.Fatalf("case %d: FromSchema(%s): %v", i, raw, err)
		}
		parsed := assertCanonical(t, sig)
		if !isIdentifier(parsed.Name) || Reserved(parsed.Name) {
			t.Fatalf("case %d: function name %q is not usable", i, parsed.Name)
		}
		if len(parsed.Params) > 1 {
			t.Fatalf("case %d: %d parameters in %s", i, len(parsed.Params), sig)
		}
		if len(parsed.Params) == 1 {
			props, _ := params["properties"].(map[string]any)
			if _, clash := props[parsed.Params[0].Name]; clash {
				t.Fatalf("case %d: parameter name %q is also a property: %s", i, parsed.Params[0].Name, sig)
			}
			if !parsed.Params[0].Type.IsObjectLike() {
				t.Fatalf("case %d: parameter type %s is not object-like: %s", i, parsed.Params[0].Type, sig)
			}
		}
	}
}

var awkwardNames = []string{"", "a", "a b", `"`, `\`, "\n", "\t", "\x00", "\u2028", "日本", "123", "1e5", "class",
	"new", "__proto__", "constructor", "\xff", "params", "args", "input", "key", "a-b", "$x", "_", "é"}

var awkwardValues = []any{"", "x", `"quoted"`, "back\\slash", "line\nbreak", "\u2028", "\x7f", "\xff\xfe", "日本",
	0.0, math.Copysign(0, -1), 1.0, -1.0, 0.1, 1e-7, 1e21, 1e300, -5e-324, 123456789012.0, true, false, nil,
	json.Number("12"), json.Number("-1.5e3"), json.Number("bogus"), 7, int64(-9),
	map[string]any{"a": 1.0}, []any{1.0}}

func randomName(r *rand.Rand) string {
	parts := []string{"word", "count", "3d", "delete", "fetch", "a", "_", "-", "x9", "class", "to", "string", "Ü"}
	var b strings.Builder
	for range 1 + r.IntN(4) {
		b.WriteString(parts[r.IntN(len(parts))])
		if r.IntN(2) == 0 {
			b.WriteString([]string{"_", "-"}[r.IntN(2)])
		}
	}
	return b.String()
}

func randomPropName(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return awkwardNames[r.IntN(len(awkwardNames))]
	}
	return fmt.Sprintf("p%d", r.IntN(20))
}

func randomObjectSchema(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{"type": "object"}
	props := map[string]any{}
	for range r.IntN(6) {
		props[randomPropName(r)] = randomSchema(r, depth+1)
	}
	if r.IntN(5) > 0 {
		m["properties"] = props
	} else {
		m["properties"] = []any{"not", "an", "object"}
	}
	if r.IntN(2) == 0 {
		var req []any
		for name := range props {
			if r.IntN(2) == 0 {
				req = append(req, name)
			}
		}
		if r.IntN(4) == 0 {
			req = append(req, randomPropName(r), 5.0)
		}
		m["required"] = req
	}
	switch r.IntN(5) {
	case 0:
		m["additionalProperties"] = r.IntN(2) == 0
	case 1:
		m["additionalProperties"] = randomSchema(r, depth+1)
	case 2:
		m["patternProperties"] = map[string]any{"^x": randomSchema(r, depth+1)}
	}
	return m
}

func randomSchema(r *rand.Rand, depth int) any {
	if depth > 12 || r.IntN(8) == 0 {
		switch r.IntN(4) {
		case 0:
			return true
		case 1:
			return false
		case 2:
			return "not a schema"
		}
		return map[string]any{}
	}
	types := []string{"string", "number", "integer", "boolean", "null", "array", "object", "bogus"}
	var m map[string]any
	switch r.IntN(12) {
	case 0, 1:
		m = randomObjectSchema(r, depth)
	case 2, 3:
		m = map[string]any{"type": "array"}
		switch r.IntN(4) {
		case 0:
			m["items"] = randomSchema(r, depth+1)
		case 1:
			m["items"] = []any{randomSchema(r, depth+1), randomSchema(r, depth+1)}
			m["additionalItems"] = randomSchema(r, depth+1)
		case 2:
			m["prefixItems"] = []any{randomSchema(r, depth+1)}
			m["items"] = randomSchema(r, depth+1)
		}
	case 4:
		var enum []any
		for range r.IntN(5) {
			enum = append(enum, awkwardValues[r.IntN(len(awkwardValues))])
		}
		m = map[string]any{"enum": enum}
	case 5:
		m = map[string]any{"const": awkwardValues[r.IntN(len(awkwardValues))]}
	case 6:
		key := []string{"anyOf", "oneOf", "allOf"}[r.IntN(3)]
		var list []any
		for range r.IntN(4) {
			list = append(list, randomSchema(r, depth+1))
		}
		m = map[string]any{key: list}
		if r.IntN(2) == 0 {
			m["type"] = types[r.IntN(len(types))]
		}
	case 7:
		m = map[string]any{"type": []any{types[r.IntN(len(types))], types[r.IntN(len(types))], 3.0}}
	case 8:
		m = map[string]any{"$ref": "#/x"}
	case 9:
		m = map[string]any{"type": 42.0, "properties": "nope", "items": 3.0, "anyOf": "x", "enum": "y"}
	default:
		m = map[string]any{"type": types[r.IntN(len(types))]}
	}
	if r.IntN(6) == 0 {
		m["nullable"] = true
	}
	return m
}

// FuzzFromSchema checks that any JSON object schema gives a signature that
// parses, or an error only for a non-object type.
func FuzzFromSchema(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{"type":"integer"}`)
	f.Add(`{"type":"object","properties":{"a":{"anyOf":[{"enum":[1,"x",null]},{"type":"array","items":{"type":"object"}}]}}}`, ``)
	f.Add(`{"type":"object","additionalProperties":{"type":["string","null"]}}`, `{}`)
	f.Add(`{"properties":{"\u2028":{"const":1e400}}}`, `{"prefixItems":[true,false]}`)
	f.Fuzz(func(t *testing.T, params, output string) {
		var p, o map[string]any
		if json.Unmarshal([]byte(params), &p) != nil {
			return
		}
		if json.Unmarshal([]byte(output), &o) != nil {
			o = nil
		}
		sig, err := FromSchema("fuzz_tool", p, o)
		if err != nil {
			if typ, ok := p["type"]; ok && typ != "object" {
				return
			}
			t.Fatalf("FromSchema(%s, %s): %v", params, output, err)
		}
		assertCanonical(t, sig)
	})
}

func TestPropertyOrder(t *testing.T) {
	props := map[string]any{"d": nil, "c": nil, "b": nil, "a": nil}
	got := PropertyOrder(props, map[string]bool{"d": true, "b": true})
	if want := []string{"b", "d", "a", "c"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("PropertyOrder = %v, want %v", got, want)
	}
}
