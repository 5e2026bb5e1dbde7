// Package tracing is codeexec's OpenTelemetry traces: a span for each run
// (code_execution), a child span for each of its tool calls
// (execute_tool NAME), and for the MCP face a server span for each
// message (tools/call code_execution), following the OpenTelemetry GenAI
// and MCP semantic conventions (semantic-conventions-genai v0.1.0, of
// Development status).
//
// A Tracer is a codeexec.Observer (Options.Observer of a Runner) and an
// mcp.Monitor (ServerOptions.Monitor). A run's span is a child of the span
// in the context given to Run, or, on the MCP face, of the server span,
// whose parent is the W3C trace context a client puts in the request's
// params._meta ("traceparent", "tracestate"), else in its HTTP headers. A
// tool call's span is in the context its tool runs with, so a tool that
// makes requests of its own carries the trace on. Tool calls of worker
// processes are spans of the host, where they run: workers export
// nothing.
//
// FromEnv configures export the standard way, from the OTEL_* environment
// variables, over OTLP/HTTP. The package sits beside cmd and metrics,
// above the root package and mcp, which never import it: an embedder who
// does not trace does not link OpenTelemetry, and a Runner without an
// Observer pays a nil check a run and one a tool call.
package tracing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/promptgen"
)

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "github.com/codeexec/codeexec/tracing"

// Attribute keys of the spans: the conventions' where they have one, and
// codeexec's own, under "codeexec.", for what they do not cover.
const (
	keyOperation    = attribute.Key("gen_ai.operation.name")
	keyToolName     = attribute.Key("gen_ai.tool.name")
	keyToolCallID   = attribute.Key("gen_ai.tool.call.id")
	keyToolType     = attribute.Key("gen_ai.tool.type")
	keyToolArgs     = attribute.Key("gen_ai.tool.call.arguments")
	keyToolResult   = attribute.Key("gen_ai.tool.call.result")
	keyErrorType    = attribute.Key("error.type")
	keyMCPMethod    = attribute.Key("mcp.method.name")
	keyMCPSession   = attribute.Key("mcp.session.id")
	keyMCPProtocol  = attribute.Key("mcp.protocol.version")
	keyRequestID    = attribute.Key("jsonrpc.request.id")
	keyTransport    = attribute.Key("network.transport")
	keySourceSHA256 = attribute.Key("codeexec.source.sha256")
	keySourceLength = attribute.Key("codeexec.source.length")
	keySource       = attribute.Key("codeexec.source")
	keyOutcome      = attribute.Key("codeexec.run.outcome")
	keyLimit        = attribute.Key("codeexec.run.limit")
	keyToolCalls    = attribute.Key("codeexec.run.tool_calls")
)

// Options configure a Tracer.
type Options struct {
	// CaptureContent records what the spans otherwise leave out, since it
	// may hold anything a model wrote or a tool read: the snippet's
	// source (codeexec.source), each call's arguments and result
	// (gen_ai.tool.call.arguments and .result, as JSON), and the error
	// message of a failed run in its status. Off, a run's span has the
	// source's SHA-256 and length only.
	CaptureContent bool
	// Propagator reads the trace context of MCP requests (params._meta,
	// then the HTTP headers); default W3C Trace Context and Baggage.
	Propagator propagation.TextMapPropagator
}

// Tracer makes the spans of runs, tool calls and MCP messages with an
// OpenTelemetry TracerProvider. Safe for concurrent use.
type Tracer struct {
	tracer  trace.Tracer
	prop    propagation.TextMapPropagator
	capture bool
	sources *sourceCache
	tools   sync.Map // a registered tool's name -> *toolSpan
}

var (
	_ codeexec.Observer = (*Tracer)(nil)
	_ mcp.Monitor       = (*Tracer)(nil)
)

// New returns a Tracer that makes its spans with tp.
func New(tp trace.TracerProvider, opts Options) *Tracer {
	prop := opts.Propagator
	if prop == nil {
		prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	return &Tracer{tracer: tp.Tracer(ScopeName), prop: prop, capture: opts.CaptureContent, sources: newSourceCache()}
}

// Enabled reports whether the OTEL_* environment variables turn tracing
// on: an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), or OTEL_TRACES_EXPORTER is "otlp";
// and neither OTEL_SDK_DISABLED is "true" nor OTEL_TRACES_EXPORTER
// "none".
func Enabled() bool {
	exporter := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER"))
	switch {
	case strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true"), exporter == "none":
		return false
	case exporter == "otlp":
		return true
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// CaptureEnv is the environment variable that turns content capture on
// ("true"), the convention's name for it.
const CaptureEnv = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

// FromEnv returns a Tracer that exports over OTLP/HTTP as the OTEL_*
// environment variables say (the endpoint, headers, timeout, sampler,
// batching through NewBatchProcessor with BatchOptionsFromEnv,
// OTEL_SERVICE_NAME, default "codeexec", and OTEL_RESOURCE_ATTRIBUTES),
// with content capture when CaptureEnv is "true", and the function that
// flushes and stops the export. When Enabled is false it returns nil, a
// Tracer that traces nothing, and a stop that does nothing. It fails on
// an exporter or protocol other than OTLP over HTTP (http/protobuf), and
// on an OTEL_BSP_* variable that is not a positive integer.
func FromEnv(ctx context.Context, version string) (*Tracer, func(context.Context) error, error) {
	nothing := func(context.Context) error { return nil }
	if !Enabled() {
		return nil, nothing, nil
	}
	if e := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); e != "" && e != "otlp" {
		return nil, nothing, fmt.Errorf("tracing: OTEL_TRACES_EXPORTER=%s: codeexec exports with otlp (or none)", e)
	}
	for _, v := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := os.Getenv(v); p != "" {
			if p != "http/protobuf" {
				return nil, nothing, fmt.Errorf("tracing: %s=%s: codeexec exports OTLP over HTTP (http/protobuf)", v, p)
			}
			break
		}
	}
	bopts, err := BatchOptionsFromEnv()
	if err != nil {
		return nil, nothing, err
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nothing, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "codeexec"), attribute.String("service.version", version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, nothing, fmt.Errorf("tracing: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(NewBatchProcessor(exp, bopts)), sdktrace.WithResource(res))
	t := New(tp, Options{CaptureContent: strings.EqualFold(os.Getenv(CaptureEnv), "true")})
	return t, tp.Shutdown, nil
}

// StartRun implements codeexec.Observer: it starts the run's span.
func (t *Tracer) StartRun(ctx context.Context, run codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	opts := []trace.SpanStartOption{t.sources.attrs(run.Source)}
	if t.capture {
		opts = append(opts, trace.WithAttributes(keySource.String(run.Source)))
	}
	// The kind is the default, internal.
	ctx, span := t.tracer.Start(ctx, promptgen.ToolName, opts...)
	return ctx, &runSpan{t: t, span: span}
}

// sourceCacheSlots is how many sources a Tracer keeps the attributes of
// (a power of two), and sourceCacheMax the size of the largest it keeps:
// at most 64 × 64 KiB of sources are held for it.
const (
	sourceCacheSlots = 64
	sourceCacheMax   = 64 << 10
)

// sourceCache keeps the start attributes of a run's span (the source's
// SHA-256 and length) for the sources last run, so that a source run again
// (a harness's loop, an agent's retry, a benchmark) is hashed once: a
// direct-mapped cache of sourceCacheSlots entries, each replaced by the
// next source that maps to its slot.
type sourceCache struct {
	seed  maphash.Seed
	slots [sourceCacheSlots]atomic.Pointer[sourceEntry]
}

type sourceEntry struct {
	src  string
	opts trace.SpanStartOption
}

func newSourceCache() *sourceCache { return &sourceCache{seed: maphash.MakeSeed()} }

// attrs returns the start option with the attributes of src.
func (c *sourceCache) attrs(src string) trace.SpanStartOption {
	if len(src) > sourceCacheMax {
		return sourceAttrs(src)
	}
	slot := &c.slots[maphash.String(c.seed, src)&(sourceCacheSlots-1)]
	if e := slot.Load(); e != nil && e.src == src {
		return e.opts
	}
	e := &sourceEntry{src: src, opts: sourceAttrs(src)}
	slot.Store(e)
	return e.opts
}

// sourceAttrs is the start option with the SHA-256 and the length of src.
func sourceAttrs(src string) trace.SpanStartOption {
	sum := sha256.Sum256([]byte(src))
	return trace.WithAttributes(keySourceSHA256.String(hex.EncodeToString(sum[:])), keySourceLength.Int(len(src)))
}

type runSpan struct {
	t    *Tracer
	span trace.Span
}

// Attributes every tool call's span has.
var (
	attrOpExecuteTool = keyOperation.String("execute_tool")
	attrToolFunction  = keyToolType.String("function")
)

// toolSpan is what the spans of a registered tool's calls share.
type toolSpan struct {
	name string             // the span's name, "execute_tool NAME"
	tool attribute.KeyValue // gen_ai.tool.name
}

// toolSpan returns the span name and the name attribute of a call of the
// registered tool name, made once per tool.
func (t *Tracer) toolSpan(name string) *toolSpan {
	if ts, ok := t.tools.Load(name); ok {
		return ts.(*toolSpan)
	}
	ts, _ := t.tools.LoadOrStore(name, &toolSpan{name: "execute_tool " + name, tool: keyToolName.String(name)})
	return ts.(*toolSpan)
}

// StartCall starts the span of a tool call, a child of the run's.
func (r *runSpan) StartCall(ctx context.Context, call codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	// A made-up name stays out of the span's name, which should be of
	// low cardinality; it is in gen_ai.tool.name. The registered tools
	// are a bounded set, whose names and attributes are made once.
	name, tool := "execute_tool", keyToolName.String(call.Tool)
	if call.Registered {
		ts := r.t.toolSpan(call.Tool)
		name, tool = ts.name, ts.tool
	}
	attrs := []attribute.KeyValue{attrOpExecuteTool, tool, keyToolCallID.String(call.ID), attrToolFunction}
	if r.t.capture {
		if b, err := json.Marshal(call.Params); err == nil {
			attrs = append(attrs, keyToolArgs.String(string(b)))
		}
	}
	ctx, span := r.t.tracer.Start(ctx, name, trace.WithAttributes(attrs...))
	return ctx, func(e codeexec.CallEnd) {
		if typ := e.ErrorType(); typ != "" {
			span.SetAttributes(keyErrorType.String(typ))
			desc := typ
			if r.t.capture {
				if e.Err != nil {
					desc = e.Err.Error()
				} else {
					desc = e.Result.Text()
				}
			}
			span.SetStatus(codes.Error, desc)
		}
		if r.t.capture && e.Err == nil {
			span.SetAttributes(keyToolResult.String(resultText(e)))
		}
		span.End()
	}
}

// resultText is a call's result as the convention records it: its
// details as JSON when it has any, else its text.
func resultText(e codeexec.CallEnd) string {
	if raw, err := e.Result.DetailsJSON(); err == nil && len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		return string(raw)
	}
	return e.Result.Text()
}

// EndRun ends the run's span with its outcome.
func (r *runSpan) EndRun(res *codeexec.Result) {
	attrs := []attribute.KeyValue{
		keyOutcome.String(string(res.Outcome())),
		keyToolCalls.Int(len(res.ToolCalls)),
	}
	if k := res.LimitKind(); k != "" {
		attrs = append(attrs, keyLimit.String(k))
	}
	if res.Error != nil {
		attrs = append(attrs, keyErrorType.String(string(res.Error.Kind)))
		desc := res.Error.Name
		if r.t.capture {
			desc = res.Error.Name + ": " + res.Error.Message
		}
		r.span.SetStatus(codes.Error, desc)
	}
	r.span.SetAttributes(attrs...)
	r.span.End()
}

// metaCarrier reads a trace context from an MCP request's params._meta.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// StartRequest implements mcp.Monitor: it starts the server span of an
// MCP message, whose parent is the trace context in its params._meta,
// else in its HTTP headers, else the span in ctx.
func (t *Tracer) StartRequest(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.RequestEnd)) {
	if _, ok := req.Meta["traceparent"].(string); ok {
		ctx = t.prop.Extract(ctx, metaCarrier(req.Meta))
	} else if req.Header != nil {
		ctx = t.prop.Extract(ctx, propagation.HeaderCarrier(req.Header))
	}
	name := req.Method
	attrs := []attribute.KeyValue{keyMCPMethod.String(req.Method)}
	if req.Tool != "" {
		name += " " + req.Tool
		attrs = append(attrs, keyToolName.String(req.Tool), keyOperation.String("execute_tool"))
	}
	if req.RequestID != "" {
		attrs = append(attrs, keyRequestID.String(req.RequestID))
	}
	if req.SessionID != "" {
		attrs = append(attrs, keyMCPSession.String(req.SessionID))
	}
	if req.ProtocolVersion != "" {
		attrs = append(attrs, keyMCPProtocol.String(req.ProtocolVersion))
	}
	if req.Header != nil {
		attrs = append(attrs, keyTransport.String("tcp"))
	} else {
		attrs = append(attrs, keyTransport.String("pipe"))
	}
	ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, func(e mcp.RequestEnd) {
		if typ := e.ErrorType(); typ != "" {
			span.SetAttributes(keyErrorType.String(typ))
			desc := typ
			if e.Err != nil {
				desc = e.Err.Error()
			}
			span.SetStatus(codes.Error, desc)
		}
		span.End()
	}
}

// Meta returns the W3C trace context of the span in ctx as the params._meta
// of an MCP request ("traceparent", and "tracestate" when there is one),
// or nil when ctx has no span: mcptools.ClientOptions.Meta, so that the
// tool calls of a snippet to MCP servers carry the trace on.
func (t *Tracer) Meta(ctx context.Context) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	m := metaCarrier{}
	t.prop.Inject(ctx, m)
	return m
}

// Refused implements mcp.Monitor; a refused request makes no span (the
// log and the metrics count it).
func (t *Tracer) Refused(mcp.Refusal) {}
