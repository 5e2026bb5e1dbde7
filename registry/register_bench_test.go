package registry_test

import (
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// BenchmarkRegister measures registering a tool with a typical schema
// (grep's shape) and a generated signature, which the CLI does for every
// tool at start.
func BenchmarkRegister(b *testing.B) {
	schema := registry.MustParseSchema(`{"type":"object","additionalProperties":false,"required":["pattern"],"properties":{"pattern":{"type":"string","minLength":1,"description":"a regular expression"},"path":{"type":"string","description":"a file or directory"},"glob":{"type":"string"},"ignoreCase":{"type":"boolean"},"context":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":1}}}`)
	tool := newTool("grep")
	tool.Parameters = schema
	b.ReportAllocs()
	for b.Loop() {
		if err := registry.New().Register(tool); err != nil {
			b.Fatal(err)
		}
	}
}
