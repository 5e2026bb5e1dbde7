package registry_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// TestToolExamples checks Register's checks of a tool's examples: each
// refused example gives an error naming it and the problem; accepted ones
// come back from Tools as copies.
func TestToolExamples(t *testing.T) {
	base := func(sig string, examples ...registry.Example) registry.Tool {
		return registry.Tool{
			Name: "search", Description: "Search.",
			Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"number"}},"required":["q"]}`),
			CallSignature: sig,
			Execute:       func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, nil },
			Examples:      examples,
		}
	}
	const objSig = `async function search(q: string, options?: { limit?: number }): Promise<{ hits: { file: string; line: number }[]; total: number; kind?: "exact" | "fuzzy" }>`
	const strSig = `async function search(q: string): Promise<string>`
	ok := registry.Example{Description: "Find TODOs", Input: map[string]any{"q": "TODO", "limit": 2},
		Output: map[string]any{"hits": []any{map[string]any{"file": "a.go", "line": 3}}, "total": 1}}
	tests := []struct {
		name string
		tool registry.Tool
		want string // "" accepts
	}{
		{"accepted object output", base(objSig, ok), ""},
		{"accepted string output", base(strSig, registry.Example{Description: "Plain", Input: map[string]any{"q": "x"}, Output: "a.go:3:x"}), ""},
		{"accepted literal union", base(objSig, registry.Example{Description: "Kind", Input: map[string]any{"q": "x"}, Output: map[string]any{"hits": []any{}, "total": 0, "kind": "fuzzy"}}), ""},
		{"accepted quoted, escaped and hexadecimal literals", base(`async function search(q: string): Promise<'it\'s' | "\x41" | 0x10 | -2.5>`,
			registry.Example{Description: "Quote", Input: map[string]any{"q": "x"}, Output: "it's"},
			registry.Example{Description: "Escape", Input: map[string]any{"q": "x"}, Output: "A"},
			registry.Example{Description: "Hex", Input: map[string]any{"q": "x"}, Output: 16},
			registry.Example{Description: "Negative", Input: map[string]any{"q": "x"}, Output: -2.5}), ""},
		{"output outside a numeric literal", base(`async function search(q: string): Promise<0x10>`, registry.Example{Description: "Ten", Input: map[string]any{"q": "x"}, Output: 10}), `output is number, want 0x10`},
		{"empty description", base(objSig, registry.Example{Input: map[string]any{"q": "x"}}), `example 1: the description is empty`},
		{"long description", base(strSig, registry.Example{Description: strings.Repeat("d", 201), Input: map[string]any{"q": "x"}, Output: ""}), `the description has 201 characters, over the limit of 200`},
		{"input misses a required param", base(strSig, registry.Example{Description: "No q", Input: map[string]any{}, Output: ""}), `example 1 ("No q"): the input does not fit the parameters schema: `},
		{"input with an unknown param", base(strSig, registry.Example{Description: "Extra", Input: map[string]any{"q": "x", "qq": 1}, Output: ""}), `example 1 ("Extra"): the input does not fit the parameters schema`},
		{"output of the wrong type", base(strSig, registry.Example{Description: "Number", Input: map[string]any{"q": "x"}, Output: 3}), `example 1 ("Number"): the output does not fit the return type string: output is number, want string`},
		{"output misses a member", base(objSig, ok, registry.Example{Description: "No total", Input: map[string]any{"q": "x"}, Output: map[string]any{"hits": []any{}}}), `example 2 ("No total"): the output does not fit the return type`},
		{"output element of the wrong type", base(objSig, registry.Example{Description: "Bad line", Input: map[string]any{"q": "x"}, Output: map[string]any{"hits": []any{map[string]any{"file": "a", "line": "3"}}, "total": 1}}), `output.hits[0].line is string, want number`},
		{"output outside a literal union", base(objSig, registry.Example{Description: "Kind", Input: map[string]any{"q": "x"}, Output: map[string]any{"hits": []any{}, "total": 0, "kind": "exactish"}}), `output.kind is string, want "exact" | "fuzzy"`},
		{"output for void", base(`async function search(q: string): Promise<void>`, registry.Example{Description: "Void", Input: map[string]any{"q": "x"}, Output: "x"}), `output is string, want void`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := registry.New()
			err := reg.Register(tt.tool)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Register: %v", err)
				}
				got := reg.Tools()[0].Examples
				if len(got) != len(tt.tool.Examples) || got[0].Description != tt.tool.Examples[0].Description {
					t.Errorf("examples %+v", got)
				}
				got[0].Input["q"] = "changed"
				if reg.Tools()[0].Examples[0].Input["q"] == "changed" {
					t.Errorf("Tools returned the registered example, not a copy")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Register: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestDecodeExamples checks DecodeExamples in both modes: a list of
// examples decodes alike; an unknown member is an error only when strict;
// what is not a list of objects is an error either way.
func TestDecodeExamples(t *testing.T) {
	one := map[string]any{"description": "Find", "input": map[string]any{"q": "x"}, "output": 1.0}
	want := []registry.Example{{Description: "Find", Input: map[string]any{"q": "x"}, Output: 1.0}}
	extra := map[string]any{"description": "Find", "input": map[string]any{"q": "x"}, "output": 1.0, "note": "n"}
	tests := []struct {
		name      string
		v         any
		strict    bool
		want      []registry.Example
		wantError string // "" for none
	}{
		{"strict list", []any{one}, true, want, ""},
		{"lax list", []any{one}, false, want, ""},
		{"empty list", []any{}, true, []registry.Example{}, ""},
		{"strict, an unknown member", []any{extra}, true, nil, `unknown field "note"`},
		{"lax, an unknown member", []any{extra}, false, want, ""},
		{"an object", one, false, nil, `"examples" must be an array of {"description", "input", "output"} objects, got a JSON object`},
		{"absent", nil, false, nil, "got a JSON null"},
		{"a list of strings", []any{"x"}, false, nil, `"examples" must be an array of {"description", "input", "output"} objects: json: cannot unmarshal`},
		{"not JSON", []any{func() {}}, true, nil, `"examples": json: unsupported type`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := registry.DecodeExamples(tt.v, tt.strict)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("DecodeExamples = %+v, %v; want an error containing %q", got, err, tt.wantError)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("DecodeExamples = %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}
