package toolset_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/external"
	"github.com/codeexec/codeexec/registry/mcptools"
	"github.com/codeexec/codeexec/toolset"
)

// TestMain fails the package if a test leaves a goroutine behind: a Set's
// Close, and Open's own clean-up on error, end every MCP connection.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		http.DefaultClient.CloseIdleConnections()
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// names returns the names of reg's tools, in registration order.
func names(reg *registry.Registry) []string {
	var out []string
	for _, info := range reg.Tools() {
		out = append(out, info.Name)
	}
	return out
}

func TestOpenBuiltins(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	session := &builtin.Session{}
	set, warnings, err := toolset.Open(context.Background(), nil, toolset.Config{Builtins: builtin.Options{Root: root}, Session: session})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Open: %v %v", err, warnings)
	}
	reg := set.Registry()
	got := names(reg)
	for _, want := range []string{"read", "write", "edit", "bash", "grep", "ls", "find", "planning_setup_plan", "planning_read_plan"} {
		if !slices.Contains(got, want) {
			t.Errorf("tools %v lack %s", got, want)
		}
	}
	if slices.Contains(got, promptgen.SearchToolsName) {
		t.Errorf("tools %v hold the catalog tools, which a few tools do not need", got)
	}
	if set.Session() != session {
		t.Error("Session is not the Config's")
	}
	res, err := reg.CallTool(context.Background(), "read", map[string]any{"path": "a.txt"}, registry.CallOptions{})
	if err != nil || res.IsError || !strings.Contains(res.Text(), "hello") {
		t.Fatalf("read a.txt under the root: %v %+v", err, res)
	}
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	if err := set.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	// The built-in tools' root is released.
	if res, _ := reg.CallTool(context.Background(), "read", map[string]any{"path": "a.txt"}, registry.CallOptions{}); !res.IsError {
		t.Errorf("read after Close succeeded: %s", res.Text())
	}
	var none *toolset.Set
	if err := none.Close(); err != nil {
		t.Errorf("Close of a nil Set: %v", err)
	}

	// Without a Session, Open makes one.
	set, _, err = toolset.Open(context.Background(), nil, toolset.Config{Builtins: builtin.Options{Root: root}})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if set.Session() == nil {
		t.Error("Session is nil with the built-in tools")
	}
}

func TestOpenConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\n  \"mcpServers\": {,}\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := map[string]string{"Builtins.Root": "--root", "NoBuiltins": "--no-builtins", "MCPConfigFile": "--mcp-config", "External.SchemaTimeout": "--schema-timeout"}
	flag := func(field string) string {
		if f, ok := flags[field]; ok {
			return f
		}
		return field
	}
	tests := []struct {
		name    string
		cfg     toolset.Config
		field   string
		err     string // Error()
		message string // Message(flag)
	}{
		{"root without built-ins", toolset.Config{NoBuiltins: true, Builtins: builtin.Options{Root: dir}}, "Builtins.Root",
			"toolset: Builtins.Root only applies to the built-in tools, which NoBuiltins turns off",
			"--root only applies to the built-in tools, which --no-builtins turns off"},
		{"two MCP configurations", toolset.Config{NoBuiltins: true, MCPConfigFile: bad, MCP: &mcptools.Config{}}, "MCP",
			"toolset: MCPConfigFile and MCP both name MCP servers; give one",
			"--mcp-config and MCP both name MCP servers; give one"},
		{"negative schema timeout", toolset.Config{NoBuiltins: true, External: external.Options{SchemaTimeout: -time.Second}}, "External.SchemaTimeout",
			"toolset: External.SchemaTimeout must not be negative (zero is the default), got -1s",
			"--schema-timeout must not be negative (zero is the default), got -1s"},
		{"negative MCP limit", toolset.Config{NoBuiltins: true, MCPOptions: mcptools.ClientOptions{MaxMessageBytes: -1}}, "MCPOptions.MaxMessageBytes",
			"toolset: MCPOptions.MaxMessageBytes must not be negative (zero is the default), got -1",
			"MCPOptions.MaxMessageBytes must not be negative (zero is the default), got -1"},
		{"MCP configuration that does not parse", toolset.Config{NoBuiltins: true, MCPConfigFile: bad}, "MCPConfigFile",
			"toolset: MCPConfigFile: MCP config " + bad + ": line 2: invalid character ',' looking for beginning of object key string",
			"--mcp-config: MCP config " + bad + ": line 2: invalid character ',' looking for beginning of object key string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := registry.New()
			set, _, err := toolset.Open(context.Background(), reg, tt.cfg)
			if err == nil {
				set.Close()
				t.Fatal("Open succeeded")
			}
			if set != nil {
				t.Error("Open returned a Set with its error")
			}
			var ce *toolset.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
			}
			if ce.Field != tt.field || err.Error() != tt.err || ce.Message(flag) != tt.message {
				t.Errorf("field %q, error %q, message %q\nwant field %q, error %q, message %q", ce.Field, err, ce.Message(flag), tt.field, tt.err, tt.message)
			}
			if n := len(reg.Tools()); n != 0 {
				t.Errorf("%d tools registered before the configuration was refused", n)
			}
		})
	}
}

// toolScript is a /bin/sh executable tool that prints schema for --schema
// (after sleeping for sleep, when not empty) and otherwise prints result.
func toolScript(t *testing.T, dir, file, schema, sleep, result string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	wait := ""
	if sleep != "" {
		wait = "sleep " + sleep + "\n"
	}
	script := "#!/bin/sh\nif [ \"$1\" = \"--schema\" ]; then\n" + wait + "cat <<'SCHEMA'\n" + schema + "\nSCHEMA\nexit 0\nfi\ncat >/dev/null\necho '" + result + "'\n"
	if err := proctest.WriteExecutable(filepath.Join(dir, file), []byte(script)); err != nil {
		t.Fatal(err)
	}
}

// TestOpenToolsDirs checks the override rule (a later directory over an
// earlier one, an executable tool over a built-in) and that the tools
// left out are warnings, the one whose --schema outlived the limit marked
// as TimedOut.
func TestOpenToolsDirs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test tools are shell scripts")
	}
	base := t.TempDir()
	system, user := filepath.Join(base, "system"), filepath.Join(base, "user")
	schema := func(name, desc string) string {
		return fmt.Sprintf(`{"name": %q, "description": %q, "parameters": {"type": "object"}}`, name, desc)
	}
	toolScript(t, system, "greet", schema("greet", "Greets, system-wide."), "", `"system"`)
	toolScript(t, system, "read", schema("read", "Reads, differently."), "", `"mine"`)
	toolScript(t, user, "greet", schema("greet", "Greets, for this user."), "", `"user"`)
	toolScript(t, user, "broken", `{"name": "broken",`, "", `1`)
	toolScript(t, user, "slow", schema("slow", "Starts slowly."), "5", `1`)
	toolScript(t, user, "clash", `{"name": "clash", "description": "Takes bash's function name.", "parameters": {"type": "object"}, "callSignature": "async function bash(params: {}): Promise<any>"}`, "", `1`)

	set, warnings, err := toolset.Open(context.Background(), nil, toolset.Config{
		Builtins:  builtin.Options{Root: base},
		ToolsDirs: []string{system, user},
		External:  external.Options{SchemaTimeout: 500 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	reg := set.Registry()
	for name, want := range map[string]string{"greet": `"user"`, "read": `"mine"`} {
		res, err := reg.CallTool(context.Background(), name, map[string]any{}, registry.CallOptions{})
		if err != nil || res.IsError || !strings.Contains(res.Text(), want) {
			t.Errorf("%s = %v %s, want the result %s", name, err, res.Text(), want)
		}
	}
	if _, ok := reg.Lookup("write"); !ok {
		t.Error("the built-in write is gone")
	}
	var got []string
	for _, w := range warnings {
		got = append(got, fmt.Sprintf("%v %s", w.TimedOut, w))
	}
	wants := []string{
		"false " + filepath.Join(user, "broken") + ": --schema printed invalid JSON",
		"true " + filepath.Join(user, "slow") + ": --schema did not finish within 500ms",
		"false " + filepath.Join(user, "clash") + `: register tool "clash": call signature: function name "bash" is already used by tool "bash"`,
	}
	if len(got) != len(wants) {
		t.Fatalf("warnings:\n%s\nwant %d", strings.Join(got, "\n"), len(wants))
	}
	for i, want := range wants {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("warning %d = %q, want it to start with %q", i, got[i], want)
		}
	}
}

// fakeMCP serves the tool echo over streamable HTTP, in process.
func fakeMCP(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "fake"}, nil)
	type msg struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes back the input."},
		func(_ context.Context, _ *sdk.CallToolRequest, in msg) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestOpenMCP registers the tools of the servers of an MCP configuration,
// given as a file or read already, beside the built-ins; a server that
// does not start is a warning naming it.
func TestOpenMCP(t *testing.T) {
	url := fakeMCP(t)
	file := filepath.Join(t.TempDir(), "servers.json")
	config := fmt.Sprintf(`{"mcpServers": {"fake": {"url": %q}, "gone": {"url": "http://127.0.0.1:1/mcp"}}}`, url)
	if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed, err := mcptools.ParseConfig([]byte(config))
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]toolset.Config{
		"file":   {MCPConfigFile: file},
		"config": {MCP: parsed},
	} {
		t.Run(name, func(t *testing.T) {
			cfg.Builtins.Root = t.TempDir()
			cfg.MCPOptions.StartTimeout = 5 * time.Second
			set, warnings, err := toolset.Open(context.Background(), nil, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			if len(warnings) != 1 || !strings.HasPrefix(warnings[0].String(), "MCP server gone: start:") || warnings[0].TimedOut {
				t.Errorf("warnings = %v, want one saying that gone did not start", warnings)
			}
			res, err := set.Registry().CallTool(context.Background(), "fake.echo", map[string]any{"message": "hi"}, registry.CallOptions{})
			if err != nil || res.Text() != "Echo: hi" {
				t.Errorf("fake.echo = %v %+v", err, res)
			}
			if _, ok := set.Registry().Lookup("read"); !ok {
				t.Error("the built-in read is missing")
			}
		})
	}
}

// TestOpenCatalog checks that Open adds search_tools and tool_doc exactly
// when promptgen.NeedsCatalog says the prompt lists the tools as an index,
// so that the prompt rendered from the registry and the tools a run binds
// agree: the index declares the catalog tools Open registered, and a
// prompt without an index names none.
func TestOpenCatalog(t *testing.T) {
	for _, n := range []int{3, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			reg := catalogRegistry(t, n)
			needs := promptgen.NeedsCatalog(reg.Summaries(), promptgen.Options{})
			set, _, err := toolset.Open(context.Background(), reg, toolset.Config{NoBuiltins: true})
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			_, registered := reg.Lookup(promptgen.SearchToolsName)
			if _, doc := reg.Lookup(promptgen.ToolDocName); doc != registered {
				t.Fatalf("search_tools registered: %v, tool_doc: %v", registered, doc)
			}
			if registered != needs || needs != (n == 300) {
				t.Fatalf("with %d tools, the catalog tools are registered: %v; NeedsCatalog: %v", n, registered, needs)
			}
			block := promptgen.Render(reg.Tools(), promptgen.Options{})
			for _, name := range []string{promptgen.SearchToolsName, promptgen.ToolDocName} {
				info, ok := reg.Lookup(name)
				switch {
				case ok && !strings.Contains(block, info.CallSignature+"\n"):
					t.Errorf("the prompt does not declare %s as registered, %q", name, info.CallSignature)
				case !ok && strings.Contains(block, name):
					t.Errorf("the prompt names %s, which is not registered", name)
				}
			}
		})
	}
}

// TestOpenClosesOnError checks that an error after the built-in tools and
// the MCP servers were opened closes them: the catalog tools cannot be
// registered, since the registry holds a tool named search_tools.
func TestOpenClosesOnError(t *testing.T) {
	reg := catalogRegistry(t, 300)
	err := reg.Register(registry.Tool{
		Name: promptgen.SearchToolsName, Description: "Taken.", Parameters: registry.MustParseSchema(`{"type":"object"}`),
		Execute: func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, _, err := toolset.Open(context.Background(), reg, toolset.Config{
		Builtins: builtin.Options{Root: root},
		MCP:      &mcptools.Config{Servers: map[string]mcptools.ServerConfig{"fake": {URL: fakeMCP(t)}}},
	})
	if err == nil || set != nil || !strings.HasPrefix(err.Error(), `register the catalog tools: register tool "search_tools"`) {
		set.Close()
		t.Fatalf("Open = %v, %v; want no Set and the catalog's registration error", set, err)
	}
	set.Close() // a nil Set: what a caller that defers Close before checking does
	// What Open registered before the error stays, and fails when called.
	for _, name := range []string{"read", "fake.echo"} {
		res, err := reg.CallTool(context.Background(), name, map[string]any{"path": "a.txt", "message": "hi"}, registry.CallOptions{})
		if err != nil || !res.IsError {
			t.Errorf("%s after the failed Open = %v %+v, want an error result", name, err, res)
		}
	}
}
