package registry

import (
	"strings"
	"testing"
)

// TestRenderCall checks the one-line rendering of a call.
func TestRenderCall(t *testing.T) {
	read := Info{Name: "read", Label: "Read file", Parameters: map[string]any{"required": []any{"path"}}}
	tests := []struct {
		info   Info
		params map[string]any
		want   string
	}{
		{read, map[string]any{"path": "a.txt"}, "Read file: a.txt"},
		{read, map[string]any{"path": "my file.txt", "limit": 10.0, "offset": 2.0}, `Read file: "my file.txt" limit=10 offset=2`},
		{Info{Name: "echo"}, map[string]any{"x": map[string]any{"a": []any{1.0}}}, `echo: x={"a":[1]}`},
		{Info{Name: "echo"}, map[string]any{"x": strings.Repeat("y", 70)}, "echo: x=" + strings.Repeat("y", 60) + "..."},
		{Info{Name: "echo"}, map[string]any{}, "echo:"},
	}
	for _, tt := range tests {
		if got := tt.info.RenderCall(tt.params); got != tt.want {
			t.Errorf("RenderCall(%v) = %q, want %q", tt.params, got, tt.want)
		}
	}
}
