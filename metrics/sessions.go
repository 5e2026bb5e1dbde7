package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/store"
)

// SessionMetrics are the collectors of stored sessions and their store:
// sessions rebuilt from the store (by outcome) and how long each took,
// the live sessions of a Runner, and the latency of every store round
// trip by operation and outcome. Make it with NewSessions; its methods
// are safe for concurrent use.
type SessionMetrics struct {
	rebuilt  *prometheus.HistogramVec
	storeOps *prometheus.HistogramVec
	reg      prometheus.Registerer
}

// NewSessions makes the session metrics and registers them in reg; it
// fails when reg already has collectors of the same names.
func NewSessions(reg prometheus.Registerer) (*SessionMetrics, error) {
	m := &SessionMetrics{
		reg: reg,
		rebuilt: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codeexec_sessions_rebuilt_duration_seconds",
			Help:    "Stored sessions rebuilt from the store by replaying their runs (this process did not hold their live state), by outcome (ok; failed: the run started a new session): the count is the number of rebuilds.",
			Buckets: Buckets,
		}, []string{"outcome"}),
		storeOps: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "codeexec_store_duration_seconds",
			Help:    "Round trips to the session store, by operation (get, put, delete) and outcome (ok, not_found, conflict, error).",
			Buckets: storeBuckets,
		}, []string{"op", "outcome"}),
	}
	if err := register(reg, m.rebuilt, m.storeOps); err != nil {
		return nil, err
	}
	return m, nil
}

// storeBuckets are the bounds of the store latency histogram, in seconds:
// from 50 µs (memory) to a second (a slow Redis, an fsync under load).
var storeBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}

// SessionRebuilt records a rebuild (see codeexec.SessionObserver).
func (m *SessionMetrics) SessionRebuilt(_ int, d time.Duration, ok bool) {
	outcome := "ok"
	if !ok {
		outcome = "failed"
	}
	m.rebuilt.WithLabelValues(outcome).Observe(d.Seconds())
}

// WatchRunner registers the gauge of r's live sessions (those whose state
// is in this process), read at each scrape.
func (m *SessionMetrics) WatchRunner(r *codeexec.Runner) error {
	return register(m.reg, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "codeexec_sessions_live", Help: "Sessions whose live state (a VM or a pinned worker) is in this process.",
	}, func() float64 { return float64(r.LiveSessions()) }))
}

// Store returns st with each round trip timed into the store latency
// histogram; Ping and Close pass through untimed.
func (m *SessionMetrics) Store(st store.Store) store.Store { return &timedStore{Store: st, m: m} }

// timedStore times a store's round trips.
type timedStore struct {
	store.Store
	m *SessionMetrics
}

func (t *timedStore) observe(op string, start time.Time, err error) {
	outcome := "ok"
	switch {
	case errors.Is(err, store.ErrNotFound):
		outcome = "not_found"
	case errors.Is(err, store.ErrConflict):
		outcome = "conflict"
	case err != nil:
		outcome = "error"
	}
	t.m.storeOps.WithLabelValues(op, outcome).Observe(time.Since(start).Seconds())
}

func (t *timedStore) Get(ctx context.Context, key string) (store.Entry, error) {
	start := time.Now()
	e, err := t.Store.Get(ctx, key)
	t.observe("get", start, err)
	return e, err
}

func (t *timedStore) Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error) {
	start := time.Now()
	v, err := t.Store.Put(ctx, key, value, ifVersion, ttl)
	t.observe("put", start, err)
	return v, err
}

func (t *timedStore) Delete(ctx context.Context, key string, ifVersion uint64) error {
	start := time.Now()
	err := t.Store.Delete(ctx, key, ifVersion)
	t.observe("delete", start, err)
	return err
}

var _ codeexec.SessionObserver = sessionObserver{}

// sessionObserver makes SessionMetrics an Observer of no runs, to pass in
// codeexec.Observers.
type sessionObserver struct{ *SessionMetrics }

func (sessionObserver) StartRun(ctx context.Context, _ codeexec.RunInfo) (context.Context, codeexec.RunObserver) {
	return ctx, nil
}

// Observer returns m as a codeexec.Observer (a SessionObserver that
// watches no run), to give Options.Observer beside others.
func (m *SessionMetrics) Observer() codeexec.Observer { return sessionObserver{m} }
