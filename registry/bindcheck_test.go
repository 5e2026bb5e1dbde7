package registry_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// toolWith returns a valid tool named t with the given schema and signature.
func toolWith(schema, sig string) registry.Tool {
	tl := newTool("t")
	tl.Parameters = registry.MustParseSchema(schema)
	tl.CallSignature = sig
	return tl
}

func TestRegisterRefusesMismatchedSignature(t *testing.T) {
	const read = `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["path"]}`
	tests := []struct {
		name, schema, sig string
		want              []string // substrings of the error
	}{
		{"positional parameter the schema lacks", pathSchema,
			"async function f(file: string): Promise<string>",
			[]string{`register tool "t"`, `call signature does not match the parameters schema`, `parameter "file" of f()`, `its properties: "path"`, "its type is string"}},
		{"positional parameter, schema without properties", `{"type":"object"}`,
			"async function f(x: string): Promise<void>",
			[]string{`parameter "x" of f()`, "it declares no properties"}},
		{"options bag member the schema lacks", read,
			"async function f(path: string, options?: { offset?: number; lmit?: number }): Promise<string>",
			[]string{`parameter "options" of f() has member "lmit"`, `its properties: "path", "limit", "offset"`}},
		{"params object member the schema lacks", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
			"async function f(params: { text: string; unit?: string }): Promise<any>",
			[]string{`parameter "params" of f() has member "unit"`, `its properties: "text"`}},
		{"quoted member the schema lacks", `{"type":"object","properties":{"a_b":{"type":"string"}}}`,
			`async function f(o: { "a-b"?: string }): Promise<any>`,
			[]string{`member "a-b"`, `"a_b"`}},
		{"named type is not an options bag", read,
			"async function f(opts: Options): Promise<any>",
			[]string{`parameter "opts" of f()`, "its type is Options"}},
		{"union with a scalar is not an options bag", read,
			"async function f(x: string | { path: string }): Promise<any>",
			[]string{`parameter "x" of f()`, "its type is string | { path: string }"}},
		{"parameter without a type", read,
			"function f(x)",
			[]string{`parameter "x" of f()`, "its type is (none)"}},
		{"required property no parameter supplies", read,
			"async function f(options?: { offset?: number; limit?: number }): Promise<string>",
			[]string{`required property "path"`, "f() (its parameters: options", `its properties: "path", "limit", "offset"`}},
		{"required property and no parameters", pathSchema,
			"async function f(): Promise<string>",
			[]string{`required property "path"`, "it has no parameters", `its properties: "path"`}},
		{"additionalProperties false hides allOf's properties", `{"type":"object","additionalProperties":false,"allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			"async function f(params?: { a?: string }): Promise<any>",
			[]string{`member "a"`, "it declares no properties"}},
		{"a positional parameter must be a top-level property", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			"async function f(a: string): Promise<any>",
			[]string{`parameter "a" of f()`, `its properties: "a"`}},
		{"rest parameter of scalars the schema lacks", `{"type":"object","properties":{"tag":{"type":"string"}}}`,
			"async function f(...tags: string[]): Promise<any>",
			[]string{`parameter "tags" of f()`, "its type is string[]"}},
		{"rest parameter of objects with a member the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			"async function f(...opts: { z?: string }[]): Promise<any>",
			[]string{`parameter "opts" of f() has member "z"`}},
		{"Record with a literal key the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`async function f(o: Record<"a" | 'z', string>): Promise<any>`,
			[]string{`member "z"`}},
		{"Pick of a key the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`async function f(o: Pick<{ a: string; z: string }, "z">): Promise<any>`,
			[]string{`member "z"`}},
		{"Partial of a member the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			"async function f(o: Partial<{ z: string }>): Promise<any>",
			[]string{`member "z"`}},
		{"intersection member the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			"async function f(o: { a?: string } & { z?: string }): Promise<any>",
			[]string{`member "z"`}},
		{"nullable bag member the schema lacks", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			"async function f(o?: { z?: string } | null): Promise<any>",
			[]string{`member "z"`}},
		{"pattern that does not match", `{"type":"object","patternProperties":{"^x-":{"type":"string"}}}`,
			`async function f(o: { "y-trace"?: string }): Promise<any>`,
			[]string{`member "y-trace"`, "names matching ^x-"}},
		{"$ref to a definition without the member", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
			"async function f(o: { z?: string }): Promise<any>",
			[]string{`member "z"`, `its properties: "a"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			err := r.Register(toolWith(tc.schema, tc.sig))
			if err == nil {
				t.Fatalf("Register(%s with %s) = nil, want an error", tc.sig, tc.schema)
			}
			containsAll(t, "error", err.Error(), tc.want...)
			if len(r.Tools()) != 0 {
				t.Errorf("a refused tool was registered: %v", r.Tools())
			}
		})
	}
}

func TestRegisterAcceptsMatchingSignature(t *testing.T) {
	const read = `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["path"]}`
	tests := []struct{ name, schema, sig string }{
		{"positional and options bag", read,
			"async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>"},
		{"one params object", read,
			"async function read(params: { path: string; offset?: number; limit?: number }): Promise<string>"},
		{"all positional", read,
			"async function read(path: string, offset?: number, limit?: number): Promise<string>"},
		{"a bag with fewer members than properties", read,
			"async function read(path: string, options?: { limit?: number }): Promise<string>"},
		{"no parameters, nothing required", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			"async function f(): Promise<void>"},
		{"default value makes a parameter", read,
			"async function read(path: string, limit = 10): Promise<string>"},
		{"an optional parameter may supply a required property", pathSchema,
			"async function f(path?: string): Promise<string>"},
		{"additional properties allowed", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`,
			"async function f(o: { anything?: string }): Promise<any>"},
		{"additional properties by schema", `{"type":"object","additionalProperties":{"type":"string"}}`,
			"async function f(o: { anything?: string }): Promise<any>"},
		{"unevaluated properties allowed", `{"type":"object","unevaluatedProperties":{"type":"string"}}`,
			"async function f(o: { anything?: string }): Promise<any>"},
		{"draft-07 dependencies leave the schema open", `{"type":"object","properties":{"a":{"type":"string"}},"dependencies":{"a":["b"]}}`,
			"async function f(o: { a?: string; b?: string }): Promise<any>"},
		{"pattern properties", `{"type":"object","patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`,
			`async function f(o: { "x-trace"?: string }): Promise<any>`},
		{"declared by allOf", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"string"}}}]}`,
			"async function f(o: { a?: string; b?: string }): Promise<any>"},
		{"declared by anyOf and if/then/else", `{"type":"object","anyOf":[{"properties":{"a":{"type":"string"}}}],"if":{"properties":{"b":{"const":1}}},"then":{"properties":{"c":{}}},"else":{"properties":{"d":{}}}}`,
			"async function f(o: { a?: string; b?: number; c?: unknown; d?: unknown }): Promise<any>"},
		{"declared by a local $ref", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}},"allOf":[{"$ref":"#/$defs/q"}]},"q":{"properties":{"b":{}}}}}`,
			"async function f(o: { a?: string; b?: unknown }): Promise<any>"},
		{"the same $ref twice", `{"type":"object","allOf":[{"$ref":"#/$defs/p"},{"$ref":"#/$defs/p"}],"$defs":{"p":{"properties":{"a":{}}}}}`,
			"async function f(o: { a?: unknown }): Promise<any>"},
		{"index signature supplies any required property", read,
			"async function f(o: { [key: string]: unknown }): Promise<any>"},
		{"Record<string, T> supplies any required property", read,
			"async function f(params?: Record<string, unknown>): Promise<any>"},
		{"object supplies any required property", read,
			"async function f(o: object): Promise<any>"},
		{"Record with literal keys", read,
			`async function f(o: Record<"path" | "limit", string>): Promise<any>`},
		{"Pick and Omit", read,
			`async function f(a: Pick<{ path: string; other: string }, "path">, b?: Omit<{ limit: number; other: number }, "other">): Promise<any>`},
		{"Partial, Readonly and intersections", read,
			"async function f(a: Readonly<{ path: string }>, b?: Partial<{ offset: number }> & { limit?: number }): Promise<any>"},
		{"nullable options bag", read,
			"async function f(path: string, o?: { limit?: number } | null | undefined): Promise<any>"},
		{"property of object type set as a whole", `{"type":"object","properties":{"filter":{"type":"object"}},"required":["filter"]}`,
			"async function f(filter: { anything?: string }): Promise<any>"},
		{"rest parameter named after a property", `{"type":"object","properties":{"tags":{"type":"string"}}}`,
			"async function f(...tags: string[]): Promise<any>"},
		{"rest parameter of options bags", read,
			"async function f(path: string, ...opts: Array<{ limit?: number }>): Promise<any>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			if err := r.Register(toolWith(tc.schema, tc.sig)); err != nil {
				t.Fatalf("Register(%s with %s): %v", tc.sig, tc.schema, err)
			}
			if in, _ := r.Lookup("t"); in.CallSignature != tc.sig {
				t.Errorf("CallSignature = %q, want the given %q", in.CallSignature, tc.sig)
			}
		})
	}
}

func TestOverrideChecksSignature(t *testing.T) {
	setup := func(t *testing.T) *registry.Registry {
		r := registry.New()
		given := toolWith(readSchema, "async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>")
		given.Name = "read"
		gen := newTool("gen")
		gen.Parameters = registry.MustParseSchema(pathSchema)
		mustRegister(t, r, given, gen)
		return r
	}
	t.Run("a kept signature must match the new schema", func(t *testing.T) {
		r := setup(t)
		before := r.Tools()
		nr := newTool("read")
		nr.Parameters = registry.MustParseSchema(pathSchema)
		err := r.Override(nr)
		if err == nil {
			t.Fatal("Override keeping a signature whose options the new schema lacks = nil, want an error")
		}
		containsAll(t, "error", err.Error(), `override tool "read"`, "call signature kept from the replaced tool does not match the new parameters schema",
			`parameter "options" of read() has member "offset"`, `its properties: "path"`, "give the tool its own CallSignature")
		if after := r.Tools(); !reflect.DeepEqual(after, before) {
			t.Errorf("Tools() changed by a failed Override:\n got %+v\nwant %+v", after, before)
		}
	})
	t.Run("a kept signature that matches is kept", func(t *testing.T) {
		r := setup(t)
		nr := newTool("read")
		nr.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"},"encoding":{"type":"string"}},"required":["path"]}`)
		if err := r.Override(nr); err != nil {
			t.Fatal(err)
		}
		if in, _ := r.Lookup("read"); in.CallSignature != "async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>" {
			t.Errorf("CallSignature = %q, want the kept one", in.CallSignature)
		}
	})
	t.Run("a new signature must match", func(t *testing.T) {
		r := setup(t)
		nr := toolWith(readSchema, "async function read(file: string): Promise<string>")
		nr.Name = "read"
		err := r.Override(nr)
		if err == nil {
			t.Fatal("Override with a mismatched signature = nil, want an error")
		}
		containsAll(t, "error", err.Error(), `override tool "read"`, `parameter "file" of read()`, `"path", "limit", "offset"`)
	})
	t.Run("a generated signature is generated again", func(t *testing.T) {
		r := setup(t)
		if in, _ := r.Lookup("gen"); in.CallSignature != "async function gen(params: { path: string }): Promise<any>" {
			t.Fatalf("generated CallSignature = %q", in.CallSignature)
		}
		ng := newTool("gen")
		ng.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)
		if err := r.Override(ng); err != nil {
			t.Fatal(err)
		}
		if in, _ := r.Lookup("gen"); in.CallSignature != "async function gen(params: { query: string }): Promise<any>" {
			t.Errorf("CallSignature after Override = %q, want one generated from the new schema", in.CallSignature)
		}
	})
	t.Run("a given signature replaces a generated one", func(t *testing.T) {
		r := setup(t)
		ng := toolWith(pathSchema, "async function gen(path: string): Promise<string>")
		ng.Name = "gen"
		if err := r.Override(ng); err != nil {
			t.Fatal(err)
		}
		// Overriding again without a signature keeps the given one.
		again := newTool("gen")
		again.Parameters = registry.MustParseSchema(pathSchema)
		if err := r.Override(again); err != nil {
			t.Fatal(err)
		}
		if in, _ := r.Lookup("gen"); in.CallSignature != ng.CallSignature {
			t.Errorf("CallSignature = %q, want %q", in.CallSignature, ng.CallSignature)
		}
	})
}

func TestRegisterGeneratesSignature(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"word_count", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
			"async function word_count(params: { text: string }): Promise<any>"},
		{"get-sum", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`,
			"async function get_sum(params: { a: number; b: number }): Promise<any>"},
		{"3d-render", `{"type":"object"}`, "async function _3d_render(): Promise<any>"},
		{"open", `{"type":"object","additionalProperties":true}`, "async function open(params?: Record<string, unknown>): Promise<any>"},
		{"delete", `{"type":"object","properties":{"params":{"type":"string"}}}`,
			"async function delete_(args?: { params?: string }): Promise<any>"},
		{"fetch", `{"type":"object","properties":{}}`, "async function fetch_(): Promise<any>"},
		{"constructor", `{"type":"object","properties":{}}`, "async function constructor_(): Promise<any>"},
		{"ping", `{"type":"object","properties":{},"additionalProperties":false}`, "async function ping(): Promise<any>"},
		{"refd", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
			"async function refd(params?: Record<string, unknown>): Promise<any>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			tl := newTool(tc.name)
			tl.Parameters = registry.MustParseSchema(tc.schema)
			mustRegister(t, r, tl)
			in, _ := r.Lookup(tc.name)
			if in.CallSignature != tc.want {
				t.Errorf("generated CallSignature = %q, want %q", in.CallSignature, tc.want)
			}
			if got := r.Tools()[0].CallSignature; got != tc.want {
				t.Errorf("Tools()[0].CallSignature = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGeneratedFunctionNameCollisions(t *testing.T) {
	schemaOnly := func(name string) registry.Tool { return newTool(name) }
	t.Run("two tool names, one function name", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, schemaOnly("get_sum"))
		err := r.Register(schemaOnly("get-sum"))
		if err == nil {
			t.Fatal("Register(get-sum) after get_sum = nil, want an error")
		}
		containsAll(t, "error", err.Error(), `register tool "get-sum"`, "call signature generated from the parameters schema",
			`function name "get_sum" is already used by tool "get_sum"`, "give one of the two tools a CallSignature")
		// With a signature of its own it registers.
		own := schemaOnly("get-sum")
		own.CallSignature = "async function get_sum2(): Promise<any>"
		mustRegister(t, r, own)
	})
	t.Run("a generated name taken by a given signature", func(t *testing.T) {
		r := registry.New()
		other := schemaOnly("counter")
		other.CallSignature = "async function word_count(): Promise<any>"
		mustRegister(t, r, other)
		err := r.Register(schemaOnly("word_count"))
		if err == nil || !strings.Contains(err.Error(), `function name "word_count" is already used by tool "counter"`) {
			t.Errorf("Register(word_count) = %v, want an error naming counter", err)
		}
	})
	t.Run("a given signature cannot take a generated name", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, schemaOnly("word_count"))
		other := schemaOnly("counter")
		other.CallSignature = "async function word_count(): Promise<any>"
		if err := r.Register(other); err == nil || !strings.Contains(err.Error(), `already used by tool "word_count"`) {
			t.Errorf("Register(counter) = %v, want an error naming word_count", err)
		}
	})
	t.Run("a renamed global can collide too", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, schemaOnly("fetch"))
		if err := r.Register(schemaOnly("fetch_")); err == nil || !strings.Contains(err.Error(), `"fetch_" is already used by tool "fetch"`) {
			t.Errorf("Register(fetch_) = %v, want a collision with fetch", err)
		}
	})
	t.Run("a failed registration frees nothing and takes nothing", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, schemaOnly("get_sum"))
		_ = r.Register(schemaOnly("get-sum"))
		if _, ok := r.Lookup("get-sum"); ok {
			t.Error("the refused tool is registered")
		}
		if err := r.Register(schemaOnly("other")); err != nil {
			t.Error(err)
		}
	})
}

// TestGeneratedSignaturesRegister registers, without a signature, tools
// whose schemas exercise every construct FromSchema maps: each must get a
// signature that matches its schema.
func TestGeneratedSignaturesRegister(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["b"]}`,
		`{"type":"object","properties":{"params":{"type":"object"},"args":{"type":"string"},"input":{"type":"string"},"request":{"type":"string"},"options":{"type":"string"}},"required":["params"]}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","zz"],"additionalProperties":{"type":"number"}}`,
		`{"type":"object","allOf":[{"properties":{"x":{"type":"string"}}},{"properties":{"y":{"type":"number"}},"required":["y"]}]}`,
		`{"type":"object","anyOf":[{"properties":{"x":{"type":"string"}},"required":["x"]},{"properties":{"y":{"type":"number"}},"required":["y"]}]}`,
		`{"type":"object","oneOf":[{"type":"string"},{"type":"number"}]}`,
		`{"type":"object","patternProperties":{"^x-":{"type":"string"}}}`,
		`{"type":"object","properties":{"a-b":{"type":"string"},"":{"type":"string"},"class":{"type":"string"}},"required":["a-b"]}`,
		`{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}},"dependencies":{"a":["b"]}}`,
		`{"type":"object","properties":{"a":false,"b":true,"c":{}}}`,
	}
	// FromSchema's golden inputs, but project_tasks.json, whose $ref
	// points nowhere (FromSchema does not resolve references; the
	// registry refuses it).
	for _, f := range []string{"word_count.json", "optional_only.json"} {
		raw, err := os.ReadFile(filepath.Join("signature", "testdata", "fromschema", f))
		if err != nil {
			t.Fatal(err)
		}
		var def struct {
			Parameters json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, string(def.Parameters))
	}
	for i, schema := range schemas {
		tl := newTool("t")
		tl.Parameters = registry.MustParseSchema(schema)
		want, err := signature.FromSchema("t", tl.Parameters, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := registry.New()
		if err := r.Register(tl); err != nil {
			t.Errorf("schema %d %s: Register: %v", i, schema, err)
			continue
		}
		if in, _ := r.Lookup("t"); in.CallSignature != want {
			t.Errorf("schema %d: CallSignature = %q, want %q", i, in.CallSignature, want)
		}
	}
}

// TestBuiltinToolsRegister checks that every built-in and planning tool
// passes the signature check with the signature it ships.
func TestBuiltinToolsRegister(t *testing.T) {
	ts, err := builtin.Open(builtin.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	tools := append(ts.Tools(), builtin.PlanningTools(&builtin.Session{})...)
	r := registry.New()
	for _, tl := range tools {
		if tl.CallSignature == "" {
			t.Errorf("built-in %s has no signature of its own", tl.Name)
		}
		if err := r.Register(tl); err != nil {
			t.Errorf("Register(%s): %v", tl.Name, err)
			continue
		}
		if in, _ := r.Lookup(tl.Name); in.CallSignature != tl.CallSignature {
			t.Errorf("%s: CallSignature = %q, want its own %q", tl.Name, in.CallSignature, tl.CallSignature)
		}
	}
	if len(r.Tools()) != len(tools) || len(tools) < 11 {
		t.Errorf("%d of %d built-in tools registered", len(r.Tools()), len(tools))
	}
}

func TestRegisteredToolsCannotBeChanged(t *testing.T) {
	schema := func() map[string]any {
		return map[string]any{
			"type":       "object",
			"properties": map[string]any{"path": map[string]any{"type": "string", "enum": []any{"a", "b"}}},
			"required":   []any{"path"},
		}
	}
	register := func(t *testing.T) (*registry.Registry, registry.Tool) {
		r := registry.New()
		tl := newTool("t")
		tl.Parameters = schema()
		mustRegister(t, r, tl)
		return r, tl
	}
	unchanged := func(t *testing.T, r *registry.Registry) {
		t.Helper()
		in, _ := r.Lookup("t")
		if !reflect.DeepEqual(in.Parameters, schema()) {
			t.Errorf("Lookup(t).Parameters = %v, want %v", in.Parameters, schema())
		}
		if !reflect.DeepEqual(r.Tools()[0].Parameters, schema()) {
			t.Errorf("Tools()[0].Parameters = %v, want %v", r.Tools()[0].Parameters, schema())
		}
		if in.CallSignature != `async function t(params: { path: "a" | "b" }): Promise<any>` {
			t.Errorf("CallSignature = %q", in.CallSignature)
		}
		// Validation still follows the registered schema.
		res, err := r.CallTool(context.Background(), "t", map[string]any{"path": "a"}, registry.CallOptions{})
		if err != nil || res.IsError {
			t.Errorf("CallTool(t, {path: a}) = %+v, %v; want success", res, err)
		}
	}
	mutate := func(m map[string]any) {
		props := m["properties"].(map[string]any)
		props["path"].(map[string]any)["type"] = "number"
		props["path"].(map[string]any)["enum"].([]any)[0] = 1.0
		props["extra"] = map[string]any{"type": "string"}
		m["required"].([]any)[0] = "extra"
		m["type"] = "array"
	}
	t.Run("the caller's map after Register", func(t *testing.T) {
		r, tl := register(t)
		mutate(tl.Parameters)
		unchanged(t, r)
	})
	t.Run("a map from Tools", func(t *testing.T) {
		r, _ := register(t)
		mutate(r.Tools()[0].Parameters)
		unchanged(t, r)
	})
	t.Run("a map from Lookup", func(t *testing.T) {
		r, _ := register(t)
		in, _ := r.Lookup("t")
		mutate(in.Parameters)
		unchanged(t, r)
	})
	t.Run("the caller's map after Override", func(t *testing.T) {
		r, _ := register(t)
		nt := newTool("t")
		nt.Parameters = schema()
		if err := r.Override(nt); err != nil {
			t.Fatal(err)
		}
		mutate(nt.Parameters)
		unchanged(t, r)
	})
	t.Run("values that are not decoded JSON are copied as JSON", func(t *testing.T) {
		r := registry.New()
		tl := newTool("t")
		required := []string{"path"}
		tl.Parameters = map[string]any{
			"type":       "object",
			"properties": map[string]any{"path": map[string]any{"type": "string", "maxLength": 10}},
			"required":   required,
		}
		mustRegister(t, r, tl)
		required[0] = "other"
		in, _ := r.Lookup("t")
		want := map[string]any{
			"type":       "object",
			"properties": map[string]any{"path": map[string]any{"type": "string", "maxLength": 10.0}},
			"required":   []any{"path"},
		}
		if !reflect.DeepEqual(in.Parameters, want) {
			t.Errorf("Parameters = %#v, want %#v", in.Parameters, want)
		}
		// The required list counts for the generated signature too.
		if in.CallSignature != "async function t(params: { path: string }): Promise<any>" {
			t.Errorf("CallSignature = %q", in.CallSignature)
		}
	})
}
