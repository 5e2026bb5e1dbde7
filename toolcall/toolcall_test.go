package toolcall

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

type echoIn struct {
	Text string `json:"text"`
}

// tools returns a registry with echo, which returns its text, and boom,
// which panics.
func tools(t *testing.T) *registry.Registry {
	t.Helper()
	reg := registry.New()
	echo, err := registry.NewTool("echo", "Echo.", func(_ context.Context, in echoIn) (string, error) { return in.Text, nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(echo); err != nil {
		t.Fatal(err)
	}
	return reg
}

// panicker is a Caller whose every call panics.
type panicker struct{ *registry.Registry }

func (panicker) CallTool(context.Context, string, map[string]any, registry.CallOptions) (registry.Result, error) {
	panic("broken")
}

// TestDispatcher checks the call limit, the ids and trace, the hooks and
// the refusal of a call whose run already ended.
func TestDispatcher(t *testing.T) {
	reg := tools(t)
	var mu sync.Mutex
	var events []string
	hook := func(s string) {
		mu.Lock()
		events = append(events, s)
		mu.Unlock()
	}
	d := NewDispatcher(Config{Tools: reg, Infos: reg.Tools(), Limits: runtime.Limits{MaxCalls: 2, MaxConcurrentCalls: 1, MaxResultBytes: 1 << 20}, Hooks: Hooks{
		Start: func(id, name string, _ map[string]any) { hook("start " + id + " " + name) },
		End: func(id, name string, isError bool, _ time.Duration) {
			hook("end " + id + " " + name + map[bool]string{true: " error"}[isError])
		},
	}})
	res, err := d.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, registry.CallOptions{})
	if err != nil || res.Content[0].Text != "hi" {
		t.Fatalf("call 1: %+v, %v", res, err)
	}
	ended, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("the run ended"))
	if _, err := d.CallTool(ended, "echo", map[string]any{"text": "late"}, registry.CallOptions{}); err == nil || err.Error() != "echo was not started: the run ended" {
		t.Errorf("call 2 after the end: %v, want it refused with the cause", err)
	}
	_, err = d.StartCall("echo", nil)
	var le *runtime.LimitError
	if !errors.As(err, &le) || err.Error() != "the run made more than 2 tool calls, its limit" {
		t.Errorf("call 3: %v, want the call limit", err)
	}
	trace := d.Trace()
	if len(trace) != 2 || trace[0].ID != "call_1" || trace[0].IsError || trace[1].ID != "call_2" || !trace[1].IsError {
		t.Errorf("trace %+v, want call_1 ok and call_2 failed", trace)
	}
	want := "start call_1 echo|end call_1 echo|start call_2 echo|end call_2 echo error"
	if got := strings.Join(events, "|"); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}

// TestStartRecoversPanics checks that a Caller's panic fails its call with
// an error naming the tool instead of crashing the host.
func TestStartRecoversPanics(t *testing.T) {
	perform, err := Start(panicker{tools(t)}, "echo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := perform(context.Background()); err == nil || err.Error() != "echo failed: internal error: broken" {
		t.Errorf("error %v, want the panic as the call's error", err)
	}
}

// TestTraceParamsCut checks that big params are cut in the trace and
// small ones kept as they are.
func TestTraceParamsCut(t *testing.T) {
	small := map[string]any{"text": "hi"}
	if got := traceParams(small); got.(map[string]any)["text"] != "hi" {
		t.Errorf("small params: %v", got)
	}
	big := map[string]any{"text": strings.Repeat("x", traceParamBytes+1)}
	got := traceParams(big).(map[string]any)["text"].(string)
	if want := strings.Repeat("x", 1024) + "...[64513 more bytes not kept in the trace]"; got != want {
		t.Errorf("big params kept %d bytes: %.80q", len(got), got)
	}
}

// TestRebuild checks a rebuild's replay of a complete log: a logged call
// is answered from the log, one that never reached the snippet is never
// answered (until the run ends), one past the log diverges, and no tool
// is ever called.
func TestRebuild(t *testing.T) {
	reg := registry.New()
	calls := 0
	counted, err := registry.NewTool("echo", "Echo.", func(_ context.Context, in echoIn) (string, error) { calls++; return in.Text, nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(counted); err != nil {
		t.Fatal(err)
	}
	log := []Entry{
		{Name: "echo", Params: []byte(`{"text":"a"}`), Outcome: &Outcome{Content: []registry.Content{registry.TextContent("logged a")}}},
		{Name: "echo", Params: []byte(`{"text":"b"}`)},
	}
	d := NewDispatcher(Config{Tools: reg, Infos: reg.Tools(), Limits: runtime.Limits{MaxCalls: 10, MaxConcurrentCalls: 4, MaxResultBytes: 1 << 20}, Log: log, Rebuild: true})
	res, err := d.CallTool(context.Background(), "echo", map[string]any{"text": "a"}, registry.CallOptions{})
	if err != nil || res.Text() != "logged a" {
		t.Fatalf("call 1 = %q, %v; want the logged result", res.Text(), err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	pending := make(chan error, 1)
	perform, err := d.StartCall("echo", map[string]any{"text": "b"})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, err := perform(ctx); pending <- err }()
	if _, err := d.StartCall("echo", map[string]any{"text": "c"}); !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "the log has no call") {
		t.Errorf("call 3 past the log: %v, want a divergence", err)
	}
	select {
	case err := <-pending:
		t.Fatalf("the unanswered call returned before its run ended: %v", err)
	default:
	}
	cancel(errors.New("the run ended"))
	if err := <-pending; err == nil || !strings.Contains(err.Error(), "the run ended") {
		t.Errorf("unanswered call = %v, want the run's end", err)
	}
	if calls != 0 {
		t.Errorf("the tool ran %d times during a rebuild, want 0", calls)
	}
}
