package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/codeexec/codeexec/mcp"
)

const mcpSynopsis = `  codeexec mcp [flags]                 serve code_execution over MCP on stdin/stdout
  codeexec mcp --http ADDR [flags]     serve it over streamable HTTP at http://ADDR/mcp`

const mcpAbout = `Serves one MCP tool, code_execution {code: string}, whose description is the
prompt block of the tools the flags bind (as 'codeexec prompt' prints it). A call
runs the snippet as 'codeexec run' would and returns its text (output, return
value, error), isError when it failed, and the --json object as structured
content. Run events are sent as progress notifications when the client asks for
progress; a cancelled request cancels its run. Each MCP session is one codeexec
session: top-level declarations carry to its next call ("reset": true starts it
afresh), and its calls run in turn, in the order they arrive; calls of
different sessions, and every call of a --stateless server, run concurrently.

Over HTTP the server binds loopback unless ADDR names another host, refuses
requests whose Host or Origin is not an allowed host (DNS rebinding), and, with
--token or $` + mcp.TokenEnv + `, refuses requests without that bearer token.`

// mcpServe implements `codeexec mcp`.
func (a *app) mcpServe(ctx context.Context, args []string) error {
	fs := a.newFlagSet("mcp", mcpSynopsis, mcpAbout)
	var (
		addr      = fs.String("http", "", "serve streamable HTTP on `ADDR` (HOST:PORT; a bare :PORT means 127.0.0.1:PORT) instead of stdio")
		token     = fs.String("token", "", "bearer `TOKEN` HTTP requests must carry (default $"+mcp.TokenEnv+")")
		hosts     = fs.StringSlice("allowed-hosts", nil, "host `NAMES` the Host and Origin headers may name (default: the loopback names)")
		stateless = fs.Bool("stateless", false, "serve HTTP without sessions, so any replica can serve any request")
		confirm   = fs.StringArray("confirm", nil, "ask the MCP client (elicitation) before each call of a tool matching `PATTERN` (a name or a glob; repeatable); a client that cannot be asked is denied; one that speaks protocol 2026-07-28 answers through input-required results, and a run without a session then pauses and resumes on any replica with the same $CODEEXEC_STATE_KEY")
	)
	var rf runnerFlags
	rf.register(fs, "where snippets run, a `MODE`: process (worker processes with a hard memory limit) or none (this process)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("mcp", "mcp takes no arguments, got %q", fs.Args())
	}
	if err := rf.check(); err != nil {
		return err
	}
	serverGC()
	if *addr == "" && (fs.Changed("token") || fs.Changed("allowed-hosts") || *stateless) {
		return usagef("mcp", "--token, --allowed-hosts and --stateless apply only to --http")
	}
	if err := checkPatterns("mcp", *confirm); err != nil {
		return err
	}
	// A server runs many snippets: keep two workers warm.
	// A paused run (a multi round-trip client's approval in a run without
	// a session) resumes on any replica with the same $CODEEXEC_STATE_KEY;
	// without one, only in this process.
	if k := os.Getenv(stateKeyEnv); k != "" {
		if len(k) < minStateKey {
			return fmt.Errorf("$%s is %d bytes; it must hold at least %d", stateKeyEnv, len(k), minStateKey)
		}
		rf.stateKey = []byte(k)
	}
	runner, set, err := a.startRunner(ctx, &rf, 2, nil)
	if err != nil {
		return err
	}
	defer runner.Close()
	defer set.Close()
	reg := set.Registry()
	if len(*confirm) > 0 {
		c := &confirmer{patterns: *confirm, ask: askMCPClient}
		reg.OnToolCall(c.hook(reg.Lookup))
	}
	srv := mcp.NewServer(runner, reg, mcp.ServerOptions{Version: version, NoSessions: *stateless})
	if *addr == "" {
		return srv.Serve(ctx, a.stdin, a.stdout)
	}

	listen := *addr
	if strings.HasPrefix(listen, ":") {
		listen = "127.0.0.1" + listen
	}
	if *token == "" {
		*token = os.Getenv(mcp.TokenEnv)
	}
	if !mcp.IsLoopback(listen) && *token == "" {
		fmt.Fprintf(a.stderr, "codeexec: warning: %s is not a loopback address and no token is set: anyone who can reach it can run code\n", listen)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(mcp.HTTPOptions{AllowedHosts: *hosts, Token: *token, Stateless: *stateless}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(a.stderr, "codeexec: serving MCP at http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("--http: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("--http: shut down: %w", err)
	}
	return nil
}

// serverGCPercent is the garbage collector's target of `codeexec mcp`
// (GOGC): a call allocates about half a megabyte on a heap of a few, so at
// Go's default of 100 the collector ran on nearly every call. Measured with
// `go test -run '^$' -bench BenchmarkCall ./mcp` (the 30-line snippet, in
// process, 2026-11-27): 2.6-3.0 ms a call in a session and 2.3-2.8 ms
// stateless at GOGC=100, 1.4-1.7 and 1.25-1.3 ms at 400. The heap it lets
// grow is the server's garbage between collections, a few MiB; a memory
// limit of runs is measured on the live heap, which it does not change.
const serverGCPercent = 400

// serverGC sets the collector's target of a long-lived server to
// serverGCPercent, unless GOGC in the environment says otherwise.
func serverGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}
