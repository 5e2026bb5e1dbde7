package codeexec_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/redistest"
	"github.com/codeexec/codeexec/store"
)

// countingStore counts a store's round trips (Get, Put, Delete).
type countingStore struct {
	store.Store
	n atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, key string) (store.Entry, error) {
	c.n.Add(1)
	return c.Store.Get(ctx, key)
}

func (c *countingStore) Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error) {
	c.n.Add(1)
	return c.Store.Put(ctx, key, value, ifVersion, ttl)
}

func (c *countingStore) Delete(ctx context.Context, key string, ifVersion uint64) error {
	c.n.Add(1)
	return c.Store.Delete(ctx, key, ifVersion)
}

// benchStores are the stores the stored-session benchmarks compare: none
// (a session of this process), memory, an embedded file and, with
// redis, a redis-server started for the benchmark.
func benchStores(b *testing.B, redis bool) map[string]store.Store {
	out := map[string]store.Store{"none": nil}
	urls := map[string]string{"memory": "memory:", "file": "file:" + filepath.Join(b.TempDir(), "s.db")}
	if redis {
		srv := redistest.Start(b)
		b.Cleanup(srv.Stop)
		urls["redis"] = srv.URL
	}
	for name, url := range urls {
		st, err := store.Open(context.Background(), url, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = st.Close() })
		out[name] = st
	}
	return out
}

// BenchmarkStoredSession measures stored sessions in process: a run in a
// warm session (its live VM at the stored position: the fast path) with no
// store, the memory store, the file store and Redis (a local
// redis-server; skipped without one), with the store's round trips per
// run; and the rebuild of a session of 10 and 100 runs (each with one
// tool call, answered from its log) by another Runner, with the time per
// replayed run.
func BenchmarkStoredSession(b *testing.B) {
	const src = `const got = await echo("x"); return got`
	reg, _ := testTools(b)
	ctx := context.Background()
	for _, name := range []string{"none", "memory", "file", "redis"} {
		if name == "redis" {
			if _, err := exec.LookPath("redis-server"); err != nil {
				continue
			}
		}
		st := benchStores(b, name == "redis")[name]
		b.Run("warm/"+name, func(b *testing.B) {
			var cs *countingStore
			opts := codeexec.Options{}
			if st != nil {
				cs = &countingStore{Store: st}
				opts.Store = cs
			}
			r, err := codeexec.New(reg, opts)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			s := r.NewSession()
			if res := s.Run(ctx, src, codeexec.RunOptions{}); res.Error != nil {
				b.Fatal(res.Error.Report())
			}
			var before int64
			if cs != nil {
				before = cs.n.Load()
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Run(ctx, src, codeexec.RunOptions{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			}
			if cs != nil {
				b.ReportMetric(float64(cs.n.Load()-before)/float64(b.N), "roundtrips/op")
			}
		})
	}
	for _, runs := range []int{10, 100} {
		b.Run("rebuild/"+strconv.Itoa(runs), func(b *testing.B) {
			st := benchStores(b, false)["memory"]
			a, err := codeexec.New(reg, codeexec.Options{Store: st})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			other, err := codeexec.New(reg, codeexec.Options{Store: st})
			if err != nil {
				b.Fatal(err)
			}
			defer other.Close()
			s := a.NewSession()
			for range runs {
				if res := s.Run(ctx, src, codeexec.RunOptions{}); res.Error != nil {
					b.Fatal(res.Error.Report())
				}
			}
			replayed := 0
			b.ReportAllocs()
			for b.Loop() {
				// A Session of the id that holds no live state: its run
				// rebuilds the session first (and then adds a run to it).
				o, err := other.OpenSession(codeexec.SessionOptions{ID: s.ID()})
				if err != nil {
					b.Fatal(err)
				}
				if res := o.Run(ctx, `return 1`, codeexec.RunOptions{}); res.Error != nil || res.Stderr != "" {
					b.Fatalf("%v %s", res.Error, res.Stderr)
				}
				_ = o.Close()
				replayed += runs
				runs++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(replayed), "ns/replayed-run")
		})
	}
}
