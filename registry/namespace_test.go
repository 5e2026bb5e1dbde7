package registry_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

func TestNamespacedTools(t *testing.T) {
	t.Parallel()
	exec := func(context.Context, registry.Call) (registry.Result, error) { return registry.TextResult("ok"), nil }
	obj := registry.MustParseSchema(`{"type":"object"}`)
	tool := func(ns, name string) registry.Tool {
		return registry.Tool{Namespace: ns, Name: name, Description: "d", Parameters: obj, Execute: exec}
	}
	tests := []struct {
		name  string
		first []registry.Tool // registered first, must succeed
		tool  registry.Tool
		err   string // "" when Register must succeed
	}{
		{"server spelling kept", nil, tool("everything", "get-Sum.v2"), ""},
		{"same name in two namespaces", []registry.Tool{tool("a", "echo")}, tool("b", "echo"), ""},
		{"same name as a global function", []registry.Tool{{Name: "echo", Description: "d", Parameters: obj, Execute: exec}}, tool("a", "echo"), ""},
		{"duplicate in a namespace", []registry.Tool{tool("a", "echo")}, tool("a", "echo"), `register tool "a.echo": a tool with this name is already registered`},
		{"function names collide in a namespace", []registry.Tool{tool("a", "get_sum")}, tool("a", "get-sum"), `function name "a.get_sum" is already used by tool "a.get_sum"`},
		{"namespace not an identifier", nil, tool("my-server", "echo"), `invalid namespace "my-server"`},
		{"namespace shadows a global", nil, tool("JSON", "echo"), `namespace "JSON" would shadow`},
		{"namespace is a function name", []registry.Tool{{Name: "srv", Description: "d", Parameters: obj, Execute: exec}}, tool("srv", "echo"), `namespace "srv" is already the function name of tool "srv"`},
		{"function name is a namespace", []registry.Tool{tool("srv", "echo")}, registry.Tool{Name: "srv", Description: "d", Parameters: obj, Execute: exec}, `function name "srv" is already the namespace of other tools`},
		{"bad character in a name", nil, tool("a", "echo!"), `invalid name "echo!" in namespace a`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := registry.New()
			for _, f := range tc.first {
				if err := reg.Register(f); err != nil {
					t.Fatal(err)
				}
			}
			err := reg.Register(tc.tool)
			if tc.err == "" {
				if err != nil {
					t.Fatalf("Register: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Register error = %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestNamespacedCall(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	err := reg.Register(registry.Tool{Namespace: "everything", Name: "get-sum", Description: "Adds.",
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`),
		Execute:    func(context.Context, registry.Call) (registry.Result, error) { return registry.TextResult("3"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	info, ok := reg.Lookup("everything.get-sum")
	if !ok || info.Namespace != "everything" || info.Name != "everything.get-sum" ||
		info.CallSignature != "async function get_sum(params: { a: number }): Promise<any>" {
		t.Fatalf("Lookup = %+v, %v", info, ok)
	}
	res, err := reg.CallTool(context.Background(), "everything.get-sum", map[string]any{"a": 1.0}, registry.CallOptions{})
	if err != nil || res.Text() != "3" {
		t.Fatalf("CallTool = %v, %v", res, err)
	}
	if _, err := reg.CallTool(context.Background(), "get-sum", nil, registry.CallOptions{}); err == nil || err.Error() != "Tool not found: get-sum" {
		t.Fatalf("unqualified CallTool error = %v", err)
	}
}
