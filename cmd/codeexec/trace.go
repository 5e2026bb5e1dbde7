package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// maxArgRunes bounds one argument's value in a call line.
const maxArgRunes = 60

// describeCall is the RenderCall line of a call of tool name, described by the
// Info that lookup gives, or by its name alone when lookup knows no such
// tool.
func describeCall(lookup func(string) (registry.Info, bool), name string, params map[string]any) string {
	info, ok := lookup(name)
	if !ok {
		info = registry.Info{Name: name}
	}
	return info.RenderCall(params)
}

// firstLine is the first line of s, cut at maxArgRunes, with "..." when
// anything was left out.
func firstLine(s string) string {
	line, rest, _ := strings.Cut(strings.TrimRight(s, "\n"), "\n")
	if r := []rune(line); len(r) > maxArgRunes {
		return string(r[:maxArgRunes]) + "..."
	}
	if rest != "" {
		return line + " ..."
	}
	return line
}

// tracer prints a run's tool events for --trace, one line each, on w: a
// call's start ("trace: call_1 Read: a.txt"), each partial update it
// reports, and its end with its duration and error flag.
type tracer struct {
	w      io.Writer
	lookup func(name string) (registry.Info, bool)
}

func (tr *tracer) event(e codeexec.Event) {
	switch e.Kind {
	case codeexec.EventToolStart:
		fmt.Fprintf(tr.w, "trace: %s %s\n", e.CallID, describeCall(tr.lookup, e.Tool, e.Params))
	case codeexec.EventToolUpdate:
		fmt.Fprintf(tr.w, "trace: %s update: %s\n", e.CallID, firstLine(e.Update.Text()))
	case codeexec.EventToolEnd:
		status := "done"
		if e.IsError {
			status = "failed"
		}
		fmt.Fprintf(tr.w, "trace: %s %s in %s\n", e.CallID, status, e.Duration.Round(100*time.Microsecond))
	}
}

// statusLine shows, on a terminal, that a long run is alive: after
// statusDelay, a spinner with the running call and the elapsed time,
// redrawn every statusTick on one line, which every other write to the
// terminal clears first. It prints nothing on anything but a terminal.
type statusLine struct {
	mu      sync.Mutex
	w       io.Writer
	start   time.Time
	running map[string]string // call id -> call line, of the calls running
	order   []string          // running call ids, in start order
	drawn   bool
	frame   int
	stop    chan struct{}
	done    chan struct{}
	lookup  func(name string) (registry.Info, bool)
}

// statusDelay and statusTick pace the status line.
var (
	statusDelay = time.Second
	statusTick  = 100 * time.Millisecond
)

func newStatusLine(w io.Writer, lookup func(string) (registry.Info, bool)) *statusLine {
	s := &statusLine{w: w, start: time.Now(), running: map[string]string{}, stop: make(chan struct{}), done: make(chan struct{}), lookup: lookup}
	go s.loop()
	return s
}

func (s *statusLine) loop() {
	defer close(s.done)
	t := time.NewTicker(statusTick)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.mu.Lock()
			if time.Since(s.start) >= statusDelay {
				s.drawLocked()
			}
			s.mu.Unlock()
		}
	}
}

// drawLocked redraws the line. Called with s.mu held.
func (s *statusLine) drawLocked() {
	spin := `|/-\`[s.frame%4]
	s.frame++
	what := "running"
	if n := len(s.order); n > 0 {
		what = s.running[s.order[n-1]]
		if n > 1 {
			what += fmt.Sprintf(" (+%d more)", n-1)
		}
	}
	fmt.Fprintf(s.w, "\r\x1b[K%c %s  %s", spin, firstLine(what), time.Since(s.start).Round(100*time.Millisecond))
	s.drawn = true
}

// clearLocked erases the line if it is drawn. Called with s.mu held.
func (s *statusLine) clearLocked() {
	if s.drawn {
		io.WriteString(s.w, "\r\x1b[K")
		s.drawn = false
	}
}

// event keeps the set of running calls.
func (s *statusLine) event(e codeexec.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch e.Kind {
	case codeexec.EventToolStart:
		s.running[e.CallID] = describeCall(s.lookup, e.Tool, e.Params)
		s.order = append(s.order, e.CallID)
	case codeexec.EventToolEnd:
		delete(s.running, e.CallID)
		s.order = slices.DeleteFunc(s.order, func(id string) bool { return id == e.CallID })
	}
}

// writer returns w with the line cleared before each write.
func (s *statusLine) writer(w io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.clearLocked()
		return w.Write(p)
	})
}

// close stops the line and erases it.
func (s *statusLine) close() {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	s.clearLocked()
	s.mu.Unlock()
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// lockedWriter serialises writes to w, which several goroutines share (the
// console stream and the trace lines on stderr).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
