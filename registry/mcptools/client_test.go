package mcptools_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/mcptools"
)

// fakeEnv makes the test binary a stdio MCP server (see fakeServer) of the
// mode it names: "ok", "exit" (fails at once), "deaf" (closes its stdin,
// then fails a moment later) or "hang" (never answers).
const fakeEnv = "CODEEXEC_TEST_FAKE_MCP"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		fakeServer(mode)
		return
	}
	code := m.Run()
	closeShared()
	if code == 0 {
		// Every connection, session and server process is gone.
		http.DefaultClient.CloseIdleConnections()
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// fakeServer serves, on stdio, the tools echo (text), add (structured,
// with an output schema), slow (reports progress, then answers), fail
// (isError) and die (the process exits mid-call).
func fakeServer(mode string) {
	if hostileServer(mode) {
		return
	}
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "fake: cannot open the database")
		os.Exit(3)
	case "deaf":
		// It answers initialize, having closed its stdin first, and exits
		// a moment later: the client's next write fails (its pipe has no
		// reader) before the exit, which is still what the error reports.
		line, _ := bufio.NewReader(os.Stdin).ReadBytes('\n')
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &req)
		os.Stdin.Close()
		fmt.Fprintln(os.Stderr, "fake: cannot open the database")
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"fake","version":"1"}}}`+"\n", req.ID)
		time.Sleep(200 * time.Millisecond)
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "fake"}, nil)
	type msg struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes back the input."},
		func(_ context.Context, _ *sdk.CallToolRequest, in msg) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	type addIn struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	type addOut struct {
		Sum float64 `json:"sum"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "get-sum", Description: "Adds a and b.", Meta: sdk.Meta{"examples": []any{
		map[string]any{"description": "Two and three", "input": map[string]any{"a": 2, "b": 3}, "output": map[string]any{"sum": 5}},
	}}},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	// slow's progress is reported while it works, not with its result: it
	// answers once the client called ack, which it does when it handled
	// both notifications (the SDK hands them to their handler on
	// goroutines of their own), or after a liveness bound.
	acked := make(chan struct{}, 1)
	sdk.AddTool(s, &sdk.Tool{Name: "ack", Description: "The client got slow's progress."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			select {
			case acked <- struct{}{}:
			default:
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Reports progress."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 2; i++ {
					_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 2, Message: fmt.Sprintf("step %d", i)})
				}
				select {
				case <-acked:
				case <-ctx.Done():
				case <-time.After(time.Minute):
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "done"},
				&sdk.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "image/png"},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the fake fails")
		})
	type leaveIn struct {
		Token    string `json:"token"`
		Redirect bool   `json:"redirect"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "leave", Description: "Leaves an env-cleared grandchild running, then exits mid-call."},
		func(_ context.Context, _ *sdk.CallToolRequest, in leaveIn) (*sdk.CallToolResult, any, error) {
			// The grandchild leaves the session and clears its
			// environment; it holds this process's stdout unless told
			// to redirect it.
			cmd := exec.Command("setsid", "env", "-i", "sleep", in.Token)
			if !in.Redirect {
				cmd.Stdout = os.Stdout
			}
			if err := cmd.Start(); err != nil {
				return nil, nil, err
			}
			for !running(in.Token) {
				time.Sleep(10 * time.Millisecond)
			}
			os.Exit(7)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "die", Description: "Exits mid-call."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fake: dying")
			os.Exit(7)
			return nil, nil, nil
		})
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
}

// running reports whether a live process has token in its command line.
func running(token string) bool {
	return len(proctest.Where(func(p proctest.Proc) bool { return p.Live() && strings.Contains(p.Cmdline, token) })) > 0
}

// fakeConfig is a stdio server configuration that runs the fake in mode.
func fakeConfig(t *testing.T, mode string) mcptools.ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcptools.ServerConfig{Command: exe, Env: map[string]string{fakeEnv: mode}}
}

func TestClientFake(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	c, warnings, err := mcptools.Connect(context.Background(), reg, "my-fake", fakeConfig(t, "ok"), mcptools.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	if c.Namespace() != "my_fake" {
		t.Errorf("namespace = %q, want my_fake", c.Namespace())
	}
	sigs := map[string]string{}
	for _, info := range reg.Tools() {
		sigs[info.Name] = info.CallSignature
	}
	for name, want := range map[string]string{
		"my_fake.echo":    "async function echo(params: { message: string }): Promise<string>",
		"my_fake.get-sum": "async function get_sum(params: { a: number; b: number }): Promise<{ sum: number }>",
	} {
		if sigs[name] != want {
			t.Errorf("signature of %s = %q, want %q", name, sigs[name], want)
		}
	}
	// Examples come from the tool's _meta["examples"].
	if info, _ := reg.Lookup("my_fake.get-sum"); len(info.Examples) != 1 || info.Examples[0].Description != "Two and three" {
		t.Errorf("examples of get-sum = %+v", info.Examples)
	}

	// The calls go through the registry, as a snippet's do (package mcp
	// calls these tools from snippets).
	t.Run("text", func(t *testing.T) {
		res := call(t, reg, "my_fake.echo", map[string]any{"message": "hi"})
		if res.IsError || res.Text() != "Echo: hi" || res.Details != nil {
			t.Errorf("echo = %+v, want the text Echo: hi and no details", res)
		}
	})
	t.Run("structured", func(t *testing.T) {
		res := call(t, reg, "my_fake.get-sum", map[string]any{"a": 1, "b": 2})
		if d, _ := res.Details.(map[string]any); res.IsError || d["sum"] != 3.0 {
			t.Errorf("get-sum = %+v, want the details {sum: 3}", res)
		}
	})
	t.Run("images are kept", func(t *testing.T) {
		res := call(t, reg, "my_fake.slow", nil)
		var types []string
		for _, c := range res.Content {
			types = append(types, c.Type)
		}
		if got := strings.Join(types, ","); res.IsError || got != "text,image" || res.Content[1].MimeType != "image/png" {
			t.Errorf("slow's content = %+v, want a text and a PNG image", res.Content)
		}
	})
	t.Run("isError is an error result", func(t *testing.T) {
		if res := call(t, reg, "my_fake.fail", nil); !res.IsError || res.Text() != "the fake fails" {
			t.Errorf("fail = %+v, want an error result with the server's text", res)
		}
	})
	t.Run("progress becomes tool updates", func(t *testing.T) {
		var updates []string
		var mu sync.Mutex
		res, err := reg.CallTool(context.Background(), "my_fake.slow", nil, registry.CallOptions{OnUpdate: func(r registry.Result) {
			mu.Lock()
			updates = append(updates, r.Text())
			both := len(updates) == 2
			mu.Unlock()
			if both {
				_, _ = reg.CallTool(context.Background(), "my_fake.ack", nil, registry.CallOptions{})
			}
		}})
		if err != nil || res.IsError {
			t.Fatalf("slow: %v %+v", err, res)
		}
		mu.Lock()
		defer mu.Unlock()
		if got := strings.Join(updates, "|"); got != "step 1|step 2" {
			t.Errorf("updates = %q, want step 1|step 2", got)
		}
	})

	// Last: the server dies, and the call's error names it.
	t.Run("server dies mid-call", func(t *testing.T) {
		res := call(t, reg, "my_fake.die", nil)
		if !res.IsError {
			t.Fatalf("die = %+v, want an error result", res)
		}
		for _, want := range []string{"MCP server my-fake", "status 7", "fake: dying"} {
			if !strings.Contains(res.Text(), want) {
				t.Errorf("error %q lacks %q", res.Text(), want)
			}
		}
		// The server is started afresh for the next call.
		if res := call(t, reg, "my_fake.echo", map[string]any{"message": "again"}); res.IsError || res.Text() != "Echo: again" {
			t.Errorf("the call after = %+v", res)
		}
	})
}

// call calls the tool name through reg, failing the test on an error
// (not an error result: those are returned).
func call(t *testing.T, reg *registry.Registry, name string, params map[string]any) registry.Result {
	t.Helper()
	return callCtx(t, context.Background(), reg, name, params)
}

// callCtx is call with a context.
func callCtx(t *testing.T, ctx context.Context, reg *registry.Registry, name string, params map[string]any) registry.Result {
	t.Helper()
	res, err := reg.CallTool(ctx, name, params, registry.CallOptions{})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// TestServerLeavesGrandchild checks that a server which exits mid-call,
// leaving a grandchild that left its session and cleared its environment,
// fails the call at once (rather than when the grandchild lets go of its
// stdout) and that the grandchild is killed and reaped.
//
// It does not run in parallel: a process that escaped with its environment
// cleared is told apart from the escapes of other live process groups by
// its start time, and one of a group started before it (the interop tests'
// servers, under CI) keeps it alive until that group ends (see
// procgroup's package doc). Sequential tests run before the parallel ones.
func TestServerLeavesGrandchild(t *testing.T) {
	if runtime.GOOS != "linux" || !proctest.Supported() {
		t.Skip("needs Linux's child subreaper")
	}
	for _, name := range []string{"setsid", "env", "sleep"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Skip("no " + name)
		}
	}
	for _, redirect := range []bool{false, true} {
		t.Run(fmt.Sprintf("redirect=%v", redirect), func(t *testing.T) {
			reg := registry.New()
			c, _, err := mcptools.Connect(context.Background(), reg, "leaver", fakeConfig(t, "ok"), mcptools.ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// The unique duration shows in the command line of sleep,
			// which env -i cannot take off.
			token := fmt.Sprintf("300.%d", time.Now().UnixNano())
			// A liveness bound, far above the moment the call takes: only
			// a call held by the grandchild (300 s) reaches it.
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res := callCtx(t, ctx, reg, "leaver.leave", map[string]any{"token": token, "redirect": redirect})
			if !res.IsError || !strings.Contains(res.Text(), "status 7") {
				t.Errorf("leave = %+v, want an error saying that the server exited with status 7", res)
			}
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				left := proctest.Where(func(p proctest.Proc) bool {
					return strings.Contains(p.Cmdline, token) && (p.Live() || p.PPID == os.Getpid())
				})
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("left after the server exited: %+v", left)
				}
			}
		})
	}
}

func TestClientStartFailures(t *testing.T) {
	t.Parallel()
	missing := mcptools.ServerConfig{Command: "/nonexistent/mcp-server"}
	// Only the hanging server is about the start timeout: the others end
	// by an event (an exit, a refusal), which a loaded machine can delay
	// past a short timeout, so they get a liveness bound instead.
	const liveness = time.Minute
	tests := []struct {
		name    string
		cfg     mcptools.ServerConfig
		timeout time.Duration
		want    []string
	}{
		{"exits at once", fakeConfig(t, "exit"), liveness, []string{"MCP server bad: start:", "exited with status 3", "fake: cannot open the database"}},
		{"closes its stdin, then exits", fakeConfig(t, "deaf"), liveness, []string{"MCP server bad: start:", "exited with status 3", "fake: cannot open the database"}},
		{"hangs at start", fakeConfig(t, "hang"), 500 * time.Millisecond, []string{"MCP server bad: start: no answer within 500ms"}},
		{"no such command", missing, liveness, []string{"MCP server bad: start:", "/nonexistent/mcp-server"}},
		{"refused URL", mcptools.ServerConfig{URL: "http://127.0.0.1:1/mcp"}, liveness, []string{"MCP server bad: start:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := registry.New()
			start := time.Now()
			c, _, err := mcptools.Connect(context.Background(), reg, "bad", tc.cfg, mcptools.ClientOptions{StartTimeout: tc.timeout})
			if err == nil {
				c.Close()
				t.Fatal("Connect succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if d := time.Since(start); d > liveness {
				t.Errorf("Connect took %s", d)
			}
			if n := len(reg.Tools()); n != 0 {
				t.Errorf("%d tools registered", n)
			}
		})
	}
}

func TestConnectAllSkipsFailures(t *testing.T) {
	t.Parallel()
	reg := registry.New()
	cfg := &mcptools.Config{Servers: map[string]mcptools.ServerConfig{"good": fakeConfig(t, "ok"), "broken": fakeConfig(t, "exit")}}
	clients, warnings := mcptools.ConnectAll(context.Background(), reg, cfg, mcptools.ClientOptions{})
	defer clients.Close()
	if len(clients) != 1 || clients[0].Name() != "good" {
		t.Errorf("clients = %v, want good alone", clients)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "MCP server broken") {
		t.Errorf("warnings = %v, want one naming broken", warnings)
	}
	if _, ok := reg.Lookup("good.echo"); !ok {
		t.Error("good.echo not registered")
	}
}

func TestParseConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, json, err string
	}{
		{"stdio and http", `{"mcpServers": {"a": {"command": "x", "args": ["-y"], "env": {"K": "v"}, "cwd": "/"}, "b": {"url": "https://h/mcp", "headers": {"X": "y"}, "type": "http"}}}`, ""},
		{"unknown fields ignored", `{"mcpServers": {"a": {"command": "x", "disabled": false}}, "other": 1}`, ""},
		{"syntax", "{\n  \"mcpServers\": {,}\n}", "line 2: invalid character ','"},
		{"no servers", `{"servers": {}}`, `no "mcpServers" object`},
		{"servers not an object", `{"mcpServers": []}`, `line 1: mcpServers must be an object, not a JSON array`},
		{"args not an array", `{"mcpServers": {"a": {"command": "x", "args": "-y"}}}`, `server "a": line 1: args must be an array, not a JSON string`},
		{"neither", `{"mcpServers": {"a": {"args": []}}}`, `server "a": needs "command"`},
		{"both", `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, `server "a": has both "command" and "url"`},
		{"bad url", `{"mcpServers": {"a": {"url": "ftp://h"}}}`, `server "a": url "ftp://h" is not an http or https URL`},
		{"sse type", `{"mcpServers": {"a": {"url": "http://h", "type": "sse"}}}`, `server "a": has type "sse"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mcptools.ParseConfig([]byte(tc.json))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("ParseConfig: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error = %v, want one containing %q", err, tc.err)
			}
		})
	}
}
