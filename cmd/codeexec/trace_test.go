package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// TestStatusLine checks the status line of a long run on a terminal: it
// shows the running call, every other write clears it first, and it is
// erased at the end.
func TestStatusLine(t *testing.T) {
	defer func(d, tick time.Duration) { statusDelay, statusTick = d, tick }(statusDelay, statusTick)
	statusDelay, statusTick = 0, 2*time.Millisecond
	var buf bytes.Buffer
	lw := &lockedWriter{w: &buf}
	lookup := func(string) (registry.Info, bool) {
		return registry.Info{Name: "bash", Label: "Run shell command"}, true
	}
	s := newStatusLine(lw, lookup)
	s.event(codeexec.Event{Kind: codeexec.EventToolStart, CallID: "call_1", Tool: "bash", Params: map[string]any{"command": "make"}})
	time.Sleep(50 * time.Millisecond)
	_, _ = s.writer(lw).Write([]byte("out\n"))
	s.event(codeexec.Event{Kind: codeexec.EventToolEnd, CallID: "call_1"})
	// Let the line be drawn again after the write, so that close has one
	// to erase.
	time.Sleep(50 * time.Millisecond)
	s.close()
	out := buf.String()
	if !strings.Contains(out, "\r\x1b[K") || !strings.Contains(out, "Run shell command: command=make") {
		t.Errorf("no status line with the running call in %q", out)
	}
	if !strings.Contains(out, "\r\x1b[Kout\n") {
		t.Errorf("the write did not clear the line first: %q", out)
	}
	if last := strings.LastIndex(out, "Run shell command"); !strings.Contains(out[last:], "\r\x1b[K") {
		t.Errorf("the last status line drawn was not erased: %q", out)
	}
	// close itself erases the line: the output ends with the erase, after
	// a line drawn once the write had cleared the earlier one.
	if after := out[strings.Index(out, "out\n")+len("out\n"):]; !strings.HasSuffix(out, "\r\x1b[K") || !strings.Contains(after, "running") {
		t.Errorf("close did not erase the line drawn last: %q", out)
	}
}
