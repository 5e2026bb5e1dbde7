package metrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/peertest"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/metrics"
	"github.com/codeexec/codeexec/registry"
)

func TestMain(m *testing.M) {
	codeexec.Main()
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/codeexec/codeexec/isolation.(*executors).loop"))
}

// tools has echo, and fail, which always fails.
func tools(t *testing.T) *registry.Registry {
	t.Helper()
	reg := registry.New()
	for _, tool := range []registry.Tool{{
		Name: "echo", Description: "Echo the text.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		CallSignature: "async function echo(text: string): Promise<string>",
		Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
			return registry.TextResult(c.Params["text"].(string)), nil
		},
	}, {
		Name: "fail", Description: "Fail.",
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{}}`),
		Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.Result{}, errors.New("it failed")
		},
	}} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// host is an MCP HTTP server with metrics at /metrics behind its token,
// as `codeexec mcp --http` serves them.
type host struct {
	url     string
	runner  *codeexec.Runner
	promReg *prometheus.Registry
}

const token = "sekrit"

func newHost(t *testing.T) *host {
	t.Helper()
	promReg := prometheus.NewRegistry()
	m, err := metrics.New(promReg)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools(t)
	r, err := codeexec.New(reg, codeexec.Options{Observer: m, Limits: codeexec.Limits{MaxCalls: 3}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	srv := mcp.NewServer(r, reg, mcp.ServerOptions{Monitor: m})
	if err := m.WatchRunner(r); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchSessions(srv.SessionCount); err != nil {
		t.Fatal(err)
	}
	opts := mcp.HTTPOptions{Token: token}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(opts))
	mux.Handle("/metrics", srv.Guard(opts, metrics.Handler(promReg)))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	t.Cleanup(func() { srv.Close() })
	return &host{url: ts.URL, runner: r, promReg: promReg}
}

type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return http.DefaultTransport.RoundTrip(r)
}

// runAll runs each snippet through the MCP client of the host.
func (h *host) runAll(t *testing.T, snippets ...string) {
	t.Helper()
	// A client of protocol 2025-11-25 opens an MCP session (initialize),
	// whose messages the metrics count.
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: h.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{}}}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, s := range snippets {
		if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "code_execution", Arguments: map[string]any{"code": s}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRegisterTwice checks that a second set of collectors in one registry
// fails with an error that names a metric already there.
func TestRegisterTwice(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	if _, err := metrics.New(reg); err != nil {
		t.Fatal(err)
	}
	_, err := metrics.New(reg)
	var are prometheus.AlreadyRegisteredError
	if !errors.As(err, &are) || !strings.Contains(err.Error(), `"codeexec_runs_total"`) {
		t.Errorf("New a second time: %v; want a prometheus.AlreadyRegisteredError naming codeexec_runs_total", err)
	}
	if _, err := metrics.NewSessions(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := metrics.NewSessions(reg); err == nil || !strings.Contains(err.Error(), `"codeexec_sessions_rebuilt_duration_seconds"`) {
		t.Errorf("NewSessions a second time: %v; want an error naming codeexec_sessions_rebuilt_duration_seconds", err)
	}
}

// TestLabels checks the counts and labels: runs by outcome, tool calls by
// registered tool (a made-up name is "other") and error type, MCP
// messages by method, refusals by reason.
func TestLabels(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	h.runAll(t,
		`return await echo("a")`,
		`await callTool("made-up", {}).catch(() => 0); await callTool("fail", {})`,
		`await echo("1"); await echo("2"); await echo("3"); await echo("4")`,
		`throw new Error("no")`,
	)
	resp, err := http.Post(h.url+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"codeexec_runs_total", map[string]string{"outcome": "ok", "limit": ""}, 2},
		{"codeexec_runs_total", map[string]string{"outcome": "limit", "limit": "other"}, 1},
		{"codeexec_runs_total", map[string]string{"outcome": "error", "limit": ""}, 1},
		{"codeexec_http_refused_total", map[string]string{"reason": "token_required"}, 1},
	} {
		if got := counter(t, h.promReg, c.name, c.labels); got != c.want {
			t.Errorf("%s%q = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	families, err := h.promReg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if m.GetHistogram() == nil {
				continue
			}
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			got[f.GetName()+"{"+strings.Join(labels, ",")+"}"] = m.GetHistogram().GetSampleCount()
		}
	}
	for k, want := range map[string]uint64{
		"gen_ai_execute_tool_duration_seconds{error_type=,gen_ai_tool_name=echo}":                      4,
		"gen_ai_execute_tool_duration_seconds{error_type=tool_error,gen_ai_tool_name=fail}":            1,
		"gen_ai_execute_tool_duration_seconds{error_type=tool_not_found,gen_ai_tool_name=other}":       1,
		"codeexec_run_duration_seconds{outcome=ok}":                                                    2,
		"mcp_server_operation_duration_seconds{error_type=,mcp_method_name=tools/call}":                2,
		"mcp_server_operation_duration_seconds{error_type=tool_error,mcp_method_name=tools/call}":      2,
		"mcp_server_operation_duration_seconds{error_type=,mcp_method_name=initialize}":                1,
		"mcp_server_operation_duration_seconds{error_type=,mcp_method_name=notifications/initialized}": 1,
	} {
		if got[k] != want {
			t.Errorf("%s: %d samples, want %d (all: %v)", k, got[k], want, got)
		}
	}
}

// counter is the value of the counter name with labels in g.
func counter(t *testing.T, g prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metric:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if want, ok := labels[l.GetName()]; !ok || l.GetValue() != want {
					continue metric
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

// TestExposition lints the exposition with the client's own linter.
func TestExposition(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	h.runAll(t, `return await echo("a")`)
	problems, err := testutil.GatherAndLint(h.promReg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// TestPrometheus scrapes /metrics with a real Prometheus: promtool check
// metrics passes on the exposition, and a query through Prometheus's
// HTTP API returns the run count after a few runs. It skips without
// prometheus and promtool, but not under CI=true (.ci/run installs
// Debian's package).
func TestPrometheus(t *testing.T) {
	t.Parallel()
	bin := peertest.Program(t, "prometheus", "prometheus")
	promtool := peertest.Program(t, "promtool", "prometheus")
	h := newHost(t)
	h.runAll(t, `return await echo("a")`, `return 2`, `throw new Error("no")`)

	// promtool check metrics on what Prometheus scrapes.
	req, _ := http.NewRequest("GET", h.url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	exposition, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	check := exec.Command(promtool, "check", "metrics")
	check.Stdin = bytes.NewReader(exposition)
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s\n%s", err, out, exposition)
	}

	dir := t.TempDir()
	target, _ := url.Parse(h.url)
	config := fmt.Sprintf(`global:
  scrape_interval: 200ms
  scrape_timeout: 150ms
scrape_configs:
  - job_name: codeexec
    authorization:
      credentials: %s
    static_configs:
      - targets: [%q]
`, token, target.Host)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	api := startPrometheus(t, bin, dir)

	// Wait for a scrape that saw the three runs: Prometheus answers the
	// query once it has scraped the target.
	query := func(q string) (float64, bool) {
		resp, err := http.Get(api + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			return 0, false
		}
		defer resp.Body.Close()
		var out struct {
			Data struct {
				Result []struct {
					Value [2]any `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		if json.NewDecoder(resp.Body).Decode(&out) != nil || len(out.Data.Result) != 1 {
			return 0, false
		}
		var v float64
		s, _ := out.Data.Result[0].Value[1].(string)
		_, err = fmt.Sscan(s, &v)
		return v, err == nil
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if v, ok := query(`sum(codeexec_runs_total{job="codeexec"})`); ok && v == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Prometheus did not report the 3 runs within 2 minutes")
		}
		time.Sleep(50 * time.Millisecond) // between two polls of the API
	}
	if v, ok := query(`codeexec_runs_total{job="codeexec",outcome="error"}`); !ok || v != 1 {
		t.Errorf("runs that failed: %v (%v), want 1", v, ok)
	}
	if v, ok := query(`up{job="codeexec"}`); !ok || v != 1 {
		t.Errorf("up: %v (%v), want 1", v, ok)
	}
}

// startPrometheus starts prometheus with the configuration in dir on a
// loopback port and returns its API's URL once it is ready; it is stopped
// when t ends.
func startPrometheus(t *testing.T, bin, dir string) string {
	t.Helper()
	for attempt := 0; ; attempt++ {
		port, err := peertest.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
			"--storage.tsdb.path="+filepath.Join(dir, fmt.Sprintf("data%d", attempt)), "--web.listen-address="+addr,
			// Targets are applied at once, not after 5 s (a hidden flag).
			"--scrape.discovery-reload-interval=100ms")
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		stop := func() {
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		api := "http://" + addr
		for {
			select {
			case err := <-exited:
				// The port was taken meanwhile: try another.
				if attempt < 3 && strings.Contains(stderr.String(), "address already in use") {
					goto next
				}
				t.Fatalf("prometheus exited: %v\n%s", err, stderr.String())
			default:
			}
			if resp, err := http.Get(api + "/-/ready"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					t.Cleanup(stop)
					return api
				}
			}
			time.Sleep(50 * time.Millisecond) // between two polls of its readiness
		}
	next:
	}
}
