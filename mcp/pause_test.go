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
// session (stored: the resume rebuilds it) and without: the client's
// automatic retry is off, so each call that needs an approval comes back
// as a result that needs input, one elicitation form and the paused
// run's state as its request state, and the client's retry with the
// answer resumes the run; the client is never asked during a call.
func TestMultiRoundTripApproval(t *testing.T) {
	t.Parallel()
	for _, sessions := range []bool{true, false} {
		for _, allow := range []bool{true, false} {
			name := map[bool]string{true: "session", false: "stateless"}[sessions] + map[bool]string{true: "/approve", false: "/deny"}[allow]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var ran, elicited atomic.Int32
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
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{
					ElicitationHandler: answering(allow, &elicited),
					MultiRoundTrip:     &sdk.MultiRoundTripOptions{Disabled: true},
				}).Connect(ctx, ct, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, rounds := retryByHand(t, ctx, cs, approvalSnippet, allow)
				want, wantRan := "6 waited 8", int32(2)
				if !allow {
					want, wantRan = "Tool call twice blocked: denied by the user waited Tool call twice blocked: denied by the user", 0
				}
				sc, _ := res.StructuredContent.(map[string]any)
				if sc["value"] != want || sc["stdout"] != "start true\n" {
					t.Errorf("value %v, stdout %q; want %q (%s)", sc["value"], sc["stdout"], want, text(res))
				}
				if rounds != 2 || elicited.Load() != 0 || ran.Load() != wantRan {
					t.Errorf("%d input-required results, %d elicitations during a call, twice ran %d times; want 2, 0 and %d", rounds, elicited.Load(), ran.Load(), wantRan)
				}
				cs.Close()
				cancel()
				<-served
			})
		}
	}
}

// retryByHand calls code_execution with code, as a client without the
// automatic retry: while the result needs input, it checks that it asks
// one approval of twice, with a paused run's state, and retries with the
// answer allow and that state. It returns the last result and the number
// of input-required results.
func retryByHand(t *testing.T, ctx context.Context, cs *sdk.ClientSession, code string, allow bool) (*sdk.CallToolResult, int) {
	t.Helper()
	params := &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": code}}
	for rounds := 0; ; rounds++ {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		if !res.NeedsInput() {
			return res, rounds
		}
		if rounds == 10 {
			t.Fatal("input-required results without end")
		}
		if len(res.InputRequests) != 1 || !strings.HasPrefix(res.RequestState, "run:") || len(res.Content) != 0 {
			t.Fatalf("input-required result %d: requests %v, request state %.20q, content %s; want one request and a run's state", rounds+1, res.InputRequests, res.RequestState, text(res))
		}
		answers := sdk.InputResponseMap{}
		for id, q := range res.InputRequests {
			form, ok := q.(*sdk.ElicitParams)
			if !ok || !strings.Contains(form.Message, "twice") {
				t.Fatalf("input request %s is %#v, want an elicitation form about twice", id, q)
			}
			answers[id] = &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": allow}}
		}
		params = &sdk.CallToolParams{Name: params.Name, Arguments: params.Arguments, InputResponses: answers, RequestState: res.RequestState}
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

// TestCallerServedToolRefused checks what a call of a caller-served tool
// (registry.Tool.CallerServed) that a library registered gives over MCP,
// which cannot serve it: a stateless run pauses for it, and the call
// fails saying why; a session run, which cannot pause without a store,
// gives the snippet an error saying so. The tool never gets a result.
func TestCallerServedToolRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		noSessions bool
		isError    bool
		want       string
	}{
		{"stateless", true, true, "mcp: the run waits for the result of lookup, a caller-served tool, which an MCP client cannot serve: an input request asks a client for an elicitation, a sampling or its roots, not for the result of a tool of its own"},
		{"session", false, false, "tool lookup is served by the caller"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := testRegistry(t)
			if err := reg.Register(registry.Tool{
				Name: "lookup", Description: "Look a word up; served by the caller.", CallerServed: true,
				Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`),
				CallSignature: "async function lookup(word: string): Promise<string>",
			}); err != nil {
				t.Fatal(err)
			}
			r, err := codeexec.New(reg, codeexec.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			cs := connect(t, mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: tt.noSessions}), nil)
			res, err := callCode(context.Background(), cs, `try { return await lookup("x"); } catch (e: any) { return e.message; }`)
			if err != nil {
				t.Fatal(err)
			}
			got := text(res)
			if sc, ok := res.StructuredContent.(map[string]any); ok {
				got, _ = sc["value"].(string)
			}
			if res.NeedsInput() || res.IsError != tt.isError || got != tt.want {
				t.Errorf("needs input %v, isError %v, %q; want %v, %q", res.NeedsInput(), res.IsError, got, tt.isError, tt.want)
			}
		})
	}
}
