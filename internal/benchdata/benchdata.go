// Package benchdata holds the inputs that benchmarks in several packages
// share, so that in-process and isolated numbers measure the same work.
package benchdata

import (
	"context"
	_ "embed"

	"github.com/codeexec/codeexec/registry"
)

// Snippet30 is a typical 30-line snippet: types, a class, a loop, two read
// calls and a returned summary.
//
//go:embed snippet30.ts
var Snippet30 string

// Tools returns a registry with the read tool Snippet30 calls, which answers
// at once without touching the disk.
func Tools() *registry.Registry {
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "read", Description: "Read a file.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		CallSignature: "async function read(path: string): Promise<string>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult("some words in a file named " + c.Params["path"].(string)), nil
		},
	})
	if err != nil {
		panic(err) // a fixed, valid definition
	}
	return reg
}
