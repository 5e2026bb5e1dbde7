//go:build unix && !aix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/nodetest"
)

// TestMCPFileStoreSurvivesKill runs `codeexec mcp --http --store
// file:PATH` on a port the test picked, and the official TypeScript SDK's
// client in one session (its protocol, 2025-11-25, carries the session in
// Mcp-Session-Id): a call declares something, the server is killed
// (SIGKILL) and started again on the same file and port, and the same
// client, sending the same session id, continues the session and sees the
// declaration.
func TestMCPFileStoreSurvivesKill(t *testing.T) {
	t.Parallel()
	modules := nodetest.MCPModules(t, "../..")
	dir := t.TempDir()
	checkNoneLeft(t, dir)
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t))
	args := []string{"mcp", "--http", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp"),
		"--store", "file:" + filepath.Join(dir, "sessions.db"), "--isolation", "none", "--root", dir}
	server := startServing(t, "codeexec mcp", args)

	client := startTSClient(t, dir, modules, url)
	first := client.run(t, `const x = 41; return x`)
	if first.Error != "" || first.IsError || first.Value != 41.0 || first.SessionID == "" {
		t.Fatalf("first call: %+v, want 41 and a session id; %s", first, server.output())
	}
	server.kill(t)
	server = startServing(t, "codeexec mcp (restarted)", args)
	second := client.run(t, `return x + 1`)
	if second.Error != "" || second.IsError || second.Value != 42.0 || second.SessionID != first.SessionID {
		t.Errorf("after the restart: %+v, want 42 in session %s; %s", second, first.SessionID, server.output())
	}
	client.close(t)
}

// TestREPLFileStoreSurvivesKill runs `codeexec repl --store file:PATH
// --session NAME` on piped snippets: the first declares something, the
// second says so and waits; the process is killed (SIGKILL) during the
// second, and a new one on the same file and session sees the
// declaration.
func TestREPLFileStoreSurvivesKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	checkNoneLeft(t, dir)
	bin, err := exec.LookPath("codeexec")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"repl", "--store", "file:" + filepath.Join(dir, "sessions.db"), "--session", "kept",
		"--isolation", "none", "--root", dir, "--timeout", "10m"}
	first := exec.Command(bin, args...)
	first.Stdin = strings.NewReader("const x = 41\n---\nconsole.log('declared'); await new Promise((r) => setTimeout(r, 3_600_000))\n")
	p := startPeer(t, "codeexec repl", first)
	p.waitLine(t, "declared")
	p.kill(t)

	second := exec.Command(bin, args...)
	second.Stdin = strings.NewReader("x + 1\n")
	var stderr strings.Builder
	second.Stderr = &stderr
	out, err := second.Output()
	if err != nil || string(out) != "42\n" {
		t.Errorf("after the restart, x + 1 printed %q (%v), want 42; stderr:\n%s\nthe first process said:\n%s", out, err, stderr.String(), p.output())
	}
}

// startServing starts codeexec with args and waits until it serves.
func startServing(t *testing.T, name string, args []string) *peerProc {
	t.Helper()
	bin, err := exec.LookPath("codeexec")
	if err != nil {
		t.Fatal(err)
	}
	p := startPeer(t, name, exec.Command(bin, args...))
	p.waitLine(t, `msg="serving MCP"`)
	return p
}

// tsClient is testdata/ts_session_client.mjs under node: one MCP session
// of the TypeScript SDK's client, which runs the snippets it is sent.
type tsClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // its stdout, closed at its end
	stderr string      // the file that holds its stderr
	exited chan struct{}
}

// tsResult is what the client reports of a call.
type tsResult struct {
	Error     string // the call failed
	IsError   bool
	Value     any
	Text      string
	SessionID string
}

// startTSClient starts the client of the MCP endpoint url; a cleanup of t
// kills it unless it has exited.
func startTSClient(t *testing.T, dir, modules, url string) *tsClient {
	t.Helper()
	c := &tsClient{stderr: filepath.Join(dir, "ts_client.stderr"), lines: make(chan string, 16), exited: make(chan struct{})}
	errFile, err := os.Create(c.stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	script, err := filepath.Abs(filepath.Join("testdata", "ts_session_client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	c.cmd = exec.Command("node", script)
	c.cmd.Env = append(os.Environ(), "MODULES="+modules, "URL="+url)
	c.cmd.Stderr = errFile
	dieWithTest(c.cmd)
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The lines channel has room for every result the test waits for, so
	// the reader never blocks; the process is waited for once its stdout
	// ended.
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
		c.cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-c.exited:
		default:
			c.cmd.Process.Kill()
			<-c.exited
		}
	})
	return c
}

// run sends the client a snippet and waits for its result.
func (c *tsClient) run(t *testing.T, code string) tsResult {
	t.Helper()
	line, _ := json.Marshal(code)
	if _, err := fmt.Fprintf(c.stdin, "%s\n", line); err != nil {
		t.Fatalf("send %q to the TypeScript client: %v; %s", code, err, c.stderrText())
	}
	select {
	case out, ok := <-c.lines:
		if !ok {
			t.Fatalf("the TypeScript client ended without running %q; %s", code, c.stderrText())
		}
		var r tsResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("the TypeScript client's report %q: %v", out, err)
		}
		return r
	case <-time.After(livenessBound):
		t.Fatalf("no result of %q from the TypeScript client within the liveness bound %s; %s", code, livenessBound, c.stderrText())
	}
	return tsResult{}
}

// close ends the client's input and waits for it to exit 0.
func (c *tsClient) close(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	select {
	case <-c.exited:
		if !c.cmd.ProcessState.Success() {
			t.Errorf("the TypeScript client exited with %v; %s", c.cmd.ProcessState, c.stderrText())
		}
	case <-time.After(livenessBound):
		t.Errorf("the TypeScript client did not exit within the liveness bound %s; %s", livenessBound, c.stderrText())
	}
}

// stderrText is what the client wrote on stderr, for a failure's message.
func (c *tsClient) stderrText() string {
	b, _ := os.ReadFile(c.stderr)
	return "its stderr:\n" + string(b)
}
