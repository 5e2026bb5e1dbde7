package tracing_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/proto"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/mcptools"
	"github.com/codeexec/codeexec/tracing"
)

func TestMain(m *testing.M) {
	codeexec.Main()
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/codeexec/codeexec/isolation.(*executors).loop"))
}

// tools has echo, fail (always fails) and span, which returns the id of
// the span in its context.
func tools(t testing.TB) *registry.Registry {
	t.Helper()
	reg := registry.New()
	for _, tool := range []registry.Tool{{
		Name: "echo", Description: "Echo the text.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		CallSignature: "async function echo(text: string): Promise<string>",
		Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult(c.Params["text"].(string)), nil
		},
	}, {
		Name: "fail", Description: "Fail.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function fail(): Promise<void>",
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.Result{}, errors.New("it failed")
		},
	}, {
		Name: "span", Description: "The id of the span the tool runs in.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{}}`),
		CallSignature: "async function span(): Promise<string>",
		Execute: func(ctx context.Context, _ registry.Call) (registry.Result, error) {
			return registry.TextResult(trace.SpanContextFromContext(ctx).SpanID().String()), nil
		},
	}} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// modes are the isolation modes: Process where it runs.
func modes() []codeexec.Isolation {
	if runtime.GOOS != "linux" {
		return []codeexec.Isolation{codeexec.InProcess}
	}
	return []codeexec.Isolation{codeexec.InProcess, codeexec.Process}
}

// recorded returns a Tracer whose spans sr records as they end.
func recorded(opts tracing.Options) (*tracing.Tracer, *tracetest.SpanRecorder, *sdktrace.TracerProvider) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	return tracing.New(tp, opts), sr, tp
}

// attrs are a span's attributes as strings.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// tree draws the spans as an indented tree under their roots, children
// in name order, each with the attributes in keys it has and its status.
func tree(spans []sdktrace.ReadOnlySpan, keys ...string) string {
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	ids := map[trace.SpanID]bool{}
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent().SpanID(); ids[p] {
			children[p] = append(children[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	var b strings.Builder
	var draw func(s sdktrace.ReadOnlySpan, depth int)
	draw = func(s sdktrace.ReadOnlySpan, depth int) {
		b.WriteString(strings.Repeat("  ", depth) + s.Name())
		a := attrs(s)
		for _, k := range keys {
			if v, ok := a[k]; ok {
				b.WriteString(" " + k + "=" + v)
			}
		}
		if s.Status().Code == codes.Error {
			b.WriteString(" status=error:" + s.Status().Description)
		}
		b.WriteString("\n")
		kids := children[s.SpanContext().SpanID()]
		sort.SliceStable(kids, func(i, j int) bool { return kids[i].Name() < kids[j].Name() })
		for _, k := range kids {
			draw(k, depth+1)
		}
	}
	for _, r := range roots {
		draw(r, 0)
	}
	return b.String()
}

// TestRunSpans checks the span tree and attributes of runs with parallel
// calls, a failing call, an unknown tool and a limit, in both isolation
// modes: the run's span is a child of the span in Run's context, each
// call's span a child of the run's, and the tool runs in its call's span.
func TestRunSpans(t *testing.T) {
	t.Parallel()
	for _, m := range modes() {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			tr, sr, tp := recorded(tracing.Options{})
			r, err := codeexec.New(tools(t), codeexec.Options{Isolation: m, Observer: tr, Limits: codeexec.Limits{MaxCalls: 6}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ctx, root := tp.Tracer("test").Start(context.Background(), "agent turn")
			src := `const [a, b, id] = await Promise.all([echo("a"), echo("b"), span()]);
try { await fail() } catch {}
try { await callTool("made_up", {}) } catch {}
return id`
			res := r.Run(ctx, src, codeexec.RunOptions{})
			if res.Error != nil {
				t.Fatal(res.Error)
			}
			r.Run(ctx, `for (;;) await echo("again")`, codeexec.RunOptions{})
			root.End()
			spans := sr.Ended()
			got := tree(spans, "gen_ai.operation.name", "gen_ai.tool.name", "error.type", "codeexec.run.outcome", "codeexec.run.limit", "codeexec.run.tool_calls")
			want := `agent turn
  code_execution codeexec.run.outcome=ok codeexec.run.tool_calls=5
    execute_tool gen_ai.operation.name=execute_tool gen_ai.tool.name=made_up error.type=tool_not_found status=error:tool_not_found
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool fail gen_ai.operation.name=execute_tool gen_ai.tool.name=fail error.type=tool_error status=error:tool_error
    execute_tool span gen_ai.operation.name=execute_tool gen_ai.tool.name=span
  code_execution error.type=limit codeexec.run.outcome=limit codeexec.run.limit=other codeexec.run.tool_calls=6 status=error:LimitError
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
    execute_tool echo gen_ai.operation.name=execute_tool gen_ai.tool.name=echo
`
			if got != want {
				t.Errorf("spans:\n%s\nwant:\n%s", got, want)
			}
			sum := sha256.Sum256([]byte(src))
			var spanTool string
			for _, s := range spans {
				a := attrs(s)
				switch s.Name() {
				case "code_execution":
					if a["codeexec.source.length"] == "" {
						t.Errorf("run span without the source's length: %v", a)
					}
					if _, ok := a["codeexec.source"]; ok {
						t.Errorf("the source is recorded without content capture: %v", a)
					}
					if a["codeexec.source.sha256"] == hex.EncodeToString(sum[:]) && a["codeexec.source.length"] != strconv.Itoa(len(src)) {
						t.Errorf("source length %s, want %d", a["codeexec.source.length"], len(src))
					}
					if len(a["codeexec.source.sha256"]) != 64 || s.Parent().SpanID() != root.SpanContext().SpanID() {
						t.Errorf("run span: parent %v, %v", s.Parent(), a)
					}
				case "execute_tool span":
					spanTool = s.SpanContext().SpanID().String()
				}
				if id := a["gen_ai.tool.call.id"]; strings.HasPrefix(s.Name(), "execute_tool") && !strings.HasPrefix(id, "call_") {
					t.Errorf("%s: gen_ai.tool.call.id %q", s.Name(), id)
				}
				if _, ok := a["gen_ai.tool.call.arguments"]; ok {
					t.Errorf("%s: arguments recorded without content capture", s.Name())
				}
			}
			if want := `"` + spanTool + `"`; string(res.Value) != want {
				t.Errorf("the tool ran in span %s, its call's span is %s", res.Value, want)
			}
		})
	}
}

// TestCaptureContent checks that content capture records the source, the
// arguments and results, and the error message.
func TestCaptureContent(t *testing.T) {
	t.Parallel()
	tr, sr, _ := recorded(tracing.Options{CaptureContent: true})
	r, err := codeexec.New(tools(t), codeexec.Options{Observer: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src := `await echo("hello"); throw new Error("boom")`
	r.Run(context.Background(), src, codeexec.RunOptions{})
	for _, s := range sr.Ended() {
		a := attrs(s)
		switch s.Name() {
		case "code_execution":
			if a["codeexec.source"] != src || s.Status().Description != "Error: boom" {
				t.Errorf("run span: %v, status %q", a, s.Status().Description)
			}
		case "execute_tool echo":
			if a["gen_ai.tool.call.arguments"] != `{"text":"hello"}` || a["gen_ai.tool.call.result"] != "hello" {
				t.Errorf("call span: %v", a)
			}
		}
	}
}

// TestSourceAttributes checks each run span's source SHA-256 and length,
// which the Tracer keeps for the sources it saw last: for a source seen
// again, for many sources (more than it keeps), for the empty source and
// for one too large to keep, with and without content capture.
func TestSourceAttributes(t *testing.T) {
	t.Parallel()
	many := make([]string, 200)
	for i := range many {
		many[i] = fmt.Sprintf("return %d", i)
	}
	for _, tc := range []struct {
		name    string
		sources []string
	}{
		{"again", []string{"return 1", "return 2", "return 1", "return 1"}},
		{"many", append(append([]string{}, many...), many...)},
		{"empty", []string{"", "", "return 0"}},
		{"large", []string{strings.Repeat("x", 65<<10), strings.Repeat("x", 65<<10) + "y", strings.Repeat("x", 65<<10)}},
	} {
		for _, capture := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s capture=%v", tc.name, capture), func(t *testing.T) {
				t.Parallel()
				tr, sr, _ := recorded(tracing.Options{CaptureContent: capture})
				for _, src := range tc.sources {
					_, ro := tr.StartRun(context.Background(), codeexec.RunInfo{Source: src})
					ro.EndRun(&codeexec.Result{})
				}
				spans := sr.Ended()
				if len(spans) != len(tc.sources) {
					t.Fatalf("%d spans for %d runs", len(spans), len(tc.sources))
				}
				for i, s := range spans {
					src, a := tc.sources[i], attrs(s)
					sum := sha256.Sum256([]byte(src))
					want := map[string]string{"codeexec.source.sha256": hex.EncodeToString(sum[:]), "codeexec.source.length": strconv.Itoa(len(src))}
					if capture {
						want["codeexec.source"] = src
					}
					for k, v := range want {
						if a[k] != v {
							t.Errorf("run %d: %s = %.20q, want %.20q", i+1, k, a[k], v)
						}
					}
					if _, ok := a["codeexec.source"]; ok && !capture {
						t.Errorf("run %d: the source without content capture", i+1)
					}
				}
			})
		}
	}
}

// serve runs an MCP server of r with the tracer's monitor over an
// in-memory transport and returns a client session.
func serve(t *testing.T, r *codeexec.Runner, mon mcp.Monitor) *sdk.ClientSession {
	t.Helper()
	srv := mcp.NewServer(r, tools(t), mcp.ServerOptions{Monitor: mon, NoSessions: true})
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeTransport(ctx, st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

const (
	traceID  = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentID = "00f067aa0ba902b7"
)

// TestMetaTraceparent checks that a traceparent in a tools/call's
// params._meta is the parent of the server span, which is the parent of
// the run's.
func TestMetaTraceparent(t *testing.T) {
	t.Parallel()
	tr, sr, _ := recorded(tracing.Options{})
	r, err := codeexec.New(tools(t), codeexec.Options{Observer: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cs := serve(t, r, tr)
	params := &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": `return await echo("x")`}}
	params.Meta = sdk.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"}
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": `throw 1`}}); err != nil {
		t.Fatal(err)
	}
	spans := sr.Ended()
	byName := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byName[s.Name()] = append(byName[s.Name()], s)
	}
	calls := byName["tools/call code_execution"]
	if len(calls) != 2 {
		t.Fatalf("server spans: %s", tree(spans))
	}
	server := calls[0]
	if server.Parent().TraceID().String() != traceID || server.Parent().SpanID().String() != parentID || !server.Parent().IsRemote() || server.SpanKind() != trace.SpanKindServer {
		t.Errorf("server span's parent %v (kind %v), want %s/%s from _meta", server.Parent(), server.SpanKind(), traceID, parentID)
	}
	a := attrs(server)
	for k, v := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "code_execution", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe"} {
		if a[k] != v {
			t.Errorf("server span %s = %q, want %q (%v)", k, a[k], v, a)
		}
	}
	if a["mcp.protocol.version"] == "" {
		t.Errorf("server span without mcp.protocol.version: %v", a)
	}
	if id, id2 := a["jsonrpc.request.id"], attrs(calls[1])["jsonrpc.request.id"]; id == "" || strings.Trim(id, "0123456789") != "" || id2 == "" || id == id2 {
		t.Errorf("server spans' jsonrpc.request.id %q and %q, want the ids of the two requests", id, id2)
	}
	run := byName["code_execution"][0]
	if run.Parent().SpanID() != server.SpanContext().SpanID() || run.SpanContext().TraceID().String() != traceID {
		t.Errorf("run span's parent %v, want the server span %v", run.Parent(), server.SpanContext())
	}
	// The second call, without a trace context, is a trace of its own,
	// and its failed snippet is a tool error.
	second := calls[1]
	if second.Parent().IsValid() || attrs(second)["error.type"] != "tool_error" || second.Status().Code != codes.Error {
		t.Errorf("second server span: parent %v, %v, status %v", second.Parent(), attrs(second), second.Status())
	}
}

// TestHeaderTraceparent checks that a traceparent HTTP header is the
// parent of the server span over streamable HTTP.
func TestHeaderTraceparent(t *testing.T) {
	t.Parallel()
	tr, sr, _ := recorded(tracing.Options{})
	r, err := codeexec.New(tools(t), codeexec.Options{Observer: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := mcp.NewServer(r, tools(t), mcp.ServerOptions{Monitor: tr})
	ts := httptest.NewServer(srv.Handler(mcp.HTTPOptions{}))
	defer ts.Close()
	defer srv.Close()
	client := &http.Client{Transport: headerTransport{"traceparent": "00-" + traceID + "-" + parentID + "-01"}}
	// A client of protocol 2025-11-25, which has an MCP session id.
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: client}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": `return 1`}}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	var server sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Name() == "tools/call code_execution" {
			server = s
		}
	}
	if server == nil || server.Parent().SpanID().String() != parentID || attrs(server)["network.transport"] != "tcp" || attrs(server)["mcp.session.id"] == "" || attrs(server)["jsonrpc.request.id"] == "" {
		t.Fatalf("server span %v: parent %v, %v", server != nil, server.Parent(), attrs(server))
	}
}

type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestOTLPExport checks that FromEnv exports over OTLP/HTTP to the
// endpoint OTEL_EXPORTER_OTLP_ENDPOINT names: a receiver the test runs
// gets the run's spans, with the service's name, once the export stops.
func TestOTLPExport(t *testing.T) {
	got := make(chan *collector.ExportTraceServiceRequest, 16)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := &collector.ExportTraceServiceRequest{}
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || proto.Unmarshal(body, req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		got <- req
		w.Header().Set("Content-Type", "application/x-protobuf")
		b, _ := proto.Marshal(&collector.ExportTraceServiceResponse{})
		_, _ = w.Write(b)
	}))
	defer receiver.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
	t.Setenv("OTEL_SERVICE_NAME", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	t.Setenv("OTEL_SDK_DISABLED", "")
	tr, stop, err := tracing.FromEnv(context.Background(), "v9")
	if err != nil || tr == nil {
		t.Fatalf("FromEnv: %v, %v", tr, err)
	}
	r, err := codeexec.New(tools(t), codeexec.Options{Observer: tr})
	if err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), `return await echo("x")`, codeexec.RunOptions{})
	r.Close()
	if err := stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	var names []string
	service := ""
	for len(got) > 0 {
		req := <-got
		for _, rs := range req.GetResourceSpans() {
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.GetKey() == "service.name" {
					service = kv.GetValue().GetStringValue()
				}
			}
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					names = append(names, s.GetName())
				}
			}
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "code_execution,execute_tool echo" || service != "codeexec" {
		t.Errorf("the receiver got spans %q of service %q", names, service)
	}

	// Off, FromEnv returns no tracer.
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if tr, stop, err := tracing.FromEnv(context.Background(), "v9"); tr != nil || err != nil || stop(context.Background()) != nil {
		t.Errorf("FromEnv with OTEL_SDK_DISABLED=true: %v %v", tr, err)
	}
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	if _, _, err := tracing.FromEnv(context.Background(), "v9"); err == nil || !strings.Contains(err.Error(), "http/protobuf") {
		t.Errorf("FromEnv with grpc: %v", err)
	}
}

// BenchmarkRun is a warm run in process of two snippets, each making two
// tool calls: "calls2" awaits echo twice and returns (the shortest run
// with calls, where the spans weigh most), "snippet30" is the benchmarks'
// typical 30-line snippet (bench/benchdata.Snippet30: types, a class, a
// loop, two reads in parallel). Each runs without an observer ("off":
// what codeexec mcp does when no OTEL_* variable turns tracing on), with
// an observer that does nothing ("hook": the cost of the hook itself), and
// with a Tracer whose spans, every one sampled, go to an exporter that
// drops them: through the batching span processor FromEnv uses ("on"),
// the SDK's batching span processor ("on-sdk-batcher", which wakes its
// goroutine for each span), or synchronously ("on-sync"); "on-runspan"
// is "on" with the run's span only, no tool call's. Sub-benchmarks
// of one process run in turn, which favours the first: compare them in
// processes of their own (-test.bench 'BenchmarkRun/calls2/off$', then
// .../on$, alternately).
func BenchmarkRun(b *testing.B) {
	traced := func(sp func(sdktrace.SpanExporter) sdktrace.SpanProcessor) func() (codeexec.Observer, func()) {
		return func() (codeexec.Observer, func()) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sp(tracetest.NewNoopExporter())))
			return tracing.New(tp, tracing.Options{}), func() { _ = tp.Shutdown(context.Background()) }
		}
	}
	observers := []struct {
		name string
		obs  func() (codeexec.Observer, func())
	}{
		{"off", func() (codeexec.Observer, func()) { return nil, func() {} }},
		{"on", traced(func(e sdktrace.SpanExporter) sdktrace.SpanProcessor {
			return tracing.NewBatchProcessor(e, tracing.BatchOptions{})
		})},
		{"hook", func() (codeexec.Observer, func()) { return nopObserver{}, func() {} }},
		{"on-sdk-batcher", traced(func(e sdktrace.SpanExporter) sdktrace.SpanProcessor { return sdktrace.NewBatchSpanProcessor(e) })},
		{"on-sync", traced(sdktrace.NewSimpleSpanProcessor)},
		{"on-runspan", func() (codeexec.Observer, func()) {
			obs, stop := traced(func(e sdktrace.SpanExporter) sdktrace.SpanProcessor {
				return tracing.NewBatchProcessor(e, tracing.BatchOptions{})
			})()
			return runSpanOnly{obs}, stop
		}},
	}
	for _, snippet := range []struct {
		name, src string
		tools     func(testing.TB) *registry.Registry
	}{
		{"calls2", `const a = await echo("a"); const b = await echo("b"); return a + b`, tools},
		{"snippet30", benchdata.Snippet30, func(testing.TB) *registry.Registry { return benchdata.Tools() }},
	} {
		for _, o := range observers {
			b.Run(snippet.name+"/"+o.name, func(b *testing.B) {
				obs, stop := o.obs()
				defer stop()
				r, err := codeexec.New(snippet.tools(b), codeexec.Options{Observer: obs})
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				ctx := context.Background()
				if res := r.Run(ctx, snippet.src, codeexec.RunOptions{}); res.Error != nil || len(res.ToolCalls) != 2 {
					b.Fatalf("the snippet made %d calls (want 2): %v", len(res.ToolCalls), res.Error)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if res := r.Run(ctx, snippet.src, codeexec.RunOptions{}); res.Error != nil {
						b.Fatal(res.Error)
					}
				}
			})
		}
	}
}

// TestToolSourceCarriesTrace checks that a snippet's call to a tool of an
// MCP server (registry/mcptools) carries the trace on: the request's
// params._meta has the traceparent of the call's span.
func TestToolSourceCarriesTrace(t *testing.T) {
	t.Parallel()
	metas := make(chan map[string]any, 1)
	inner := sdk.NewServer(&sdk.Implementation{Name: "inner"}, nil)
	inner.AddTool(&sdk.Tool{Name: "meta", Description: "Records its _meta.", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			metas <- req.Params.Meta
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return inner }, &sdk.StreamableHTTPOptions{Stateless: true}))
	defer ts.Close()

	tr, sr, _ := recorded(tracing.Options{})
	reg := registry.New()
	c, errs, err := mcptools.Connect(context.Background(), reg, "inner", mcptools.ServerConfig{URL: ts.URL}, mcptools.ClientOptions{Meta: tr.Meta})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	defer c.Close()
	r, err := codeexec.New(reg, codeexec.Options{Observer: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if res := r.Run(context.Background(), `return await inner.meta({})`, codeexec.RunOptions{}); res.Error != nil {
		t.Fatal(res.Error)
	}
	meta := <-metas
	var call sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Name() == "execute_tool inner.meta" {
			call = s
		}
	}
	if call == nil {
		t.Fatalf("no call span: %s", tree(sr.Ended()))
	}
	want := "00-" + call.SpanContext().TraceID().String() + "-" + call.SpanContext().SpanID().String() + "-01"
	if meta["traceparent"] != want {
		t.Errorf("the server got _meta %v, want traceparent %s", meta, want)
	}
}

type nopObserver struct{}

// runSpanOnly is an Observer that makes the run's span of its Observer
// and no tool call's: BenchmarkRun's on-runspan, which tells the run's
// span's cost from the tool calls'.
type runSpanOnly struct{ codeexec.Observer }

func (o runSpanOnly) StartRun(ctx context.Context, run codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	ctx, ro := o.Observer.StartRun(ctx, run)
	return ctx, noCallSpans{ro}
}

type noCallSpans struct{ codeexec.RunObserver }

func (noCallSpans) StartCall(ctx context.Context, _ codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	return ctx, nil
}

func (nopObserver) StartRun(ctx context.Context, _ codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	return ctx, nopObserver{}
}

func (nopObserver) StartCall(ctx context.Context, _ codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	return ctx, func(codeexec.CallEnd) {}
}

func (nopObserver) EndRun(*codeexec.Result) {}
