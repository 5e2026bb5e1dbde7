package isolation

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/runtime"
)

// frames is an io.Writer that keeps the frames written to it.
type frames struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (f *frames) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Write(p)
}

// messages decodes the frames written so far.
func (f *frames) messages(t *testing.T) []*message {
	t.Helper()
	f.mu.Lock()
	r := bytes.NewReader(append([]byte(nil), f.buf.Bytes()...))
	f.mu.Unlock()
	var out []*message
	for {
		m, err := readMessage(r)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
}

// TestOutputBatching checks the worker's batching of console output: a
// flood of lines crosses in a few frames, with every byte in order; output
// of the other stream, and any other message, goes after the output printed
// before it; a line printed after a quiet window is sent at once; and
// output still buffered is sent at the window's end without another write.
func TestOutputBatching(t *testing.T) {
	t.Parallel()
	f := &frames{}
	c := newChildConn(f)
	var want strings.Builder
	for i := range 10000 {
		line := "line " + strconv.Itoa(i) + "\n"
		want.WriteString(line)
		if err := c.output(msgStdout, line); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.output(msgStderr, "warn\n"); err != nil {
		t.Fatal(err)
	}
	if err := c.send(&message{Type: msgCall, Seq: 1, Name: "read"}); err != nil {
		t.Fatal(err)
	}
	msgs := f.messages(t)
	var got strings.Builder
	for _, m := range msgs[:len(msgs)-2] {
		if m.Type != msgStdout {
			t.Fatalf("a %s frame among the stdout ones", m.Type)
		}
		got.WriteString(m.Data)
	}
	if got.String() != want.String() {
		t.Errorf("stdout crossed as %d bytes, want the %d printed, in order", got.Len(), want.Len())
	}
	if n := len(msgs) - 2; n > 1000 {
		t.Errorf("10,000 lines crossed in %d frames; batching should need far fewer", n)
	}
	if m := msgs[len(msgs)-2]; m.Type != msgStderr || m.Data != "warn\n" {
		t.Errorf("after stdout: %s %q, want the stderr line", m.Type, m.Data)
	}
	if m := msgs[len(msgs)-1]; m.Type != msgCall {
		t.Errorf("last: %s, want the call, after the output printed before it", m.Type)
	}

	// After a quiet window, a line goes at once.
	time.Sleep(2 * outputWindow)
	before := len(f.messages(t))
	if err := c.output(msgStdout, "now\n"); err != nil {
		t.Fatal(err)
	}
	msgs = f.messages(t)
	if len(msgs) != before+1 || msgs[len(msgs)-1].Data != "now\n" {
		t.Fatalf("a line after a quiet window was not sent at once")
	}
	// One right after it waits for the window's end, and is then sent
	// without another write.
	if err := c.output(msgStdout, "soon\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs = f.messages(t)
		if last := msgs[len(msgs)-1]; last.Data == "soon\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("buffered output was never sent")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDoneLeavesStreamedOutput checks that a done message carries the
// run's output only when it was truncated: otherwise the parent has it
// whole from the stream, and it would cross twice.
func TestDoneLeavesStreamedOutput(t *testing.T) {
	t.Parallel()
	for _, truncated := range []bool{false, true} {
		f := &frames{}
		c := newChildConn(f)
		if err := c.sendEnded(&runtime.Result{Stdout: "out\n", Stderr: "err\n", Truncated: truncated}, ""); err != nil {
			t.Fatal(err)
		}
		msgs := f.messages(t)
		if len(msgs) != 1 || msgs[0].Type != msgDone {
			t.Fatalf("truncated %v: %d messages, want one done", truncated, len(msgs))
		}
		d := msgs[0].Done
		if d.Streamed == truncated || (d.Stdout == "") != !truncated || (d.Stderr == "") != !truncated {
			t.Errorf("truncated %v: done streamed %v, stdout %q, stderr %q", truncated, d.Streamed, d.Stdout, d.Stderr)
		}
	}
}
