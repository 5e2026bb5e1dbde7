package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dop251/goja"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/bench/internal/mcpcall"
	"github.com/codeexec/codeexec/internal/peertest"
	"github.com/codeexec/codeexec/internal/tail"
)

// The MCP figures: a warm code_execution call of the 30-line snippet, from
// one client of the official Go SDK, to `codeexec mcp` (in process and
// isolated) and to the Node peer, bench/node/mcp-server.mjs (the
// TypeScript SDK's server, esbuild per call, node:vm), over stdio, over
// Streamable HTTP in a session and over stateless Streamable HTTP. stdio
// is one session on both sides (codeexec's --stateless applies to HTTP
// only). Each side is one server process, started once per transport and
// warmed; a figure is the median call of n, in alternating rounds.

// mcpGoal is the goal of a warm MCP call against the Node peer.
var mcpGoal = ratioAtMost(0.35)

// mcpTransport is one way of reaching an MCP server.
type mcpTransport struct {
	name      string // as the table shows it
	http      bool
	stateless bool
}

var mcpTransports = []mcpTransport{
	{name: "stdio, session"},
	{name: "HTTP, session", http: true},
	{name: "HTTP, stateless", http: true, stateless: true},
}

// stderrTail is how much of a server's stderr an error quotes.
const stderrTail = 4 << 10

// mcpServer is a running MCP server and the client session connected to
// it.
type mcpServer struct {
	name   string
	cs     *sdk.ClientSession
	cmd    *exec.Cmd      // the server's process, when over HTTP (stdio's belongs to the transport)
	stderr *tail.Buffer   // the end of the server's stderr, for error messages
	caller mcpcall.Caller // calls through cs, in one codeexec session
}

func (s *mcpServer) close() {
	if s.cs != nil {
		_ = s.cs.Close()
	}
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = s.cmd.Process.Kill()
			<-done
		}
	}
}

// call makes one code_execution call of code (see mcpcall.Caller).
func (s *mcpServer) call(ctx context.Context, code string) error {
	if err := s.caller.Call(ctx, code); err != nil {
		return fmt.Errorf("%s: %w\n%s", s.name, err, s.stderr.Bytes())
	}
	return nil
}

// calls makes n unmeasured calls of the 30-line snippet.
func (s *mcpServer) calls(n int) error {
	for range n {
		if err := s.call(context.Background(), benchdata.Snippet30); err != nil {
			return err
		}
	}
	return nil
}

// callMedian makes warm unmeasured calls, then n measured, and returns the
// median in seconds.
func (s *mcpServer) callMedian(warm, n int) (float64, error) {
	return medianRun(warm, n, func() error { return s.call(context.Background(), benchdata.Snippet30) })
}

// mcp: the warm MCP call of the 30-line snippet, codeexec against the
// Node peer, for each transport, in process and isolated.
func (b *bench) mcp() error {
	script := b.nodeMCPServer()
	if _, err := os.Stat(script); err != nil {
		return fmt.Errorf("the node MCP server: %w", err)
	}
	for _, pkg := range []string{"@modelcontextprotocol/sdk", "esbuild"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", pkg, "package.json")); err != nil {
			b.notes = append(b.notes, "MCP rows skipped: the Node MCP peer needs "+pkg+", which is not installed in "+
				filepath.Join(filepath.Dir(script), "node_modules")+" (make bench-node installs it: npm ci --prefix bench/node)")
			return nil
		}
	}
	// codeexec's read is its built-in one, confined to root, which holds
	// the two files the snippet reads, each saying what the Node peer's
	// read answers.
	root := filepath.Join(b.dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"README.md", "main.go"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("some words in a file named "+name), 0o644); err != nil {
			return err
		}
	}
	for _, t := range mcpTransports {
		if err := b.mcpTransport(t, script, root); err != nil {
			return err
		}
	}
	b.notes = append(b.notes, "MCP rows: one client of the official Go MCP SDK calls code_execution with the 30-line snippet; "+
		"codeexec is `codeexec mcp --root DIR` (its built-in read reads a file of DIR; --http on a loopback port, --stateless for the stateless rows, --isolation none or process), "+
		"its peer bench/node/mcp-server.mjs, a server of the TypeScript MCP SDK (pinned in bench/node/package.json) that strips each call's snippet with esbuild's transform and runs it in node:vm "+
		"(one context per MCP session, a fresh one per stateless call), its read answering at once. stdio is one session on both sides.")
	return nil
}

// nodeMCPServer is the path of the Node MCP peer: mcp-server.mjs beside
// the node_modules directory of -node-path, else in bench/node.
func (b *bench) nodeMCPServer() string {
	if b.nodePath != "" {
		return filepath.Join(filepath.Dir(b.nodePath), "mcp-server.mjs")
	}
	return filepath.Join("bench", "node", "mcp-server.mjs")
}

// mcpWarm is how many calls warm each side before a row is measured:
// the Node peer kept getting faster long after its first calls (V8's
// compiled code, esbuild's service): over stdio, on 2026-11-27, its call
// took 2.3 to 3.1 ms after 50 calls (four runs) and 1.8 to 2.1 ms after
// 500.
const mcpWarm = 500

// mcpTransport measures the rows of one transport: codeexec in both
// isolation modes and the floor beneath them (bench/mcpfloor: a server of
// the official Go SDK whose code_execution runs nothing), each against the
// Node peer, every server started once; over stdio, also the floor's run
// part (the snippet in plain goja) and codeexec's run of the snippet alone
// in a warm session, without MCP.
func (b *bench) mcpTransport(t mcpTransport, script, root string) error {
	node, err := startNodeMCP(t, script)
	if err != nil {
		return err
	}
	defer node.close()
	peer := "node MCP server (TS SDK), esbuild + node:vm, " + t.name
	for _, side := range []struct {
		figure string
		start  func() (*mcpServer, error)
		goal   goal
	}{
		{"warm MCP call, 30-line TS snippet, " + t.name + ", in process", func() (*mcpServer, error) { return b.startCodeexecMCP(t, root, "none") }, mcpGoal},
		{"warm MCP call, 30-line TS snippet, " + t.name + ", isolated", func() (*mcpServer, error) { return b.startCodeexecMCP(t, root, "process") }, mcpGoal},
		{"the floor's MCP part for the two rows above: a server of the same Go SDK whose code_execution answers a constant (bench/mcpfloor), " + floorName(t), func() (*mcpServer, error) { return b.startFloorMCP(floorTransport(t)) }, noGoal},
	} {
		s, err := side.start()
		if err != nil {
			return err
		}
		// Each side is warmed with mcpWarm calls, then measured in
		// alternating rounds of 100 calls after 5 unmeasured.
		c, p, err := func() (float64, float64, error) {
			for _, s := range []*mcpServer{s, node} {
				if err := s.calls(mcpWarm); err != nil {
					return 0, 0, err
				}
			}
			return b.alternate(
				func() (float64, error) { return s.callMedian(5, 100) },
				func() (float64, error) { return node.callMedian(5, 100) })
		}()
		s.close()
		if err != nil {
			return err
		}
		b.compare(side.figure, peer, c, p, dur, side.goal)
	}
	if t.http {
		return nil
	}
	plain, err := newGojaSnippet(benchdata.Snippet30)
	if err != nil {
		return err
	}
	c, p, err := b.alternate(
		func() (float64, error) { return plain.median(5, 100) },
		func() (float64, error) { return node.callMedian(5, 100) })
	if err != nil {
		return err
	}
	b.compare("the floor's run part (stdio rows above; the same for HTTP): the 30-line snippet run by plain goja (types stripped once, one runtime, read a Go function answering at once)", peer, c, p, dur, noGoal)
	sess := b.inProc.NewSession()
	defer sess.Close()
	c, p, err = b.alternate(
		func() (float64, error) { return runMedian(sess, benchdata.Snippet30, 5, 100, false) },
		func() (float64, error) { return node.callMedian(5, 100) })
	if err != nil {
		return err
	}
	b.compare("codeexec's run of the same alone, in a warm session, in process, without MCP", peer, c, p, dur, noGoal)
	return nil
}

// gojaSnippet is a snippet in plain goja: the engine's own floor for
// running it, without codeexec's globals, limits, host calls or records.
type gojaSnippet struct {
	vm   *goja.Runtime
	fn   goja.Callable
	read goja.Value
	out  strings.Builder // console.log's
}

// newGojaSnippet strips ts's types and compiles it, as an async function
// of read and sleep, into a runtime with a console.log that keeps what it
// is given and a read that answers as benchdata's does, with a promise
// already resolved.
func newGojaSnippet(ts string) (*gojaSnippet, error) {
	src, err := asFunction(ts)
	if err != nil {
		return nil, err
	}
	g := &gojaSnippet{vm: goja.New()}
	v, err := g.vm.RunString(src)
	if err != nil {
		return nil, fmt.Errorf("plain goja: %w", err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, fmt.Errorf("plain goja: the snippet compiled to %v, not a function", v)
	}
	g.fn = fn
	g.read = g.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		p, resolve, _ := g.vm.NewPromise()
		_ = resolve("some words in a file named " + c.Argument(0).String())
		return g.vm.ToValue(p)
	})
	con := g.vm.NewObject()
	if err := con.Set("log", func(c goja.FunctionCall) goja.Value {
		for _, a := range c.Arguments {
			g.out.WriteString(a.String())
		}
		g.out.WriteByte('\n')
		return goja.Undefined()
	}); err != nil {
		return nil, err
	}
	return g, g.vm.Set("console", con)
}

// median runs the snippet warm times unmeasured, then n times, and
// returns the median wall time in seconds; a run whose promise is not
// fulfilled when the call returns (goja runs the promise jobs before it
// does) is an error.
func (g *gojaSnippet) median(warm, n int) (float64, error) {
	return medianRun(warm, n, func() error {
		g.out.Reset()
		v, err := g.fn(goja.Undefined(), g.read, goja.Undefined())
		if err == nil {
			if p, ok := v.Export().(*goja.Promise); !ok || p.State() != goja.PromiseStateFulfilled {
				err = fmt.Errorf("not a fulfilled promise: %v", v)
			}
		}
		if err != nil {
			return fmt.Errorf("plain goja: %w", err)
		}
		return nil
	})
}

// floorTransport is the transport of t's floor: the SDK's stateless
// Streamable HTTP for both HTTP transports, as codeexec serves a client of
// protocol 2026-07-28 (the Go SDK's client here) statelessly and names its
// codeexec session in the call's arguments (mcp/sessions.go), so that any
// replica can serve it.
func floorTransport(t mcpTransport) mcpTransport {
	if t.http {
		t.stateless = true
	}
	return t
}

// floorName says which transport t's floor is measured over.
func floorName(t mcpTransport) string {
	if t.http && !t.stateless {
		return t.name + " (served statelessly, as codeexec serves a client of protocol 2026-07-28)"
	}
	return t.name
}

// startCodeexecMCP starts `codeexec mcp` over t with --isolation iso and
// connects a client.
func (b *bench) startCodeexecMCP(t mcpTransport, root, iso string) (*mcpServer, error) {
	args := []string{"mcp", "--root", root, "--isolation", iso}
	name := "codeexec mcp --isolation " + iso
	if !t.http {
		return connectStdio(name, exec.Command(b.bin, args...))
	}
	port, err := peertest.FreePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	args = append(args, "--http", addr)
	if t.stateless {
		args = append(args, "--stateless")
	}
	s := &mcpServer{name: name, cmd: exec.Command(b.bin, args...), stderr: tail.New(stderrTail)}
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := waitReady("http://"+addr+"/readyz", 10*time.Second); err != nil {
		s.close()
		return nil, fmt.Errorf("%s: %w\n%s", name, err, s.stderr.Bytes())
	}
	return s, s.connectHTTP("http://" + addr + "/mcp")
}

// startNodeMCP starts the Node peer over t and connects a client.
func startNodeMCP(t mcpTransport, script string) (*mcpServer, error) {
	return startPortPrinter("node "+filepath.Base(script), t, "node", script)
}

// startFloorMCP builds bench/mcpfloor, starts it over t and connects a
// client.
func (b *bench) startFloorMCP(t mcpTransport) (*mcpServer, error) {
	bin, err := b.build("./bench/mcpfloor")
	if err != nil {
		return nil, err
	}
	return startPortPrinter("mcpfloor", t, bin)
}

// startPortPrinter starts a server that takes its transport as arguments
// ("stdio", or "http" and "session" or "stateless") and, over HTTP, prints
// the loopback port it listens on, as the Node peer and bench/mcpfloor
// do; and connects a client.
func startPortPrinter(name string, t mcpTransport, command string, args ...string) (*mcpServer, error) {
	if !t.http {
		return connectStdio(name, exec.Command(command, append(args, "stdio")...))
	}
	mode := "session"
	if t.stateless {
		mode = "stateless"
	}
	s := &mcpServer{name: name, cmd: exec.Command(command, append(args, "http", mode)...), stderr: tail.New(stderrTail)}
	s.cmd.Stderr = s.stderr
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// It prints its port once it listens.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%s: no port: %w\n%s", name, err, s.stderr.Bytes())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return s, s.connectHTTP("http://127.0.0.1:" + strings.TrimSpace(line) + "/mcp")
}

func connectStdio(name string, cmd *exec.Cmd) (*mcpServer, error) {
	s := &mcpServer{name: name, stderr: tail.New(stderrTail)}
	cmd.Stderr = s.stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "nodecompare"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w\n%s", name, err, s.stderr.Bytes())
	}
	s.cs, s.caller.CS = cs, cs
	return s, nil
}

// connectHTTP connects a client to the server at url; on failure it
// stops the server.
func (s *mcpServer) connectHTTP(url string) error {
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "nodecompare"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		s.close()
		return fmt.Errorf("%s: connect: %w\n%s", s.name, err, s.stderr.Bytes())
	}
	s.cs, s.caller.CS = cs, cs
	return nil
}

// waitReady polls url until it answers 200.
func waitReady(url string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %v (last: %v)", url, limit, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
