//go:build unix && !aix

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec/internal/peertest"
	"github.com/codeexec/codeexec/internal/redistest"
)

// The fleet of issue 25: three `codeexec mcp --http` replicas sharing one
// redis-server through --store, behind haproxy balancing round-robin with
// no affinity, so that every request of a session may land on any replica.

// whoJS is a TypeScript expression whose value is the name of the
// replica that runs it (each replica has its own $FLEET_REPLICA, which the
// bash tool inherits). A snippet that returns it says where it ran; a
// session rebuilt on another replica replays the logged result of a bash
// call instead of running it again, so a declaration made of it keeps the
// name of the replica that ran it first.
const whoJS = `await bash('printf %s "$FLEET_REPLICA"')`

// Protocol versions of the fleet's clients.
const (
	// protoSessionID is an older protocol, whose session rides on the
	// Mcp-Session-Id header.
	protoSessionID = "2025-11-25"
	// protoHandle is the protocol whose session is the handle the
	// code_execution result gives and the next call passes back.
	protoHandle = "2026-07-28"
)

// fleet is the redis-server, the replicas and haproxy of a fleet test.
type fleet struct {
	dir      string // the test's directory: haproxy's config, the fifos
	root     string // the replicas' --root, which they share
	replicas map[string]*replica
	names    []string // the replicas' names, in order
	lb       *peerProc
	url      string // the load balancer's MCP endpoint, http://HOST:PORT/mcp
}

// replica is one `codeexec mcp --http` process of a fleet.
type replica struct {
	*peerProc
	addr string // HOST:PORT of its HTTP server
}

// startFleet starts a redis-server, n replicas (named r1, r2, ...) that
// share it and a state key, each with flags added to its command line, and
// haproxy in front of them; cleanups of t stop them all.
func startFleet(t *testing.T, n int, flags ...string) *fleet {
	t.Helper()
	haproxy := peertest.Program(t, "haproxy", "haproxy")
	redis := redistest.Start(t)
	bin, err := exec.LookPath("codeexec")
	if err != nil {
		t.Fatal(err)
	}
	f := &fleet{dir: t.TempDir(), replicas: map[string]*replica{}}
	checkNoneLeft(t, f.dir)
	f.root = filepath.Join(f.dir, "root")
	if err := os.Mkdir(f.root, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("r%d", i+1)
		args := append([]string{"mcp", "--http", "127.0.0.1:0", "--store", redis.URL,
			"--isolation", "none", "--root", f.root, "--log-level", "debug"}, flags...)
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), stateKeyEnv+"=the state key that the fleet's replicas share", "FLEET_REPLICA="+name)
		p := startPeer(t, name, cmd)
		// The start line: msg="serving MCP" url=http://HOST:PORT/mcp ...
		line := p.waitLine(t, "url=http://")
		addr, _, _ := strings.Cut(line[strings.Index(line, "url=http://")+len("url=http://"):], "/mcp")
		f.replicas[name] = &replica{peerProc: p, addr: addr}
		f.names = append(f.names, name)
	}
	f.startLB(t, haproxy)
	return f
}

// startLB starts haproxy in the foreground (-db) on a listener this test
// opens and hands over (bind fd@3), so that it accepts connections from
// the start: round-robin over the replicas, each request balanced on its
// own (http-server-close: no server connection outlives its request, and
// no cookie or stick table pins a client). A replica is checked every
// 100 ms at /readyz and out of the rotation after one failure: a refused
// connection or an answer other than 200, not a slow answer (timeout
// check is a liveness bound: on a loaded machine a check may take over
// 100 ms, and a replica taken out for it would change the rotation). A
// request that a replica refused (connection refused, an empty response,
// a 503 of a draining replica) is sent to another.
func (f *fleet) startLB(t *testing.T, haproxy string) {
	t.Helper()
	var servers strings.Builder
	for _, name := range f.names {
		fmt.Fprintf(&servers, "    server %s %s check\n", name, f.replicas[name].addr)
	}
	cfg := `global
    log stderr format raw local0 info
defaults
    mode http
    log global
    option httplog
    option http-server-close
    timeout connect 5s
    timeout client 10m
    timeout server 10m
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response 503
frontend fleet
    bind fd@3
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    timeout check 1m
    default-server inter 100ms fall 1 rise 1
` + servers.String()
	path := filepath.Join(f.dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lf, err := l.(*net.TCPListener).File()
	l.Close() // haproxy holds the copy in lf
	if err != nil {
		t.Fatal(err)
	}
	f.url = "http://" + l.Addr().String() + "/mcp"
	f.lb = startPeer(t, "haproxy", exec.Command(haproxy, "-db", "-f", path), lf)
}

// logs is every process's output, for a failure's message.
func (f *fleet) logs() string {
	var b strings.Builder
	for _, name := range f.names {
		b.WriteString(f.replicas[name].output() + "\n")
	}
	b.WriteString(f.lb.output())
	return b.String()
}

// fleetSession is one MCP client's code_execution session through the
// load balancer.
type fleetSession struct {
	f      *fleet
	proto  string
	cs     *sdk.ClientSession
	handle string // protoHandle: the session handle of the last result
}

// connect connects an MCP client (the Go SDK's) to the load balancer,
// speaking protocol proto; elicit, if not nil, answers the server's
// questions. A cleanup of t closes it.
func (f *fleet) connect(t *testing.T, proto string, elicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)) *fleetSession {
	t.Helper()
	return f.connectTo(t, f.url, proto, elicit)
}

// connectTo is connect to the MCP endpoint url, of the load balancer or
// of one replica.
func (f *fleet) connectTo(t *testing.T, url, proto string, elicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)) *fleetSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "fleet-test"}, &sdk.ClientOptions{ElicitationHandler: elicit})
	ctx, cancel := context.WithTimeout(context.Background(), livenessBound)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, &sdk.ClientSessionOptions{ProtocolVersion: proto})
	if err != nil {
		t.Fatalf("connect (protocol %s): %v\n%s", proto, err, f.logs())
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != proto {
		t.Fatalf("the client speaks protocol %s, want %s", got, proto)
	}
	return &fleetSession{f: f, proto: proto, cs: cs}
}

// call runs code in the session and returns the structured content of
// its result, or an error if the call failed, the run failed or (for
// protoHandle) the result has no session handle. It may run on any
// goroutine.
func (s *fleetSession) call(ctx context.Context, code string) (map[string]any, error) {
	args := map[string]any{"code": code}
	if s.handle != "" {
		args["session"] = s.handle
	}
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("protocol %s, call %q: %w", s.proto, code, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if res.IsError || sc["ok"] != true {
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		return sc, fmt.Errorf("protocol %s, call %q failed:\n%s", s.proto, code, strings.Join(text, "\n"))
	}
	if s.proto == protoHandle {
		h, _ := sc["session"].(string)
		if h == "" {
			return sc, fmt.Errorf("protocol %s, call %q: no session handle in the result: %v", s.proto, code, sc)
		}
		s.handle = h
	}
	return sc, nil
}

// run runs code in the session and returns the value it returned; a
// failed call fails t.
func (s *fleetSession) run(t *testing.T, code string) any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), livenessBound)
	defer cancel()
	sc, err := s.call(ctx, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, s.f.logs())
	}
	return sc["value"]
}

// runWho runs code, which returns [value, whoJS], and returns the value
// and the name of the replica that ran it.
func (s *fleetSession) runWho(t *testing.T, code string) (any, string) {
	t.Helper()
	v := s.run(t, code)
	pair, _ := v.([]any)
	if len(pair) != 2 {
		t.Fatalf("%q returned %v, want [value, replica]", code, v)
	}
	who, _ := pair[1].(string)
	if _, ok := s.f.replicas[who]; !ok {
		t.Fatalf("%q ran on %q, not a replica of the fleet", code, pair[1])
	}
	return pair[0], who
}

// TestFleet runs the fleet of issue 25 and checks, in order, on the same
// fleet: (a) that a session's consecutive calls land on different replicas
// and see what the earlier ones declared, for a client of each protocol;
// (b) that a run paused for an approval on one replica resumes through
// another; (c) that a session goes on through the others when a replica is
// killed (SIGKILL); (d) that a replica drained with SIGTERM finishes its
// call in flight while new calls go to the others, and exits 0.
func TestFleet(t *testing.T) {
	t.Parallel()
	f := startFleet(t, 3, "--confirm", "write", "--timeout", "10m", "--drain-grace", "10m")
	t.Run("calls move between replicas", f.testCallsMove)
	t.Run("approval resumes on another replica", f.testApproval)
	t.Run("a killed replica loses nothing", f.testKill)
	t.Run("a drained replica finishes its call", f.testDrain)
}

// testCallsMove runs a session of four calls for a client of each
// protocol, each call building on what the one before declared (a const,
// a let it changes). Round-robin sends consecutive calls to different
// replicas; with four calls on three replicas, one replica serves a call
// after another replica served the session, so its own copy of the
// session is stale and must not be used as it stands.
func (f *fleet) testCallsMove(t *testing.T) {
	steps := []struct {
		code string
		want float64
	}{
		{"const x = 41; return [x, " + whoJS + "]", 41},
		{"const y = x + 1; return [y, " + whoJS + "]", 42},
		{"let z = x + y; return [z, " + whoJS + "]", 83},
		{"z += y; return [z, " + whoJS + "]", 125},
	}
	for _, proto := range []string{protoSessionID, protoHandle} {
		t.Run(proto, func(t *testing.T) {
			s := f.connect(t, proto, nil)
			var served []string
			for i, step := range steps {
				v, who := s.runWho(t, step.code)
				if v != step.want {
					t.Fatalf("call %d, %q on %s returned %v, want %v; the calls ran on %v", i+1, step.code, who, v, step.want, served)
				}
				if i > 0 && who == served[i-1] {
					t.Fatalf("calls %d and %d both ran on %s: the load balancer did not move the session; %s", i, i+1, who, f.lb.output())
				}
				served = append(served, who)
			}
			t.Logf("the calls ran on %v", served)
		})
	}
}

// testApproval runs, in a session of a protoHandle client, a call whose
// write needs the client's approval: the run pauses on one replica, the
// client answers, and its retry lands on another replica, which resumes
// the run: the write happens there, once, and what the run declared is
// in the session afterwards.
func (f *fleet) testApproval(t *testing.T) {
	var asked atomic.Int32
	s := f.connect(t, protoHandle, func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		asked.Add(1)
		return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": strings.Contains(req.Params.Message, "approved.txt")}}, nil
	})
	if v, _ := s.runWho(t, `const greeting = "hello"; return [greeting, `+whoJS+`]`); v != "hello" {
		t.Fatalf("first call returned %v", v)
	}
	v := s.run(t, `const before = `+whoJS+`;
await write("approved.txt", greeting + " from the fleet");
const after = `+whoJS+`;
return [before, after]`)
	pair, _ := v.([]any)
	if len(pair) != 2 || pair[0] == pair[1] || asked.Load() != 1 {
		t.Fatalf("paused on, resumed on: %v, asked %d times; want two different replicas, asked once\n%s", v, asked.Load(), f.logs())
	}
	t.Logf("the run paused on %s and resumed on %s", pair[0], pair[1])
	data, err := os.ReadFile(filepath.Join(f.root, "approved.txt"))
	if err != nil || string(data) != "hello from the fleet" {
		t.Errorf("approved.txt: %q, %v; want %q", data, err, "hello from the fleet")
	}
	if v := s.run(t, `return [before, after]`); fmt.Sprint(v) != fmt.Sprint(pair) {
		t.Errorf("the session after the resumed run has [before, after] = %v, want %v", v, pair)
	}
}

// testKill declares something in a session of each protocol, kills
// (SIGKILL) the replica that served the last of those calls, and runs
// three more calls in each session, every one building on the one before:
// they run on the other replicas and see everything.
func (f *fleet) testKill(t *testing.T) {
	var sessions []*fleetSession
	var last string
	for _, proto := range []string{protoSessionID, protoHandle} {
		s := f.connect(t, proto, nil)
		if v, who := s.runWho(t, `const k0 = "kept"; return [k0, `+whoJS+`]`); v != "kept" {
			t.Fatalf("protocol %s: first call returned %v", proto, v)
		} else {
			last = who
		}
		sessions = append(sessions, s)
	}
	f.replicas[last].kill(t)
	want := "kept"
	var served []string
	for i := 1; i <= 3; i++ {
		want += fmt.Sprint(i)
		for _, s := range sessions {
			code := fmt.Sprintf("const k%d = k%d + %d; return [k%d, %s]", i, i-1, i, i, whoJS)
			v, who := s.runWho(t, code)
			if v != want || who == last {
				t.Fatalf("protocol %s: %q returned %v on %s; want %q on a replica other than the killed %s\n%s", s.proto, code, v, who, want, last, f.logs())
			}
			served = append(served, who)
		}
	}
	t.Logf("after %s was killed, the calls ran on %v", last, served)
}

// testDrain starts a call that waits for this test in a session, sends
// SIGTERM to the replica that runs it, and checks that the replica is no
// longer ready and refuses a new request with 503, that new calls of
// other sessions run on the other replicas meanwhile, that the call in
// flight then ends with its result, that the replica exits 0 although
// an idle client still holds a stream open on it, and that what the call
// declared is in the session afterwards.
func (f *fleet) testDrain(t *testing.T) {
	slow := f.connect(t, protoHandle, nil)
	slow.run(t, `const early = "declared before the drain"`)

	// The cleanups below run before the client's Close, which waits for
	// its calls: if the test fails, they end the slow call.
	ctx, cancel := context.WithTimeout(context.Background(), livenessBound)
	t.Cleanup(cancel)
	started, release := filepath.Join(f.dir, "started.fifo"), filepath.Join(f.dir, "release.fifo")
	for _, p := range []string{started, release} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		// Free whoever a failure left blocked opening a fifo: an open
		// for writing without blocking succeeds if there is a reader.
		t.Cleanup(func() {
			if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		})
	}
	type result struct {
		sc  map[string]any
		err error
	}
	done := make(chan result, 1)
	go func() {
		sc, err := slow.call(ctx, fmt.Sprintf(`const slow = await bash('printf %%s "$FLEET_REPLICA" > %s && read -r _ < %s && printf %%s "$FLEET_REPLICA"', { timeoutSeconds: 600 });
return [early, slow]`, started, release))
		done <- result{sc, err}
	}()
	// The snippet writes its replica's name into the fifo once it runs.
	nameCh := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(started)
		nameCh <- string(b)
	}()
	var name string
	select {
	case name = <-nameCh:
	case r := <-done:
		t.Fatalf("the slow call ended before it started: %+v, %v\n%s", r.sc, r.err, f.logs())
	}
	d, ok := f.replicas[name]
	if !ok {
		t.Fatalf("the slow call runs on %q, not a replica", name)
	}
	// An idle client of an older protocol holds its standalone SSE stream
	// (a GET) open on d, as clients of a real fleet do on every replica:
	// the drain must not wait for it.
	idle := f.connectTo(t, "http://"+d.addr+"/mcp", protoSessionID, nil)
	if v := idle.run(t, `return "idle"`); v != "idle" {
		t.Fatalf("the idle client's call returned %v", v)
	}
	d.signal(t, syscall.SIGTERM)
	d.waitLine(t, "msg=draining")
	// Not ready, and a new client's first request is refused, retryably.
	for _, tc := range []struct {
		method, path, body string
		retryAfter         bool
	}{
		{http.MethodGet, "/readyz", "", false},
		{http.MethodPost, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + protoSessionID + `","capabilities":{},"clientInfo":{"name":"late","version":"1"}}}`, true},
	} {
		req, err := http.NewRequest(tc.method, "http://"+d.addr+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s of the draining %s: %v", tc.method, tc.path, name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || tc.retryAfter && resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s of the draining %s: %s, Retry-After %q; want 503 (with a Retry-After: %v)", tc.method, tc.path, name, resp.Status, resp.Header.Get("Retry-After"), tc.retryAfter)
		}
	}
	for _, proto := range []string{protoSessionID, protoHandle} {
		s := f.connect(t, proto, nil)
		s.run(t, `let n = 0`)
		for i := 1; i <= 3; i++ {
			v, who := s.runWho(t, `n += 1; return [n, `+whoJS+`]`)
			if v != float64(i) || who == name {
				t.Fatalf("protocol %s: call %d during the drain returned %v on %s; want %d on a replica other than the draining %s", proto, i, v, who, i, name)
			}
		}
	}
	// Opened for reading and writing, a fifo opens at once; the line
	// waits in it for the snippet's read, as long as it is open here.
	w, err := os.OpenFile(release, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString("go\n"); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("the call in flight during the drain: %v\n%s", r.err, f.logs())
	}
	if got := fmt.Sprint(r.sc["value"]); got != "[declared before the drain "+name+"]" {
		t.Errorf("the call in flight during the drain returned %s, want [declared before the drain %s]", got, name)
	}
	if st := d.waitExit(t); st.ExitCode() != 0 {
		t.Errorf("the drained %s exited with %v, want 0; %s", name, st, d.output())
	}
	if v := slow.run(t, `return slow`); v != name {
		t.Errorf("after the drain, the session's slow = %v, want %q", v, name)
	}
}
