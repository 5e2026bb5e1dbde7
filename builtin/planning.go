package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/codeexec/codeexec/registry"
)

// planType declares Plan, the TypeScript type of the plan the planning tools
// resolve to. Each planning tool's description carries it on a line of its
// own, which promptgen declares once for all of them.
const planType = `type Plan = { objective: string; status: "active" | "completed"; steps: { step_id: number; title: string; status: "pending" | "in_progress" | "done" }[] };`

const (
	setupPlanSignature  = `async function planning_setup_plan(objective: string, initial_steps?: string[]): Promise<Plan>`
	addStepSignature    = `async function planning_add_step(steps: string[]): Promise<Plan>`
	updateStepSignature = `async function planning_update_step(step_id: number, status?: "pending" | "in_progress" | "done", title?: string): Promise<Plan>`
	readPlanSignature   = `async function planning_read_plan(): Promise<Plan>`
)

const setupPlanSchema = `{
  "type": "object",
  "properties": {
    "objective": {"type": "string", "minLength": 1, "maxLength": 500, "description": "What the plan is for."},
    "initial_steps": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 500}, "description": "Titles of the first steps, in order."}
  },
  "required": ["objective"],
  "additionalProperties": false
}`

const addStepSchema = `{
  "type": "object",
  "properties": {
    "steps": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1, "maxLength": 500}, "description": "Titles of the steps to append, in order."}
  },
  "required": ["steps"],
  "additionalProperties": false
}`

const updateStepSchema = `{
  "type": "object",
  "properties": {
    "step_id": {"type": "integer", "minimum": 1, "description": "Id of the step to change."},
    "status": {"type": "string", "enum": ["pending", "in_progress", "done"], "description": "New status."},
    "title": {"type": "string", "minLength": 1, "maxLength": 500, "description": "New title."}
  },
  "required": ["step_id"],
  "additionalProperties": false
}`

const readPlanSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

// PlanningTools returns the planning suite over the plan kept in s:
// planning_setup_plan, planning_add_step, planning_update_step and
// planning_read_plan, each with Source "builtin" and a CallSignature. Each
// resolves, in a snippet, to the plan {objective, status, steps: [{step_id,
// title, status}]} (the result's Details); the result's text is a short
// summary of it.
//
// The rules: setup creates the plan or replaces the current one; the other
// tools fail while there is no plan, with a message saying to call setup
// first. Step ids are the integers 1, 2, 3, … in the order steps are added to
// a plan; they are never reused within a plan (steps are never removed) and
// start again at 1 when setup replaces the plan. New steps are pending; a
// step's status is pending, in_progress or done. A plan whose steps are all
// done is completed, and becomes active again when a step is added or
// reopened. Step titles and the objective are trimmed of surrounding white
// space and must then have 1 to MaxTitleLength characters.
//
// The tools are transactional: a call changes the session only once its
// result is delivered. setup, add and update compute their change on a
// copy and return a result (the plan as it will be) whose finalizer
// (registry.Result.OnDelivered) commits the change when the result was
// delivered, and drops it otherwise. So a call that fails at any stage
// leaves the session exactly as it was: invalid params, a failing rule, a
// result over registry.Call.MaxResultBytes (refused before anything,
// with a message of its own), a tool_result hook that replaces the
// result, a result that cannot cross to an isolated worker or become a
// JavaScript value, and a run that ends (timeout, memory limit,
// cancellation, process.exit, an error) before the snippet got it. A
// model that retries the call therefore gets no duplicate.
//
// The changing calls are serialized: each holds the session's turn from
// when it reads the plan until its result is finalized, so a second one
// (two adds in flight at once, or another run's) waits for the first to be
// delivered or dropped, at most as long as its own context lasts, and
// then computes on top of what the first committed: two in-flight adds
// get consecutive step ids, in the order they took the turn.
// planning_read_plan takes no turn and returns the committed plan. A
// caller of a tool's Execute (rather than registry.Registry.CallTool,
// which finalizes for its direct callers) must finalize the result it
// gets, or the session's next changing call waits.
//
// s must not be nil. The tools may be called concurrently.
func PlanningTools(s *Session) []registry.Tool {
	return []registry.Tool{
		{
			Name:  "planning_setup_plan",
			Label: "Set up plan",
			Description: "Create the session's plan, or replace the current one, from an objective and optional initial step titles (given step ids 1, 2, 3, … and status pending). " +
				"Resolves to the Plan. Use it at the start of a multi-step task; the plan lasts for the session. The objective and titles need 1 to 500 characters.\n" + planType,
			Parameters:    registry.MustParseSchema(setupPlanSchema),
			CallSignature: setupPlanSignature,
			Source:        "builtin",
			Execute:       s.setupPlan,
		},
		{
			Name:  "planning_add_step",
			Label: "Add plan steps",
			Description: "Append steps to the plan, in order; each gets the next unused step id and status pending. " +
				"Resolves to the updated Plan; a completed plan becomes active again. Fails if there is no plan yet (call planning_setup_plan first).\n" + planType,
			Parameters:    registry.MustParseSchema(addStepSchema),
			CallSignature: addStepSignature,
			Source:        "builtin",
			Execute:       s.addStep,
		},
		{
			Name:  "planning_update_step",
			Label: "Update plan step",
			Description: "Change the status (pending, in_progress, done) and/or the title of the plan step step_id, as in planning_update_step(2, \"done\"). " +
				"Resolves to the updated Plan; when every step is done the plan's status becomes completed. Fails if there is no plan yet or no such step.\n" + planType,
			Parameters:    registry.MustParseSchema(updateStepSchema),
			CallSignature: updateStepSignature,
			Source:        "builtin",
			Execute:       s.updateStep,
		},
		{
			Name:          "planning_read_plan",
			Label:         "Read plan",
			Description:   "Return the current Plan. Fails if there is no plan yet (call planning_setup_plan first).\n" + planType,
			Parameters:    registry.MustParseSchema(readPlanSchema),
			CallSignature: readPlanSignature,
			Source:        "builtin",
			Execute:       s.readPlan,
		},
	}
}

func (s *Session) setupPlan(ctx context.Context, call registry.Call) (registry.Result, error) {
	const tool = "planning_setup_plan"
	p := params{tool, call.Params}
	objective, err := p.required("objective")
	if err != nil {
		return registry.Result{}, err
	}
	if objective, err = checkTitle("objective", objective); err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	titles, _, err := stringList(p, "initial_steps")
	if err != nil {
		return registry.Result{}, err
	}
	for i := range titles {
		if titles[i], err = checkTitle(fmt.Sprintf("initial_steps[%d]", i), titles[i]); err != nil {
			return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	replaced := false
	res, err := s.update(ctx, call, func(st *sessionState) error {
		replaced = st.plan != nil
		st.plan = &Plan{Objective: objective, Steps: []PlanStep{}}
		st.next = 1
		appendSteps(st, titles)
		return nil
	}, func(plan Plan) registry.Result {
		action := "Plan set up"
		if replaced {
			action = "Plan replaced (the previous plan is gone)"
		}
		return planResult(fmt.Sprintf("%s with %s.", action, plural(len(titles), "step", "steps")), plan)
	})
	if err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	return res, nil
}

func (s *Session) addStep(ctx context.Context, call registry.Call) (registry.Result, error) {
	const tool = "planning_add_step"
	p := params{tool, call.Params}
	titles, ok, err := stringList(p, "steps")
	if err != nil {
		return registry.Result{}, err
	}
	if !ok {
		return registry.Result{}, fmt.Errorf("%s: missing required parameter steps", tool)
	}
	if len(titles) == 0 {
		return registry.Result{}, fmt.Errorf("%s: steps is empty; give at least one step title", tool)
	}
	for i := range titles {
		if titles[i], err = checkTitle(fmt.Sprintf("steps[%d]", i), titles[i]); err != nil {
			return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	first := 0
	res, err := s.update(ctx, call, func(st *sessionState) error {
		if st.plan == nil {
			return errNoPlan
		}
		first = st.next
		appendSteps(st, titles)
		return nil
	}, func(plan Plan) registry.Result {
		action := fmt.Sprintf("Added step %d.", first)
		if len(titles) > 1 {
			action = fmt.Sprintf("Added steps %d to %d.", first, first+len(titles)-1)
		}
		return planResult(action, plan)
	})
	if err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	return res, nil
}

func (s *Session) updateStep(ctx context.Context, call registry.Call) (registry.Result, error) {
	const tool = "planning_update_step"
	p := params{tool, call.Params}
	id, ok, err := p.integer("step_id", 1)
	if err != nil {
		return registry.Result{}, err
	}
	if !ok {
		return registry.Result{}, fmt.Errorf("%s: missing required parameter step_id", tool)
	}
	title, hasTitle, err := p.str("title")
	if err != nil {
		return registry.Result{}, err
	}
	if hasTitle {
		if title, err = checkTitle("title", title); err != nil {
			return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
		}
	}
	status, hasStatus, err := p.str("status")
	if err != nil {
		return registry.Result{}, err
	}
	if hasStatus {
		if err := checkStepStatus("status", StepStatus(status)); err != nil {
			return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
		}
	}
	if !hasTitle && !hasStatus {
		return registry.Result{}, fmt.Errorf("%s: nothing to change; give a status, a title or both", tool)
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	res, err := s.update(ctx, call, func(st *sessionState) error {
		if st.plan == nil {
			return errNoPlan
		}
		for i := range st.plan.Steps {
			step := &st.plan.Steps[i]
			if step.StepID != id {
				continue
			}
			if hasTitle {
				step.Title = title
			}
			if hasStatus {
				step.Status = StepStatus(status)
			}
			return nil
		}
		return fmt.Errorf("there is no step %d; the plan's step ids are %s", id, stepIDs(st.plan.Steps))
	}, func(plan Plan) registry.Result {
		return planResult(fmt.Sprintf("Updated step %d.", id), plan)
	})
	if err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	return res, nil
}

func (s *Session) readPlan(ctx context.Context, call registry.Call) (registry.Result, error) {
	const tool = "planning_read_plan"
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	plan, ok := s.Plan()
	if !ok {
		return registry.Result{}, fmt.Errorf("%s: %w", tool, errNoPlan)
	}
	return planResult("", plan), nil
}

// appendSteps adds pending steps with the next ids.
func appendSteps(st *sessionState, titles []string) {
	for _, t := range titles {
		st.plan.Steps = append(st.plan.Steps, PlanStep{StepID: st.next, Title: t, Status: StepPending})
		st.next++
	}
}

// planResult is a planning tool's result: the plan as details, and as text
// the action (if any) followed by a summary of the plan.
func planResult(action string, plan Plan) registry.Result {
	var b strings.Builder
	if action != "" {
		b.WriteString(action)
		b.WriteByte('\n')
	}
	done := 0
	for _, st := range plan.Steps {
		if st.Status == StepDone {
			done++
		}
	}
	fmt.Fprintf(&b, "Objective: %s\nStatus: %s (%d of %s done)", plan.Objective, plan.Status, done, plural(len(plan.Steps), "step", "steps"))
	for _, st := range plan.Steps {
		fmt.Fprintf(&b, "\n%d. [%s] %s", st.StepID, st.Status, st.Title)
	}
	return registry.Result{Content: []registry.Content{registry.TextContent(b.String())}, Details: plan}
}

// stringList returns the array-of-strings param name and whether it was
// given.
func stringList(p params, name string) ([]string, bool, error) {
	v, ok := p.m[name]
	if !ok || v == nil {
		return nil, false, nil
	}
	var out []string
	switch list := v.(type) {
	case []string:
		out = append(out, list...)
	case []any:
		for i, item := range list {
			s, ok := item.(string)
			if !ok {
				return nil, false, fmt.Errorf("%s: %s[%d] must be a string, got %T", p.tool, name, i, item)
			}
			out = append(out, s)
		}
	default:
		return nil, false, fmt.Errorf("%s: %s must be an array of strings, got %T", p.tool, name, v)
	}
	return out, true, nil
}
