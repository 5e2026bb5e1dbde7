package registry_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// undeclared returns params with n properties p00000, p00001, ... and
// the declared property "a".
func undeclared(n int) map[string]any {
	params := map[string]any{"a": "x"}
	for i := range n {
		params[fmt.Sprintf("p%05d", i)] = 1.0
	}
	return params
}

// TestRefusalIsBounded: a refusal lists the first ten problems and counts
// the others, whatever the number of offending params.
func TestRefusalIsBounded(t *testing.T) {
	listed := func(from, to int) string {
		var parts []string
		for i := from; i < to; i++ {
			parts = append(parts, fmt.Sprintf("params: additional properties 'p%05d' not allowed", i))
		}
		return strings.Join(parts, "; ")
	}
	long := strings.Repeat("n", 5000)
	tests := []struct {
		name   string
		schema string
		params map[string]any
		want   string
	}{
		{"ten are listed whole", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, undeclared(10),
			"Invalid parameters for tool t: " + listed(0, 10) + "; expected {a?: string}"},
		{"twelve: ten and a count", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, undeclared(12),
			"Invalid parameters for tool t: " + listed(0, 10) + "; and 2 more problems; expected {a?: string}"},
		{"undeclared refused by default", `{"type":"object","properties":{"a":{"type":"string"}}}`, undeclared(12),
			"Invalid parameters for tool t: " + listed(0, 10) + "; and 2 more problems; expected {a?: string}"},
		{"problems of several kinds", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["b"],"additionalProperties":false}`,
			map[string]any{"a": "x", "p1": 1.0},
			"Invalid parameters for tool t: params.a: got string, want integer; params: additional properties 'p1' not allowed; params: missing property 'b'; expected {b: string, a?: integer}"},
		{"a long name is cut", `{"type":"object","additionalProperties":false}`, map[string]any{long: 1.0},
			"Invalid parameters for tool t: params: additional properties '" + long[:100] + "…' not allowed; expected object"},
		{"items past the ten are counted", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`,
			map[string]any{"a": []any{1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0}},
			"Invalid parameters for tool t: params.a.0: got number, want string; params.a.1: got number, want string; params.a.2: got number, want string; params.a.3: got number, want string; params.a.4: got number, want string; params.a.5: got number, want string; params.a.6: got number, want string; params.a.7: got number, want string; params.a.8: got number, want string; params.a.9: got number, want string; and 1 more problem; expected {a?: array of string}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := registry.New()
			tool := newTool("t")
			tool.Parameters = registry.MustParseSchema(tt.schema)
			mustRegister(t, r, tool)
			res, err := r.CallTool(context.Background(), "t", tt.params, registry.CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := wantIsError(t, res); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestRefusalOfManyParams: 100,000 undeclared params (a 5 MB message
// before; the report had 300,000 and 16 MB) make a message of the same
// bounded size as twelve, and building it allocates little beyond the
// sorted list of their names: neither a line per param nor a copy of the
// params. Both bounds hold per param, whatever their number.
func TestRefusalOfManyParams(t *testing.T) {
	const n = 100_000
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
	} {
		t.Run(schema, func(t *testing.T) {
			r := registry.New()
			tool := newTool("t")
			tool.Parameters = registry.MustParseSchema(schema)
			mustRegister(t, r, tool)
			params := undeclared(n)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := r.CallTool(context.Background(), "t", params, registry.CallOptions{})
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			got := wantIsError(t, res)
			if !strings.Contains(got, fmt.Sprintf("; and %d more problems; expected {a?: string}", n-10)) || len(got) > 1000 {
				t.Fatalf("a message of %d bytes: %.2000s", len(got), got)
			}
			// The sorted names take 16 bytes a param; a line per param would
			// take 70 more (the 16 MB message), a copy of the params as much.
			// A generous bound between the two.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40*n {
				t.Errorf("the refusal allocated %d bytes, %d a param", alloc, alloc/n)
			}
		})
	}
}
