//go:build linux

package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestConfirmOnTerminal answers --confirm's questions on a real terminal (a
// pty): yes lets the first write happen, no denies the second, which the
// snippet sees as a ToolError saying the user denied it.
func TestConfirmOnTerminal(t *testing.T) {
	src := `await write("yes.txt", "x");
try { await write("no.txt", "y") } catch (e) { console.log((e as Error).message) }
await read("w.ts");`
	ptmx, tty, root, script := ptyScript(t, src)
	defer ptmx.Close()
	var questions []string
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		in := bufio.NewReader(ptmx)
		for _, answer := range []string{"y\n", "no\n"} {
			q, err := in.ReadString(']')
			if err != nil {
				return
			}
			if _, err := in.ReadString(' '); err != nil {
				return
			}
			// The terminal echoes the answers; keep the question.
			if i := strings.Index(q, "codeexec: allow"); i >= 0 {
				q = q[i:]
			}
			questions = append(questions, q)
			io.WriteString(ptmx, answer)
		}
	}()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		openTTY: func() (io.ReadWriteCloser, error) { return tty, nil }}
	code := a.main(context.Background(), []string{"run", "--isolation", "none", "--root", root, "--confirm", "write", script})
	<-answered
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	want := []string{
		`codeexec: allow Write file: yes.txt content=x ? [y/N]`,
		`codeexec: allow Write file: no.txt content=y ? [y/N]`,
	}
	if strings.Join(questions, "\n") != strings.Join(want, "\n") {
		t.Errorf("questions\n%s\nwant\n%s", strings.Join(questions, "\n"), strings.Join(want, "\n"))
	}
	if stdout.String() != "Tool call write blocked: denied by the user\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(root, "yes.txt")); err != nil {
		t.Errorf("the allowed write did not happen: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "no.txt")); err == nil {
		t.Errorf("the denied write happened")
	}
}

// noticeWriter is a stderr that tells, on seen, when a write has
// contained what.
type noticeWriter struct {
	what string
	seen chan struct{} // closed on the first write with what
	mu   sync.Mutex
	buf  bytes.Buffer
	once sync.Once
}

func (w *noticeWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.what) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *noticeWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestConfirmIgnoresStrayLine types a y between two questions, while the
// snippet waits for a file the test then makes: the y must be dropped,
// with a word on stderr, and the second question must wait for its own
// answer (no) rather than take the stray y. The test waits for the word
// on stderr before it lets the snippet go on, so that the line has
// certainly come while no question was asked; without the word it gives
// up after 30 seconds and says so.
func TestConfirmIgnoresStrayLine(t *testing.T) {
	src := `await write("first.txt", "1");
await bash("while [ ! -e go.txt ]; do sleep 0.01; done", { timeoutSeconds: 120 });
try { await write("second.txt", "2") } catch (e) { console.log((e as Error).message) }`
	ptmx, tty, root, script := ptyScript(t, src)
	defer ptmx.Close()
	stderr := &noticeWriter{what: `codeexec: --confirm ignored "y", typed while no question was asked`, seen: make(chan struct{})}
	typed := make(chan error, 1) // the first thing that went wrong, or nil
	go func() {
		var failed error
		defer func() { typed <- failed }()
		in := bufio.NewReader(ptmx)
		question := func() error { return readQuestion(in) }
		if failed = question(); failed != nil {
			return
		}
		io.WriteString(ptmx, "y\n") // the first question's answer
		io.WriteString(ptmx, "y\n") // the stray line
		select {
		case <-stderr.seen:
		case <-time.After(30 * time.Second):
			failed = errors.New("stderr never said that the stray line was ignored")
		}
		if err := os.WriteFile(filepath.Join(root, "go.txt"), nil, 0o644); err != nil {
			failed = cmp.Or(failed, err)
			return
		}
		if err := question(); err != nil {
			failed = cmp.Or(failed, err)
			return
		}
		io.WriteString(ptmx, "n\n")
	}()
	var stdout bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr,
		openTTY: func() (io.ReadWriteCloser, error) { return tty, nil }}
	code := a.main(context.Background(), []string{"run", "--isolation", "none", "--root", root, "--confirm", "write", "--timeout", "2m", script})
	tty.Close() // ends the reads above, if a question is missing
	if err := <-typed; err != nil {
		t.Error(err)
	}
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(root, "first.txt")); err != nil {
		t.Errorf("the first write, allowed, did not happen: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "second.txt")); err == nil {
		t.Errorf("the second write happened: the stray y answered its question")
	}
	if stdout.String() != "Tool call write blocked: denied by the user\n" {
		t.Errorf("stdout %q", stdout.String())
	}
}

// readQuestion reads a terminal's output up to the end of the next
// --confirm question, past the echo of what was typed.
func readQuestion(in *bufio.Reader) error {
	for {
		s, err := in.ReadString(']')
		if err != nil {
			return err
		}
		if strings.Contains(s, "codeexec: allow") {
			_, err := in.ReadString(' ')
			return err
		}
	}
}

// TestConfirmDropsTypeahead types a y before the run asks anything: the
// first question, which opens the terminal, must discard it, say so on
// stderr, and wait for its own answer (no). The test waits for the
// terminal's echo of the y, after which the line waits in the terminal.
func TestConfirmDropsTypeahead(t *testing.T) {
	src := `try { await write("a.txt", "1") } catch (e) { console.log((e as Error).message) }`
	ptmx, tty, root, script := ptyScript(t, src)
	defer ptmx.Close()
	in := bufio.NewReader(ptmx)
	io.WriteString(ptmx, "y\n")
	if echo, err := in.ReadString('\n'); err != nil || strings.TrimSpace(echo) != "y" {
		t.Fatalf("the terminal echoed %q, %v", echo, err)
	}
	answered := make(chan error, 1)
	go func() {
		err := readQuestion(in)
		if err == nil {
			_, err = io.WriteString(ptmx, "n\n")
		}
		answered <- err
	}()
	stderr := &noticeWriter{what: "codeexec: --confirm ignored what was typed before its first question", seen: make(chan struct{})}
	var stdout bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr,
		openTTY: func() (io.ReadWriteCloser, error) { return tty, nil }}
	code := a.main(context.Background(), []string{"run", "--isolation", "none", "--root", root, "--confirm", "write", script})
	tty.Close() // ends the read above, if the question is missing
	if err := <-answered; err != nil {
		t.Errorf("no question to answer: %v", err)
	}
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); err == nil {
		t.Errorf("the write happened: the y typed ahead answered its question")
	}
	if stdout.String() != "Tool call write blocked: denied by the user\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), stderr.what) {
		t.Errorf("stderr %q does not say that the y was ignored", stderr.String())
	}
}

// ptyScript opens a pty (skipping the test where there is none) and
// writes src as w.ts in a new root; the caller closes ptmx.
func ptyScript(t *testing.T, src string) (ptmx, tty *os.File, root, script string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	root = t.TempDir()
	script = filepath.Join(root, "w.ts")
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		ptmx.Close()
		tty.Close()
		t.Fatal(err)
	}
	return ptmx, tty, root, script
}
