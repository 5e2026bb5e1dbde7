package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/store"
)

// replicas starts n HTTP servers with the same tools, state key and
// store, and returns an HTTP client whose requests go to them in turn,
// as behind a load balancer without affinity, and how many each served.
func replicas(t *testing.T, n int, st store.Store, ran *atomic.Int32) (*http.Client, string, []atomic.Int32) {
	t.Helper()
	var hosts []string
	for range n {
		reg := approvalRegistry(t, ran)
		r, err := codeexec.New(reg, codeexec.Options{StateKey: []byte("a state key that the replicas share"), Store: st})
		if err != nil {
			t.Fatal(err)
		}
		s := mcp.NewServer(r, reg, mcp.ServerOptions{Store: st})
		hs := httptest.NewServer(s.Handler(mcp.HTTPOptions{AllowedHosts: []string{"127.0.0.1"}}))
		t.Cleanup(func() { hs.Close(); _ = s.Close(); _ = r.Close() })
		hosts = append(hosts, strings.TrimPrefix(hs.URL, "http://"))
	}
	var turn atomic.Int32
	served := make([]atomic.Int32, n)
	client := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		i := int(turn.Add(1)) % n
		served[i].Add(1)
		req = req.Clone(req.Context())
		u := *req.URL
		u.Host, req.Host = hosts[i], hosts[i]
		req.URL = &u
		return http.DefaultTransport.RoundTrip(req)
	})}
	return client, "http://" + hosts[0] + "/mcp", served
}

// TestSessionsAcrossReplicas checks that a session goes on through
// replicas that share a store, for both protocol generations: a client
// of protocol 2025-11-25 keeps its Mcp-Session-Id (a replica that does
// not hold it restores it from the store), one of 2026-07-28 passes the
// session handle its results carry; a session run that pauses for an
// approval resumes on another replica; a DELETE ends the session
// everywhere.
func TestSessionsAcrossReplicas(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			var ran, asked atomic.Int32
			client, endpoint, served := replicas(t, 2, memoryStore(t), &ran)
			ctx := context.Background()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{ElicitationHandler: answering(true, &asked)}).
				Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client}, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			handle := ""
			call := func(code string) map[string]any {
				t.Helper()
				args := map[string]any{"code": code}
				if handle != "" {
					args["session"] = handle
				}
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: args})
				if err != nil {
					t.Fatal(err)
				}
				sc, _ := res.StructuredContent.(map[string]any)
				if res.IsError {
					t.Fatalf("%q failed: %s", code, text(res))
				}
				if h, _ := sc["session"].(string); version >= "2026-07-28" {
					if h == "" || handle != "" && h != handle || !strings.HasSuffix(text(res), "session: "+h) {
						t.Fatalf("%q: session handle %q (had %q), text %q", code, h, handle, text(res))
					}
					handle = h
				} else if h != "" {
					t.Fatalf("a client with an MCP session got a handle %q", h)
				}
				return sc
			}
			call(`const n = 41; let log = ["a"]`)
			for i, want := range []float64{2, 3, 4} {
				if sc := call(`log.push("x"); return log.length`); sc["value"] != want {
					t.Fatalf("run %d: value %v, want %v", i+2, sc["value"], want)
				}
			}
			wantLog, wantRan := "a,x,x,x", int32(0)
			if version >= "2026-07-28" {
				// An older client is asked during the call (elicitation),
				// and its answer is a request of its own, which a balancer
				// without affinity sends to any replica: see docs/deploy.md.
				if sc := call(`const t = await twice(n); log.push(String(t)); return [t, log.length]`); sc["stdout"] != "" || asked.Load() != 1 || ran.Load() != 1 {
					t.Fatalf("approved run: %v, asked %d, ran %d", sc, asked.Load(), ran.Load())
				} else if v, _ := sc["value"].([]any); len(v) != 2 || v[0] != float64(82) || v[1] != float64(5) {
					t.Fatalf("approved run's value %v, want [82, 5]", sc["value"])
				}
				wantLog, wantRan = "a,x,x,x,82", 1
			}
			if sc := call(`return [n, log.join(",")]`); sc["value"].([]any)[1] != wantLog {
				t.Fatalf("last run: %v, want the log %s", sc["value"], wantLog)
			}
			if served[0].Load() < 3 || served[1].Load() < 3 {
				t.Errorf("requests served %d and %d: both replicas must have served the session", served[0].Load(), served[1].Load())
			}
			if ran.Load() != wantRan {
				t.Errorf("twice ran %d times, want %d: a rebuild calls no tool", ran.Load(), wantRan)
			}
		})
	}
}
