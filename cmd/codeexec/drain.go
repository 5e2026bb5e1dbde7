package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/store"
)

// shutdownTimeout is what an HTTP server of `codeexec mcp` leaves its
// requests in progress to end when it stops, and, after a drain's grace,
// what the cancelled runs have to send their responses.
const shutdownTimeout = 5 * time.Second

// drainGraceHelp is the help of mcp's --drain-grace.
const drainGraceHelp = "with --http, how long the runs in progress at SIGTERM (or SIGINT) may go on, a `DUR`, before they are cancelled " +
	"(default: the --timeout, so that a run that started just before the signal ends by itself); meanwhile /readyz says not ready and new requests get 503 with Retry-After"

// drainGrace is the drain's grace of `codeexec mcp` from its flags: the
// --drain-grace given, else the run's time limit, timeout.
func drainGrace(fs *pflag.FlagSet, addr string, given, timeout time.Duration) (time.Duration, error) {
	if !fs.Changed("drain-grace") {
		return timeout, nil
	}
	switch {
	case addr == "":
		return 0, usagef("mcp", "--drain-grace applies only to --http")
	case given < 0:
		return 0, usagef("mcp", "--drain-grace must not be negative, got %s", given)
	}
	return given, nil
}

// drainTime is the longest a drain with grace takes: the grace, then
// the cancelled runs' answers and the HTTP server's shutdown, each
// bounded by shutdownTimeout.
func drainTime(grace time.Duration) time.Duration { return grace + 2*shutdownTimeout }

// allowDrain lets a signal's command take d more than signalGrace to stop
// before the process ends by itself (see signalled): what `codeexec mcp
// --http` needs to drain.
func (a *app) allowDrain(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.extraGrace = d
}

// readiness is the readiness check of `codeexec mcp --http` (/readyz):
// the store answers (st, when there is one: its Ping), then runner runs a
// trivial snippet (mcp.RunnerReady). A failure names which, "store" or
// "runner".
func readiness(st store.Store, runner *codeexec.Runner) func(context.Context) error {
	run := mcp.RunnerReady(runner)
	return func(ctx context.Context) error {
		if st != nil {
			if err := st.Ping(ctx); err != nil {
				return mcp.NotReady("store", err)
			}
		}
		return run(ctx)
	}
}

// drainHTTP drains the HTTP face of `codeexec mcp` once a signal asked it
// to stop: readiness turns false at once and new MCP requests are refused
// with a retryable error (see mcp.Health) while the requests and runs in
// progress go on for at most grace; then the runs still going are
// cancelled, and their requests have shutdownTimeout to answer (with the
// cancelled result). Nothing in a store is touched. The HTTP server still
// listens when it returns: its caller shuts it down.
func drainHTTP(log *slog.Logger, health *mcp.Health, runner *codeexec.Runner, srv *mcp.Server, grace time.Duration) {
	health.Drain()
	requests, runs := health.InFlight()
	log.Info("draining", "sessions", srv.SessionCount(), "requests", requests, "runs", runs, "grace", grace.String())
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	err := health.Wait(ctx)
	cancel()
	if err == nil {
		return
	}
	requests, runs = health.InFlight()
	log.Warn("drain grace over: cancelling the runs in progress", "requests", requests, "runs", runs, "grace", grace.String())
	_ = runner.Close()
	ctx, cancel = context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := health.Wait(ctx); err != nil {
		log.Warn("requests still in progress after the runs were cancelled", "error", err)
	}
}
