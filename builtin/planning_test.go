package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// planningTool returns the planning tool called name over s.
func planningTool(t *testing.T, s *Session, name string) registry.Tool {
	t.Helper()
	for _, tool := range PlanningTools(s) {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no planning tool %q", name)
	return registry.Tool{}
}

// runPlanning calls the planning tool name over s with params, as a
// caller that got the result: it finalizes it as delivered.
func runPlanning(t *testing.T, s *Session, name string, params map[string]any) (registry.Result, error) {
	t.Helper()
	res, err := planningTool(t, s, name).Execute(context.Background(), registry.Call{ID: "c", Params: params})
	res.Finalize(err == nil)
	return res, err
}

// mustPlan calls the tool and returns the plan it resolved to.
func mustPlan(t *testing.T, s *Session, name string, params map[string]any) (Plan, string) {
	t.Helper()
	res, err := runPlanning(t, s, name, params)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, params, err)
	}
	plan, ok := res.Details.(Plan)
	if !ok {
		t.Fatalf("%s details are %T, want Plan", name, res.Details)
	}
	if got, _ := s.Plan(); !reflect.DeepEqual(got, plan) {
		t.Fatalf("%s returned %+v but the session holds %+v", name, plan, got)
	}
	return plan, res.Text()
}

func steps(args ...any) []PlanStep {
	var out []PlanStep
	for i := 0; i < len(args); i += 3 {
		out = append(out, PlanStep{StepID: args[i].(int), Title: args[i+1].(string), Status: StepStatus(args[i+2].(string))})
	}
	if out == nil {
		out = []PlanStep{}
	}
	return out
}

func TestPlanningFlow(t *testing.T) {
	s := &Session{}
	if _, ok := s.Plan(); ok {
		t.Fatal("a new session has a plan")
	}

	plan, text := mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": " Ship v2 ", "initial_steps": []any{"Write tests", "Fix bug"}})
	want := Plan{Objective: "Ship v2", Status: PlanActive, Steps: steps(1, "Write tests", "pending", 2, "Fix bug", "pending")}
	if !reflect.DeepEqual(plan, want) {
		t.Fatalf("setup plan = %+v, want %+v", plan, want)
	}
	wantText := "Plan set up with 2 steps.\nObjective: Ship v2\nStatus: active (0 of 2 steps done)\n1. [pending] Write tests\n2. [pending] Fix bug"
	if text != wantText {
		t.Errorf("setup text:\n%s\nwant\n%s", text, wantText)
	}

	plan, text = mustPlan(t, s, "planning_add_step", map[string]any{"steps": []any{"Release"}})
	if want.Steps = append(want.Steps, PlanStep{3, "Release", StepPending}); !reflect.DeepEqual(plan, want) {
		t.Fatalf("after add: %+v", plan)
	}
	if !strings.HasPrefix(text, "Added step 3.\n") {
		t.Errorf("add text %q", text)
	}

	plan, text = mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 1.0, "status": "in_progress"})
	if plan.Steps[0].Status != StepInProgress || plan.Status != PlanActive {
		t.Fatalf("after update: %+v", plan)
	}
	if !strings.HasPrefix(text, "Updated step 1.\n") || !strings.Contains(text, "\n1. [in_progress] Write tests") {
		t.Errorf("update text %q", text)
	}
	mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 2, "title": "Fix the parser bug"})
	for _, id := range []int{1, 2} {
		mustPlan(t, s, "planning_update_step", map[string]any{"step_id": id, "status": "done"})
	}
	plan, _ = mustPlan(t, s, "planning_read_plan", nil)
	if plan.Status != PlanActive {
		t.Errorf("plan completed with step 3 pending: %+v", plan)
	}

	plan, text = mustPlan(t, s, "planning_update_step", map[string]any{"step_id": int64(3), "status": "done", "title": "Release v2"})
	want = Plan{Objective: "Ship v2", Status: PlanCompleted, Steps: steps(1, "Write tests", "done", 2, "Fix the parser bug", "done", 3, "Release v2", "done")}
	if !reflect.DeepEqual(plan, want) {
		t.Fatalf("all done: %+v, want %+v", plan, want)
	}
	if !strings.Contains(text, "Status: completed (3 of 3 steps done)") {
		t.Errorf("completed text %q", text)
	}

	// Adding a step reopens the plan; ids continue.
	plan, text = mustPlan(t, s, "planning_add_step", map[string]any{"steps": []string{"Announce", "Celebrate"}})
	if plan.Status != PlanActive || plan.Steps[3].StepID != 4 || plan.Steps[4].StepID != 5 {
		t.Fatalf("after add to completed plan: %+v", plan)
	}
	if !strings.HasPrefix(text, "Added steps 4 to 5.\n") {
		t.Errorf("add text %q", text)
	}
	mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 4, "status": "done"})
	plan, _ = mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 5, "status": "done"})
	if plan.Status != PlanCompleted {
		t.Fatalf("plan not completed: %+v", plan)
	}
	// Reopening a step makes the plan active again.
	plan, _ = mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 2, "status": "pending"})
	if plan.Status != PlanActive {
		t.Fatalf("plan with a reopened step is %s", plan.Status)
	}

	// Setup replaces the plan; step ids start again at 1.
	plan, text = mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "Next thing"})
	if !reflect.DeepEqual(plan, Plan{Objective: "Next thing", Status: PlanActive, Steps: []PlanStep{}}) {
		t.Fatalf("replaced plan = %+v", plan)
	}
	if text != "Plan replaced (the previous plan is gone) with 0 steps.\nObjective: Next thing\nStatus: active (0 of 0 steps done)" {
		t.Errorf("replace text %q", text)
	}
	plan, _ = mustPlan(t, s, "planning_add_step", map[string]any{"steps": []any{"First again"}})
	if plan.Steps[0].StepID != 1 {
		t.Errorf("first step of a new plan has id %d", plan.Steps[0].StepID)
	}

	text = ""
	if res, err := runPlanning(t, s, "planning_read_plan", nil); err == nil {
		text = res.Text()
	}
	if text != "Objective: Next thing\nStatus: active (0 of 1 step done)\n1. [pending] First again" {
		t.Errorf("read text %q", text)
	}
}

func TestPlanningErrors(t *testing.T) {
	long := strings.Repeat("é", MaxTitleLength+1)
	withPlan := func() *Session {
		s := &Session{}
		mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "Obj", "initial_steps": []any{"a", "b"}})
		mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 1, "status": "done"})
		return s
	}
	completed := func() *Session {
		s := withPlan()
		mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 2, "status": "done"})
		return s
	}
	empty := func() *Session { return &Session{} }
	tests := []struct {
		name    string
		session func() *Session
		tool    string
		params  map[string]any
		want    string
	}{
		{"add without plan", empty, "planning_add_step", map[string]any{"steps": []any{"x"}},
			"planning_add_step: there is no plan yet; call planning_setup_plan(objective, initial_steps) first"},
		{"update without plan", empty, "planning_update_step", map[string]any{"step_id": 1, "status": "done"},
			"planning_update_step: there is no plan yet; call planning_setup_plan(objective, initial_steps) first"},
		{"read without plan", empty, "planning_read_plan", nil,
			"planning_read_plan: there is no plan yet; call planning_setup_plan(objective, initial_steps) first"},
		{"setup without objective", withPlan, "planning_setup_plan", map[string]any{"initial_steps": []any{"x"}},
			"planning_setup_plan: missing required parameter objective"},
		{"setup with blank objective", withPlan, "planning_setup_plan", map[string]any{"objective": " \t "},
			"planning_setup_plan: objective is empty; it needs 1 to 500 characters"},
		{"setup with long objective", withPlan, "planning_setup_plan", map[string]any{"objective": long},
			"planning_setup_plan: objective is 501 characters long; the limit is 500"},
		{"setup with an empty step", withPlan, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"ok", ""}},
			"planning_setup_plan: initial_steps[1] is empty; it needs 1 to 500 characters"},
		{"setup with a long step", withPlan, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{long}},
			"planning_setup_plan: initial_steps[0] is 501 characters long; the limit is 500"},
		{"setup with a non-string step", withPlan, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a", 3.0}},
			"planning_setup_plan: initial_steps[1] must be a string, got float64"},
		{"setup with steps not a list", withPlan, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": "a"},
			"planning_setup_plan: initial_steps must be an array of strings, got string"},
		{"add without steps", withPlan, "planning_add_step", map[string]any{},
			"planning_add_step: missing required parameter steps"},
		{"add no steps", withPlan, "planning_add_step", map[string]any{"steps": []any{}},
			"planning_add_step: steps is empty; give at least one step title"},
		{"add an empty title among good ones", completed, "planning_add_step", map[string]any{"steps": []any{"fine", "  "}},
			"planning_add_step: steps[1] is empty; it needs 1 to 500 characters"},
		{"add a long title", withPlan, "planning_add_step", map[string]any{"steps": []any{long}},
			"planning_add_step: steps[0] is 501 characters long; the limit is 500"},
		{"update without step_id", withPlan, "planning_update_step", map[string]any{"status": "done"},
			"planning_update_step: missing required parameter step_id"},
		{"update with fractional step_id", withPlan, "planning_update_step", map[string]any{"step_id": 1.5, "status": "done"},
			"planning_update_step: step_id must be a whole number, got 1.5"},
		{"update with step_id 0", withPlan, "planning_update_step", map[string]any{"step_id": 0, "status": "done"},
			"planning_update_step: step_id must be at least 1, got 0"},
		{"update an unknown step", withPlan, "planning_update_step", map[string]any{"step_id": 7, "status": "done"},
			"planning_update_step: there is no step 7; the plan's step ids are 1, 2"},
		{"update a step id past int32", withPlan, "planning_update_step", map[string]any{"step_id": float64(1 << 40), "status": "done"},
			"planning_update_step: there is no step 1099511627776; the plan's step ids are 1, 2"},
		{"update the largest safe step id", withPlan, "planning_update_step", map[string]any{"step_id": float64(1<<53 - 1), "status": "done"},
			"planning_update_step: there is no step 9007199254740991; the plan's step ids are 1, 2"},
		{"update a step id past the safe integers", withPlan, "planning_update_step", map[string]any{"step_id": 1e300, "status": "done"},
			"planning_update_step: step_id must be at most 9007199254740991, got 1e+300"},
		{"update a negative huge step id", withPlan, "planning_update_step", map[string]any{"step_id": -5e9, "status": "done"},
			"planning_update_step: step_id must be at least 1, got -5000000000"},
		{"update with nothing to change", withPlan, "planning_update_step", map[string]any{"step_id": 1},
			"planning_update_step: nothing to change; give a status, a title or both"},
		{"update with a bad status", completed, "planning_update_step", map[string]any{"step_id": 1, "status": "finished"},
			`planning_update_step: status "finished" is not one of pending, in_progress, done`},
		{"update with an empty title and a good status", completed, "planning_update_step", map[string]any{"step_id": 1, "status": "pending", "title": ""},
			"planning_update_step: title is empty; it needs 1 to 500 characters"},
		{"update with a long title", withPlan, "planning_update_step", map[string]any{"step_id": 2, "title": long},
			"planning_update_step: title is 501 characters long; the limit is 500"},
		{"update with a non-string status", withPlan, "planning_update_step", map[string]any{"step_id": 2, "status": true},
			"planning_update_step: status must be a string, got bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.session()
			before, _ := json.Marshal(s)
			planBefore, hadPlan := s.Plan()
			res, err := runPlanning(t, s, tc.tool, tc.params)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error = %v (result %q)\nwant %s", err, res.Text(), tc.want)
			}
			after, _ := json.Marshal(s)
			planAfter, hasPlan := s.Plan()
			if !bytes.Equal(before, after) || hadPlan != hasPlan || !reflect.DeepEqual(planBefore, planAfter) {
				t.Errorf("a failed call changed the session:\n%s\n%s", before, after)
			}
		})
	}
}

// TestPlanningTitles checks the title rules at their edges.
func TestPlanningTitles(t *testing.T) {
	s := &Session{}
	max := strings.Repeat("界", MaxTitleLength)
	plan, _ := mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": max, "initial_steps": []any{"  padded\t", max}})
	if plan.Objective != max || plan.Steps[0].Title != "padded" || plan.Steps[1].Title != max {
		t.Errorf("titles = %q, %q", plan.Steps[0].Title, plan.Steps[1].Title)
	}
}

// TestSessionRestore checks that a failed update leaves exactly the state
// it started from, whatever its function changed before it failed.
func TestSessionRestore(t *testing.T) {
	s := &Session{}
	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a", "b"}})
	before := s.state.snapshot()
	boom := errors.New("boom")
	noResult := func(Plan) registry.Result {
		t.Fatal("a failed update built a result")
		return registry.Result{}
	}
	_, err := s.update(context.Background(), registry.Call{}, func(st *sessionState) error {
		st.plan.Steps[0].Title = "changed"
		st.plan.Steps[1].Status = StepDone
		appendSteps(st, []string{"c"})
		st.plan.Objective = "other"
		return boom
	}, noResult)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if !reflect.DeepEqual(s.state, before) {
		t.Errorf("state after a failed update:\n%+v\nwant\n%+v", s.state, before)
	}
	_, err = s.update(context.Background(), registry.Call{}, func(st *sessionState) error {
		st.plan = nil
		return boom
	}, noResult)
	if !errors.Is(err, boom) || !reflect.DeepEqual(s.state, before) {
		t.Errorf("state after a failed update that dropped the plan: %+v", s.state)
	}
	// The failed updates gave the turn back: the next call runs.
	mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 1, "status": "done"})
	// Handed-out plans do not alias the session.
	p, _ := s.Plan()
	p.Steps[0].Title = "mutated"
	if q, _ := s.Plan(); q.Steps[0].Title != "a" {
		t.Error("Plan() aliases the session's steps")
	}
}

// TestPlanningResultTooLarge checks that a planning call whose result would
// be over the call's MaxResultBytes (which the registry refuses to deliver)
// fails and changes nothing, called directly or through CallTool, and that
// the same call within the limit commits.
func TestPlanningResultTooLarge(t *testing.T) {
	s := &Session{}
	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a"}})
	before, _ := json.Marshal(s)
	// The size of the result of adding "b", measured on a copy.
	cp := &Session{}
	if err := json.Unmarshal(before, cp); err != nil {
		t.Fatal(err)
	}
	res, _ := cp.addStep(context.Background(), registry.Call{Params: map[string]any{"steps": []any{"b"}}})
	size, err := registry.ResultSize(res)
	if err != nil || size != 296 {
		t.Fatalf("size = %d, %v", size, err)
	}
	reg := registry.New()
	tools := map[string]registry.ExecuteFunc{}
	for _, tool := range PlanningTools(s) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool.Execute
	}
	tests := []struct {
		name, tool string
		params     map[string]any
		limit      int
	}{
		{"add one byte over", "planning_add_step", map[string]any{"steps": []any{"b"}}, 295},
		{"setup", "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a", "b"}}, 100},
		{"update", "planning_update_step", map[string]any{"step_id": 1, "title": "a longer title than before"}, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tools[tt.tool](context.Background(), registry.Call{Params: tt.params, MaxResultBytes: tt.limit})
			if err == nil || !strings.HasPrefix(err.Error(), tt.tool+": the updated plan is too large to return (the result is ") ||
				!strings.Contains(err.Error(), fmt.Sprintf("bytes as JSON, over the limit of %d bytes on a tool result), so the call changed nothing", tt.limit)) {
				t.Fatalf("err = %v", err)
			}
			res, err := reg.CallTool(context.Background(), tt.tool, tt.params, registry.CallOptions{MaxResultBytes: tt.limit})
			if err != nil || !res.IsError || !strings.Contains(res.Text(), "so the call changed nothing") {
				t.Fatalf("CallTool = %+v, %v", res, err)
			}
			if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
				t.Fatalf("the refused call changed the session: %s", after)
			}
		})
	}
	// Objective and titles twice over the limit: refused before the result
	// is built, with a lower bound.
	_, err = tools["planning_add_step"](context.Background(), registry.Call{Params: map[string]any{"steps": []any{strings.Repeat("c", 60)}}, MaxResultBytes: 100})
	if want := "planning_add_step: the updated plan is too large to return (the result is at least 124 bytes as JSON, over the limit of 100 bytes on a tool result), so the call changed nothing; add fewer steps at a time or use shorter titles"; err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
		t.Fatalf("the refused call changed the session: %s", after)
	}
	res, err = reg.CallTool(context.Background(), "planning_add_step", map[string]any{"steps": []any{"b"}}, registry.CallOptions{MaxResultBytes: 296})
	if err != nil || res.IsError {
		t.Fatalf("add at the limit = %+v, %v", res, err)
	}
	if plan, _ := s.Plan(); len(plan.Steps) != 2 {
		t.Fatalf("the call at the limit did not commit: %+v", plan)
	}
}

// TestPlanningRegistry registers the suite and drives it through CallTool,
// whose schema validation refuses bad params before the tool runs.
func TestPlanningRegistry(t *testing.T) {
	s := &Session{}
	reg := registry.New()
	for _, tool := range PlanningTools(s) {
		if err := reg.Register(tool); err != nil {
			t.Fatalf("register %s: %v", tool.Name, err)
		}
	}
	ctx := context.Background()
	call := func(name string, params map[string]any) registry.Result {
		t.Helper()
		res, err := reg.CallTool(ctx, name, params, registry.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call("planning_read_plan", nil); !res.IsError || !strings.Contains(res.Text(), "call planning_setup_plan") {
		t.Errorf("read without plan = %+v", res)
	}
	if res := call("planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{"a"}}); res.IsError {
		t.Fatalf("setup = %+v", res)
	}
	before, _ := json.Marshal(s)
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"planning_update_step", map[string]any{"step_id": 1, "status": "finished"}, "params.status"},
		{"planning_update_step", map[string]any{"step_id": 1, "status": "done", "extra": 1}, "extra"},
		{"planning_add_step", map[string]any{"steps": "a"}, "params.steps"},
		{"planning_add_step", map[string]any{"steps": []any{strings.Repeat("x", 501)}}, "params.steps.0"},
	} {
		res := call(tc.name, tc.params)
		if !res.IsError || !strings.Contains(res.Text(), tc.want) {
			t.Errorf("%s(%v) = %+v, want an error naming %s", tc.name, tc.params, res, tc.want)
		}
	}
	if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
		t.Errorf("refused calls changed the session: %s", after)
	}
	res := call("planning_update_step", map[string]any{"step_id": 1, "status": "done"})
	if plan, ok := res.Details.(Plan); res.IsError || !ok || plan.Status != PlanCompleted {
		t.Errorf("update = %+v", res)
	}
	// Details are plain JSON for the bindings.
	b, err := json.Marshal(res.Details)
	if err != nil || string(b) != `{"objective":"o","status":"completed","steps":[{"step_id":1,"title":"a","status":"done"}]}` {
		t.Errorf("details JSON = %s, %v", b, err)
	}
}

func TestPlanningConcurrent(t *testing.T) {
	s := &Session{}
	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "o"})
	add := planningTool(t, s, "planning_add_step")
	update := planningTool(t, s, "planning_update_step")
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := add.Execute(context.Background(), registry.Call{Params: map[string]any{"steps": []any{fmt.Sprint("s", i)}}})
			if err != nil {
				t.Error(err)
				return
			}
			res.Finalize(true)
			plan := res.Details.(Plan)
			id := plan.Steps[len(plan.Steps)-1].StepID
			res, err = update.Execute(context.Background(), registry.Call{Params: map[string]any{"step_id": id, "status": "done"}})
			if err != nil {
				t.Error(err)
			}
			res.Finalize(true)
			_, _ = json.Marshal(s)
		}()
	}
	wg.Wait()
	plan, _ := s.Plan()
	var ids []int
	for _, st := range plan.Steps {
		ids = append(ids, st.StepID)
	}
	want := make([]int, 40)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(ids, want) || plan.Status != PlanCompleted {
		t.Errorf("ids = %v, status %s", ids, plan.Status)
	}
}

func TestSessionSaveLoad(t *testing.T) {
	s := &Session{}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "{\n  \"version\": 1,\n  \"plan\": null\n}\n" {
		t.Errorf("empty session saved as %q", buf.String())
	}
	loaded, err := LoadSession(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loaded.Plan(); ok {
		t.Error("loaded empty session has a plan")
	}

	mustPlan(t, s, "planning_setup_plan", map[string]any{"objective": "Ship \"it\"", "initial_steps": []any{"a", "b", "c"}})
	mustPlan(t, s, "planning_update_step", map[string]any{"step_id": 2, "status": "in_progress"})
	buf.Reset()
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "plan": {
    "objective": "Ship \"it\"",
    "status": "active",
    "steps": [
      {
        "step_id": 1,
        "title": "a",
        "status": "pending"
      },
      {
        "step_id": 2,
        "title": "b",
        "status": "in_progress"
      },
      {
        "step_id": 3,
        "title": "c",
        "status": "pending"
      }
    ]
  },
  "next_step_id": 4
}
`
	if buf.String() != want {
		t.Errorf("saved:\n%s\nwant\n%s", buf.String(), want)
	}
	loaded, err = LoadSession(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded.state, s.state) {
		t.Errorf("loaded %+v, want %+v", loaded.state, s.state)
	}
	// The loaded session carries on: the next step gets id 4.
	plan, _ := mustPlan(t, loaded, "planning_add_step", map[string]any{"steps": []any{"d"}})
	if plan.Steps[3].StepID != 4 {
		t.Errorf("next id after load = %d", plan.Steps[3].StepID)
	}

	// json.Marshal / json.Unmarshal use the same form.
	var again Session
	b, _ := json.Marshal(loaded)
	if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again.state, loaded.state) {
		t.Errorf("json round trip: %v", err)
	}
}

func TestSessionLoadErrors(t *testing.T) {
	good := `{"version": 1, "plan": {"objective": "o", "status": "active", "steps": [{"step_id": 1, "title": "a", "status": "done"}, {"step_id": 3, "title": "b", "status": "pending"}]}, "next_step_id": 5}`
	if _, err := LoadSession(strings.NewReader(good)); err != nil {
		t.Fatalf("good state refused: %v", err)
	}
	long := strings.Repeat("x", 501)
	tests := []struct{ name, in, want string }{
		{"empty", "", "invalid session state: it is empty"},
		{"blank", " \n", "invalid session state: it is empty"},
		{"not JSON", "{version", "invalid session state: invalid character 'v' looking for beginning of object key string"},
		{"truncated", good[:40], "invalid session state: unexpected EOF"},
		{"array", "[]", "invalid session state: json: cannot unmarshal array into Go value of type builtin.sessionJSON"},
		{"trailing data", `{"version": 1, "plan": null} {}`, "invalid session state: unexpected data after the JSON object"},
		{"no version", `{"plan": null}`, "invalid session state: version is missing"},
		{"future version", `{"version": 2, "plan": null}`, "invalid session state: version 2 is not supported (want 1)"},
		{"unknown member", `{"version": 1, "plan": null, "todo": []}`, `invalid session state: json: unknown field "todo"`},
		{"unknown step member", strings.Replace(good, `"title": "a"`, `"title": "a", "note": "x"`, 1), `invalid session state: json: unknown field "note"`},
		{"next id without plan", `{"version": 1, "plan": null, "next_step_id": 3}`, "invalid session state: next_step_id is set but there is no plan"},
		{"no objective", `{"version": 1, "plan": {"status": "active", "steps": []}, "next_step_id": 1}`, "invalid session state: plan.objective is missing"},
		{"no status", `{"version": 1, "plan": {"objective": "o", "steps": []}, "next_step_id": 1}`, "invalid session state: plan.status is missing"},
		{"no steps", `{"version": 1, "plan": {"objective": "o", "status": "active"}, "next_step_id": 1}`, "invalid session state: plan.steps is missing"},
		{"no next id", `{"version": 1, "plan": {"objective": "o", "status": "active", "steps": []}}`, "invalid session state: next_step_id is missing"},
		{"empty objective", strings.Replace(good, `"objective": "o"`, `"objective": ""`, 1), "invalid session state: plan.objective is empty; it needs 1 to 500 characters"},
		{"long title", strings.Replace(good, `"title": "b"`, `"title": "`+long+`"`, 1), "invalid session state: plan.steps[1].title is 501 characters long; the limit is 500"},
		{"step without id", strings.Replace(good, `"step_id": 3, `, ``, 1), "invalid session state: plan.steps[1].step_id is missing"},
		{"step without title", strings.Replace(good, `"title": "b", `, ``, 1), "invalid session state: plan.steps[1].title is missing"},
		{"step without status", strings.Replace(good, `, "status": "pending"`, ``, 1), "invalid session state: plan.steps[1].status is missing"},
		{"bad step status", strings.Replace(good, `"status": "pending"`, `"status": "later"`, 1), `invalid session state: plan.steps[1].status "later" is not one of pending, in_progress, done`},
		{"zero step id", strings.Replace(good, `"step_id": 1`, `"step_id": 0`, 1), "invalid session state: plan.steps[0].step_id is 0; step ids must be positive and increasing (the previous one is 0)"},
		{"repeated step id", strings.Replace(good, `"step_id": 3`, `"step_id": 1`, 1), "invalid session state: plan.steps[1].step_id is 1; step ids must be positive and increasing (the previous one is 1)"},
		{"reused next id", strings.Replace(good, `"next_step_id": 5`, `"next_step_id": 3`, 1), "invalid session state: next_step_id is 3; it must be greater than every step id (the last is 3)"},
		{"zero next id", `{"version": 1, "plan": {"objective": "o", "status": "active", "steps": []}, "next_step_id": 0}`, "invalid session state: next_step_id is 0; it must be greater than every step id (the last is 0)"},
		{"status does not match steps", strings.Replace(good, `"status": "active"`, `"status": "completed"`, 1), `invalid session state: plan.status is "completed" but its steps make it "active"`},
		{"bad plan status", strings.Replace(good, `"status": "active"`, `"status": "paused"`, 1), `invalid session state: plan.status is "paused" but its steps make it "active"`},
		{"wrong type", `{"version": "1", "plan": null}`, "invalid session state: json: cannot unmarshal string into Go struct field sessionJSON.version of type int"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadSession(strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("LoadSession = %v, %v\nwant error %s", s, err, tc.want)
			}
			// UnmarshalJSON refuses it too and leaves the session alone.
			existing := &Session{}
			mustPlan(t, existing, "planning_setup_plan", map[string]any{"objective": "keep me", "initial_steps": []any{"x"}})
			before := existing.state.snapshot()
			if err := existing.UnmarshalJSON([]byte(tc.in)); err == nil {
				t.Fatal("UnmarshalJSON accepted it")
			}
			if !reflect.DeepEqual(existing.state, before) {
				t.Error("failed UnmarshalJSON changed the session")
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("io failure") }

func TestSessionIOErrors(t *testing.T) {
	if err := (&Session{}).Save(failingWriter{}); err == nil || err.Error() != "save session: disk full" {
		t.Errorf("Save = %v", err)
	}
	if _, err := LoadSession(failingReader{}); err == nil || err.Error() != "read session state: io failure" {
		t.Errorf("LoadSession = %v", err)
	}
}
