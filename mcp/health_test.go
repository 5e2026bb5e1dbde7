package mcp_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
)

// healthLiveness bounds a wait for an event in these tests, so that a
// bug fails them instead of hanging them: no performance assertion.
const healthLiveness = 2 * time.Minute

// get makes a request of method to url and returns the status and body.
func get(t *testing.T, method, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHealthEndpoints checks what /healthz and /readyz answer: /healthz
// "ok" while serving, draining or not; /readyz the outcome of Ready,
// naming only the reason of a NotReadyError, never the error, and
// "draining" without running the check once drained.
func TestHealthEndpoints(t *testing.T) {
	t.Parallel()
	secret := errors.New("dial tcp 10.0.0.7:6379: connect: connection refused")
	tests := []struct {
		name   string
		ready  func(context.Context) error
		drain  bool
		method string
		path   string
		status int
		body   string
		checks int32 // calls of ready
	}{
		{"alive", nil, false, "GET", mcp.HealthzPath, 200, "ok\n", 0},
		{"alive while draining", nil, true, "GET", mcp.HealthzPath, 200, "ok\n", 0},
		{"alive, HEAD", nil, false, "HEAD", mcp.HealthzPath, 200, "", 0},
		{"ready without a check", nil, false, "GET", mcp.ReadyzPath, 200, "ok\n", 0},
		{"ready", func(context.Context) error { return nil }, false, "GET", mcp.ReadyzPath, 200, "ok\n", 1},
		{"the store is not", func(context.Context) error { return mcp.NotReady("store", secret) }, false, "GET", mcp.ReadyzPath, 503, "not ready: store\n", 1},
		{"a wrapped NotReady", func(context.Context) error { return errors.Join(mcp.NotReady("runner", secret)) }, false, "GET", mcp.ReadyzPath, 503, "not ready: runner\n", 1},
		{"another error", func(context.Context) error { return secret }, false, "GET", mcp.ReadyzPath, 503, "not ready: check failed\n", 1},
		{"draining", func(context.Context) error { return nil }, true, "GET", mcp.ReadyzPath, 503, "not ready: draining\n", 0},
		{"POST", nil, false, "POST", mcp.ReadyzPath, 405, "method not allowed\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var checks atomic.Int32
			h := &mcp.Health{}
			if tc.ready != nil {
				h.Ready = func(ctx context.Context) error {
					checks.Add(1)
					return tc.ready(ctx)
				}
			}
			if tc.drain {
				h.Drain()
			}
			mux := http.NewServeMux()
			mux.Handle(mcp.HealthzPath, h.Healthz())
			mux.Handle(mcp.ReadyzPath, h.Readyz())
			ts := httptest.NewServer(mux)
			defer ts.Close()
			status, body := get(t, tc.method, ts.URL+tc.path)
			if status != tc.status || body != tc.body {
				t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, status, body, tc.status, tc.body)
			}
			if strings.Contains(body, "10.0.0.7") {
				t.Errorf("the response shows the check's error: %q", body)
			}
			if got := checks.Load(); got != tc.checks {
				t.Errorf("the check ran %d times, want %d", got, tc.checks)
			}
		})
	}
}

// gateRegistry has one tool, gate, which returns "opened" once open is
// closed (or fails when its context ends first).
func gateRegistry(t *testing.T, open <-chan struct{}) *registry.Registry {
	t.Helper()
	reg := registry.New()
	err := reg.Register(registry.Tool{
		Name: "gate", Description: "Waits until the test opens the gate.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function gate(): Promise<string>",
		Execute: func(ctx context.Context, _ registry.Call) (registry.Result, error) {
			select {
			case <-open:
				return registry.TextResult("opened"), nil
			case <-ctx.Done():
				return registry.Result{}, ctx.Err()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// recorder is an Observer that records the runs it sees, tells calls on
// each tool call's start, and the WorkerRetired reasons.
type recorder struct {
	runs    chan codeexec.RunInfo
	calls   chan string
	retired chan string
	ended   atomic.Int32
}

func newRecorder() *recorder {
	return &recorder{runs: make(chan codeexec.RunInfo, 16), calls: make(chan string, 16), retired: make(chan string, 1)}
}

func (r *recorder) StartRun(ctx context.Context, run codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	r.runs <- run
	return ctx, recordedRun{r}
}

func (r *recorder) WorkerRetired(reason string) { r.retired <- reason }

type recordedRun struct{ r *recorder }

func (rr recordedRun) StartCall(ctx context.Context, call codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	rr.r.calls <- call.Tool
	return ctx, nil
}

func (rr recordedRun) EndRun(*codeexec.Result) { rr.r.ended.Add(1) }

// TestHealthObserver checks that Health.Observer counts a run while it is
// in progress (so that Wait waits for it), passes runs, tool calls and
// retired workers on, and keeps the runs of RunnerReady to itself; and
// that RunnerReady fails once its Runner is closed.
func TestHealthObserver(t *testing.T) {
	t.Parallel()
	open := make(chan struct{})
	reg := gateRegistry(t, open)
	h := &mcp.Health{}
	rec := newRecorder()
	obs := h.Observer(rec)
	r, err := codeexec.New(reg, codeexec.Options{Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ready := mcp.RunnerReady(r)
	if err := ready(context.Background()); err != nil {
		t.Fatalf("RunnerReady: %v", err)
	}
	done := make(chan *codeexec.Result, 1)
	go func() { done <- r.Run(context.Background(), `return await gate()`, codeexec.RunOptions{}) }()
	select {
	case tool := <-rec.calls:
		if tool != "gate" {
			t.Fatalf("call of %s", tool)
		}
	case <-time.After(healthLiveness):
		t.Fatal("the run's call did not start")
	}
	if run := <-rec.runs; run.Source != `return await gate()` {
		t.Errorf("the first run the observer saw: %+v (the probe's must not reach it)", run)
	}
	if requests, runs := h.InFlight(); requests != 0 || runs != 1 {
		t.Errorf("in flight: %d requests, %d runs; want 0, 1", requests, runs)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Wait(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait with a run in progress = %v, want context.Canceled", err)
	}
	close(open)
	if res := <-done; !res.OK() || string(res.Value) != `"opened"` {
		t.Fatalf("the run: %s", res.Text())
	}
	ctx, cancel := context.WithTimeout(context.Background(), healthLiveness)
	defer cancel()
	if err := h.Wait(ctx); err != nil {
		t.Errorf("Wait after the run: %v", err)
	}
	if got := rec.ended.Load(); got != 1 {
		t.Errorf("the observer saw %d runs end, want 1", got)
	}
	obs.(codeexec.WorkerObserver).WorkerRetired(codeexec.RetiredDied)
	if got := <-rec.retired; got != codeexec.RetiredDied {
		t.Errorf("retired %q", got)
	}
	r.Close()
	err = ready(context.Background())
	if nr := (*mcp.NotReadyError)(nil); !errors.As(err, &nr) || nr.Reason != "runner" || !strings.Contains(err.Error(), "closed") {
		t.Errorf("RunnerReady after Close = %v, want a NotReadyError with the reason runner saying closed", err)
	}
	select {
	case run := <-rec.runs:
		t.Errorf("the observer saw another run: %+v", run)
	default:
	}
}

// refusals is a Monitor that counts the refusals by reason.
type refusals struct{ draining atomic.Int32 }

func (m *refusals) StartRequest(ctx context.Context, _ mcp.RequestInfo) (context.Context, func(mcp.RequestEnd)) {
	return ctx, nil
}

func (m *refusals) Refused(r mcp.Refusal) {
	if r.Reason == mcp.RefusedDraining && r.Status == http.StatusServiceUnavailable {
		m.draining.Add(1)
	}
}

// awaitInFlight waits until h counts requests and runs in progress: a
// request already answered (the client's initialized notification) leaves
// the count a moment after its answer.
func awaitInFlight(t *testing.T, h *mcp.Health, requests, runs int) {
	t.Helper()
	deadline := time.Now().Add(healthLiveness)
	for {
		r, n := h.InFlight()
		if r == requests && n == runs {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("in flight: %d requests, %d runs; want %d, %d", r, n, requests, runs)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDrainingHandler drains a server with a call in progress: the call
// goes on and ends well; meanwhile the requests that would start
// something get 503 with Retry-After and a JSON-RPC error naming the
// drain (after the host and token checks), each logged and told to the
// Monitor, while what belongs to work in progress (a notification, a
// response, the retry of a paused run, DELETE) passes; Wait returns once
// the call ended.
func TestDrainingHandler(t *testing.T) {
	t.Parallel()
	open := make(chan struct{})
	reg := gateRegistry(t, open)
	h := &mcp.Health{RetryAfter: 1500 * time.Millisecond}
	rec := newRecorder()
	r, err := codeexec.New(reg, codeexec.Options{Observer: h.Observer(rec)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lines := make(chan string, 16)
	var mon refusals
	s := mcp.NewServer(r, reg, mcp.ServerOptions{Logger: slog.New(slog.NewTextHandler(lineWriter{lines}, nil)), Monitor: &mon})
	ts := httptest.NewServer(s.DrainingHandler(mcp.HTTPOptions{Token: "sekrit"}, h))
	defer ts.Close()

	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer{"sekrit"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type outcome struct {
		res *sdk.CallToolResult
		err error
	}
	called := make(chan outcome, 1)
	go func() {
		res, err := callCode(ctx, cs, `return await gate()`)
		called <- outcome{res, err}
	}()
	select {
	case <-rec.calls:
	case <-time.After(healthLiveness):
		t.Fatal("the call's run did not reach its tool call")
	}
	awaitInFlight(t, h, 1, 1)
	// A session of protocol 2025-06-18 (with an Mcp-Session-Id), opened
	// before the drain.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer sekrit")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	if resp.StatusCode != http.StatusOK || session["Mcp-Session-Id"] == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, session["Mcp-Session-Id"])
	}
	defer deleteSession(t, ts.URL, session["Mcp-Session-Id"], map[string]string{"Authorization": "Bearer sekrit"})
	h.Drain()
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := h.Wait(gone); err == nil {
		t.Error("Wait returned nil with a call in progress")
	}

	refusal := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32000,"message":"Server draining: this server is shutting down and takes no new requests; retry after 2s"}}`
	}
	tests := []struct {
		name    string
		token   bool
		session map[string]string
		body    string
		status  int
		want    string // the body, for a refusal
	}{
		{"no token", false, nil, init, 401, ""},
		{"a new session", true, nil, init, 503, refusal("1")},
		{"a request in a session", true, session, `{"jsonrpc":"2.0","id":"p","method":"ping"}`, 503, refusal(`"p"`)},
		{"a new call in a session", true, session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"code_execution","arguments":{"code":"1"}}}`, 503, refusal("7")},
		{"a batch with a request", true, session, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`, 503, refusal("null")},
		{"not JSON", true, session, `{"jsonrpc":`, 503, refusal("null")},
		{"a notification", true, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ""},
		{"a response", true, session, `{"jsonrpc":"2.0","id":"x","result":{}}`, 202, ""},
		{"the retry of a paused run", true, session, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"code_execution","arguments":{"code":"1"},"requestState":"run:AAAA"}}`, 200, ""},
	}
	refused := int32(0)
	for _, tc := range tests {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.token {
			req.Header.Set("Authorization", "Bearer sekrit")
		}
		for k, v := range tc.session {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, resp.StatusCode, tc.status, b)
		}
		if tc.status != http.StatusServiceUnavailable {
			if strings.Contains(string(b), "draining") {
				t.Errorf("%s: refused as draining: %s", tc.name, b)
			}
			if tc.status == http.StatusUnauthorized {
				<-lines // its line is there: see below
			}
			continue
		}
		refused++
		if got := strings.TrimSpace(string(b)); got != tc.want {
			t.Errorf("%s: body\n%s\nwant\n%s", tc.name, got, tc.want)
		}
		if got := resp.Header.Get("Retry-After"); got != "2" {
			t.Errorf("%s: Retry-After %q, want 2 (1.5s rounded up)", tc.name, got)
		}
		// The line is written before the response: it is there now.
		select {
		case line := <-lines:
			if want := `level=WARN msg="refused request" status=503 reason=draining remote=127.0.0.1:PORT method=POST path=/`; normalizeLog(line) != "time=T "+want {
				t.Errorf("%s: logged\n%s\nwant\n%s", tc.name, line, want)
			}
		default:
			t.Errorf("%s: nothing logged", tc.name)
		}
	}
	if got := mon.draining.Load(); got != refused {
		t.Errorf("the Monitor was told of %d refusals for draining, want %d", got, refused)
	}

	close(open)
	var out outcome
	select {
	case out = <-called:
	case <-time.After(healthLiveness):
		t.Fatal("the call did not end")
	}
	if out.err != nil || out.res.IsError || text(out.res) != "Return value: opened" {
		t.Fatalf("the call in progress: %v %+v", out.err, out.res)
	}
	wctx, cancel := context.WithTimeout(ctx, healthLiveness)
	defer cancel()
	if err := h.Wait(wctx); err != nil {
		t.Errorf("Wait after the call: %v", err)
	}
	cs.Close()
}

// TestDrainingClientAnswers drains a server while a run waits for its
// client's approval (--confirm's question), in both ways of asking: a
// client of protocol 2025-11-25 is asked during the call (elicitation)
// and its answer, a JSON-RPC response, passes the drain; one of
// 2026-07-28 gets an input-required result (the run pauses), and its
// retry with the answer and the run's state passes too and resumes the
// run. Either way the call ends well.
func TestDrainingClientAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		protocol string
		runs     int // in progress while the client is asked
	}{
		{"2025-11-25", 1}, // the run waits for the answer
		{"2026-07-28", 0}, // the run paused
	}
	for _, tc := range tests {
		t.Run(tc.protocol, func(t *testing.T) {
			t.Parallel()
			var ran atomic.Int32
			reg := approvalRegistry(t, &ran)
			h := &mcp.Health{}
			r, err := codeexec.New(reg, codeexec.Options{Observer: h.Observer(nil), Store: memoryStore(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s := mcp.NewServer(r, reg, mcp.ServerOptions{})
			ts := httptest.NewServer(s.DrainingHandler(mcp.HTTPOptions{}, h))
			defer ts.Close()
			var asked atomic.Int32
			answer := answering(true, &asked)
			ctx := context.Background()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, &sdk.ClientOptions{
				ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					// The run waits for this answer: drain now.
					if _, runs := h.InFlight(); runs != tc.runs {
						t.Errorf("%d runs in progress while the client is asked, want %d", runs, tc.runs)
					}
					h.Drain()
					return answer(ctx, req)
				},
			}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, &sdk.ClientSessionOptions{ProtocolVersion: tc.protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := callCode(ctx, cs, `return await twice(21)`)
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			if res.IsError || sc["value"] != 42.0 || asked.Load() != 1 || ran.Load() != 1 || !h.Draining() {
				t.Errorf("%q (isError %v), asked %d, twice ran %d, draining %v; want 42, 1, 1, true", text(res), res.IsError, asked.Load(), ran.Load(), h.Draining())
			}
		})
	}
}
