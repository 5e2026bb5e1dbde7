//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestConfirmOnTerminal answers --confirm's questions on a real terminal (a
// pty): yes lets the first write happen, no denies the second, which the
// snippet sees as a ToolError saying the user denied it.
func TestConfirmOnTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer ptmx.Close()
	root := t.TempDir()
	script := filepath.Join(root, "w.ts")
	src := `await write("yes.txt", "x");
try { await write("no.txt", "y") } catch (e) { console.log((e as Error).message) }
await read("w.ts");`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
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
