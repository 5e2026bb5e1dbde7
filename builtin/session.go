package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/codeexec/codeexec/registry"
)

// MaxTitleLength is the most characters (Unicode code points) a step title
// or a plan objective may have.
const MaxTitleLength = 500

// SessionVersion is the version written to and accepted in saved sessions.
const SessionVersion = 1

// StepStatus is the state of one plan step.
type StepStatus string

// The step statuses.
const (
	StepPending    StepStatus = "pending"
	StepInProgress StepStatus = "in_progress"
	StepDone       StepStatus = "done"
)

// PlanStatus is the state of a plan: completed when it has steps and all
// of them are done, active otherwise.
type PlanStatus string

// The plan statuses.
const (
	PlanActive    PlanStatus = "active"
	PlanCompleted PlanStatus = "completed"
)

// PlanStep is one step of a plan.
type PlanStep struct {
	StepID int        `json:"step_id"`
	Title  string     `json:"title"`
	Status StepStatus `json:"status"`
}

// Plan is a session's todo list: an objective and its steps in the order
// they were added. Steps is never nil in a Plan a Session hands out.
type Plan struct {
	Objective string     `json:"objective"`
	Status    PlanStatus `json:"status"`
	Steps     []PlanStep `json:"steps"`
}

// clone returns a deep copy of p with a non-nil Steps.
func (p *Plan) clone() Plan {
	c := *p
	c.Steps = append([]PlanStep{}, p.Steps...)
	return c
}

// Session holds the state of the stateful tools (the planning suite) for as
// long as its owner keeps it: one run, or many runs of a harness. The zero
// value is an empty session (no plan). All methods are safe for concurrent
// use; a Session must not be copied after first use. Its state is what
// the planning calls committed, each when its result was delivered (see
// PlanningTools): Plan, MarshalJSON and Save never show a change whose
// call has not been delivered.
//
// A session serializes to JSON (MarshalJSON, Save) as
//
//	{"version": 1, "plan": null | {"objective", "status", "steps": [{"step_id", "title", "status"}]}, "next_step_id": N}
//
// where next_step_id is the id the next added step gets.
type Session struct {
	mu    sync.Mutex
	state sessionState
	// loads counts UnmarshalJSON calls: a change computed before one is
	// not committed over what it loaded.
	loads int

	turnOnce sync.Once
	// turn is held (a value in it) by the planning call that is computing
	// a change or whose change waits for its result's delivery.
	turn chan struct{}
}

// turnChan returns the session's turn, made on first use.
func (s *Session) turnChan() chan struct{} {
	s.turnOnce.Do(func() { s.turn = make(chan struct{}, 1) })
	return s.turn
}

// sessionState is everything a Session holds; copies of it are snapshots.
type sessionState struct {
	plan *Plan // nil: no plan yet
	next int   // id of the next step added to plan
}

// snapshot returns a deep copy of st.
func (st sessionState) snapshot() sessionState {
	if st.plan != nil {
		p := st.plan.clone()
		st.plan = &p
	}
	return st
}

// Plan returns a copy of the current plan, and false when there is none.
func (s *Session) Plan() (Plan, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state.plan == nil {
		return Plan{}, false
	}
	return s.state.plan.clone(), true
}

// update takes the session's turn (waiting for the call before, or for
// ctx), runs fn on a copy of the state, brings the plan's status up to
// date and builds call's result from a copy of the resulting plan with
// result. If fn fails, or the result does not fit call.MaxResultBytes
// (it could not be delivered: see registry.Call.CheckResult), the turn is
// given back and the error returned. Otherwise the result carries a
// finalizer (registry.Result.OnDelivered) that commits the new state if
// the result was delivered, and gives the turn back either way: the
// session changes only when the caller got the result that describes the
// change, and the next call computes on top of it.
func (s *Session) update(ctx context.Context, call registry.Call, fn func(st *sessionState) error, result func(Plan) registry.Result) (registry.Result, error) {
	turn := s.turnChan()
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return registry.Result{}, fmt.Errorf("waiting for the planning call before it to be delivered: %w", context.Cause(ctx))
	}
	release := func() { <-turn }
	// Every way out but the result's finalizer (an error, a panic in fn
	// or result) gives the turn back here.
	handedOver := false
	defer func() {
		if !handedOver {
			release()
		}
	}()
	s.mu.Lock()
	next, loads := s.state.snapshot(), s.loads
	s.mu.Unlock()
	if err := fn(&next); err != nil {
		return registry.Result{}, err
	}
	tooLarge := func(err error) (registry.Result, error) {
		return registry.Result{}, fmt.Errorf("the updated plan is too large to return (%w), so the call changed nothing; add fewer steps at a time or use shorter titles", err)
	}
	var plan Plan
	if next.plan != nil {
		next.plan.Status = planStatus(next.plan.Steps)
		// A plan result holds the objective and every title twice, in its
		// text and in its details: refuse a plan over the limit before
		// building the result.
		if min := 2 * planBytes(next.plan); call.MaxResultBytes > 0 && min > call.MaxResultBytes {
			return tooLarge(&registry.ResultTooLargeError{Size: min, Limit: call.MaxResultBytes, AtLeast: true})
		}
		plan = next.plan.clone()
	}
	res, err := call.CheckResult(result(plan))
	if err != nil {
		return tooLarge(err)
	}
	handedOver = true
	return res.OnDelivered(func(delivered bool) {
		if delivered {
			s.mu.Lock()
			if s.loads == loads {
				s.state = next
			}
			s.mu.Unlock()
		}
		release()
	}), nil
}

// planBytes is the length of p's objective and titles.
func planBytes(p *Plan) int {
	n := len(p.Objective)
	for _, st := range p.Steps {
		n += len(st.Title)
	}
	return n
}

// planStatus is completed when there are steps and all are done.
func planStatus(steps []PlanStep) PlanStatus {
	if len(steps) == 0 {
		return PlanActive
	}
	for _, st := range steps {
		if st.Status != StepDone {
			return PlanActive
		}
	}
	return PlanCompleted
}

// checkTitle returns title without surrounding white space, or an error
// naming what (for example "steps[2]") when it is empty or longer than
// MaxTitleLength characters.
func checkTitle(what, title string) (string, error) {
	t := strings.TrimSpace(title)
	if t == "" {
		return "", fmt.Errorf("%s is empty; it needs 1 to %d characters", what, MaxTitleLength)
	}
	if n := utf8.RuneCountInString(t); n > MaxTitleLength {
		return "", fmt.Errorf("%s is %d characters long; the limit is %d", what, n, MaxTitleLength)
	}
	return t, nil
}

// checkStepStatus reports whether s is a valid step status.
func checkStepStatus(what string, s StepStatus) error {
	switch s {
	case StepPending, StepInProgress, StepDone:
		return nil
	}
	return fmt.Errorf("%s %q is not one of pending, in_progress, done", what, string(s))
}

// sessionJSON is the serialized form of a Session. Pointers tell missing
// members from zero values.
type sessionJSON struct {
	Version    *int      `json:"version"`
	Plan       *planJSON `json:"plan"`
	NextStepID *int      `json:"next_step_id,omitempty"`
}

type planJSON struct {
	Objective *string     `json:"objective"`
	Status    *PlanStatus `json:"status"`
	Steps     *[]stepJSON `json:"steps"`
}

type stepJSON struct {
	StepID *int        `json:"step_id"`
	Title  *string     `json:"title"`
	Status *StepStatus `json:"status"`
}

// MarshalJSON returns the session as JSON (see Session).
func (s *Session) MarshalJSON() ([]byte, error) {
	s.mu.Lock()
	st := s.state.snapshot()
	s.mu.Unlock()
	type planOut struct {
		Objective string     `json:"objective"`
		Status    PlanStatus `json:"status"`
		Steps     []PlanStep `json:"steps"`
	}
	out := struct {
		Version    int      `json:"version"`
		Plan       *planOut `json:"plan"`
		NextStepID *int     `json:"next_step_id,omitempty"`
	}{Version: SessionVersion}
	if st.plan != nil {
		out.Plan = &planOut{Objective: st.plan.Objective, Status: st.plan.Status, Steps: st.plan.Steps}
		out.NextStepID = &st.next
	}
	return json.Marshal(out)
}

// UnmarshalJSON replaces the session's state with the JSON form b (see
// Session); a planning change still waiting for its delivery is then
// dropped, not committed over it. It accepts only a complete, consistent
// state: the current version, no unknown members, titles and the
// objective within the limits, valid statuses, step ids that are positive
// and increasing, next_step_id greater than every step id, and a plan
// status that matches its steps. On error the session is left unchanged
// and the error says what is wrong and where.
func (s *Session) UnmarshalJSON(b []byte) error {
	st, err := decodeSession(b)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = st
	s.loads++
	return nil
}

// decodeSession parses and checks a serialized session.
func decodeSession(b []byte) (sessionState, error) {
	invalid := func(format string, args ...any) (sessionState, error) {
		return sessionState{}, fmt.Errorf("invalid session state: "+format, args...)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return invalid("it is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var in sessionJSON
	if err := dec.Decode(&in); err != nil {
		return invalid("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("unexpected data after the JSON object")
	}
	switch {
	case in.Version == nil:
		return invalid("version is missing")
	case *in.Version != SessionVersion:
		return invalid("version %d is not supported (want %d)", *in.Version, SessionVersion)
	}
	if in.Plan == nil {
		if in.NextStepID != nil {
			return invalid("next_step_id is set but there is no plan")
		}
		return sessionState{}, nil
	}
	p := in.Plan
	switch {
	case p.Objective == nil:
		return invalid("plan.objective is missing")
	case p.Status == nil:
		return invalid("plan.status is missing")
	case p.Steps == nil:
		return invalid("plan.steps is missing")
	case in.NextStepID == nil:
		return invalid("next_step_id is missing")
	}
	if _, err := checkTitle("plan.objective", *p.Objective); err != nil {
		return invalid("%v", err)
	}
	plan := &Plan{Objective: *p.Objective, Steps: []PlanStep{}}
	last := 0
	for i, raw := range *p.Steps {
		where := fmt.Sprintf("plan.steps[%d]", i)
		switch {
		case raw.StepID == nil:
			return invalid("%s.step_id is missing", where)
		case raw.Title == nil:
			return invalid("%s.title is missing", where)
		case raw.Status == nil:
			return invalid("%s.status is missing", where)
		case *raw.StepID <= last:
			return invalid("%s.step_id is %d; step ids must be positive and increasing (the previous one is %d)", where, *raw.StepID, last)
		}
		if _, err := checkTitle(where+".title", *raw.Title); err != nil {
			return invalid("%v", err)
		}
		if err := checkStepStatus(where+".status", *raw.Status); err != nil {
			return invalid("%v", err)
		}
		last = *raw.StepID
		plan.Steps = append(plan.Steps, PlanStep{StepID: last, Title: *raw.Title, Status: *raw.Status})
	}
	if *in.NextStepID <= last || *in.NextStepID < 1 {
		return invalid("next_step_id is %d; it must be greater than every step id (the last is %d)", *in.NextStepID, last)
	}
	plan.Status = planStatus(plan.Steps)
	if *p.Status != plan.Status {
		return invalid("plan.status is %q but its steps make it %q", string(*p.Status), string(plan.Status))
	}
	return sessionState{plan: plan, next: *in.NextStepID}, nil
}

// LoadSession reads a session saved with Save (or MarshalJSON). A state
// that is empty, corrupt or inconsistent is an error saying what is wrong;
// see UnmarshalJSON.
func LoadSession(r io.Reader) (*Session, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read session state: %w", err)
	}
	st, err := decodeSession(b)
	if err != nil {
		return nil, err
	}
	return &Session{state: st}, nil
}

// Save writes the session as indented JSON followed by a newline. It writes
// nothing if the session cannot be encoded.
func (s *Session) Save(w io.Writer) error {
	b, err := s.MarshalJSON()
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return nil
}

// stepIDs lists the ids of steps for a message: "1, 2, 3", abbreviated
// when there are many.
func stepIDs(steps []PlanStep) string {
	if len(steps) == 0 {
		return "none: the plan has no steps yet"
	}
	var ids []string
	for _, st := range steps {
		ids = append(ids, fmt.Sprint(st.StepID))
	}
	if len(ids) > 12 {
		ids = slices.Concat(ids[:5], []string{"…"}, ids[len(ids)-5:])
	}
	return strings.Join(ids, ", ")
}

// errNoPlan is returned by the planning tools that need a plan.
var errNoPlan = errors.New("there is no plan yet; call planning_setup_plan(objective, initial_steps) first")
