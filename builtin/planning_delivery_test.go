package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
)

// sessionJSONOf returns s as JSON, for comparing states.
func sessionJSONOf(t *testing.T, s *Session) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pending calls the planning tool name over s and returns its result
// without finalizing it: its change waits for the delivery.
func pending(t *testing.T, s *Session, name string, params map[string]any) registry.Result {
	t.Helper()
	res, err := planningTool(t, s, name).Execute(context.Background(), registry.Call{ID: "c", Params: params})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, params, err)
	}
	if res.Finalizer() == nil {
		t.Fatalf("%s returned a result without a finalizer", name)
	}
	return res
}

// TestPlanningCommitsOnDelivery checks, for each changing tool, that its
// change is in the session only once its result is finalized as
// delivered: before, the session is as it was; finalized as not
// delivered, it stays so; delivered, it holds the plan the result showed.
func TestPlanningCommitsOnDelivery(t *testing.T) {
	tests := []struct {
		tool   string
		params map[string]any
	}{
		{"planning_setup_plan", map[string]any{"objective": "new", "initial_steps": []any{"x"}}},
		{"planning_add_step", map[string]any{"steps": []any{"c", "d"}}},
		{"planning_update_step", map[string]any{"step_id": 2, "status": "done", "title": "B"}},
	}
	for _, tt := range tests {
		for _, delivered := range []bool{false, true} {
			name := tt.tool + "/not delivered"
			if delivered {
				name = tt.tool + "/delivered"
			}
			t.Run(name, func(t *testing.T) {
				s := &Session{}
				mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a", "b"}})
				before := sessionJSONOf(t, s)
				res := pending(t, s, tt.tool, tt.params)
				if got := sessionJSONOf(t, s); got != before {
					t.Fatalf("the session changed before the delivery: %s", got)
				}
				if plan, _ := mustPlan(t, s, "planning_read_plan", nil); plan.Objective != "o" || len(plan.Steps) != 2 || plan.Steps[1].Status != StepPending {
					t.Fatalf("planning_read_plan saw the pending change: %+v", plan)
				}
				res.Finalize(delivered)
				res.Finalize(!delivered) // a second call changes nothing
				got, _ := s.Plan()
				switch {
				case !delivered && sessionJSONOf(t, s) != before:
					t.Fatalf("a change not delivered was committed: %s", sessionJSONOf(t, s))
				case delivered && !reflect.DeepEqual(got, res.Details.(Plan)):
					t.Fatalf("the session holds %+v, the delivered result showed %+v", got, res.Details)
				}
				// The turn is free: the next call runs.
				mustPlan(t, s, "planning_add_step", map[string]any{"steps": []any{"next"}})
			})
		}
	}
}

// TestPlanningInFlight checks two changing calls in flight at once: the
// second waits for the first's delivery and computes on top of it, so its
// step ids follow what was committed, whether the first was delivered or
// not; a second call whose context ends while it waits fails and changes
// nothing; UnmarshalJSON while a change waits drops that change.
func TestPlanningInFlight(t *testing.T) {
	for _, delivered := range []bool{true, false} {
		s := &Session{}
		mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a"}})
		first := pending(t, s, "planning_add_step", map[string]any{"steps": []any{"b"}})
		type outcome struct {
			res registry.Result
			err error
		}
		second := make(chan outcome, 1)
		add := planningTool(t, s, "planning_add_step")
		go func() {
			res, err := add.Execute(context.Background(), registry.Call{Params: map[string]any{"steps": []any{"c"}}})
			second <- outcome{res, err}
		}()
		first.Finalize(delivered)
		out := <-second
		if out.err != nil {
			t.Fatal(out.err)
		}
		out.res.Finalize(true)
		plan, _ := s.Plan()
		var titles []string
		for _, st := range plan.Steps {
			titles = append(titles, fmt.Sprintf("%s=%d", st.Title, st.StepID))
		}
		want := "a=1,b=2,c=3"
		if !delivered {
			want = "a=1,c=2"
		}
		if got := strings.Join(titles, ","); got != want || !reflect.DeepEqual(plan, out.res.Details.(Plan)) {
			t.Errorf("first delivered %v: the plan is %s (the second call showed %+v), want %s", delivered, got, out.res.Details, want)
		}
	}

	s := &Session{}
	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o"})
	first := pending(t, s, "planning_add_step", map[string]any{"steps": []any{"b"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := planningTool(t, s, "planning_update_step").Execute(ctx, registry.Call{Params: map[string]any{"step_id": 1, "status": "done"}}); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("a call whose context ended first = %v, want an error wrapping context.Canceled", err)
	}
	loaded := `{"version":1,"plan":{"objective":"loaded","status":"active","steps":[]},"next_step_id":1}`
	if err := s.UnmarshalJSON([]byte(loaded)); err != nil {
		t.Fatal(err)
	}
	first.Finalize(true)
	if got := sessionJSONOf(t, s); got != loaded {
		t.Errorf("after a load, a change computed before it was committed: %s", got)
	}
}

// TestPlanningThroughHooks checks, through a registry, that a planning
// result a tool_result hook replaces by an error changes nothing and
// frees the session for the next call.
func TestPlanningThroughHooks(t *testing.T) {
	s := &Session{}
	reg := registry.New()
	for _, tool := range PlanningTools(s) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		if steps, _ := ev.Params["steps"].([]any); len(steps) > 0 && steps[0] == "veto" {
			return &registry.Result{Content: []registry.Content{registry.TextContent("vetoed")}, IsError: true}
		}
		return nil
	})
	call := func(name string, params map[string]any) registry.Result {
		t.Helper()
		res, err := reg.CallTool(context.Background(), name, params, registry.CallOptions{EmitEvents: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	call("planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a"}})
	before := sessionJSONOf(t, s)
	if res := call("planning_add_step", map[string]any{"steps": []any{"veto"}}); !res.IsError || res.Text() != "vetoed" {
		t.Fatalf("vetoed add = %+v", res)
	}
	if got := sessionJSONOf(t, s); got != before {
		t.Fatalf("a vetoed add changed the session: %s", got)
	}
	res := call("planning_add_step", map[string]any{"steps": []any{"b"}})
	if plan, _ := res.Details.(Plan); res.IsError || len(plan.Steps) != 2 || plan.Steps[1].StepID != 2 {
		t.Fatalf("the add after the vetoed one = %+v", res)
	}
}

// TestPlanningPanicFreesTheTurn checks that an update whose function
// panics gives the session's turn back: the next call runs.
func TestPlanningPanicFreesTheTurn(t *testing.T) {
	s := &Session{}
	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o"})
	func() {
		defer func() { _ = recover() }()
		_, _ = s.update(context.Background(), registry.Call{}, func(*sessionState) error { panic("bug") }, planResultOf)
	}()
	// A turn not given back would make the next call wait: bounded, so
	// that the test fails saying so rather than hang.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.update(ctx, registry.Call{}, func(*sessionState) error { return nil }, planResultOf)
	if err != nil {
		t.Fatalf("the call after the panic: %v", err)
	}
	res.Finalize(true)
	mustPlan(t, s, "planning_add_step", map[string]any{"steps": []any{"a"}})
}

func planResultOf(p Plan) registry.Result { return planResult("", p) }
