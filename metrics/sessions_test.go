package metrics_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/metrics"
	"github.com/codeexec/codeexec/store"
)

// TestSessionMetrics checks the stored sessions' metrics: a session
// rebuilt by a second Runner counts as one rebuild, the live sessions
// gauge follows the Runner, and every store round trip is timed by
// operation and outcome.
func TestSessionMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.NewSessions(reg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), "memory:", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	timed := m.Store(st)
	a, err := codeexec.New(nil, codeexec.Options{Store: timed})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := codeexec.New(nil, codeexec.Options{Store: timed, Observer: m.Observer()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := m.WatchRunner(b); err != nil {
		t.Fatal(err)
	}
	s := a.NewSession()
	if res := s.Run(context.Background(), `const x = 1`, codeexec.RunOptions{}); res.Error != nil {
		t.Fatal(res.Error)
	}
	o, err := b.OpenSession(codeexec.SessionOptions{ID: s.ID()})
	if err != nil {
		t.Fatal(err)
	}
	if res := o.Run(context.Background(), `return x`, codeexec.RunOptions{}); res.Error != nil || string(res.Value) != "1" {
		t.Fatalf("rebuilt run: %s, %v", res.Value, res.Error)
	}
	want := `
# HELP codeexec_sessions_live Sessions whose live state (a VM or a pinned worker) is in this process.
# TYPE codeexec_sessions_live gauge
codeexec_sessions_live 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "codeexec_sessions_live"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(reg, "codeexec_sessions_rebuilt_duration_seconds"); n != 1 {
		t.Errorf("rebuilt series: %d, want 1 (outcome ok)", n)
	}
	got, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]uint64{}
	for _, mf := range got {
		if mf.GetName() != "codeexec_store_duration_seconds" && mf.GetName() != "codeexec_sessions_rebuilt_duration_seconds" {
			continue
		}
		for _, metric := range mf.GetMetric() {
			key := mf.GetName()
			for _, l := range metric.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			ops[key] = metric.GetHistogram().GetSampleCount()
		}
	}
	// a: get (head, absent), put (run), put (head); b: get (head), get
	// (run 1), put (run 2), put (head).
	wantOps := map[string]uint64{
		"codeexec_store_duration_seconds op=get outcome=not_found": 1,
		"codeexec_store_duration_seconds op=get outcome=ok":        2,
		"codeexec_store_duration_seconds op=put outcome=ok":        4,
		"codeexec_sessions_rebuilt_duration_seconds outcome=ok":    1,
	}
	for k, v := range wantOps {
		if ops[k] != v {
			t.Errorf("%s: %d, want %d (all: %v)", k, ops[k], v, ops)
		}
	}
	if len(ops) != len(wantOps) {
		t.Errorf("series %v, want %v", ops, wantOps)
	}
}
