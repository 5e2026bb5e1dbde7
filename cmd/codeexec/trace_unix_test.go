//go:build unix

package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestRunExportsTraces runs `codeexec run` with the OTEL_* variables
// pointing at an OTLP/HTTP receiver the test runs: the process exports its
// run's span and its tool call's before it exits (resume and repl start
// their tracing the same way, through app.tracing).
func TestRunExportsTraces(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies [][]byte
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/traces" {
			mu.Lock()
			bodies = append(bodies, body)
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer rx.Close()
	dir := t.TempDir()
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rx.URL, "OTEL_EXPORTER_OTLP_COMPRESSION=none"}
	cli := startCLIEnv(t, dir, env, "run", "--isolation", "none", "--root", dir, "-e", `return (await ls(".")).length >= 0`)
	if out := cli.wait(t); out != "true\n" {
		t.Fatalf("run printed %q", out)
	}
	mu.Lock()
	defer mu.Unlock()
	var all []byte
	for _, b := range bodies {
		all = append(all, b...)
	}
	// OTLP's protobuf keeps span names as plain bytes.
	for _, name := range []string{"code_execution", "execute_tool ls"} {
		if !bytes.Contains(all, []byte(name)) {
			t.Errorf("no span %q among the %d exports the receiver got", name, len(bodies))
		}
	}
}
