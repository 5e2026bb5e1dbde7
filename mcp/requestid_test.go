package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/meettest"
)

// idMonitor records the request id and the "marker" of params._meta of
// each message the server handles.
type idMonitor struct {
	mu   sync.Mutex
	seen []seenID
}

type seenID struct{ method, id, marker string }

func (m *idMonitor) StartRequest(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.RequestEnd)) {
	marker, _ := req.Meta["marker"].(string)
	m.mu.Lock()
	m.seen = append(m.seen, seenID{req.Method, req.RequestID, marker})
	m.mu.Unlock()
	return ctx, nil
}

func (m *idMonitor) Refused(mcp.Refusal) {}

// byMethod returns the ids seen for method, and for tools/call checks
// that each call's id is its marker: the id of the message the handler
// runs, not of another one read about then.
func (m *idMonitor) byMethod(t *testing.T, method string) []string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for _, s := range m.seen {
		if s.method != method {
			continue
		}
		if method == "tools/call" && s.id != s.marker {
			t.Errorf("tools/call with the marker %q has the id %q", s.marker, s.id)
		}
		ids = append(ids, s.id)
	}
	slices.Sort(ids)
	return ids
}

// calls are the concurrent tools/call requests of TestRequestID: their
// ids (JSON), each call's _meta marker is its id's text, and each call
// runs meet, so that all are handled at once.
var calls = []string{`101`, `"call-a"`, `102`, `"call-b"`}

func callMessage(id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"_meta":{"marker":%q},"name":"code_execution","arguments":{"code":"return await meet()"}}}`,
		id, strings.Trim(id, `"`))
}

const (
	initMessage  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initedNotice = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listMessage  = `{"jsonrpc":"2.0","id":"list-α","method":"tools/list"}`
)

// TestRequestID checks that the monitor is told the JSON-RPC id of each
// request (jsonrpc.request.id), as text, and none for a notification, on
// stdio and over HTTP with and without sessions, for concurrent calls
// too.
func TestRequestID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// exchange sends the messages to the server: one at a time,
		// then the calls at once, and waits for every response.
		exchange func(t *testing.T, s *mcp.Server)
		// notice: the notification is handled before the next request
		// (not so without sessions, where each has a session of its own
		// that may end first).
		notice bool
	}{
		{"stdio", exchangeStdio, true},
		{"http", func(t *testing.T, s *mcp.Server) { exchangeHTTP(t, s, false) }, true},
		{"http stateless", func(t *testing.T, s *mcp.Server) { exchangeHTTP(t, s, true) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := registry.New()
			if err := reg.Register(meettest.Tool(len(calls))); err != nil {
				t.Fatal(err)
			}
			r, err := codeexec.New(reg, codeexec.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			m := &idMonitor{}
			s := mcp.NewServer(r, reg, mcp.ServerOptions{NoSessions: true, Monitor: m})
			tc.exchange(t, s)
			wants := map[string][]string{
				"initialize": {"0"},
				"tools/list": {"list-α"},
				"tools/call": {"101", "102", "call-a", "call-b"},
			}
			if tc.notice {
				wants["notifications/initialized"] = []string{""}
			}
			for method, want := range wants {
				if got := m.byMethod(t, method); !slices.Equal(got, want) {
					t.Errorf("%s: ids %q, want %q", method, got, want)
				}
			}
		})
	}
}

func exchangeStdio(t *testing.T, s *mcp.Server) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	responses := bufio.NewScanner(outR)
	responses.Buffer(nil, 1<<20)
	send := func(msgs ...string) {
		t.Helper()
		if _, err := io.WriteString(inW, strings.Join(msgs, "\n")+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	await := func(n int) {
		t.Helper()
		for range n {
			if !responses.Scan() {
				t.Fatalf("the server's output ended: %v", responses.Err())
			}
		}
	}
	send(initMessage)
	await(1)
	send(initedNotice, listMessage)
	await(1)
	var all []string
	for _, id := range calls {
		all = append(all, callMessage(id))
	}
	send(all...)
	await(len(calls))
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

func exchangeHTTP(t *testing.T, s *mcp.Server, stateless bool) {
	ts := httptest.NewServer(s.Handler(mcp.HTTPOptions{Stateless: stateless}))
	defer ts.Close()
	defer s.Close()
	var session string
	// post sends body and returns the response's Mcp-Session-Id.
	post := func(body string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return ""
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode >= 300 {
			t.Errorf("POST %.40s...: %d %v", body, resp.StatusCode, err)
		}
		return resp.Header.Get("Mcp-Session-Id")
	}
	session = post(initMessage)
	post(initedNotice)
	post(listMessage)
	var wg sync.WaitGroup
	for _, id := range calls {
		wg.Go(func() { post(callMessage(id)) })
	}
	wg.Wait()
}
