// Package metrics is codeexec's Prometheus metrics: runs by outcome and
// their durations, tool calls by tool and outcome and their durations,
// MCP messages by method, HTTP requests refused by reason, the worker
// pool and the MCP sessions.
//
// A Metrics is a codeexec.WorkerObserver (Options.Observer of a Runner) and an
// mcp.Monitor (ServerOptions.Monitor of an MCP server); WatchRunner and
// WatchSessions add the gauges read from a Runner and a Server. It sits
// beside cmd, above the root package and mcp, which never import it: an
// embedder who does not use Prometheus does not link it.
//
// No label takes a value a snippet or a client chooses: tool names are
// the registered ones (a name the snippet made up counts as "other"),
// MCP methods those of the specification (others are "other"), and every
// other label one of a fixed set of words.
package metrics

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
)

// Buckets are the upper bounds, in seconds, of the duration histograms:
// from a millisecond (a tool call served from memory) to a minute (a run
// at a long timeout).
var Buckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// Metrics are the collectors of one host. Its methods are safe for
// concurrent use.
type Metrics struct {
	runs         *prometheus.CounterVec
	runDuration  *prometheus.HistogramVec
	toolDuration *prometheus.HistogramVec
	mcpDuration  *prometheus.HistogramVec
	refused      *prometheus.CounterVec
	retired      *prometheus.CounterVec
	reg          prometheus.Registerer
}

// New makes the metrics and registers them in reg (for example a
// prometheus.NewRegistry(), or prometheus.DefaultRegisterer). It fails
// when reg already has collectors of the same names.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		reg: reg,
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codeexec_runs_total",
			Help: "Runs that ended, by outcome (ok, error, limit, cancelled, paused) and, for a limit, which (timeout, memory, other).",
		}, []string{"outcome", "limit"}),
		runDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codeexec_run_duration_seconds",
			Help:    "Wall time of a run, tool calls included, by outcome.",
			Buckets: Buckets,
		}, []string{"outcome"}),
		toolDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gen_ai_execute_tool_duration_seconds",
			Help:    "Duration of a snippet's tool calls, by tool (gen_ai.tool.name; \"other\" for a name not registered) and error type (error.type; empty when the call succeeded).",
			Buckets: Buckets,
		}, []string{"gen_ai_tool_name", "error_type"}),
		mcpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mcp_server_operation_duration_seconds",
			Help:    "Duration of the MCP messages the server handled, by method (mcp.method.name; \"other\" for one the specification does not define) and error type (error.type: empty for a result, tool_error for an error result of tools/call, the JSON-RPC code of an error response, else error).",
			Buckets: Buckets,
		}, []string{"mcp_method_name", "error_type"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codeexec_http_refused_total",
			Help: "HTTP requests the MCP server refused, by reason (token_required, invalid_token, host, origin, bad_request, too_large, busy, unknown_session, other).",
		}, []string{"reason"}),
		retired: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "codeexec_workers_retired_total",
			Help: "Worker processes retired after runs of their own, by reason (unclean, stopped, died, max_runs, heap, surplus, closed).",
		}, []string{"reason"}),
	}
	if err := register(reg, m.runs, m.runDuration, m.toolDuration, m.mcpDuration, m.refused, m.retired); err != nil {
		return nil, err
	}
	return m, nil
}

// register registers each of cs in reg; an error names the collector's
// metrics (a name already registered, most likely).
func register(reg prometheus.Registerer, cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			descs := make(chan *prometheus.Desc, 8)
			go func() { c.Describe(descs); close(descs) }()
			var names []string
			for d := range descs {
				names = append(names, d.String())
			}
			return fmt.Errorf("metrics: register %s: %w", strings.Join(names, ", "), err)
		}
	}
	return nil
}

// WatchRunner registers the gauges and counters of r's worker pool
// (Process isolation; they stay 0 in process), read at each scrape.
func (m *Metrics) WatchRunner(r *codeexec.Runner) error {
	stat := func(f func(codeexec.PoolStats) int64) func() float64 {
		return func() float64 { return float64(f(r.PoolStats())) }
	}
	return register(m.reg,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "codeexec_workers_started_total", Help: "Worker processes started."},
			stat(func(s codeexec.PoolStats) int64 { return s.Started })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "codeexec_worker_runs_total", Help: "Runs served by worker processes."},
			stat(func(s codeexec.PoolStats) int64 { return s.Runs })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "codeexec_worker_runs_reused_total", Help: "Runs served by a worker that had served an earlier run."},
			stat(func(s codeexec.PoolStats) int64 { return s.Reused })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "codeexec_workers_idle", Help: "Started worker processes waiting for a run."},
			func() float64 { return float64(r.IdleWorkers()) }),
	)
}

// WatchSessions registers the gauge of the open MCP sessions, read from
// count (an mcp.Server's SessionCount) at each scrape.
func (m *Metrics) WatchSessions(count func() int) error {
	return register(m.reg, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "codeexec_mcp_sessions", Help: "Open MCP sessions.",
	}, func() float64 { return float64(count()) }))
}

// Handler serves the metrics of g (the registry given to New) in
// Prometheus's exposition formats.
func Handler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{})
}

var (
	_ codeexec.WorkerObserver = (*Metrics)(nil)
	_ mcp.Monitor             = (*Metrics)(nil)
)

// WorkerRetired implements codeexec.WorkerObserver.
func (m *Metrics) WorkerRetired(reason string) {
	m.retired.WithLabelValues(reason).Inc()
}

// StartRun implements codeexec.Observer.
func (m *Metrics) StartRun(ctx context.Context, _ codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	return ctx, runObserver{m}
}

type runObserver struct{ m *Metrics }

func (o runObserver) StartCall(ctx context.Context, call codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	tool := call.Tool
	if !call.Registered {
		tool = "other"
	}
	return ctx, func(e codeexec.CallEnd) {
		o.m.toolDuration.WithLabelValues(tool, e.ErrorType()).Observe(e.Duration.Seconds())
	}
}

func (o runObserver) EndRun(res *codeexec.Result) {
	outcome := string(res.Outcome())
	o.m.runs.WithLabelValues(outcome, res.LimitKind()).Inc()
	o.m.runDuration.WithLabelValues(outcome).Observe(res.Duration.Seconds())
}

// StartRequest implements mcp.Monitor.
func (m *Metrics) StartRequest(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.RequestEnd)) {
	start := time.Now()
	return ctx, func(e mcp.RequestEnd) {
		m.mcpDuration.WithLabelValues(req.Method, e.ErrorType()).Observe(time.Since(start).Seconds())
	}
}

// Refused implements mcp.Monitor.
func (m *Metrics) Refused(r mcp.Refusal) {
	m.refused.WithLabelValues(r.Reason).Inc()
}
