package bindings

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// namespaced registers two tools in namespace "srv" (echo, and get-sum
// whose function is get_sum) beside a global function.
func namespaced(t *testing.T) *registry.Registry {
	t.Helper()
	reg := registry.New()
	echo := func(_ context.Context, c registry.Call) (registry.Result, error) {
		b, _ := json.Marshal(c.Params)
		return registry.TextResult(string(b)), nil
	}
	for _, tool := range []registry.Tool{
		{Namespace: "srv", Name: "echo", Description: "Echoes.", Execute: echo,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		{Namespace: "srv", Name: "get-sum", Description: "Adds.", Execute: echo,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`)},
		{Name: "echo", Description: "The global echo.", Execute: echo,
			Parameters: registry.MustParseSchema(`{"type":"object","properties":{"x":{"type":"number"}}}`)},
	} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func TestNamespaces(t *testing.T) {
	reg := namespaced(t)
	tests := []struct {
		name, src, value, err string
	}{
		{"method", `return await srv.echo({ message: "hi" })`, `{"message":"hi"}`, ""},
		{"invalid characters become _", `return await srv.get_sum({ a: 1, b: 2 })`, `{"a":1,"b":2}`, ""},
		{"callTool takes the qualified name", `return (await callTool("srv.get-sum", { a: 1 })).content[0].text`, `"{\"a\":1}"`, ""},
		{"global function of the same name", `return await echo({ x: 1 })`, `{"x":1}`, ""},
		{"the namespace is a plain object", `return Object.keys(srv).sort()`, `["echo","get_sum"]`, ""},
		{"no such method", `return await srv.nope()`, "", "TypeError: srv.nope is not a function\n"},
		{"a near method", `return await srv.getSum({ a: 1 })`, "", "TypeError: srv.getSum is not a function (did you mean srv.get_sum?)"},
		{"a near method, one letter off", `return await srv.getSums({ a: 1 })`, "", "TypeError: srv.getSums is not a function (did you mean srv.get_sum?)"},
		{"a near global", `return await ehco({ x: 1 })`, "", "ReferenceError: ehco is not defined (did you mean echo?)"},
		{"a namespaced method called bare", `return await get_sum({ a: 1 })`, "", "ReferenceError: get_sum is not defined (did you mean srv.get_sum?)"},
		{"errors name the method", `return await srv.echo({ message: "a" }, 2)`, "", "srv.echo() takes at most 1 argument but got 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runWith(t, reg, tc.src, runtime.Options{})
			if tc.err != "" {
				if res.Error == nil || !strings.Contains(res.Error.Report(), tc.err) {
					t.Fatalf("error = %v, want one containing %q", res.Error, tc.err)
				}
				return
			}
			if res.Error != nil {
				t.Fatalf("error: %s", res.Error.Report())
			}
			if string(res.Value) != tc.value {
				t.Errorf("value = %s, want %s", res.Value, tc.value)
			}
		})
	}
}

// TestNamespaceShadowsGlobal checks that a namespace named like a global
// of the run is refused when the run starts.
func TestNamespaceShadowsGlobal(t *testing.T) {
	infos := []registry.Info{{Name: "console.log", Namespace: "console", Description: "x",
		Parameters: map[string]any{"type": "object"}, CallSignature: "async function log(): Promise<string>"}}
	res := runWith(t, staticTools(infos), `1`, runtime.Options{})
	if res.Error == nil || !strings.Contains(res.Error.Error(), `namespace "console" would shadow an existing global`) {
		t.Fatalf("error = %v, want the namespace refused", res.Error)
	}
}

// staticTools is a Caller that lists infos and runs nothing.
type staticTools []registry.Info

func (s staticTools) Tools() []registry.Info { return s }
func (s staticTools) CallTool(context.Context, string, map[string]any, registry.CallOptions) (registry.Result, error) {
	return registry.Result{}, nil
}
