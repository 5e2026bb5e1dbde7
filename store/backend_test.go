package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFileSurvivesReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := "file:" + filepath.Join(t.TempDir(), "store.db")
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := s.Put(ctx, "session/a", []byte("runs"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, url, Options{})
	e, err := s.Get(ctx, "session/a")
	if err != nil || string(e.Value) != "runs" || e.Version != v1 {
		t.Fatalf("after reopening: %q v%d, %v; want %q v%d", e.Value, e.Version, err, "runs", v1)
	}
	// The version counter survives too: no version is given out twice.
	if v2 := mustPut(t, s, "session/b", "x", 0); v2 <= v1 {
		t.Fatalf("version %d after reopening, not above %d", v2, v1)
	}
}

func TestFileLockedFailsWithinTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := "file:" + filepath.Join(t.TempDir(), "store.db")
	mustOpen(t, url, Options{})
	const timeout = 100 * time.Millisecond
	start := time.Now()
	s, err := Open(ctx, url, Options{FileLockTimeout: timeout})
	took := time.Since(start)
	if err == nil {
		s.Close()
		t.Fatal("a second Open of a held file succeeded")
	}
	if !strings.Contains(err.Error(), "holds the file") || !strings.Contains(err.Error(), timeout.String()) {
		t.Fatalf("second Open: %v; want it to say the file is held and how long it waited", err)
	}
	// It gave up after about the timeout (bbolt stops retrying one 50 ms
	// retry early), not much longer: a generous bound for a loaded
	// machine; without a timeout it would wait forever.
	if took > timeout+10*time.Second {
		t.Fatalf("second Open gave up after %v, want about %v", took, timeout)
	}
}

func TestFileRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("not a database, but long enough to be read as one........"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(context.Background(), "file:"+junk, Options{FileLockTimeout: time.Second}); err == nil {
		s.Close()
		t.Fatal("Open of a file that is not a store succeeded")
	}
}

// TestMemorySweep checks the memory store's active expiry: a Put sweeps
// at most every sweepInterval, and goes on sampling while a sample is
// mostly expired, so that 200 expired entries go at one Put.
func TestMemorySweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock()
	s := mustOpen(t, "memory:", Options{Now: clock.Now}).(*memory)
	mustPut(t, s, "first", "x", 0) // sweeps the empty map
	for i := range 200 {
		if _, err := s.Put(ctx, "old/"+strconv.Itoa(i), []byte("x"), 0, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(2 * time.Second)
	mustPut(t, s, "new", "x", 0) // sweeps: all 200 expired
	if n := s.len(); n != 2 {
		t.Fatalf("%d entries after the sweep, want 2 (first and new)", n)
	}
	for i := range 50 {
		if _, err := s.Put(ctx, "short/"+strconv.Itoa(i), []byte("x"), 0, time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(sweepInterval / 2)
	mustPut(t, s, "newer", "x", 0) // too soon after the last sweep
	if n := s.len(); n != 53 {
		t.Fatalf("%d entries after a Put within sweepInterval of a sweep, want 53", n)
	}
	clock.Advance(sweepInterval / 2)
	mustPut(t, s, "newest", "x", 0)
	if n := s.len(); n != 4 {
		t.Fatalf("%d entries after the next sweep, want 4", n)
	}
}

func TestFileSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock()
	s := mustOpen(t, "file:"+filepath.Join(t.TempDir(), "store.db"), Options{Now: clock.Now}).(*file)
	for i := range fileSweepBatch + 10 {
		if _, err := s.Put(ctx, "old/"+strconv.Itoa(i), []byte("x"), 0, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	v := mustPut(t, s, "kept", "x", 0) // the default TTL, a day
	// Replacing an entry moves its index record: one per entry.
	mustPut(t, s, "kept", "y", v)
	if n, idx := s.count(); n != fileSweepBatch+11 || idx != n {
		t.Fatalf("%d entries and %d index records, want %d of each", n, idx, fileSweepBatch+11)
	}
	clock.Advance(time.Second)
	if n, err := s.sweep(); err != nil || n != fileSweepBatch {
		t.Fatalf("first sweep deleted %d, %v; want a batch of %d", n, err, fileSweepBatch)
	}
	if n, err := s.sweep(); err != nil || n != 10 {
		t.Fatalf("second sweep deleted %d, %v; want 10", n, err)
	}
	if n, idx := s.count(); n != 1 || idx != 1 {
		t.Fatalf("after sweeping: %d entries and %d index records, want 1 of each", n, idx)
	}
	if e, err := s.Get(ctx, "kept"); err != nil || string(e.Value) != "y" {
		t.Fatalf("the live entry after sweeping: %q, %v", e.Value, err)
	}
}

// TestFileSweeper checks the ticker: expired entries go without a call,
// and Close stops the goroutine (TestMain's goleak checks that).
func TestFileSweeper(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock()
	s := mustOpen(t, "file:"+filepath.Join(t.TempDir(), "store.db"),
		Options{Now: clock.Now, SweepInterval: time.Millisecond}).(*file)
	if _, err := s.Put(ctx, "old", []byte("x"), 0, time.Second); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if n, _ := s.count(); n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweeper did not delete an expired entry within 30s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRedisTTL expires an entry by Redis's own clock: a short real TTL,
// polled until the entry is gone.
func TestRedisTTL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := mustOpen(t, redisURL(t), redisOptions(Options{}))
	start := time.Now()
	v, err := s.Put(ctx, "short", []byte("x"), 0, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "long", []byte("y"), 0, time.Hour); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Get(ctx, "long"); err != nil || e.Expires.Before(start.Add(59*time.Minute)) || e.Expires.After(time.Now().Add(time.Hour)) {
		t.Fatalf("Get long = %+v, %v; want Expires an hour after the Put", e, err)
	}
	for {
		_, err := s.Get(ctx, "short")
		if errors.Is(err, ErrNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("an entry with a 50ms TTL was still there after 30s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Fatalf("the entry expired after %v, before its TTL", time.Since(start))
	}
	_, err = s.Put(ctx, "short", []byte("z"), v, 0)
	wantConflict(t, err, "short", v, 0)
	mustPut(t, s, "short", "z", 0)
}

// TestRedisSharedByProcesses opens two stores on one server, as two
// replicas would: each sees the other's writes and conflicts.
func TestRedisSharedByProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, opts := redisURL(t), redisOptions(Options{})
	a, b := mustOpen(t, url, opts), mustOpen(t, url, opts)
	v := mustPut(t, a, "session/s", "1", 0)
	e, err := b.Get(ctx, "session/s")
	if err != nil || e.Version != v {
		t.Fatalf("b.Get = %+v, %v", e, err)
	}
	mustPut(t, b, "session/s", "2", v)
	_, err = a.Put(ctx, "session/s", []byte("2'"), v, 0)
	wantConflict(t, err, "session/s", v, v+1)
}

func TestRedisUnreachable(t *testing.T) {
	t.Parallel()
	// A port nothing listens on: Open pings, and says where it tried.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Open(ctx, "redis://127.0.0.1:1/0", Options{})
	if err == nil {
		s.Close()
		t.Fatal("Open of an unreachable redis succeeded")
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1/0") {
		t.Fatalf("Open: %v; want it to name the server", err)
	}
}
