package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// BenchmarkRead measures one read of a whole file: a small one (98 bytes,
// as the issue's, where the 64 KiB buffer was most of what a call
// allocated) and one larger than the buffer.
func BenchmarkRead(b *testing.B) {
	for _, tc := range []struct {
		name string
		size int
	}{{"98B", 98}, {"200KiB", 200 << 10}} {
		b.Run(tc.name, func(b *testing.B) {
			root := b.TempDir()
			content := strings.Repeat("x", tc.size%13) + strings.Repeat("line of text\n", tc.size/13)
			if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
			ts, err := Open(Options{Root: root})
			if err != nil {
				b.Fatal(err)
			}
			defer ts.Close()
			var read registry.Tool
			for _, t := range ts.Tools() {
				if t.Name == "read" {
					read = t
				}
			}
			call := registry.Call{ID: "bench", Params: map[string]any{"path": "f.txt"}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := read.Execute(context.Background(), call)
				if err != nil || res.Text() != content {
					b.Fatalf("read: %v, %d bytes, want %d", err, len(res.Text()), tc.size)
				}
			}
		})
	}
}
