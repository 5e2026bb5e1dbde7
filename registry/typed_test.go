package registry_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

type searchIn struct {
	Query string   `json:"query" jsonschema:"what to look for"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitzero"`
}

type searchHit struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

type searchOut struct {
	Hits  []searchHit `json:"hits"`
	Total int         `json:"total"`
}

func search(ctx context.Context, in searchIn) (searchOut, error) {
	if in.Query == "fail" {
		return searchOut{}, errors.New("search index is gone")
	}
	out := searchOut{Total: in.Limit}
	for i := range in.Limit {
		out.Hits = append(out.Hits, searchHit{Path: in.Query + ".go", Line: i + 1})
	}
	return out, nil
}

func TestNewToolSchemaAndSignature(t *testing.T) {
	tool, err := registry.NewTool("code-search", "Search code.", search)
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := registry.MustParseSchema(`{
		"type": "object",
		"properties": {
			"query": {"type": "string", "description": "what to look for"},
			"limit": {"type": "integer"},
			"tags": {"type": ["null", "array"], "items": {"type": "string"}}
		},
		"required": ["query"],
		"additionalProperties": false
	}`)
	if !reflect.DeepEqual(tool.Parameters, wantSchema) {
		t.Errorf("Parameters = %v\nwant %v", tool.Parameters, wantSchema)
	}
	wantSig := "async function code_search(params: { query: string; limit?: number; tags?: null | string[] }): " +
		"Promise<{ hits: null | { line: number; path: string }[]; total: number }>"
	if tool.CallSignature != wantSig {
		t.Errorf("CallSignature = %s\nwant %s", tool.CallSignature, wantSig)
	}
	if tool.Name != "code-search" || tool.Description != "Search code." || tool.Execute == nil {
		t.Errorf("tool = %+v", tool)
	}
	r := registry.New()
	mustRegister(t, r, tool)
	if in, _ := r.Lookup("code-search"); in.CallSignature != wantSig {
		t.Errorf("registered CallSignature = %q", in.CallSignature)
	}
}

func TestNewToolCalls(t *testing.T) {
	tool, err := registry.NewTool("search", "Search code.", search)
	if err != nil {
		t.Fatal(err)
	}
	r := registry.New()
	mustRegister(t, r, tool)
	tests := []struct {
		name    string
		params  map[string]any
		text    string // the result's text, or a substring of the error text
		details any    // for a success
		isError bool
	}{
		{"decoded into the struct", map[string]any{"query": "main", "limit": 2.0},
			`{"hits":[{"path":"main.go","line":1},{"path":"main.go","line":2}],"total":2}`,
			searchOut{Hits: []searchHit{{"main.go", 1}, {"main.go", 2}}, Total: 2}, false},
		{"optional fields left out", map[string]any{"query": "x"},
			`{"hits":null,"total":0}`, searchOut{}, false},
		{"missing required property", map[string]any{"limit": 1.0}, "query", nil, true},
		{"unknown property", map[string]any{"query": "x", "limt": 1.0}, "limt", nil, true},
		{"wrong type", map[string]any{"query": 5.0}, "query", nil, true},
		{"fn's error", map[string]any{"query": "fail"}, "search index is gone", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.CallTool(context.Background(), "search", tc.params, registry.CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v (%s)", res.IsError, tc.isError, res.Text())
			}
			if tc.isError {
				if !strings.Contains(res.Text(), tc.text) {
					t.Errorf("error text %q does not contain %q", res.Text(), tc.text)
				}
				return
			}
			if res.Text() != tc.text {
				t.Errorf("text = %s, want %s", res.Text(), tc.text)
			}
			if !reflect.DeepEqual(res.Details, tc.details) {
				t.Errorf("Details = %#v, want %#v", res.Details, tc.details)
			}
		})
	}
}

func TestNewToolStringResult(t *testing.T) {
	type in struct {
		Name string `json:"name"`
	}
	tool, err := registry.NewTool("greet", "Greet someone.", func(ctx context.Context, p in) (string, error) {
		return "hello, " + p.Name, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "async function greet(params: { name: string }): Promise<string>"; tool.CallSignature != want {
		t.Errorf("CallSignature = %q, want %q", tool.CallSignature, want)
	}
	res, err := tool.Execute(context.Background(), registry.Call{Params: map[string]any{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "hello, Ada" || res.Details != "hello, Ada" {
		t.Errorf("result = %+v, want the text itself", res)
	}
}

func TestNewToolExecuteRefusesUnknownFields(t *testing.T) {
	tool, err := registry.NewTool("search", "Search code.", search)
	if err != nil {
		t.Fatal(err)
	}
	// Execute called directly, without CallTool's validation.
	_, err = tool.Execute(context.Background(), registry.Call{Params: map[string]any{"query": "x", "extra": 1}})
	if err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Errorf("Execute with an unknown field: err = %v", err)
	}
}

func TestNewToolPassesContext(t *testing.T) {
	type in struct{}
	type key struct{}
	tool, err := registry.NewTool("ctx", "Reads its context.", func(ctx context.Context, _ in) (any, error) {
		return ctx.Value(key{}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "async function ctx(): Promise<unknown>"; tool.CallSignature != want {
		t.Errorf("CallSignature = %q, want %q", tool.CallSignature, want)
	}
	ctx := context.WithValue(context.Background(), key{}, "v")
	res, err := tool.Execute(ctx, registry.Call{})
	if err != nil || res.Details != "v" {
		t.Errorf("Execute = %+v, %v; want the context's value", res, err)
	}
}

func TestNewToolErrors(t *testing.T) {
	type okIn struct {
		A string `json:"a"`
	}
	tests := []struct {
		name string
		make func() (registry.Tool, error)
		want string
	}{
		{"params not a struct", func() (registry.Tool, error) {
			return registry.NewTool("t", "d", func(context.Context, map[string]any) (string, error) { return "", nil })
		}, `new tool "t": the params type map[string]interface {} is not a struct`},
		{"params a pointer", func() (registry.Tool, error) {
			return registry.NewTool("t", "d", func(context.Context, *okIn) (string, error) { return "", nil })
		}, "is not a struct"},
		{"params with a channel", func() (registry.Tool, error) {
			type bad struct{ C chan int }
			return registry.NewTool("t", "d", func(context.Context, bad) (string, error) { return "", nil })
		}, `new tool "t": params schema`},
		{"result with a function", func() (registry.Tool, error) {
			return registry.NewTool("t", "d", func(context.Context, okIn) (func(), error) { return nil, nil })
		}, `new tool "t": result schema`},
		{"nil fn", func() (registry.Tool, error) {
			return registry.NewTool[okIn, string]("t", "d", nil)
		}, `new tool "t": fn is nil`},
		{"empty name", func() (registry.Tool, error) {
			return registry.NewTool("", "d", func(context.Context, okIn) (string, error) { return "", nil })
		}, "tool name is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := tc.make()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewTool = %+v, %v; want an error containing %q", tool, err, tc.want)
			}
		})
	}
}
