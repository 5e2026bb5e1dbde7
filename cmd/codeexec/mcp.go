package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/metrics"
)

const mcpSynopsis = `  codeexec mcp [flags]                 serve code_execution over MCP on stdin/stdout
  codeexec mcp --http ADDR [flags]     serve it over streamable HTTP at http://ADDR/mcp`

const mcpAbout = `Serves one MCP tool, code_execution {code: string}, whose description is the
prompt block of the tools the flags bind (as 'codeexec prompt' prints it). A call
runs the snippet as 'codeexec run' would and returns its text (output, return
value, error), isError when it failed, and the --json object as structured
content. Run events are sent as progress notifications when the client asks for
progress; a cancelled request cancels its run. Each MCP session is one codeexec
session: top-level declarations carry to its next call ("reset": true starts it
afresh), and its calls run in turn, in the order they arrive; calls of
different sessions, and every call of a --stateless server, run concurrently.

Over HTTP the server binds loopback unless ADDR names another host, refuses
requests whose Host or Origin is not an allowed host (DNS rebinding), and, with
--token or $` + mcp.TokenEnv + `, refuses requests without that bearer token.
It serves Prometheus metrics at http://ADDR/metrics, behind the same checks,
or at http://METRICS-ADDR/metrics with --metrics-addr (without them).
It serves http://ADDR/healthz (200 "ok" while it serves) and
http://ADDR/readyz (200 "ok" when it can run a snippet, else 503 "not ready:
REASON"), without those checks, for probes.

On SIGTERM or SIGINT the HTTP server drains: /readyz says "not ready:
draining" at once, a new MCP request gets 503 with Retry-After and a
JSON-RPC error that names the drain, the runs in progress go on for
--drain-grace and are then cancelled, and it exits 0. A second signal, or
15s more than the grace, ends it at once.

It logs to stderr: its start, each refused HTTP request with the reason and
the client's address, a worker process that died, and at --log-level debug
each run's end, each MCP session opened and closed and each worker retired.

It exports OpenTelemetry traces over OTLP/HTTP when the OTEL_* environment
variables say so (OTEL_EXPORTER_OTLP_ENDPOINT, ...): a span for each MCP
message, each run and each tool call; a client's traceparent, in the
request's _meta or its HTTP headers, is their parent.`

// mcpServe implements `codeexec mcp`.
func (a *app) mcpServe(ctx context.Context, args []string) error {
	fs := a.newFlagSet("mcp", mcpSynopsis, mcpAbout)
	var (
		addr      = fs.String("http", "", "serve streamable HTTP on `ADDR` (HOST:PORT; a bare :PORT means 127.0.0.1:PORT) instead of stdio")
		token     = fs.String("token", "", "bearer `TOKEN` HTTP requests must carry (default $"+mcp.TokenEnv+")")
		hosts     = fs.StringSlice("allowed-hosts", nil, "host `NAMES` the Host and Origin headers may name (default: the loopback names)")
		stateless = fs.Bool("stateless", false, "serve HTTP without sessions, so any replica can serve any request")
		confirm   = fs.StringArray("confirm", nil, "ask the MCP client (elicitation) before each call of a tool matching `PATTERN` (a name or a glob; repeatable); a client that cannot be asked is denied; one that speaks protocol 2026-07-28 answers through input-required results, and a run without a session then pauses and resumes on any replica with the same $CODEEXEC_STATE_KEY")
		logFormat = fs.String("log-format", "text", "the log's `FORMAT` on stderr: text (key=value lines) or json (one object a line)")
		logLevel  = fs.String("log-level", "info", "the least `LEVEL` logged: debug (each run's end, sessions), info, warn (refused requests) or error")
		metricsAt = fs.String("metrics-addr", "", "serve Prometheus metrics at http://`ADDR`/metrics (HOST:PORT; a bare :PORT means 127.0.0.1:PORT), without the token and host checks, instead of at /metrics beside /mcp")
		drain     = fs.Duration("drain-grace", 0, drainGraceHelp)
	)
	var rf runnerFlags
	rf.register(fs, "where snippets run, a `MODE`: process (worker processes with a hard memory limit) or none (this process)")
	rf.store.register(fs, "memory:", "the sessions (each run's source and tool-call log, so that any replica sharing the store goes on with a session)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("mcp", "mcp takes no arguments, got %q", fs.Args())
	}
	if err := rf.check(); err != nil {
		return err
	}
	serverGC()
	if *addr == "" && (fs.Changed("token") || fs.Changed("allowed-hosts") || *stateless) {
		return usagef("mcp", "--token, --allowed-hosts and --stateless apply only to --http")
	}
	log, err := newLogger(a.stderr, *logFormat, *logLevel)
	if err != nil {
		return usagef("mcp", "%v", err)
	}
	if err := checkPatterns("mcp", *confirm); err != nil {
		return err
	}
	grace, err := drainGrace(fs, *addr, *drain, rf.timeout)
	if err != nil {
		return err
	}
	if err := rf.store.open(ctx); err != nil {
		return err
	}
	defer rf.store.close()
	// The health of the HTTP face: /healthz, /readyz, and the drain, which
	// counts the runs in progress.
	health := &mcp.Health{Logger: log}
	var (
		observers = []codeexec.Observer{workerLog{log}}
		monitors  []mcp.Monitor
	)
	// Metrics are collected when something serves them.
	var met *serverMetrics
	if *addr != "" || *metricsAt != "" {
		if met, err = newServerMetrics(); err != nil {
			return err
		}
		observers = append(observers, met.host, met.sessions.Observer())
		monitors = append(monitors, met.host)
		rf.store.st = met.sessions.Store(rf.store.st)
	}
	// Traces are exported when the OTEL_* variables say so.
	tr, stopTracing, err := a.tracing(ctx, &rf, func(err error) { log.Warn("traces not exported", "error", err) })
	if err != nil {
		return err
	}
	defer stopTracing()
	if tr != nil {
		observers, monitors = append(observers, tr), append(monitors, tr)
		log.Info("exporting traces over OTLP/HTTP", "endpoint", cmp.Or(os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT"), "the default"))
	}
	rf.observer = health.Observer(codeexec.Observers(observers...))
	// A paused run (a multi round-trip client's approval in a run without
	// a session) resumes on any replica with the same $CODEEXEC_STATE_KEY;
	// without one, only in this process.
	if rf.stateKey, err = envStateKey(); err != nil {
		return err
	}
	// A server runs many snippets: keep two workers warm.
	runner, set, err := a.startRunner(ctx, &rf, 2, nil)
	if err != nil {
		return err
	}
	defer runner.Close()
	defer set.Close()
	reg := set.Registry()
	if len(*confirm) > 0 {
		c := &confirmer{patterns: *confirm, ask: askMCPClient}
		reg.OnToolCall(c.hook(reg.Lookup))
	}
	sopts := mcp.ServerOptions{Version: version, NoSessions: *stateless, Logger: log, Monitor: mcp.Monitors(monitors...), Store: rf.store.st}
	srv := mcp.NewServer(runner, reg, sopts)
	if met != nil {
		if err := met.watch(runner, srv); err != nil {
			return err
		}
	}
	var servers []*httpServer
	defer func() {
		for _, hs := range servers {
			hs.stop(log)
		}
	}()
	if *metricsAt != "" {
		mux := http.NewServeMux()
		mux.Handle("/metrics", metrics.Handler(met.reg))
		hs, err := listen(*metricsAt, mux)
		if err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		servers = append(servers, hs)
		log.Info("serving metrics", "url", "http://"+hs.addr+"/metrics")
	}
	if *addr == "" {
		log.Info("serving MCP on stdio", "version", version)
		err := srv.Serve(ctx, a.stdin, a.stdout)
		log.Info("stopped")
		return err
	}

	if *token == "" {
		*token = os.Getenv(mcp.TokenEnv)
	}
	if l := loopbackDefault(*addr); !mcp.IsLoopback(l) && *token == "" {
		log.Warn("not a loopback address and no token is set: anyone who can reach it can run code", "addr", l)
	}
	hopts := mcp.HTTPOptions{AllowedHosts: *hosts, Token: *token, Stateless: *stateless}
	health.Ready = readiness(rf.store.st, runner)
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.DrainingHandler(hopts, health))
	// Outside the host and token checks: a probe names the pod by its
	// address and carries no token.
	mux.Handle(mcp.HealthzPath, health.Healthz())
	mux.Handle(mcp.ReadyzPath, health.Readyz())
	if *metricsAt == "" {
		mux.Handle("/metrics", srv.Guard(hopts, metrics.Handler(met.reg)))
	}
	hs, err := listen(*addr, mux)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	servers = append(servers, hs)
	attrs := []any{"url", "http://" + hs.addr + "/mcp", "version", version, "token", *token != "", "sessions", !*stateless, "drain_grace", grace.String()}
	if *metricsAt == "" {
		attrs = append(attrs, "metrics", "http://"+hs.addr+"/metrics")
	}
	log.Info("serving MCP", attrs...)
	// A signal's grace covers the drain (see drainHTTP).
	a.allowDrain(drainTime(grace))
	select {
	case err := <-hs.done:
		return fmt.Errorf("--http: %w", err)
	case <-ctx.Done():
	}
	drainHTTP(log, health, runner, srv, grace)
	// The sessions' SSE streams never end on their own: end them before
	// Shutdown, which would otherwise wait for them until its deadline.
	srv.EndStreams()
	servers = servers[:len(servers)-1]
	if err := hs.stop(log); err != nil {
		return fmt.Errorf("--http: shut down: %w", err)
	}
	log.Info("stopped")
	return nil
}

// serverMetrics are the collectors of `codeexec mcp`, in the registry its
// /metrics serves.
type serverMetrics struct {
	reg      *prometheus.Registry
	host     *metrics.Metrics
	sessions *metrics.SessionMetrics
}

// newServerMetrics registers the host and session collectors in a new
// registry; it fails only on a name registered twice.
func newServerMetrics() (*serverMetrics, error) {
	m := &serverMetrics{reg: prometheus.NewRegistry()}
	var err error
	if m.host, err = metrics.New(m.reg); err != nil {
		return nil, err
	}
	if m.sessions, err = metrics.NewSessions(m.reg); err != nil {
		return nil, err
	}
	return m, nil
}

// watch registers the gauges read from runner and srv at each scrape.
func (m *serverMetrics) watch(runner *codeexec.Runner, srv *mcp.Server) error {
	if err := m.host.WatchRunner(runner); err != nil {
		return err
	}
	if err := m.host.WatchSessions(srv.SessionCount); err != nil {
		return err
	}
	return m.sessions.WatchRunner(runner)
}

// workerLog logs each worker process retired: at debug level, and as a
// warning for one that died.
type workerLog struct{ log *slog.Logger }

func (workerLog) StartRun(ctx context.Context, _ codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	return ctx, nil
}

// WorkerRetired implements codeexec.WorkerObserver.
func (w workerLog) WorkerRetired(reason string) {
	level := slog.LevelDebug
	if reason == codeexec.RetiredDied {
		level = slog.LevelWarn
	}
	w.log.Log(context.Background(), level, "worker retired", "reason", reason)
}

// httpServer is an HTTP server of `codeexec mcp` and where it listens.
type httpServer struct {
	hs   *http.Server
	addr string
	done chan error // Serve's error
}

// loopbackDefault is addr with a bare :PORT bound to 127.0.0.1.
func loopbackDefault(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// listen serves h at addr (a bare :PORT means 127.0.0.1:PORT).
func listen(addr string, h http.Handler) (*httpServer, error) {
	ln, err := net.Listen("tcp", loopbackDefault(addr))
	if err != nil {
		return nil, err
	}
	// The requests' contexts end when the server shuts down, so that
	// streams that never end by themselves (an MCP session's GET) do not
	// hold the shutdown for its whole timeout.
	base, cancel := context.WithCancel(context.Background())
	s := &httpServer{hs: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return base }},
		addr: ln.Addr().String(), done: make(chan error, 1)}
	s.hs.RegisterOnShutdown(cancel)
	go func() { s.done <- s.hs.Serve(ln) }()
	return s, nil
}

// stop shuts the server down, leaving the requests in progress
// shutdownTimeout to end, then closing their connections.
func (s *httpServer) stop(log *slog.Logger) error {
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := s.hs.Shutdown(shutdown)
	if errors.Is(err, context.DeadlineExceeded) {
		log.Warn("requests still in progress after "+shutdownTimeout.String()+" were cut off", "addr", s.addr)
		_ = s.hs.Close()
		return nil
	}
	return err
}

// newLogger is the log of `codeexec mcp` on w, in format (text or json)
// from level (debug, info, warn or error) up.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level must be debug, info, warn or error, got %q", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format must be text or json, got %q", format)
}

// serverGCPercent is the garbage collector's target of `codeexec mcp`
// (GOGC): a call allocates about 100 KB, client and server together, on a
// heap of a few MiB, so at Go's default of 100 the collector runs every
// few calls. Measured with `go test -run '^$' -bench BenchmarkCall ./mcp`
// (the 30-line snippet, in process, 8 runs at each setting, alternating,
// 2026-11-27): 0.82 ms a call in a session and 1.0 ms stateless at
// GOGC=100, 0.71 and 0.82 ms at 400. The heap it lets grow is the
// server's garbage between collections, a few MiB; a memory limit of runs
// is measured on the live heap, which it does not change.
const serverGCPercent = 400

// serverGC sets the collector's target of a long-lived server to
// serverGCPercent, unless GOGC in the environment says otherwise.
func serverGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}
