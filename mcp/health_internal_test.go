package mcp

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// logLines collects the messages and errors of a logger's records.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	line := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		line += " " + a.String()
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	return nil
}

func (l *logLines) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// TestCheckKeepsOutcome checks that a readiness check's outcome answers
// for a second, that the check runs again after it, and that the log
// says when readiness changes (with the error), not at every check.
func TestCheckKeepsOutcome(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	var calls atomic.Int32
	var fail atomic.Bool
	logs := &logLines{}
	h := &Health{Logger: slog.New(logs), now: clock.Now}
	h.Ready = func(context.Context) error {
		calls.Add(1)
		if fail.Load() {
			return NotReady("store", errors.New("no route to host"))
		}
		return nil
	}
	steps := []struct {
		advance time.Duration
		fail    bool
		calls   int32 // in all, after the step
		ok      bool
		logged  []string
	}{
		{0, false, 1, true, []string{"INFO ready"}},
		{500 * time.Millisecond, true, 1, true, nil}, // kept: the check does not run
		{600 * time.Millisecond, true, 2, false, []string{"WARN not ready error=store: no route to host"}},
		{2 * time.Second, true, 3, false, nil},
		{2 * time.Second, false, 4, true, []string{"INFO ready"}},
	}
	for i, st := range steps {
		clock.Add(st.advance)
		fail.Store(st.fail)
		err := h.Check(context.Background())
		if (err == nil) != st.ok || calls.Load() != st.calls {
			t.Errorf("step %d: Check = %v after %d calls; want ok %v after %d", i, err, calls.Load(), st.ok, st.calls)
		}
		if got := logs.take(); strings.Join(got, "\n") != strings.Join(st.logged, "\n") {
			t.Errorf("step %d: logged %q, want %q", i, got, st.logged)
		}
	}
}

// TestCheckShared checks that the requests that come while a check runs
// share its outcome instead of starting checks of their own, and that one
// that goes away stops waiting without stopping the check.
func TestCheckShared(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	h := &Health{now: clock.Now}
	h.Ready = func(ctx context.Context) error {
		if calls.Add(1) == 1 {
			close(started)
		}
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	first := make(chan error, 1)
	go func() { first <- h.Check(context.Background()) }()
	<-started
	// One that gives up while the check runs.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Check(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("a check whose context ended = %v, want context.Canceled", err)
	}
	const n = 8
	others := make(chan error, n)
	for range n {
		go func() { others <- h.Check(context.Background()) }()
	}
	close(release)
	for range n {
		if err := <-others; err != nil {
			t.Errorf("a shared check: %v", err)
		}
	}
	if err := <-first; err != nil {
		t.Errorf("the first check: %v", err)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("the check ran %d times, want once (the clock stood still)", got)
	}
}

// TestStartsWork checks which POST bodies a draining server refuses.
func TestStartsWork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, true},
		{`{"jsonrpc":"2.0","id":"a","method":"ping"}`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"code_execution","arguments":{"code":"1"}}}`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"code_execution","arguments":{"code":"1"},"requestState":"run:AAAA"}}`, false},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"code_execution","arguments":{"code":"1"},"requestState":"other:AAAA"}}`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"requestState":"run:AAAA"}}`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"requestState":7}}`, true},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[1]}`, true},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, false},
		{`{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"allow":true}}}`, false},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}`, false},
		{`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":3,"result":{}}]`, false},
		{`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":4,"method":"ping"}]`, true},
		{`{"jsonrpc":`, true},
		{`[1]`, true},
		{`"x"`, true},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, true},
		{`{"jsonrpc":"2.0","id":5,"method":7}`, true},
	}
	for _, tc := range tests {
		if got := startsWork([]byte(tc.body)); got != tc.want {
			t.Errorf("startsWork(%s) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
