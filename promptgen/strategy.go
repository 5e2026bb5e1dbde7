package promptgen

import (
	"fmt"
	"strings"
)

// Strategy names a planning strategy (seed 004): the mindset the prompt
// block asks a model to work in. The empty Strategy adds nothing.
type Strategy string

// The planning strategies.
const (
	// React alternates reasoning, tool calls and observations.
	React Strategy = "react"
	// PlanActReflect outlines first, then executes with reflections.
	PlanActReflect Strategy = "plan_act_reflect"
	// GoalDecomposeRouteSynthesise restates the goal, decomposes it,
	// routes the parts to tools and synthesises the answer.
	GoalDecomposeRouteSynthesise Strategy = "goal_decompose_route_synthesise"
)

// strategies are the mindset paragraphs, one per strategy, in the order
// Strategies lists them.
var strategies = []struct {
	s    Strategy
	text string
}{
	{React, "How to work: alternate reasoning and action. Before each snippet, say in a sentence what you need to learn next; run one snippet that gets it; read what comes back (the observation) and let it decide the next step. Keep snippets small when the next step depends on what you find."},
	{PlanActReflect, "How to work: outline first, then act, then reflect. Start with a short plan: the steps and what each must produce (with the planning functions, record it there). Execute it a step per snippet. After each step, reflect: compare what came back with what the step should produce, and revise the remaining plan before going on."},
	{GoalDecomposeRouteSynthesise, "How to work: restate the goal in one sentence; decompose it into sub-goals that can each be answered on their own; route each sub-goal to the function that answers it, running independent ones together with Promise.all in one snippet; then synthesise the results into the answer the goal asks for, and return only that."},
}

// Strategies lists the planning strategies Render knows.
func Strategies() []Strategy {
	out := make([]Strategy, len(strategies))
	for i, s := range strategies {
		out[i] = s.s
	}
	return out
}

// ParseStrategy returns the strategy called name, or an error that lists
// the known ones.
func ParseStrategy(name string) (Strategy, error) {
	for _, s := range strategies {
		if string(s.s) == name {
			return s.s, nil
		}
	}
	return "", fmt.Errorf("unknown strategy %q: want one of %s", name, joinNames(Strategies()))
}

// paragraph is the mindset paragraph of s; "" for none or an unknown one.
func (s Strategy) paragraph() string {
	for _, x := range strategies {
		if x.s == s {
			return x.text
		}
	}
	return ""
}

// joinNames joins names with ", ".
func joinNames[T ~string](names []T) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}
