package codeexec_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// notebook is a host with a note tool (a write that a person must
// approve: its tool_call hook answers registry.Ask), a free read tool, and
// a caller-served lookup tool. It records every write that ran.
type notebook struct {
	reg    *registry.Registry
	mu     sync.Mutex
	writes []string
	reads  int
}

type noteIn struct {
	Text string `json:"text"`
}

// newNotebook returns a notebook whose lookup is served by the caller,
// or, with liveLookup, by a tool that answers "xyz".
func newNotebook(t testing.TB, liveLookup ...bool) *notebook {
	t.Helper()
	nb := &notebook{reg: registry.New()}
	note, err := registry.NewTool("note", "Write a note.", func(_ context.Context, in noteIn) (string, error) {
		nb.mu.Lock()
		defer nb.mu.Unlock()
		nb.writes = append(nb.writes, in.Text)
		return "noted " + in.Text, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	read, err := registry.NewTool("peek", "Read the notes count.", func(context.Context, struct{}) (int, error) {
		nb.mu.Lock()
		defer nb.mu.Unlock()
		nb.reads++
		return len(nb.writes), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lookup := registry.Tool{
		Name: "lookup", Description: "Look a word up; served by the caller.", CallerServed: true,
		Parameters:    map[string]any{"type": "object", "properties": map[string]any{"word": map[string]any{"type": "string"}}, "required": []any{"word"}},
		CallSignature: "async function lookup(word: string): Promise<string>",
	}
	if len(liveLookup) > 0 && liveLookup[0] {
		lookup.CallerServed = false
		lookup.Execute = func(context.Context, registry.Call) (registry.Result, error) {
			return registry.Result{Content: []registry.Content{registry.TextContent("xyz")}}, nil
		}
	}
	for _, tool := range []registry.Tool{note, read, lookup} {
		if err := nb.reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	nb.reg.OnToolCall(func(_ context.Context, ev registry.ToolCallEvent) string {
		if ev.Name == "note" {
			return registry.Ask
		}
		return ""
	})
	return nb
}

func (nb *notebook) written() []string {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	return append([]string(nil), nb.writes...)
}

// stateKey is the key the runners of a test share, so that one resumes
// another's state.
var stateKey = []byte("0123456789abcdef0123456789abcdef")

func newPausingRunner(t *testing.T, tools codeexec.Tools, mode codeexec.Isolation, env map[string]string) *codeexec.Runner {
	t.Helper()
	r, err := codeexec.New(tools, codeexec.Options{
		Isolation: mode, StateKey: stateKey, Process: codeexec.ProcessOptions{Env: env},
		Limits: codeexec.Limits{Timeout: time.Minute},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// mustPause checks that res paused on requests of the tools want, and
// returns its pause.
func mustPause(t *testing.T, res *codeexec.Result, want ...string) *codeexec.Pause {
	t.Helper()
	if res.Pause == nil {
		t.Fatalf("the run did not pause: value %s, error %v, stdout %q", res.Value, res.Error, res.Stdout)
	}
	if res.Error != nil {
		t.Fatalf("a paused run has an error: %v", res.Error)
	}
	var got []string
	for _, q := range res.Pause.Requests {
		got = append(got, q.Tool+" "+string(q.Kind)+" "+q.Text)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("requests %q, want %q", got, want)
	}
	return res.Pause
}

// TestPauseAndResume runs the durable-run cycle in both isolation modes:
// an approval pauses the run before the tool runs, a resume that approves
// runs it exactly once, one that denies gives the snippet a ToolError it
// can catch, two approvals pause twice, the pinned clock and randomness
// read the same across the replay, output before the pause is in the
// final result once, and a caller-served tool is answered with a result;
// every resume is done by a fresh Runner. The pinned values are every
// source of the clock and randomness: Date.now, new Date, performance.now,
// process.hrtime (and its bigint), Math.random, crypto.randomUUID and
// crypto.getRandomValues.
func TestPauseAndResume(t *testing.T) {
	t.Parallel()
	const src = `const pinned = [Date.now(), Math.random(), crypto.randomUUID(), new Date().toISOString(),
  performance.now(), process.hrtime.bigint(), process.hrtime().join(":"),
  crypto.getRandomValues(new Uint8Array(8)).join(":")].join(" ");
console.log("before", await peek());
console.error(pinned);
let first: string;
try { first = await note({ text: "one" }); } catch (e: any) { first = e.name + ": " + e.message; }
console.log("after", first);
const meaning = await lookup("answer").catch((e: any) => "failed: " + e.message);
const second = await note({ text: "two" });
return { first, meaning, second, pinned };`
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			var live strings.Builder
			res := newPausingRunner(t, nb.reg, mode, nil).Run(context.Background(), src, codeexec.RunOptions{Stdout: &live})
			p := mustPause(t, res, "note approval note: one")
			if res.Outcome() != codeexec.OutcomePaused || res.OK() {
				t.Errorf("a paused run's outcome is %q (OK %v)", res.Outcome(), res.OK())
			}
			if w := nb.written(); len(w) != 0 {
				t.Fatalf("the paused call wrote %q", w)
			}
			if res.Stdout != "before 0\n" || live.String() != res.Stdout {
				t.Errorf("paused run's stdout %q, live %q", res.Stdout, live.String())
			}
			pinned := strings.TrimSpace(res.Stderr)

			live.Reset()
			res = newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State,
				map[string]codeexec.Response{p.Requests[0].ID: {Approved: true}}, codeexec.RunOptions{Stdout: &live})
			p = mustPause(t, res, "lookup tool lookup: answer")
			if live.String() != "after noted one\n" {
				t.Errorf("the resumed run printed %q live, want only what is new", live.String())
			}
			res = newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State,
				map[string]codeexec.Response{p.Requests[0].ID: {Result: registry.Result{Content: []registry.Content{registry.TextContent("42")}}}}, codeexec.RunOptions{})
			p = mustPause(t, res, "note approval note: two")
			res = newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State,
				map[string]codeexec.Response{p.Requests[0].ID: {Approved: true}}, codeexec.RunOptions{})
			if res.Error != nil || res.Pause != nil {
				t.Fatalf("final run: error %v, pause %v", res.Error, res.Pause)
			}
			if w := nb.written(); strings.Join(w, ",") != "one,two" {
				t.Errorf("writes %q, want one then two, each once", w)
			}
			if nb.reads != 1 {
				t.Errorf("peek ran %d times, want once: replays answer from the log", nb.reads)
			}
			if res.Stdout != "before 0\nafter noted one\n" {
				t.Errorf("final stdout %q, want each line once", res.Stdout)
			}
			if want := fmt.Sprintf(`{"first":"noted one","meaning":"42","second":"noted two","pinned":%q}`, pinned); string(res.Value) != want {
				t.Errorf("value %s, want %s (the clock and randomness pinned across the replays)", res.Value, want)
			}
		})
	}
}

// TestResumeRefusals checks, in both isolation modes, every state or
// answer Resume refuses, each with the reason, and that nothing runs then.
func TestResumeRefusals(t *testing.T) {
	t.Parallel()
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			r := newPausingRunner(t, nb.reg, mode, nil)
			res := r.Run(context.Background(), `await note({ text: "x" })`, codeexec.RunOptions{})
			p := mustPause(t, res, "note approval note: x")
			approve := map[string]codeexec.Response{"call_1": {Approved: true}}

			tampered := append([]byte(nil), p.State...)
			tampered[len(tampered)-3] ^= 1
			otherTools := newNotebook(t)
			extra, _ := registry.NewTool("extra", "Another tool.", func(context.Context, struct{}) (string, error) { return "", nil })
			if err := otherTools.reg.Register(extra); err != nil {
				t.Fatal(err)
			}
			runner := func(opts codeexec.Options) *codeexec.Runner {
				opts.Isolation = mode
				r, err := codeexec.New(nb.reg, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = r.Close() })
				return r
			}
			otherKey := runner(codeexec.Options{StateKey: []byte("another key, another key, another")})
			short := runner(codeexec.Options{StateKey: stateKey, StateTTL: time.Nanosecond})
			expired := mustPause(t, short.Run(context.Background(), `await note({ text: "x" })`, codeexec.RunOptions{}), "note approval note: x").State

			const integrity = "its integrity check failed: it was changed or truncated, or sealed with another key (Options.StateKey)"
			tests := []struct {
				name      string
				runner    *codeexec.Runner
				state     []byte
				responses map[string]codeexec.Response
				want      string
			}{
				{"tampered", r, tampered, approve, integrity},
				{"truncated", r, p.State[:len(p.State)/2], approve, integrity},
				{"cut to the magic", r, p.State[:20], approve, "it is truncated"},
				{"another key", otherKey, p.State, approve, integrity},
				{"another version", r, append([]byte("codeexec-state/0\n"), p.State[len("codeexec-state/1\n"):]...), approve, `it is of format "codeexec-state/0", and this codeexec reads "codeexec-state/1" only`},
				{"not a state", r, []byte(`{"source": "await note()"}`), approve, "it is not a codeexec run state"},
				{"empty", r, nil, approve, "it is not a codeexec run state"},
				{"expired", short, expired, approve, "it expired at "},
				{"other tools", newPausingRunner(t, otherTools.reg, mode, nil), p.State, approve, "it was made with other tools than this runner has (a tool was added, removed or changed since)"},
				{"unanswered", r, p.State, nil, "no response for call_1 (note approval)"},
				{"answer to nothing", r, p.State, map[string]codeexec.Response{"call_1": {Approved: true}, "call_7": {}}, "a response to no request of the run: call_7"},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					res := tt.runner.Resume(context.Background(), tt.state, tt.responses, codeexec.RunOptions{})
					if res.Error == nil || !errors.Is(res.Error, codeexec.ErrStateInvalid) || res.Error.Name != "StateError" {
						t.Fatalf("error %v, want a StateError", res.Error)
					}
					if want := "codeexec: the run's state was refused: " + tt.want; !strings.HasPrefix(res.Error.Message, want) {
						t.Errorf("message %q, want %q", res.Error.Message, want)
					}
					if res.Pause != nil || len(res.ToolCalls) != 0 || res.Stdout != "" {
						t.Errorf("a refused resume ran: pause %v, calls %v, stdout %q", res.Pause, res.ToolCalls, res.Stdout)
					}
				})
			}
			if w := nb.written(); len(w) != 0 {
				t.Errorf("a refused resume wrote %q", w)
			}
		})
	}
}

// TestResumeCallerServed checks, in both isolation modes, the two answers
// of a caller-served tool: an error, which the snippet catches as a
// ToolError with its message, and a result, which it gets.
func TestResumeCallerServed(t *testing.T) {
	t.Parallel()
	const src = `let first: string;
try { first = await lookup("one"); } catch (e: any) { first = e.name + ": " + e.message; }
const second = await lookup("two");
return [first, second];`
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			p := mustPause(t, newPausingRunner(t, nb.reg, mode, nil).Run(context.Background(), src, codeexec.RunOptions{}), "lookup tool lookup: one")
			res := newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State,
				map[string]codeexec.Response{"call_1": {Error: "the dictionary is offline"}}, codeexec.RunOptions{})
			p = mustPause(t, res, "lookup tool lookup: two")
			if p.Requests[0].ID != "call_2" {
				t.Fatalf("the second request is %s, want call_2", p.Requests[0].ID)
			}
			res = newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State,
				map[string]codeexec.Response{"call_2": {Result: registry.Result{Content: []registry.Content{registry.TextContent("zwei")}}}}, codeexec.RunOptions{})
			if want := `["ToolError: the dictionary is offline","zwei"]`; res.Error != nil || res.Pause != nil || string(res.Value) != want {
				t.Errorf("value %s, error %v, pause %v; want %s", res.Value, res.Error, res.Pause, want)
			}
		})
	}
}

// TestResumeDenied checks that a denied approval is a ToolError the
// snippet can catch, and that the tool never runs.
func TestResumeDenied(t *testing.T) {
	t.Parallel()
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			const src = `try { await note({ text: "x" }); return "wrote"; } catch (e: any) { return e.name + ": " + e.message; }`
			r := newPausingRunner(t, nb.reg, mode, nil)
			p := mustPause(t, r.Run(context.Background(), src, codeexec.RunOptions{}), "note approval note: x")
			res := r.Resume(context.Background(), p.State, map[string]codeexec.Response{"call_1": {Reason: "not today"}}, codeexec.RunOptions{})
			if want := `"ToolError: Tool call note blocked: not today"`; res.Error != nil || string(res.Value) != want {
				t.Errorf("value %s, error %v; want %s", res.Value, res.Error, want)
			}
			if w := nb.written(); len(w) != 0 {
				t.Errorf("a denied call wrote %q", w)
			}
		})
	}
}

// TestResumeDiverges checks that a replay whose snippet makes another
// call at a logged position ends with a ReplayError naming both calls,
// and runs no tool for it.
func TestResumeDiverges(t *testing.T) {
	t.Parallel()
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			// process.env is the runner's: the resuming runner's differs,
			// and with it the first call.
			const src = `await peek(); await note({ text: process.env.WHO ?? "nobody" });`
			p := mustPause(t, newPausingRunner(t, nb.reg, mode, map[string]string{"WHO": "ann"}).Run(context.Background(), src, codeexec.RunOptions{}), "note approval note: ann")
			res := newPausingRunner(t, nb.reg, mode, map[string]string{"WHO": "bob"}).Resume(context.Background(), p.State, map[string]codeexec.Response{"call_2": {Approved: true}}, codeexec.RunOptions{})
			want := `the replay diverged from the run's call log at call 2: the log has note({"text":"ann"}), the snippet now made note({"text":"bob"})`
			if res.Error == nil || res.Error.Name != "ReplayError" || !strings.HasPrefix(res.Error.Message, want) {
				t.Fatalf("error %v, want a ReplayError: %s", res.Error, want)
			}
			if w := nb.written(); len(w) != 0 || nb.reads != 1 {
				t.Errorf("the diverged replay ran tools: writes %q, %d reads", w, nb.reads)
			}
		})
	}
}

// TestPauseTwoRequests checks, in both isolation modes, a pause on two
// calls that wait at once, and a resume that answers each its own way.
// The approval hook of the first call waits until the second call was
// made: both are made before either is asked, whatever the load.
func TestPauseTwoRequests(t *testing.T) {
	t.Parallel()
	const src = `const notes = await Promise.allSettled([note({ text: "a" }), note({ text: "b" })]);
return notes.map((n: any) => n.status === "fulfilled" ? n.value : n.reason.message);`
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var writes []string
			reg := registry.New()
			note, err := registry.NewTool("note", "Write a note.", func(_ context.Context, in noteIn) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				writes = append(writes, in.Text)
				return "noted " + in.Text, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := reg.Register(note); err != nil {
				t.Fatal(err)
			}
			secondMade := make(chan struct{})
			var once sync.Once
			reg.OnToolCall(func(ctx context.Context, _ registry.ToolCallEvent) string {
				select {
				case <-secondMade:
				case <-ctx.Done():
				}
				return registry.Ask
			})
			onEvent := func(ev codeexec.Event) {
				if ev.Kind == codeexec.EventToolStart && ev.CallID == "call_2" {
					once.Do(func() { close(secondMade) })
				}
			}
			r := newPausingRunner(t, reg, mode, nil)
			p := mustPause(t, r.Run(context.Background(), src, codeexec.RunOptions{OnEvent: onEvent}), "note approval note: a", "note approval note: b")
			if p.Requests[0].ID != "call_1" || p.Requests[1].ID != "call_2" {
				t.Fatalf("requests %s and %s, want call_1 and call_2", p.Requests[0].ID, p.Requests[1].ID)
			}
			res := r.Resume(context.Background(), p.State, map[string]codeexec.Response{"call_1": {Approved: true}, "call_2": {Reason: "not b"}}, codeexec.RunOptions{})
			if want := `["noted a","Tool call note blocked: not b"]`; res.Error != nil || res.Pause != nil || string(res.Value) != want {
				t.Errorf("value %s, error %v, pause %v; want %s", res.Value, res.Error, res.Pause, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(writes, ",") != "a" {
				t.Errorf("writes %q, want a only", writes)
			}
		})
	}
}

// TestResumeRaceOnTimer checks, in both isolation modes, what becomes of
// a snippet that races a call against a timer, which a snippet that is
// resumed must not do: in the live run the timer wins (the slow call
// returns only once the snippet made the call the timer's win leads to),
// on the replay the logged result of the slow call is delivered before
// the fast call's, after which the timer starts, so the call wins, the
// snippet makes another call at the paused call's position, and the
// resumed run ends with a ReplayError naming the position and both calls;
// no tool runs for it.
func TestResumeRaceOnTimer(t *testing.T) {
	t.Parallel()
	const src = `const winner = await Promise.race([
  slow().then(() => "call"),
  fast().then(() => new Promise((resolve) => setTimeout(resolve, 0, "timer"))),
]);
if (winner === "timer") await note({ text: "late" }); else await peek();
return winner;`
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			release := make(chan struct{})
			var once sync.Once
			var slowRuns atomic.Int32
			slow, err := registry.NewTool("slow", "Returns once released.", func(ctx context.Context, _ struct{}) (string, error) {
				slowRuns.Add(1)
				select {
				case <-release:
					return "slow", nil
				case <-ctx.Done():
					return "", ctx.Err()
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			fast, err := registry.NewTool("fast", "Returns at once.", func(context.Context, struct{}) (string, error) { return "fast", nil })
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range []registry.Tool{slow, fast} {
				if err := nb.reg.Register(tool); err != nil {
					t.Fatal(err)
				}
			}
			// The note call, which only the timer's win leads to, releases
			// the slow call: the live run's timer wins, whatever the load.
			releaseOnNote := func(ev codeexec.Event) {
				if ev.Kind == codeexec.EventToolStart && ev.Tool == "note" {
					once.Do(func() { close(release) })
				}
			}
			p := mustPause(t, newPausingRunner(t, nb.reg, mode, nil).Run(context.Background(), src, codeexec.RunOptions{OnEvent: releaseOnNote}), "note approval note: late")
			if p.Requests[0].ID != "call_3" {
				t.Fatalf("the request is %s, want call_3", p.Requests[0].ID)
			}
			res := newPausingRunner(t, nb.reg, mode, nil).Resume(context.Background(), p.State, map[string]codeexec.Response{"call_3": {Approved: true}}, codeexec.RunOptions{})
			want := `the replay diverged from the run's call log at call 3: the log has note({"text":"late"}), the snippet now made peek({}) (a snippet that is replayed must make the same calls in the same order: no racing calls against each other or against timers, no reading what changes between runs outside the tools)`
			if res.Error == nil || res.Error.Name != "ReplayError" || res.Error.Message != want {
				t.Fatalf("error %v, value %s; want a ReplayError: %s", res.Error, res.Value, want)
			}
			if w := nb.written(); len(w) != 0 || nb.reads != 0 || slowRuns.Load() != 1 {
				t.Errorf("the diverged replay ran tools: writes %q, %d reads, slow ran %d times", w, nb.reads, slowRuns.Load())
			}
		})
	}
}

// TestStateSize checks, in both isolation modes, the bound of a state
// (Options.MaxStateBytes): a run whose state would be over it ends with a
// LimitError instead of pausing, and a state over the resuming runner's
// bound is refused with a StateError naming it.
func TestStateSize(t *testing.T) {
	t.Parallel()
	const src = `const big = await bulk(); await note({ text: "x" }); return big.length;`
	// Random hex, which compression cannot bring under a KiB.
	bulkText := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range bulkText {
		bulkText[i] = "0123456789abcdef"[rng.IntN(16)]
	}
	for _, mode := range modes(t) {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			nb := newNotebook(t)
			bulk, err := registry.NewTool("bulk", "Returns 4 KiB of text.", func(context.Context, struct{}) (string, error) { return string(bulkText), nil })
			if err != nil {
				t.Fatal(err)
			}
			if err := nb.reg.Register(bulk); err != nil {
				t.Fatal(err)
			}
			small, err := codeexec.New(nb.reg, codeexec.Options{Isolation: mode, StateKey: stateKey, MaxStateBytes: 1024})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = small.Close() })

			res := small.Run(context.Background(), src, codeexec.RunOptions{})
			limit := regexp.MustCompile(`^the run needs input, but its state is [0-9]+ bytes, over the limit of 1 KiB \(Options.MaxStateBytes\); a run that pauses must keep its tool results smaller$`)
			if res.Pause != nil || res.Error == nil || res.Error.Name != "LimitError" || res.Error.Kind != codeexec.KindLimit || !limit.MatchString(res.Error.Message) {
				t.Fatalf("pause %v, error %v; want a LimitError matching %s", res.Pause, res.Error, limit)
			}

			p := mustPause(t, newPausingRunner(t, nb.reg, mode, nil).Run(context.Background(), src, codeexec.RunOptions{}), "note approval note: x")
			res = small.Resume(context.Background(), p.State, map[string]codeexec.Response{"call_2": {Approved: true}}, codeexec.RunOptions{})
			refused := regexp.MustCompile(`^codeexec: the run's state was refused: it is [0-9]+ bytes, over the limit of 1 KiB$`)
			if res.Error == nil || res.Error.Name != "StateError" || !errors.Is(res.Error, codeexec.ErrStateInvalid) || !refused.MatchString(res.Error.Message) {
				t.Fatalf("error %v; want a StateError matching %s", res.Error, refused)
			}
			if w := nb.written(); len(w) != 0 {
				t.Errorf("the paused call wrote %q", w)
			}
		})
	}
}

// TestSessionRunsDoNotPause checks that a call that needs input fails in
// a session run, which cannot pause, with an error saying why.
func TestSessionRunsDoNotPause(t *testing.T) {
	t.Parallel()
	nb := newNotebook(t)
	s := newPausingRunner(t, nb.reg, codeexec.InProcess, nil).NewSession()
	defer s.Close()
	res := s.Run(context.Background(), `try { await note({ text: "x" }) } catch (e: any) { return e.message }`, codeexec.RunOptions{})
	if want := `"tool call note needs a person's approval"`; res.Pause != nil || string(res.Value) != want {
		t.Errorf("value %s, pause %v; want %s", res.Value, res.Pause, want)
	}
}

// ExampleRunner_Resume shows the durable-run cycle: a call that needs a
// person's approval pauses the run; Resume goes on with the answer.
func ExampleRunner_Resume() {
	reg := registry.New()
	deploy, _ := registry.NewTool("deploy", "Deploy a service.", func(_ context.Context, in struct {
		Service string `json:"service"`
	}) (string, error) {
		return "deployed " + in.Service, nil
	})
	_ = reg.Register(deploy)
	reg.OnToolCall(func(context.Context, registry.ToolCallEvent) string { return registry.Ask })
	r, _ := codeexec.New(reg, codeexec.Options{})
	defer r.Close()

	res := r.Run(context.Background(), `return await deploy({ service: "api" })`, codeexec.RunOptions{})
	for _, q := range res.Pause.Requests {
		fmt.Println("asks:", q.ID, q.Text)
	}
	res = r.Resume(context.Background(), res.Pause.State, map[string]codeexec.Response{"call_1": {Approved: true}}, codeexec.RunOptions{})
	fmt.Println(res.Text())
	// Output:
	// asks: call_1 deploy: api
	// Return value: deployed api
}

// BenchmarkResume measures a resume that replays n logged calls, then
// answers the paused call and ends, beside a run of the same snippet
// whose last call is a live tool instead: the cost of the replay and the
// state against running the calls.
func BenchmarkResume(b *testing.B) {
	for _, n := range []int{10, 100} {
		src := fmt.Sprintf(`let sum = 0; for (let i = 0; i < %d; i++) sum += await peek(); return sum + (await lookup("x")).length;`, n)
		b.Run(fmt.Sprintf("calls=%d/resume", n), func(b *testing.B) {
			r, err := codeexec.New(newNotebook(b).reg, codeexec.Options{StateKey: stateKey})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			p := r.Run(context.Background(), src, codeexec.RunOptions{}).Pause
			if p == nil {
				b.Fatal("no pause")
			}
			answer := map[string]codeexec.Response{p.Requests[0].ID: {Result: registry.Result{Content: []registry.Content{registry.TextContent("xyz")}}}}
			b.ReportAllocs()
			for b.Loop() {
				if res := r.Resume(context.Background(), p.State, answer, codeexec.RunOptions{}); res.Error != nil || string(res.Value) != "3" {
					b.Fatalf("value %s, error %v", res.Value, res.Error)
				}
			}
		})
		b.Run(fmt.Sprintf("calls=%d/run", n), func(b *testing.B) {
			r, err := codeexec.New(newNotebook(b, true).reg, codeexec.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.ReportAllocs()
			for b.Loop() {
				if res := r.Run(context.Background(), src, codeexec.RunOptions{}); res.Error != nil || string(res.Value) != "3" {
					b.Fatalf("value %s, error %v", res.Value, res.Error)
				}
			}
		})
	}
}
