package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is an Options.Now that moves only when a test says so.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// backend opens fresh stores of one kind for the conformance suite.
type backend struct {
	name string
	// open opens an empty store with opts; with a clock, it expires
	// entries by that clock.
	open func(t *testing.T, opts Options) Store
	// fakeTime says whether the backend follows Options.Now (memory and
	// file do; Redis keeps its own time).
	fakeTime bool
}

func backends() []backend {
	return []backend{
		{name: "memory", fakeTime: true, open: func(t *testing.T, opts Options) Store {
			return mustOpen(t, "memory:", opts)
		}},
		{name: "file", fakeTime: true, open: func(t *testing.T, opts Options) Store {
			return mustOpen(t, "file:"+filepath.Join(t.TempDir(), "store.db"), opts)
		}},
		{name: "redis", open: func(t *testing.T, opts Options) Store {
			return mustOpen(t, redisURL(t), redisOptions(opts))
		}},
	}
}

func mustOpen(t testing.TB, url string, opts Options) Store {
	t.Helper()
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Open(%q): %v", url, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func mustPut(t testing.TB, s Store, key, value string, ifVersion uint64) uint64 {
	t.Helper()
	v, err := s.Put(context.Background(), key, []byte(value), ifVersion, 0)
	if err != nil {
		t.Fatalf("Put(%q, ifVersion %d): %v", key, ifVersion, err)
	}
	return v
}

func wantConflict(t testing.TB, err error, key string, want, have uint64) {
	t.Helper()
	var ce *ConflictError
	if !errors.Is(err, ErrConflict) || !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ConflictError", err)
	}
	if ce.Key != key || ce.Want != want || ce.Have != have {
		t.Fatalf("conflict = %+v, want key %q, want %d, have %d", *ce, key, want, have)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("%q", key)) {
		t.Fatalf("error %q does not name key %q", err, key)
	}
}

// TestConformance runs the same cases against every backend.
func TestConformance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(t *testing.T, b backend)
	}{
		{"GetMissing", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			_, err := s.Get(ctx, "nope")
			if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"nope"`) {
				t.Fatalf("Get missing: %v, want ErrNotFound naming the key", err)
			}
		}},
		{"PutNewThenGet", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			before := time.Now()
			v := mustPut(t, s, "session/a", "hello", 0)
			if v == 0 {
				t.Fatal("Put returned version 0")
			}
			e, err := s.Get(ctx, "session/a")
			if err != nil {
				t.Fatal(err)
			}
			if string(e.Value) != "hello" || e.Version != v {
				t.Fatalf("Get = %q v%d, want %q v%d", e.Value, e.Version, "hello", v)
			}
			// The default TTL is a day; Expires is about a day from now
			// (by the real clock, which these stores use here).
			if d := e.Expires.Sub(before); d < DefaultTTL-time.Minute || d > DefaultTTL+time.Minute {
				t.Fatalf("Expires %v is %v after the Put, want about %v", e.Expires, d, DefaultTTL)
			}
			// The caller owns the value: changing it changes nothing stored.
			e.Value[0] = 'J'
			if e2, _ := s.Get(ctx, "session/a"); string(e2.Value) != "hello" {
				t.Fatalf("after changing a returned value, Get = %q", e2.Value)
			}
		}},
		{"PutKeepsNoReference", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			buf := []byte("abc")
			if _, err := s.Put(ctx, "k", buf, 0, 0); err != nil {
				t.Fatal(err)
			}
			buf[0] = 'X'
			if e, _ := s.Get(ctx, "k"); string(e.Value) != "abc" {
				t.Fatalf("Get = %q after changing Put's slice", e.Value)
			}
		}},
		{"EmptyValue", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			mustPut(t, s, "empty", "", 0)
			e, err := s.Get(ctx, "empty")
			if err != nil || len(e.Value) != 0 {
				t.Fatalf("Get empty = %q, %v", e.Value, err)
			}
		}},
		{"PutOverWithVersion", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			v1 := mustPut(t, s, "k", "one", 0)
			v2 := mustPut(t, s, "k", "two", v1)
			if v2 <= v1 {
				t.Fatalf("versions %d then %d, want increasing", v1, v2)
			}
			e, err := s.Get(ctx, "k")
			if err != nil || string(e.Value) != "two" || e.Version != v2 {
				t.Fatalf("Get = %q v%d, %v", e.Value, e.Version, err)
			}
		}},
		{"ConflictStale", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			v1 := mustPut(t, s, "k", "one", 0)
			v2 := mustPut(t, s, "k", "two", v1)
			_, err := s.Put(ctx, "k", []byte("three"), v1, 0)
			wantConflict(t, err, "k", v1, v2)
			if !strings.Contains(err.Error(), fmt.Sprint(v1)) || !strings.Contains(err.Error(), fmt.Sprint(v2)) {
				t.Fatalf("error %q does not name both versions", err)
			}
			if e, _ := s.Get(ctx, "k"); string(e.Value) != "two" {
				t.Fatalf("a conflicting Put changed the value to %q", e.Value)
			}
		}},
		{"ConflictZeroOnExisting", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			v1 := mustPut(t, s, "k", "one", 0)
			_, err := s.Put(ctx, "k", []byte("again"), 0, 0)
			wantConflict(t, err, "k", 0, v1)
		}},
		{"ConflictVersionOnMissing", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			_, err := s.Put(ctx, "k", []byte("x"), 7, 0)
			wantConflict(t, err, "k", 7, 0)
		}},
		{"ConcurrentPutsOneWins", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			for round, base := range []string{"new", "existing"} {
				key := "race/" + base
				var from uint64
				if round == 1 {
					from = mustPut(t, s, key, "start", 0)
				}
				const n = 16
				var wg sync.WaitGroup
				errs := make([]error, n)
				start := make(chan struct{})
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						_, errs[i] = s.Put(ctx, key, []byte(fmt.Sprint(i)), from, 0)
					}()
				}
				close(start)
				wg.Wait()
				wins, conflicts := 0, 0
				for _, err := range errs {
					switch {
					case err == nil:
						wins++
					case errors.Is(err, ErrConflict):
						conflicts++
					default:
						t.Fatalf("Put: %v", err)
					}
				}
				if wins != 1 || conflicts != n-1 {
					t.Fatalf("%s key: %d Puts won and %d conflicted, want 1 and %d", base, wins, conflicts, n-1)
				}
			}
		}},
		{"Delete", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			v1 := mustPut(t, s, "k", "one", 0)
			v2 := mustPut(t, s, "k", "two", v1)
			wantConflict(t, s.Delete(ctx, "k", v1), "k", v1, v2)
			if err := s.Delete(ctx, "k", v2); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, "k"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get after Delete: %v", err)
			}
			if err := s.Delete(ctx, "k", 0); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Delete of a missing key: %v", err)
			}
			// Put again: the new entry never reuses an old version.
			v3 := mustPut(t, s, "k", "three", 0)
			if v3 <= v2 {
				t.Fatalf("re-created entry has version %d, not above %d", v3, v2)
			}
			if err := s.Delete(ctx, "k", 0); err != nil {
				t.Fatalf("unconditional Delete: %v", err)
			}
		}},
		{"TTLExpiry", func(t *testing.T, b backend) {
			if !b.fakeTime {
				t.Skip("see TestRedisTTL")
			}
			clock := newFakeClock()
			s := b.open(t, Options{Now: clock.Now, DefaultTTL: time.Hour})
			v := mustPut(t, s, "short", "x", 0)
			if _, err := s.Put(ctx, "long", []byte("y"), 0, 2*time.Hour); err != nil {
				t.Fatal(err)
			}
			e, err := s.Get(ctx, "short")
			if err != nil || !e.Expires.Equal(clock.Now().Add(time.Hour)) {
				t.Fatalf("Get = %+v, %v; want Expires at the default TTL", e, err)
			}
			clock.Advance(time.Hour - time.Nanosecond)
			if _, err := s.Get(ctx, "short"); err != nil {
				t.Fatalf("Get just before expiry: %v", err)
			}
			clock.Advance(time.Nanosecond)
			if _, err := s.Get(ctx, "short"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get at expiry: %v, want ErrNotFound", err)
			}
			if err := s.Delete(ctx, "short", v); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Delete of an expired key: %v, want ErrNotFound", err)
			}
			// An expired key is missing for Put too: 0 succeeds, its old
			// version conflicts.
			_, err = s.Put(ctx, "short", []byte("z"), v, 0)
			wantConflict(t, err, "short", v, 0)
			mustPut(t, s, "short", "z", 0)
			if _, err := s.Get(ctx, "long"); err != nil {
				t.Fatalf("the 2h entry after 1h: %v", err)
			}
		}},
		{"TooLarge", func(t *testing.T, b backend) {
			s := b.open(t, Options{MaxEntryBytes: 10})
			mustPut(t, s, "k", "0123456789", 0)
			_, err := s.Put(ctx, "big", []byte("0123456789A"), 0, 0)
			var te *TooLargeError
			if !errors.Is(err, ErrTooLarge) || !errors.As(err, &te) || te.Size != 11 || te.Max != 10 {
				t.Fatalf("Put of 11 bytes over a bound of 10: %v", err)
			}
			for _, s := range []string{`"big"`, "11 bytes", "10 bytes"} {
				if !strings.Contains(err.Error(), s) {
					t.Fatalf("error %q does not say %s", err, s)
				}
			}
		}},
		{"InvalidKeysAndTTL", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			for _, key := range []string{"", "a b", "tab\there", "é", strings.Repeat("k", 513)} {
				if _, err := s.Put(ctx, key, nil, 0, 0); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("Put(%q): %v, want ErrInvalidKey", key, err)
				}
				if _, err := s.Get(ctx, key); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("Get(%q): %v, want ErrInvalidKey", key, err)
				}
				if err := s.Delete(ctx, key, 0); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("Delete(%q): %v, want ErrInvalidKey", key, err)
				}
			}
			if _, err := s.Put(ctx, "k", nil, 0, -time.Second); err == nil || !strings.Contains(err.Error(), "negative ttl") {
				t.Errorf("Put with a negative ttl: %v", err)
			}
			mustPut(t, s, strings.Repeat("k", 512), "max length", 0)
			mustPut(t, s, "session/AZaz09-_.~:!#", "punctuation", 0)
		}},
		{"Ping", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			if err := s.Ping(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"CanceledContext", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := s.Put(cctx, "k", nil, 0, 0); !errors.Is(err, context.Canceled) {
				t.Fatalf("Put with a canceled context: %v", err)
			}
			if _, err := s.Get(cctx, "k"); !errors.Is(err, context.Canceled) {
				t.Fatalf("Get with a canceled context: %v", err)
			}
		}},
		{"UseAfterClose", func(t *testing.T, b backend) {
			s := b.open(t, Options{})
			v := mustPut(t, s, "k", "v", 0)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			_, errGet := s.Get(ctx, "k")
			_, errPut := s.Put(ctx, "k", nil, v, 0)
			errDel := s.Delete(ctx, "k", v)
			errPing := s.Ping(ctx)
			for i, err := range []error{errGet, errPut, errDel, errPing} {
				if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "closed") {
					t.Errorf("call %d after Close: %v, want ErrClosed", i, err)
				}
			}
		}},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					c.run(t, b)
				})
			}
		})
	}
}

func TestOpenURLs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct{ url, want string }{
		{"postgres://db/x", `unsupported store URL "postgres://db/x" (scheme "postgres"): use memory:, file:PATH or redis://HOST:PORT/DB`},
		{"/var/lib/store.db", `has no scheme`},
		{"memory:x", `memory: takes nothing after the colon`},
		{"file:", `file: needs a path`},
		{"file://host/x", `not host "host"`},
		{"redis://127.0.0.1:1/notanumber", `redis URL`},
		{"file:" + filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"), "no such file or directory"},
	} {
		s, err := Open(ctx, c.url, Options{})
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", c.url)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%q) = %v, want it to say %s", c.url, err, c.want)
		}
	}
	// file:///ABSOLUTE/PATH is the same as file:PATH.
	path := filepath.Join(t.TempDir(), "abs.db")
	s := mustOpen(t, "file://"+path, Options{})
	mustPut(t, s, "k", "v", 0)
}

func TestValidKeyMessages(t *testing.T) {
	t.Parallel()
	err := ValidKey("a\x00b")
	if !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), "0x00 at 1") {
		t.Fatalf("ValidKey: %v", err)
	}
	if err := ValidKey(""); !strings.Contains(fmt.Sprint(err), "empty") {
		t.Fatalf("ValidKey empty: %v", err)
	}
}
