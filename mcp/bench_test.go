package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/store"
)

// BenchmarkCall measures one code_execution call of the 30-line benchmark
// snippet (two tool calls) from a client of the official SDK over the
// in-memory transport, in process: in a session (each MCP session is a
// codeexec session, as over stdio), kept in this process only or in the
// memory store (what `codeexec mcp` does by default: a warm session's
// call then also records its run), and stateless. Run it with GOGC unset
// and GOGC=400 to see what the collector costs a call.
func BenchmarkCall(b *testing.B) {
	for _, tc := range []struct {
		name       string
		noSessions bool
		store      bool
	}{{"session", false, false}, {"session-stored", false, true}, {"stateless", true, false}} {
		b.Run(tc.name, func(b *testing.B) {
			reg := benchdata.Tools()
			var opts codeexec.Options
			if tc.store {
				st, err := store.Open(context.Background(), "memory:", store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				opts.Store = st
			}
			r, err := codeexec.New(reg, opts)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = r.Close() }()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ct, st := sdk.NewInMemoryTransports()
			served := make(chan error, 1)
			go func() {
				served <- mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: tc.noSessions}).ServeTransport(ctx, st)
			}()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { cs.Close(); cancel(); <-served }()
			params := &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": benchdata.Snippet30}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatalf("call: %v %v", err, res)
				}
			}
		})
	}
}
