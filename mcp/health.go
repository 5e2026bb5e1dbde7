package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec"
)

// The paths at which `codeexec mcp --http` serves Health's endpoints.
const (
	HealthzPath = "/healthz" // Health.Healthz
	ReadyzPath  = "/readyz"  // Health.Readyz
)

// RefusedDraining is the Refusal reason of an MCP request refused because
// the server is draining (503, see Health.Drain).
const RefusedDraining = "draining"

// DefaultRetryAfter is the default of Health.RetryAfter.
const DefaultRetryAfter = time.Second

// ReadyTimeout bounds one readiness check (Health.Ready): a probe of
// /readyz needs a timeout above it.
const ReadyTimeout = 5 * time.Second

// readyFresh is how long a readiness check's outcome answers /readyz
// before the check runs again: the endpoint is outside the token check,
// so whoever can reach it starts at most one check a second.
const readyFresh = time.Second

// Health is whether the HTTP face of a Server is alive, ready to serve
// and draining. It serves /healthz and /readyz (outside the host and
// token checks: they say "ok" or a short reason, nothing else), counts
// the MCP requests and the runs in progress (see Observer and
// DrainingHandler), and on Drain turns not ready and refuses new MCP
// requests with a retryable error while those in progress finish (see
// Wait).
//
// The zero value is usable: ready while not draining. Set the exported
// fields before the handlers serve; the methods are safe for concurrent
// use.
type Health struct {
	// Ready, when set, reports whether a call can be served now: nil when
	// it can (the Runner starts a run, the store answers). /readyz runs it
	// at most once a second, bounded by ReadyTimeout, and shares the
	// outcome with the requests that come meanwhile. Its error goes to
	// the log, never into the response, which names only the reason of a
	// NotReady error.
	Ready func(context.Context) error
	// RetryAfter is what a request refused while draining is told to wait
	// before it tries again (the Retry-After header, in whole seconds,
	// at least 1; default DefaultRetryAfter).
	RetryAfter time.Duration
	// Logger receives a line when readiness changes, with the error of a
	// failed check (nil logs nothing).
	Logger *slog.Logger

	mu       sync.Mutex
	draining bool
	requests int           // MCP requests in progress (DrainingHandler)
	runs     int           // runs in progress (Observer)
	changed  chan struct{} // closed and replaced when requests or runs fall

	check checkState
	now   func() time.Time // the clock of checkState; nil: time.Now
}

// checkState is the last readiness check, shared by the requests that
// come while it runs and, for readyFresh, after it.
type checkState struct {
	mu      sync.Mutex
	running chan struct{} // closed when the running check ends; nil: none runs
	at      time.Time     // when the last check ended; zero: none did
	err     error         // its outcome
	logged  bool          // a check ran, and readiness was logged
}

// NotReadyError is a readiness check's failure with a short reason that
// /readyz may show ("store", "runner"); the error itself is only logged.
type NotReadyError struct {
	// Reason says what is not ready in a word or two, nothing sensitive.
	Reason string
	// Err is why.
	Err error
}

// Error returns "REASON: ERR".
func (e *NotReadyError) Error() string { return e.Reason + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *NotReadyError) Unwrap() error { return e.Err }

// NotReady returns a *NotReadyError with reason and err.
func NotReady(reason string, err error) error { return &NotReadyError{Reason: reason, Err: err} }

// ErrDraining is the readiness error of a Health that drains.
var ErrDraining = NotReady("draining", errors.New("the server is draining"))

// Healthz returns the handler of /healthz: the process is alive and
// serving HTTP. It answers 200 "ok" to GET and HEAD, draining or not.
func (h *Health) Healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		plain(w, http.StatusOK, "ok")
	})
}

// Readyz returns the handler of /readyz: the server can serve a call
// now. It answers GET and HEAD with 200 "ok", or 503 "not ready:
// REASON" where REASON is "draining" or the Reason of the NotReadyError
// that Ready returned ("check failed" for another error).
func (h *Health) Readyz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		err := h.Check(r.Context())
		if err == nil {
			plain(w, http.StatusOK, "ok")
			return
		}
		reason := "check failed"
		if nr := (*NotReadyError)(nil); errors.As(err, &nr) {
			reason = nr.Reason
		}
		plain(w, http.StatusServiceUnavailable, "not ready: "+reason)
	})
}

// getOrHead refuses a request other than GET and HEAD with 405 and
// reports whether it is one of them.
func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	plain(w, http.StatusMethodNotAllowed, "method not allowed")
	return false
}

// plain writes a short text response that no cache keeps.
func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text+"\n")
}

// Check reports whether the server is ready: ErrDraining once Drain was
// called, else the outcome of Ready (run at most once a second, see
// Ready), which ctx only stops waiting for.
func (h *Health) Check(ctx context.Context) error {
	if h.Draining() {
		return ErrDraining
	}
	if h.Ready == nil {
		return nil
	}
	c := &h.check
	for {
		c.mu.Lock()
		if !c.at.IsZero() && h.clock().Sub(c.at) < readyFresh {
			err := c.err
			c.mu.Unlock()
			return err
		}
		if c.running == nil {
			break // this caller checks
		}
		running := c.running
		c.mu.Unlock()
		select {
		case <-running:
		case <-ctx.Done():
			return NotReady("check failed", ctx.Err())
		}
	}
	running := make(chan struct{})
	c.running = running
	c.mu.Unlock()

	// The check is every waiting caller's, not only this one's: a
	// request that goes away does not cut it short.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ReadyTimeout)
	err := h.Ready(cctx)
	cancel()

	c.mu.Lock()
	changed := !c.logged || (err == nil) != (c.err == nil)
	c.running, c.at, c.err, c.logged = nil, h.clock(), err, true
	close(running)
	c.mu.Unlock()
	if changed && h.Logger != nil {
		if err != nil {
			h.Logger.Warn("not ready", "error", err)
		} else {
			h.Logger.Info("ready")
		}
	}
	return err
}

func (h *Health) clock() time.Time {
	if h.now != nil {
		return h.now()
	}
	return time.Now()
}

// Drain starts the drain: from now on Check fails with ErrDraining, and
// DrainingHandler refuses the MCP requests that would start something
// (see DrainingHandler); what is in progress goes on (see Wait).
// Idempotent.
func (h *Health) Drain() {
	h.mu.Lock()
	h.draining = true
	h.mu.Unlock()
}

// Draining reports whether Drain was called.
func (h *Health) Draining() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.draining
}

// InFlight returns the MCP requests (of DrainingHandler) and the runs (of
// Observer) in progress.
func (h *Health) InFlight() (requests, runs int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests, h.runs
}

// Wait waits until no MCP request and no run is in progress, or ctx is
// done (its error, wrapped, then). Called after Drain, once it returns
// nothing new starts but what continues a run in progress.
func (h *Health) Wait(ctx context.Context) error {
	for {
		h.mu.Lock()
		if h.requests == 0 && h.runs == 0 {
			h.mu.Unlock()
			return nil
		}
		if h.changed == nil {
			h.changed = make(chan struct{})
		}
		changed := h.changed
		requests, runs := h.requests, h.runs
		h.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("mcp: %d requests and %d runs still in progress: %w", requests, runs, ctx.Err())
		}
	}
}

// enter counts a request in progress, unless draining (then it reports
// false and counts nothing): with force, even then.
func (h *Health) enter(force bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.draining && !force {
		return false
	}
	h.requests++
	return true
}

// add adds d to *n, one of the counts, under h.mu, and wakes Wait when a
// count falls.
func (h *Health) add(n *int, d int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	*n += d
	if d < 0 && h.changed != nil {
		close(h.changed)
		h.changed = nil
	}
}

// probeFilename names the runs of RunnerReady, which Observer keeps from
// the observers it wraps.
const probeFilename = "codeexec-readiness-probe.js"

// probeSource is the snippet of RunnerReady, and probeValue its value.
const (
	probeSource = "return 6 * 7"
	probeValue  = "42"
)

// RunnerReady returns a readiness check (for Health.Ready) that runs a
// trivial snippet with r: it fails, with the NotReady reason "runner",
// when the snippet does not return its value (the Runner is closed, a
// worker process cannot start). Health.Observer keeps these runs from
// the metrics, traces and logs of the observers it wraps.
func RunnerReady(r *codeexec.Runner) func(context.Context) error {
	return func(ctx context.Context) error {
		res := r.Run(ctx, probeSource, codeexec.RunOptions{Filename: probeFilename})
		switch {
		case res.Error != nil:
			return NotReady("runner", fmt.Errorf("a trivial run failed: %s: %s", res.Error.Name, res.Error.Message))
		case string(res.Value) != probeValue:
			return NotReady("runner", fmt.Errorf("a trivial run returned %s, not %s", res.Value, probeValue))
		}
		return nil
	}
}

// Observer returns an Observer (for codeexec.Options.Observer) that
// counts the runs in progress, for Wait, and passes every run on to next
// (which may be nil) except those of RunnerReady.
func (h *Health) Observer(next codeexec.Observer) codeexec.Observer {
	return &healthObserver{h: h, next: next}
}

type healthObserver struct {
	h    *Health
	next codeexec.Observer
}

// StartRun implements codeexec.Observer.
func (o *healthObserver) StartRun(ctx context.Context, run codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	if run.Filename == probeFilename {
		return ctx, nil
	}
	o.h.add(&o.h.runs, 1)
	var ro codeexec.RunObserver
	if o.next != nil {
		ctx, ro = o.next.StartRun(ctx, run)
	}
	return ctx, &healthRun{h: o.h, next: ro}
}

// WorkerRetired implements codeexec.WorkerObserver, for next.
func (o *healthObserver) WorkerRetired(reason string) {
	if wo, ok := o.next.(codeexec.WorkerObserver); ok {
		wo.WorkerRetired(reason)
	}
}

type healthRun struct {
	h    *Health
	next codeexec.RunObserver
}

// StartCall implements codeexec.RunObserver.
func (r *healthRun) StartCall(ctx context.Context, call codeexec.CallInfo) (context.Context, func(codeexec.CallEnd)) {
	if r.next == nil {
		return ctx, nil
	}
	return r.next.StartCall(ctx, call)
}

// EndRun implements codeexec.RunObserver.
func (r *healthRun) EndRun(res *codeexec.Result) {
	if r.next != nil {
		r.next.EndRun(res)
	}
	r.h.add(&r.h.runs, -1)
}

// DrainingHandler returns Handler(opts) counted by h: each POST in
// progress is one of h's requests (see Health.Wait). Once h drains, a
// POST that passes the host and token checks (Guard) and would start
// something, a JSON-RPC request, is refused with status 503, a
// Retry-After header (Health.RetryAfter) and a JSON-RPC error (-32000)
// that says the server is draining; it is logged and told to the Monitor
// with the reason RefusedDraining. What belongs to work in progress
// still passes: notifications (a cancellation), responses (an
// elicitation's answer), the retry of a call whose run paused for the
// client's answers (protocol 2026-07-28), GET streams and DELETE.
func (s *Server) DrainingHandler(opts HTTPOptions, h *Health) http.Handler {
	serve := s.Handler(opts)
	draining := s.Guard(opts, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, sdk.DefaultMaxRequestBodyBytes))
		if err == nil && !startsWork(body) {
			h.enter(true)
			defer h.add(&h.requests, -1)
			r.Body = io.NopCloser(bytes.NewReader(body))
			serve.ServeHTTP(w, r)
			return
		}
		var id any
		if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '{' {
			id, _ = checkMessage(b)
		}
		retry := h.RetryAfter
		if retry <= 0 {
			retry = DefaultRetryAfter
		}
		secs := max(1, int(math.Ceil(retry.Seconds())))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		msg := fmt.Sprintf("Server draining: this server is shutting down and takes no new requests; retry after %ds", secs)
		writeRPCStatus(w, http.StatusServiceUnavailable, newRPCError(id, codeServerBusy, msg))
		s.refused(r, http.StatusServiceUnavailable, RefusedDraining)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			serve.ServeHTTP(w, r)
			return
		}
		if !h.enter(false) {
			draining.ServeHTTP(w, r)
			return
		}
		defer h.add(&h.requests, -1)
		serve.ServeHTTP(w, r)
	})
}

// startsWork reports whether a POST body would start something: it holds
// a JSON-RPC request (a method and an id) other than the retry of a
// code_execution call that resumes a paused run (its request state), which
// goes on with a call in progress. Notifications and responses belong to
// work in progress too. A body that is not JSON-RPC counts as a request
// (the server that drains refuses it instead of saying what is wrong with
// it).
func startsWork(body []byte) bool {
	body = bytes.TrimSpace(body)
	var msgs []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if err := json.Unmarshal(body, &msgs); err != nil {
			return true
		}
	} else {
		msgs = []json.RawMessage{body}
	}
	for _, raw := range msgs {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
			Params struct {
				RequestState any `json:"requestState"`
			} `json:"params"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return true
		}
		if m.Method == nil || m.ID == nil {
			continue // a response or a notification
		}
		state, _ := m.Params.RequestState.(string)
		if *m.Method == "tools/call" && strings.HasPrefix(state, stateResume) {
			continue
		}
		return true
	}
	return false
}
