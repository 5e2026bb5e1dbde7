package mcp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
)

// approvalRegistry is testRegistry with a hook that asks the MCP client
// before every call of twice, as codeexec mcp --confirm twice does, and
// counts the calls of twice that ran.
func approvalRegistry(t *testing.T, ran *atomic.Int32) *registry.Registry {
	t.Helper()
	reg := testRegistry(t)
	reg.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
		if ev.Name != "twice" {
			return ""
		}
		ok, err := mcp.Confirm(ctx, "allow "+ev.Name+"?")
		switch {
		case errors.Is(err, mcp.ErrPause):
			return registry.Ask
		case err != nil:
			return err.Error()
		case !ok:
			return "denied by the user"
		}
		return ""
	})
	reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		if ev.Name == "twice" {
			ran.Add(1)
		}
		return nil
	})
	return reg
}

// answering is an elicitation handler that answers allow and counts the
// questions.
func answering(allow bool, asked *atomic.Int32) func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		asked.Add(1)
		if !strings.Contains(req.Params.Message, "twice") {
			return nil, errors.New("unexpected question " + req.Params.Message)
		}
		return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": allow}}, nil
	}
}

// approvalSnippet makes two calls that need approval, with other work
// around them, and returns what it got.
const approvalSnippet = `console.log("start", Math.random() < 1);
const a = await twice(3).catch((e: any) => e.message);
const w = await wait(1);
const b = await twice(4).catch((e: any) => e.message);
return [a, w, b].join(" ");`

// TestMultiRoundTripApproval checks that a client that speaks protocol
// 2026-07-28 approves and denies through input-required results, with a
// session (stored: the resume rebuilds it) and without: the run pauses
// and the retry resumes it.
func TestMultiRoundTripApproval(t *testing.T) {
	t.Parallel()
	for _, sessions := range []bool{true, false} {
		for _, allow := range []bool{true, false} {
			name := map[bool]string{true: "session", false: "stateless"}[sessions] + map[bool]string{true: "/approve", false: "/deny"}[allow]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var ran, asked atomic.Int32
				reg := approvalRegistry(t, &ran)
				r, err := codeexec.New(reg, codeexec.Options{Store: memoryStore(t)})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				s := mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: !sessions})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				ct, st := sdk.NewInMemoryTransports()
				served := make(chan error, 1)
				go func() { served <- s.ServeTransport(ctx, st) }()
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{ElicitationHandler: answering(allow, &asked)}).Connect(ctx, ct, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := callCode(ctx, cs, approvalSnippet)
				if err != nil {
					t.Fatal(err)
				}
				want, wantRan := "6 waited 8", int32(2)
				if !allow {
					want, wantRan = "Tool call twice blocked: denied by the user waited Tool call twice blocked: denied by the user", 0
				}
				sc, _ := res.StructuredContent.(map[string]any)
				if sc["value"] != want || sc["stdout"] != "start true\n" {
					t.Errorf("value %v, stdout %q; want %q (%s)", sc["value"], sc["stdout"], want, text(res))
				}
				if asked.Load() != 2 || ran.Load() != wantRan {
					t.Errorf("asked %d times, twice ran %d times; want 2 and %d", asked.Load(), ran.Load(), wantRan)
				}
				cs.Close()
				cancel()
				<-served
			})
		}
	}
}

// TestMultiRoundTripAcrossReplicas checks that a paused run resumes on
// another server: two HTTP servers with the same tools and state key, and
// a client whose requests alternate between them, as behind a load
// balancer without sticky routing.
func TestMultiRoundTripAcrossReplicas(t *testing.T) {
	t.Parallel()
	var ran, asked atomic.Int32
	key := []byte("a state key that two replicas share")
	var urls []string
	for range 2 {
		reg := approvalRegistry(t, &ran)
		r, err := codeexec.New(reg, codeexec.Options{StateKey: key})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		s := mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: true})
		hs := httptest.NewServer(s.Handler(mcp.HTTPOptions{Stateless: true, AllowedHosts: []string{"127.0.0.1"}}))
		t.Cleanup(hs.Close)
		urls = append(urls, hs.URL)
	}
	var turn, served [2]atomic.Int32
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		i := int(turn[0].Add(1)) % 2
		served[i].Add(1)
		req = req.Clone(req.Context())
		u := *req.URL
		host := strings.TrimPrefix(urls[i], "http://")
		u.Host, req.Host = host, host
		req.URL = &u
		return http.DefaultTransport.RoundTrip(req)
	})
	ctx := context.Background()
	transport := &sdk.StreamableClientTransport{Endpoint: urls[0] + "/mcp", HTTPClient: &http.Client{Transport: rt}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{ElicitationHandler: answering(true, &asked)}).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := callCode(ctx, cs, approvalSnippet)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["value"] != "6 waited 8" || asked.Load() != 2 || ran.Load() != 2 {
		t.Errorf("value %v, asked %d, twice ran %d; want 6 waited 8, 2, 2 (%s)", sc["value"], asked.Load(), ran.Load(), text(res))
	}
	if served[0].Load() == 0 || served[1].Load() == 0 {
		t.Errorf("requests served %d and %d: both replicas must have served", served[0].Load(), served[1].Load())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
