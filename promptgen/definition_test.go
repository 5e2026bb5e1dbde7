package promptgen

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

func TestDefinitionGolden(t *testing.T) {
	tests := []struct {
		golden   string
		provider Provider
		opts     DefinitionOptions
	}{
		{"def_openai.golden.json", OpenAI, DefinitionOptions{}},
		{"def_anthropic.golden.json", Anthropic, DefinitionOptions{}},
		{"def_google.golden.json", Google, DefinitionOptions{}},
		{"def_anthropic_tools.golden.json", Anthropic, DefinitionOptions{Description: "Run code.", Tools: testTools()}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			got, err := DefinitionJSON(tt.provider, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(got) || !strings.HasSuffix(string(got), "}\n") {
				t.Errorf("not indented JSON with a trailing newline:\n%s", got)
			}
			checkGolden(t, tt.golden, got)
		})
	}
}

func TestDefinitionDescription(t *testing.T) {
	desc := func(opts DefinitionOptions) string {
		d, err := Definition(Anthropic, opts)
		if err != nil {
			t.Fatal(err)
		}
		return d["description"].(string)
	}
	if got := desc(DefinitionOptions{}); got != DefaultDescription {
		t.Errorf("default description = %q", got)
	}
	if got := desc(DefinitionOptions{Description: "  Custom.  "}); got != "Custom." {
		t.Errorf("custom description = %q", got)
	}
	tools := testTools()
	opts := DefinitionOptions{Tools: tools, RenderOptions: Options{FullDescriptions: true}}
	want := DefaultDescription + "\n\n" + strings.TrimRight(Render(tools, opts.RenderOptions), "\n")
	if got := desc(opts); got != want {
		t.Errorf("description with tools =\n%s\nwant\n%s", got, want)
	}
	if got := desc(DefinitionOptions{Tools: []registry.Info{}}); !strings.Contains(got, noFunctions) {
		t.Errorf("empty non-nil Tools should append the block: %q", got)
	}
	if !reflect.DeepEqual(tools, testTools()) {
		t.Error("Definition modified the tool list")
	}
}

func TestDefinitionShapes(t *testing.T) {
	for _, p := range Providers() {
		d, err := Definition(p, DefinitionOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var fn map[string]any
		var schema map[string]any
		switch p {
		case OpenAI:
			if d["type"] != "function" {
				t.Errorf("openai type = %v", d["type"])
			}
			fn = d["function"].(map[string]any)
			schema = fn["parameters"].(map[string]any)
			if schema["additionalProperties"] != false {
				t.Errorf("openai: additionalProperties = %v", schema["additionalProperties"])
			}
		case Anthropic:
			fn = d
			schema = d["input_schema"].(map[string]any)
			if !reflect.DeepEqual(schema, Parameters()) {
				t.Errorf("anthropic schema changed: %v", schema)
			}
		case Google:
			decls := d["functionDeclarations"].([]any)
			if len(decls) != 1 {
				t.Fatalf("google: %d declarations", len(decls))
			}
			fn = decls[0].(map[string]any)
			schema = fn["parameters"].(map[string]any)
		}
		if fn["name"] != ToolName {
			t.Errorf("%s: name = %v", p, fn["name"])
		}
		if _, ok := schema["properties"].(map[string]any)["code"]; !ok {
			t.Errorf("%s: no code property: %v", p, schema)
		}
		if !reflect.DeepEqual(schema["required"], []any{"code"}) {
			t.Errorf("%s: required = %v", p, schema["required"])
		}
	}
}

func TestToolDefinition(t *testing.T) {
	params := func() map[string]any {
		return registry.MustParseSchema(`{"type":"object","properties":{"q":{"type":"object","properties":{"a":{}},"additionalProperties":true}},"additionalProperties":true}`)
	}
	in := params()
	for _, p := range Providers() {
		d, err := ToolDefinition(p, "search", "Search.", in)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, _ := json.Marshal(d)
		s := string(b)
		switch p {
		case OpenAI:
			if strings.Contains(s, `"additionalProperties":true`) || !strings.Contains(s, `"required":["a"]`) {
				t.Errorf("openai: %s", s)
			}
		case Anthropic:
			if !reflect.DeepEqual(d["input_schema"], params()) {
				t.Errorf("anthropic: schema not passed through: %s", s)
			}
			d["input_schema"].(map[string]any)["type"] = "changed"
		case Google:
			if strings.Contains(s, "additionalProperties") {
				t.Errorf("google: %s", s)
			}
		}
	}
	if !reflect.DeepEqual(in, params()) {
		t.Error("ToolDefinition modified or shares its parameters")
	}

	d, err := ToolDefinition(OpenAI, "noargs", "No args.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d["function"].(map[string]any)["parameters"]; !reflect.DeepEqual(got, map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}) {
		t.Errorf("nil parameters gave %v", got)
	}
}

func TestToolDefinitionErrors(t *testing.T) {
	obj := map[string]any{"type": "object"}
	tests := []struct {
		name     string
		provider Provider
		tool     string
		params   map[string]any
		want     string
	}{
		{"unknown provider", "mistral", "x", obj, `unknown provider "mistral" (valid: openai, anthropic, google)`},
		{"provider case matters for the type", "OpenAI", "x", obj, "unknown provider"},
		{"empty name", OpenAI, "", obj, "empty name"},
		{"non-object schema", Google, "x", map[string]any{"type": "string"}, `parameters type is string, want "object"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ToolDefinition(tt.provider, tt.tool, "d", tt.params)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := Definition("nope", DefinitionOptions{}); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("Definition: err = %v, want ErrUnknownProvider", err)
	}
	if _, err := DefinitionJSON("nope", DefinitionOptions{}); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("DefinitionJSON: err = %v, want ErrUnknownProvider", err)
	}
}

func TestParseProvider(t *testing.T) {
	tests := []struct {
		in      string
		want    Provider
		wantErr string
	}{
		{"openai", OpenAI, ""},
		{"OpenAI", OpenAI, ""},
		{"ANTHROPIC", Anthropic, ""},
		{" Google ", Google, ""},
		{"gemini", "", `unknown provider "gemini" (valid: openai, anthropic, google)`},
		{"", "", `unknown provider "" (valid: openai, anthropic, google)`},
		{"open ai", "", "unknown provider"},
	}
	for _, tt := range tests {
		got, err := ParseProvider(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseProvider(%q) err = %v, want %q", tt.in, err, tt.wantErr)
			}
			if !errors.Is(err, ErrUnknownProvider) {
				t.Errorf("ParseProvider(%q) err = %v, not ErrUnknownProvider", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseProvider(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
