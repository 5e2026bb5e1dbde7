package mcptools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// DefaultStartTimeout bounds how long a server may take to start (or
// answer, over HTTP), initialize and list its tools.
const DefaultStartTimeout = 10 * time.Second

// DefaultMaxMessageBytes is the default of ClientOptions.MaxMessageBytes:
// 64 MiB, the same as the default limit on a tool result of the root
// package (codeexec.DefaultMaxResultBytes), so that a message that would
// make a result the runner keeps is read whole. It is declared here, not
// taken from there, because this package sits below the root package and
// must not import it; a test of package mcp, which imports both, checks
// that the two agree.
const DefaultMaxMessageBytes = 64 << 20

// ClientOptions configure the connection to MCP servers. The zero value
// is usable.
type ClientOptions struct {
	// StartTimeout bounds each server's start, initialization and tool
	// listing (default DefaultStartTimeout).
	StartTimeout time.Duration
	// MaxMessageBytes bounds each message read from a server (a line of
	// a stdio server, an event or a response body of an HTTP server);
	// the default is DefaultMaxMessageBytes, the default limit on a tool
	// result. A call whose server sends more fails with a
	// MessageTooLargeError as soon as the limit is crossed, having read
	// no further.
	MaxMessageBytes int
	// Meta, when set, gives the params._meta of a tools/call made with
	// ctx (the context of the snippet's call): a tracer returns the W3C
	// trace context of the call's span there ("traceparent",
	// "tracestate"), so that the server's spans join the trace.
	Meta func(ctx context.Context) map[string]any
}

// Client is a connection to one MCP server whose tools it registers. Its
// methods are safe for concurrent use; the registered tools call the
// server until Close.
type Client struct {
	name      string // the server's key in the configuration
	namespace string // the global object its tools are bound under
	cfg       ServerConfig
	opts      ClientOptions
	client    *sdk.Client
	in        *inbound
	tools     []*sdk.Tool

	mu     sync.Mutex
	conn   *conn // the live connection, or the last one
	closed bool

	tokens   sync.Map // progress token -> registry.Call
	nextTok  atomic.Uint64
	closeErr error
	once     sync.Once
}

// conn is one connection to the server: for a stdio server, one run of
// its process.
type conn struct {
	session *sdk.ClientSession
	proc    *procTransport // stdio servers only
	done    chan struct{}  // closed when the session has ended
	broken  atomic.Bool    // a call found the connection broken
}

// gone reports whether the connection has ended or broken.
func (cn *conn) gone() bool {
	select {
	case <-cn.done:
		return true
	default:
		return cn.broken.Load()
	}
}

// close ends the session and stops a stdio server.
func (cn *conn) close() error {
	err := cn.session.Close()
	if cn.proc != nil {
		cn.proc.stop()
	}
	return err
}

// Name returns the server's name, as configured.
func (c *Client) Name() string { return c.name }

// Namespace returns the global object the server's tools are bound under:
// its name with each character that cannot appear in an identifier
// replaced by "_" (as signature.FunctionName does for tool names).
func (c *Client) Namespace() string { return c.namespace }

// Connect starts or reaches the server cfg describes, lists its tools and
// registers them in reg under the namespace named after name (see
// Register). The start is bounded by opts.StartTimeout and by ctx; the
// connection then lives until Close, whatever becomes of ctx. Errors name
// the server, and say why it failed to start: the process exited (with the
// end of its stderr), did not answer in time, or the URL refused.
func Connect(ctx context.Context, reg *registry.Registry, name string, cfg ServerConfig, opts ClientOptions) (*Client, []error, error) {
	c, err := dial(ctx, name, cfg, opts)
	if err != nil {
		return nil, nil, err
	}
	return c, c.Register(reg), nil
}

// dial connects to the server and lists its tools, registering nothing.
func dial(ctx context.Context, name string, cfg ServerConfig, opts ClientOptions) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("MCP server %s: %w", name, err)
	}
	ns, err := signature.FunctionName(name)
	if err != nil {
		return nil, fmt.Errorf("MCP server %q: %w", name, err)
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	c := &Client{name: name, namespace: ns, cfg: cfg, opts: opts, in: newInbound(opts.MaxMessageBytes)}
	c.client = sdk.NewClient(&sdk.Implementation{Name: "codeexec", Version: "dev"}, &sdk.ClientOptions{
		ProgressNotificationHandler: c.progress,
	})
	c.conn, err = c.connect(ctx, "start", func(start context.Context, cn *conn) (string, error) {
		for t, err := range cn.session.Tools(start, nil) {
			if err != nil {
				return "list tools", err
			}
			c.tools = append(c.tools, t)
		}
		return "", nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// connect starts (stdio) or reaches (HTTP) the server and initializes a
// session, then runs then, when set, within the start's time. A failure
// says what failed (what, or what then says) and its first cause: the process's own exit, its
// hanging up, a message over the limit or not JSON, the time running
// out, else the SDK's error.
func (c *Client) connect(ctx context.Context, what string, then func(context.Context, *conn) (string, error)) (*conn, error) {
	cn := &conn{done: make(chan struct{})}
	var transport sdk.Transport
	if c.cfg.Command != "" {
		cn.proc = newProcTransport(c.cfg, c.in)
		transport = cn.proc
	} else {
		transport = &sdk.StreamableClientTransport{
			Endpoint: c.cfg.URL, MaxRetries: -1, DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: limitTransport{c.in, headerTransport{c.cfg.Headers}}},
			// The transport's own limit is checked first.
			MaxEventSize: c.opts.MaxMessageBytes + 64<<10,
		}
	}
	start, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	if cn.proc != nil {
		// A server that does not start in time is killed at once, not
		// asked to exit: the SDK's own clean-up would wait for it.
		stop := context.AfterFunc(start, cn.proc.abort)
		defer stop()
	}
	c.in.takeCause() // from an earlier connection
	fail := func(what string, err error) error {
		if cn.proc != nil {
			cn.proc.abort() // it failed: no grace
		}
		if cn.session != nil {
			cn.session.Close()
		}
		// The server's own doing comes first, even when the time ran
		// out meanwhile; a process codeexec killed reports nothing.
		if cause := c.in.takeCause(); cause != nil {
			return fmt.Errorf("MCP server %s: %s: %w", c.name, what, cause)
		}
		if cn.proc != nil {
			if why := cn.proc.exitReport(); why != "" {
				return fmt.Errorf("MCP server %s: %s: %s", c.name, what, why)
			}
		}
		if start.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("MCP server %s: %s: no answer within %s", c.name, what, c.opts.StartTimeout)
		}
		return fmt.Errorf("MCP server %s: %s: %w", c.name, what, err)
	}
	var err error
	cn.session, err = c.client.Connect(start, transport, nil)
	if err != nil {
		return nil, fail(what, err)
	}
	go func() {
		_ = cn.session.Wait()
		close(cn.done)
	}()
	if then != nil {
		if what, err := then(start, cn); err != nil {
			return nil, fail(what, err)
		}
	}
	return cn, nil // the deferred stop keeps the AfterFunc from running
}

// current returns the live connection, connecting again when the last one
// ended or broke (the server exited, or sent a message over the limit or
// not JSON): a server that misbehaves once serves the next call afresh.
func (c *Client) current(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("MCP server %s: the connection is closed", c.name)
	}
	if !c.conn.gone() {
		return c.conn, nil
	}
	_ = c.conn.close()
	cn, err := c.connect(ctx, "restart", nil)
	if err != nil {
		return nil, err
	}
	c.conn = cn
	return cn, nil
}

// Register registers the server's tools in reg, in the order the server
// listed them, each in the client's namespace under the server's own name
// for it. The signature is generated from the tool's input schema; its
// return type is the tool's output schema when it declares one (the call
// then resolves to the structured content), else Promise<string> (the
// text content joined). A tool the registry refuses (for example for its
// schema) is skipped; Register returns one error per such tool, naming
// the server and the tool.
func (c *Client) Register(reg *registry.Registry) []error {
	var warnings []error
	for _, t := range c.tools {
		if err := c.in.deepTool(t.Name); err != nil {
			warnings = append(warnings, fmt.Errorf("MCP server %s: tool %s skipped: %w", c.name, t.Name, err))
			continue
		}
		rt := c.tool(t)
		err := reg.Register(rt)
		if err != nil && len(rt.Examples) > 0 {
			// Examples are extra: a tool whose examples do not fit keeps
			// its place without them.
			rt.Examples = nil
			if err2 := reg.Register(rt); err2 == nil {
				warnings = append(warnings, fmt.Errorf("MCP server %s: tool %s: its examples were left out: %w", c.name, t.Name, err))
				continue
			}
		}
		if err != nil {
			warnings = append(warnings, fmt.Errorf("MCP server %s: tool %s skipped: %w", c.name, t.Name, err))
		}
	}
	return warnings
}

// examples reads a tool's examples from its _meta["examples"] (MCP has no
// field for them; a list of {"description", "input", "output"} objects, as
// an executable tool's --schema gives them), nil when absent or malformed.
func examples(meta map[string]any) []registry.Example {
	out, err := registry.DecodeExamples(meta["examples"], false)
	if err != nil {
		return nil
	}
	return out
}

// tool makes the registry tool of one MCP tool.
func (c *Client) tool(t *sdk.Tool) registry.Tool {
	params, _ := asObject(t.InputSchema)
	if params == nil {
		params = map[string]any{"type": "object"}
	}
	output, _ := asObject(t.OutputSchema)
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = strings.TrimSpace(t.Title)
	}
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of the MCP server %s.", t.Name, c.name)
	}
	returns := output
	if returns == nil {
		// Without an output schema the call resolves to the text.
		returns = map[string]any{"type": "string"}
	}
	// A schema FromSchema cannot render leaves the signature empty:
	// Register then generates one or refuses the schema, saying why.
	sig, _ := signature.FromSchema(t.Name, params, returns)
	label := t.Title
	if label == "" && t.Annotations != nil {
		label = t.Annotations.Title
	}
	return registry.Tool{
		Namespace: c.namespace, Name: t.Name, Label: label, Description: desc,
		Parameters: params, CallSignature: sig, Source: "mcp:" + c.name,
		Execute: c.execute(t.Name), Examples: examples(t.Meta),
	}
}

// asObject returns a schema decoded as a JSON object, nil when absent.
func asObject(v any) (map[string]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// execute returns the Execute of the server's tool name: a tools/call
// whose result becomes a registry.Result (text and image blocks as
// content; structuredContent as details, or else, when the result has
// other blocks (audio, resources), {"content": [every block]}). A result
// with isError is an error carrying its text; a server that is gone is an
// error naming it. Progress the server reports becomes the call's updates.
func (c *Client) execute(name string) registry.ExecuteFunc {
	return func(ctx context.Context, call registry.Call) (registry.Result, error) {
		params := &sdk.CallToolParams{Name: name, Arguments: call.Params}
		if c.opts.Meta != nil {
			if m := c.opts.Meta(ctx); len(m) > 0 {
				params.Meta = m
			}
		}
		if call.OnUpdate != nil {
			token := fmt.Sprintf("codeexec-%d", c.nextTok.Add(1))
			p := &pending{call: call}
			c.tokens.Store(token, p)
			defer func() {
				// The SDK hands notifications to their handler on another
				// goroutine than responses: give those the server sent
				// just before its response a moment to be delivered.
				if p.seen.Load() {
					time.Sleep(progressGrace)
				}
				c.tokens.Delete(token)
			}()
			params.SetProgressToken(token)
		}
		cn, err := c.current(ctx)
		if err != nil {
			return registry.Result{}, err
		}
		res, err := cn.session.CallTool(ctx, params)
		if err != nil {
			if ctx.Err() != nil {
				return registry.Result{}, fmt.Errorf("MCP server %s: %s: %w", c.name, name, ctx.Err())
			}
			if cause := c.in.takeCause(); cause != nil {
				cn.broken.Store(true)
				return registry.Result{}, fmt.Errorf("MCP server %s: %s failed: %w", c.name, name, cause)
			}
			if cn.proc != nil {
				if why := cn.proc.exitReport(); why != "" {
					cn.broken.Store(true)
					return registry.Result{}, fmt.Errorf("MCP server %s is gone (%s): %s failed", c.name, why, name)
				}
			}
			return registry.Result{}, fmt.Errorf("MCP server %s: %s failed: %w", c.name, name, err)
		}
		out := convert(res)
		if res.IsError {
			msg := out.Text()
			if msg == "" {
				msg = fmt.Sprintf("%s reported an error without text", name)
			}
			return registry.Result{}, errors.New(msg)
		}
		return out, nil
	}
}

// convert makes a registry result of an MCP tool result.
func convert(res *sdk.CallToolResult) registry.Result {
	out := registry.Result{Content: []registry.Content{}}
	other := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			out.Content = append(out.Content, registry.TextContent(c.Text))
		case *sdk.ImageContent:
			out.Content = append(out.Content, registry.ImageContent(base64.StdEncoding.EncodeToString(c.Data), c.MIMEType))
		default:
			other = true
		}
	}
	switch {
	case res.StructuredContent != nil:
		out.Details = res.StructuredContent
	case other:
		blocks := make([]json.RawMessage, 0, len(res.Content))
		for _, c := range res.Content {
			if b, err := c.MarshalJSON(); err == nil {
				blocks = append(blocks, b)
			}
		}
		out.Details = map[string]any{"content": blocks}
	}
	return out
}

// progressGrace is how long a call that received progress waits, after
// its response, for the notifications still on their way.
const progressGrace = 20 * time.Millisecond

// pending is a call waiting for progress.
type pending struct {
	call registry.Call
	seen atomic.Bool
}

// progress routes a server's progress notification to the call that
// asked for it, as an update whose text is the message (or "progress
// N/TOTAL") and whose details are the notification's numbers.
func (c *Client) progress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p := req.Params
	v, ok := c.tokens.Load(p.ProgressToken)
	if !ok {
		return
	}
	msg := p.Message
	if msg == "" {
		msg = fmt.Sprintf("progress %g", p.Progress)
		if p.Total > 0 {
			msg += fmt.Sprintf("/%g", p.Total)
		}
	}
	details := map[string]any{"progress": p.Progress}
	if p.Total > 0 {
		details["total"] = p.Total
	}
	if p.Message != "" {
		details["message"] = p.Message
	}
	pc := v.(*pending)
	pc.seen.Store(true)
	pc.call.Update(registry.Result{Content: []registry.Content{registry.TextContent(msg)}, Details: details})
}

// Close ends the session; a stdio server's process group is stopped
// (stdin closed, then killed if it has not exited within two seconds),
// leaving no process behind. Close is idempotent.
func (c *Client) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		cn := c.conn
		c.mu.Unlock()
		c.closeErr = cn.close()
	})
	return c.closeErr
}

// headerTransport adds fixed headers to every request.
type headerTransport struct{ headers map[string]string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Clients are the connections ConnectAll made.
type Clients []*Client

// Close closes every client, in parallel; it returns the first error.
func (cs Clients) Close() error {
	errs := make([]error, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() { errs[i] = c.Close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// ConnectAll connects to every server of cfg in parallel, each within
// opts.StartTimeout, then registers their tools in reg in the order of
// the servers' names. A server that fails to start or to list its tools
// is skipped: warnings holds one error per skipped server or tool, each
// naming the server. The caller must Close the clients.
func ConnectAll(ctx context.Context, reg *registry.Registry, cfg *Config, opts ClientOptions) (Clients, []error) {
	names := slices.Sorted(maps.Keys(cfg.Servers))
	clients := make([]*Client, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { clients[i], errs[i] = dial(ctx, name, cfg.Servers[name], opts) })
	}
	wg.Wait()
	var out Clients
	var warnings []error
	for i, c := range clients {
		if errs[i] != nil {
			warnings = append(warnings, errs[i])
			continue
		}
		out = append(out, c)
		warnings = append(warnings, c.Register(reg)...)
	}
	return out, warnings
}

// procTransport starts a stdio server as the leader of its own process
// group (internal/procgroup), so that stopping it stops everything it
// started.
type procTransport struct {
	cmd    *exec.Cmd
	stderr *tail.Buffer
	in     *inbound
	hungUp atomic.Bool // its stdout ended
	// deaf: a write to its stdin failed, since it closed its end, which a
	// server that exits does, maybe before its stdout's end is seen.
	deaf atomic.Bool

	mu       sync.Mutex
	group    *procgroup.Group
	kill     context.CancelFunc
	exited   chan struct{} // closed when the leader has been reaped (waited, ownExit set)
	done     chan struct{} // closed after exited, once its stdout is closed too
	closing  chan struct{} // closed when codeexec begins to stop it
	waited   error
	stdin    *os.File
	stopping bool // codeexec began to stop it
	acted    bool // codeexec began to stop it while it ran
	ownExit  bool // it exited before codeexec began to stop it
}

// inheritedEnv are the variables a stdio server inherits, as other MCP
// clients do; the rest of its environment is its configuration's env.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

func newProcTransport(cfg ServerConfig, in *inbound) *procTransport {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Cwd
	env := []string{}
	for _, k := range inheritedEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
		env = append(env, k+"="+cfg.Env[k])
	}
	cmd.Env = env
	return &procTransport{cmd: cmd, stderr: tail.New(4096), in: in, exited: make(chan struct{}), done: make(chan struct{}), closing: make(chan struct{})}
}

// Connect starts the process and speaks newline-delimited JSON-RPC on its
// stdin and stdout.
func (t *procTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The server's stdout is a pipe of its own: the reader here sees its
	// end when the server closes it (a hang-up, while it still runs) or
	// exits; a process it left behind holding it is killed by Wait
	// (KillEscaped), and should one hold it still, the reader's end is
	// closed stdoutGrace after the server was reaped, so that it cannot
	// hold the call.
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	t.cmd.Stdin, t.cmd.Stdout, t.cmd.Stderr = inR, outW, t.stderr
	gctx, kill := context.WithCancel(context.Background())
	g, err := procgroup.Start(gctx, t.cmd, procgroup.Options{KillEscaped: true})
	inR.Close()
	outW.Close()
	if err != nil {
		kill()
		inW.Close()
		outR.Close()
		close(t.exited)
		close(t.done)
		return nil, err
	}
	t.mu.Lock()
	t.group, t.kill, t.stdin = g, kill, inW
	t.mu.Unlock()
	ended := make(chan struct{}) // closed when the reader saw the end
	var endOnce sync.Once
	go func() {
		err := g.Wait()
		t.mu.Lock()
		t.waited, t.ownExit = err, !t.acted
		t.mu.Unlock()
		close(t.exited)
		// The end of stdout is waited for only while it may carry what
		// the server said last; once codeexec stops it, nothing it says
		// matters, and a reader may no longer be reading.
		select {
		case <-ended:
		case <-t.closing:
		case <-time.After(stdoutGrace):
		}
		outR.Close()
		close(t.done)
	}()
	out := newLineReader(t.in, outR, false)
	out.onEOF = func() {
		t.noteHangUp(&t.hungUp)
		endOnce.Do(func() { close(ended) })
	}
	// The line reader holds each line to the limit, and says so.
	return (&sdk.IOTransport{Reader: out, Writer: stopOnClose{inW, t}, MaxLineLength: -1}).Connect(ctx)
}

// stopOnClose is the server's stdin: closing it stops the server.
type stopOnClose struct {
	*os.File
	t *procTransport
}

// Write writes to the server's stdin, noting a failure: the server closed
// its end, and is likely exiting.
func (s stopOnClose) Write(p []byte) (int, error) {
	n, err := s.File.Write(p)
	if err != nil {
		s.t.noteHangUp(&s.t.deaf)
	}
	return n, err
}

func (s stopOnClose) Close() error {
	s.t.stop()
	return nil
}

// stop closes the server's stdin, which asks it to exit, and kills its
// process group if it has not exited within two seconds; it returns once
// the process is reaped. It is idempotent, and does nothing before the
// process started.
func (t *procTransport) stop() {
	t.mu.Lock()
	g, kill, stdin := t.group, t.kill, t.stdin
	t.stdin = nil
	t.mu.Unlock()
	if g == nil {
		return
	}
	t.beginStop()
	if stdin != nil {
		stdin.Close()
	}
	select {
	case <-t.exited:
	case <-time.After(2 * time.Second):
	}
	kill()
	<-t.done
}

// abort kills the process group at once and waits until it is reaped.
func (t *procTransport) abort() {
	t.mu.Lock()
	g, kill := t.group, t.kill
	t.mu.Unlock()
	if g == nil {
		return
	}
	t.beginStop()
	kill()
	<-t.done
}

// stdoutGrace is how long the reader of a reaped server's stdout waits for
// its end before its end is closed: the processes that held it were killed
// with the server, and their ends close as the kernel tears them down,
// which on a loaded machine takes a while. Closing it sooner would fail
// the call with a read error where the server's exit is the cause.
const stdoutGrace = 10 * time.Second

// exitGrace is how long a server whose stdout ended is given to exit on
// its own before codeexec stops it, so that its own exit is reported as
// the cause. A server that exits closes its stdout first, and on a loaded
// machine its exit may be seen a while later: it is generous, since only
// the report of a real hang-up (stdout closed, the process running on)
// waits for all of it.
const exitGrace = 5 * time.Second

// awaitExit waits for the process to exit, for exitGrace at most.
func (t *procTransport) awaitExit() {
	select {
	case <-t.exited:
	case <-time.After(exitGrace):
	}
}

// beginStop notes that codeexec began to stop the process (it closes its
// stdin, then kills it): the end of its stdout is no longer waited for,
// and an exit from now on is codeexec's doing, not a cause to report,
// unless the process had exited already (the SDK stops a server whose
// start failed, which may have failed because the server exited). A
// server whose stdout ended may be exiting: it is given exitGrace first.
func (t *procTransport) beginStop() {
	if t.hungUp.Load() || t.deaf.Load() {
		t.awaitExit()
	}
	t.mu.Lock()
	if !t.stopping {
		t.stopping = true
		close(t.closing)
		t.acted = t.group != nil && !t.group.HasExited()
	}
	t.mu.Unlock()
}

// noteHangUp sets flag (hungUp or deaf) unless codeexec began to stop the
// process, whose end of its pipes is then codeexec's doing.
func (t *procTransport) noteHangUp(flag *atomic.Bool) {
	t.mu.Lock()
	if !t.stopping {
		flag.Store(true)
	}
	t.mu.Unlock()
}

// hangUp says how the process hung up while it ran on: it closed its
// stdout, or its stdin; "" when it did neither.
func (t *procTransport) hangUp() string {
	switch {
	case t.hungUp.Load():
		return "the process closed its stdout while still running"
	case t.deaf.Load():
		return "the process closed its stdin while still running"
	}
	return ""
}

// exitReport says how the process ended when it ended on its own
// (waiting a moment for an exit in progress), or that it hung up, its
// stdout or stdin closed while it ran on, with the end of its stderr; "" while it
// runs, or when it ended only because codeexec killed it (the reason
// codeexec did is the cause).
func (t *procTransport) exitReport() string {
	what := "the process exited"
	var err error
	select {
	case <-t.exited:
		t.mu.Lock()
		var started, own bool
		err, started, own = t.waited, t.group != nil, t.ownExit
		t.mu.Unlock()
		if !started {
			return "" // the start's own error says why
		}
		if !own {
			if what = t.hangUp(); what == "" {
				return ""
			}
			err = nil
		}
	case <-time.After(exitGrace):
		if what = t.hangUp(); what == "" {
			return ""
		}
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if code, sig := procgroup.ExitStatus(ee); sig != 0 {
			what = fmt.Sprintf("the process was killed by signal %d", int(sig))
		} else {
			what = fmt.Sprintf("the process exited with status %d", code)
		}
	case err != nil:
		what = fmt.Sprintf("the process failed: %v", err)
	}
	if s, _ := t.stderr.Text(tail.AtLine); strings.TrimSpace(s) != "" {
		what += "; its stderr ends: " + strings.TrimSpace(s)
	}
	return what
}
