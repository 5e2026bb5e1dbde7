package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/store"
)

// serveEnv makes the test binary serve code_execution over stdio (see
// serveCode) when set to "serve-code": the stdio peer of the TypeScript
// client in the interop test.
const serveEnv = "CODEEXEC_TEST_SERVE_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "serve-code" {
		serveCode()
		return
	}
	code := m.Run()
	if code == 0 {
		// Every connection, session and server goroutine is gone.
		http.DefaultClient.CloseIdleConnections()
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// serveCode serves code_execution over stdio with the tools of
// testRegistry, as `codeexec mcp` does.
func serveCode() {
	reg, err := newTestRegistry(nil)
	if err != nil {
		panic(err)
	}
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	if err := mcp.NewServer(r, reg, mcp.ServerOptions{}).Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// memoryStore returns a memory store, closed when t ends.
func memoryStore(t *testing.T) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), "memory:", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}
