package registry_test

import (
	"context"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// nestedObjects returns an object schema nesting objects through
// properties "a" until it is levels JSON levels deep (each nested schema
// takes two: its properties map and itself).
func nestedObjects(levels int) map[string]any {
	s, depth := map[string]any{"type": "object"}, 1
	if levels%2 == 0 {
		s, depth = map[string]any{"type": "object", "properties": map[string]any{}}, 2
	}
	for ; depth < levels; depth += 2 {
		s = map[string]any{"type": "object", "properties": map[string]any{"a": s}}
	}
	return s
}

// nestedArrays returns an object schema whose default is an array nested
// so that the schema is levels JSON levels deep.
func nestedArrays(levels int) map[string]any {
	var v any = []any{}
	for range levels - 2 {
		v = []any{v}
	}
	return map[string]any{"type": "object", "default": v}
}

func TestRegisterSchemaDepth(t *testing.T) {
	tests := []struct {
		name   string
		schema map[string]any
		want   string // the error, "" when the tool registers
	}{
		{"at the bound", nestedObjects(registry.MaxSchemaDepth), ""},
		{"one past the bound", nestedObjects(registry.MaxSchemaDepth + 1),
			`register tool "deep": parameters schema is nested 65 levels deep, more than the 64 allowed (each object or array is a level)`},
		{"3,000 schemas deep", nestedObjects(6000),
			`register tool "deep": parameters schema is nested 6000 levels deep, more than the 64 allowed (each object or array is a level)`},
		{"arrays in a default count", nestedArrays(registry.MaxSchemaDepth + 1),
			`register tool "deep": parameters schema is nested 65 levels deep, more than the 64 allowed (each object or array is a level)`},
		{"arrays at the bound", nestedArrays(registry.MaxSchemaDepth), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := registry.New()
			tool := newTool("deep")
			tool.Parameters = tt.schema
			err := r.Register(tool)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Register: %v", err)
				}
				// The full validator is built on a call it has to check.
				res, _ := r.CallTool(context.Background(), "deep", map[string]any{"zz": 1}, registry.CallOptions{})
				if !res.IsError {
					t.Fatalf("an undeclared property was accepted: %s", res.Text())
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Register: %v\nwant %s", err, tt.want)
			}
			if _, ok := r.Lookup("deep"); ok {
				t.Fatal("the refused tool is registered")
			}
		})
	}
}

func TestNestedObjectsDepth(t *testing.T) {
	// The generator itself: a schema of n levels has n nested maps or lists.
	for _, n := range []int{1, 2, 3, 64, 65} {
		depth := 0
		var walk func(v any, d int)
		walk = func(v any, d int) {
			switch x := v.(type) {
			case map[string]any:
				depth = max(depth, d+1)
				for _, e := range x {
					walk(e, d+1)
				}
			case []any:
				depth = max(depth, d+1)
				for _, e := range x {
					walk(e, d+1)
				}
			}
		}
		walk(nestedObjects(n), 0)
		if depth != n {
			t.Errorf("nestedObjects(%d) is %d levels deep", n, depth)
		}
	}
}
