package codeexec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// TestEncodeRun checks that a stored run decodes to what was encoded, a
// small one kept as JSON and a large one compressed.
func TestEncodeRun(t *testing.T) {
	for _, tt := range []struct {
		name       string
		result     string
		compressed bool
	}{
		{"small", "ok", false},
		{"large", strings.Repeat("a line of a large tool result\n", 1000), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := &storedRun{
				Source: "const x = await read('a')", Filename: "snippet.ts", Echo: true,
				Log:     []toolcall.Entry{{Name: "read", Params: json.RawMessage(`{"path":"a"}`), Outcome: &toolcall.Outcome{Content: []registry.Content{registry.TextContent(tt.result)}}}},
				Sources: &runtime.Sources{Seed: [32]byte{1, 2, 3}, Clock: []int64{1e18, 1e18 + 1}},
			}
			value, err := encodeRun(run)
			if err != nil {
				t.Fatal(err)
			}
			if compressed := value[0] != '{'; compressed != tt.compressed || compressed && len(value) > len(tt.result)/4 {
				t.Errorf("%d bytes, compressed %v; want compressed %v", len(value), compressed, tt.compressed)
			}
			got, err := decodeRun(value)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, run) {
				t.Errorf("decoded %+v, want %+v", got, run)
			}
		})
	}
	if _, err := decodeRun([]byte("\x00garbage")); err == nil {
		t.Error("garbage decoded without an error")
	}
}
