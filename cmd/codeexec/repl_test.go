package main

import (
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestSplitSnippets checks how piped repl input is cut into snippets.
func TestSplitSnippets(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"one", "a\nb\n", []string{"a\nb\n"}},
		{"separated", "a\n---\nb", []string{"a\n", "b\n"}},
		{"CRLF separator", "a\r\n---\r\nb\r\n", []string{"a\n", "b\n"}},
		{"blank snippets dropped", "---\n\n---\n  \n---\na\n---\n", []string{"a\n"}},
		{"not a separator", "x = 1 ---\n --- \n----\n", []string{"x = 1 ---\n --- \n----\n"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitSnippets(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("splitSnippets(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestIncomplete checks when a terminal reads on for the rest of a
// statement.
func TestIncomplete(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"const a = 1\n", false},
		{"function f() {\n", true},
		{"const o = {\n  a: 1,\n", true},
		{"call(1,\n", true},
		{"const s = `line one\n", true},
		{"/* a comment\n", true},
		{"const a = ;\n", false}, // a syntax error, not an unfinished statement
		{"}\n", false},
		{"const s = 'open string\n", false},
		{"const t: number = await x(\n", true},
	}
	for _, tt := range tests {
		if got := incomplete(tt.src); got != tt.want {
			t.Errorf("incomplete(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// screen collects what a pty shows, for a test to wait for.
type screen struct {
	mu      sync.Mutex
	buf     strings.Builder
	changed chan struct{}
}

func newScreen(r io.Reader) *screen {
	s := &screen{changed: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			s.mu.Unlock()
			select {
			case s.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// waitFor waits until the screen, past what earlier waits consumed, shows
// what, and consumes it; it fails the test after 30 seconds.
func (s *screen) waitFor(t *testing.T, what string, from *int) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		text := s.buf.String()
		s.mu.Unlock()
		if i := strings.Index(text[*from:], what); i >= 0 {
			*from += i + len(what)
			return
		}
		select {
		case <-s.changed:
		case <-deadline:
			t.Fatalf("the terminal never showed %q; it shows:\n%s", what, text)
		}
	}
}

// TestReplInterrupt runs a snippet that loops forever in the interactive
// repl and interrupts it, as Ctrl-C does, in both isolation modes: the
// run ends with a CanceledError and the repl reads the next snippet,
// which runs (in a new session: the interrupted run ended the old one).
func TestReplInterrupt(t *testing.T) {
	for _, mode := range []string{"none", "process"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pty here: %v", err)
			}
			defer ptmx.Close()
			defer tty.Close()
			interrupts := make(chan os.Signal, 1)
			var stderr syncBuffer
			a := &app{stdin: tty, stdout: tty, stderr: &stderr, terminal: func(any) bool { return true }, interrupts: interrupts}
			code := make(chan int, 1)
			go func() {
				code <- a.main(context.Background(), []string{"repl", "--isolation", mode, "--root", t.TempDir()})
			}()
			sc, at := newScreen(ptmx), 0
			sc.waitFor(t, "> ", &at)
			io.WriteString(ptmx, "console.log('start' + 'ed'); for (;;) {}\r")
			sc.waitFor(t, "started", &at)
			interrupts <- os.Interrupt
			sc.waitFor(t, "> ", &at)
			io.WriteString(ptmx, "console.log('after', 1 + 1)\r")
			sc.waitFor(t, "after 2", &at)
			sc.waitFor(t, "> ", &at)
			io.WriteString(ptmx, "\x04")
			select {
			case c := <-code:
				if c != exitFailed {
					t.Errorf("exit code %d, want %d (a run failed)", c, exitFailed)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the repl did not end at Ctrl-D")
			}
			if !strings.Contains(stderr.String(), "CanceledError") {
				t.Errorf("stderr does not show the interrupted run's CanceledError:\n%s", stderr.String())
			}
		})
	}
}

// syncBuffer is a strings.Builder safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
