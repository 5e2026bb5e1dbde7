package promptgen

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/jsglobals"
	"github.com/codeexec/codeexec/registry"
)

// TestGlobalsExist checks that every global the default header names is a
// global of a run, and that the header says what does not exist.
func TestGlobalsExist(t *testing.T) {
	t.Parallel()
	if !strings.Contains(DefaultHeader, "Globals beyond ECMAScript: "+Globals+".") {
		t.Fatal("DefaultHeader does not carry Globals")
	}
	for _, part := range strings.Split(regexp.MustCompile(` \([^)]*\)`).ReplaceAllString(Globals, ""), ", ") {
		for _, n := range strings.Split(part, "/") {
			n, _, _ = strings.Cut(n, ".")
			if !jsglobals.Has(n) {
				t.Errorf("Globals names %q, which is not a global of a run", n)
			}
		}
	}
	for _, want := range []string{"no network", "no modules", "no host environment", "stderr (console.error, warn)"} {
		if !strings.Contains(DefaultHeader, want) {
			t.Errorf("DefaultHeader does not say %q", want)
		}
	}
}

// TestSharedTypes checks that a type alias line carried by several
// descriptions is declared once at the top of the fence and left out of the
// comments, that a line merely starting with "type" stays a comment, and
// that the default text is the first paragraph.
func TestSharedTypes(t *testing.T) {
	t.Parallel()
	const plan = "type Plan = { steps: string[] };"
	tools := []registry.Info{
		{Name: "a", Description: "Make a plan.\n" + plan + "\n\nMore detail.", CallSignature: "async function a(): Promise<Plan>"},
		{Name: "b", Description: "type of the thing is shown.\n" + plan, CallSignature: "async function b(): Promise<Plan>"},
		{Name: "c", Description: "type Hidden = number;", Parameters: map[string]any{"type": "object"}},
	}
	got := Render(tools, Options{Header: "H"})
	want := "H\n\n```ts\n" + plan + "\n\n" +
		"// Make a plan.\nasync function a(): Promise<Plan>\n\n" +
		"// type of the thing is shown.\nasync function b(): Promise<Plan>\n```\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	full := Render(tools, Options{Header: "H", FullDescriptions: true})
	if !strings.Contains(full, "// Make a plan.\n//\n// More detail.\n") || strings.Count(full, "type Plan") != 1 {
		t.Errorf("full rendering:\n%s", full)
	}
}

// TestLimitsNote checks the line that states a run's limits.
func TestLimitsNote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		l    Limits
		want string
	}{
		{Limits{}, ""},
		{Limits{Timeout: 30 * time.Second, MaxCalls: 1000, MaxOutputBytes: 1 << 20},
			"- Limits: a snippet runs for at most 30 s, tool calls included, and is stopped then (what it printed is kept), so split longer work over several snippets; at most 1000 tool calls per snippet; stdout and stderr keep at most 1 MiB each (the middle of more is cut)."},
		{Limits{Timeout: 90 * time.Minute}, "- Limits: a snippet runs for at most 90 min, tool calls included, and is stopped then (what it printed is kept), so split longer work over several snippets."},
		{Limits{Timeout: 1500 * time.Millisecond, MaxCalls: 3}, "- Limits: a snippet runs for at most 1.5 s, tool calls included, and is stopped then (what it printed is kept), so split longer work over several snippets; at most 3 tool calls per snippet."},
		{Limits{MaxOutputBytes: 100}, "- Limits: stdout and stderr keep at most 100 bytes each (the middle of more is cut)."},
	}
	for _, tt := range tests {
		if got := LimitsNote(tt.l); got != tt.want {
			t.Errorf("LimitsNote(%+v) =\n%q\nwant\n%q", tt.l, got, tt.want)
		}
	}
	// Render puts it after the header, before the session note.
	got := Render(nil, Options{Limits: &Limits{MaxCalls: 7}, Session: true})
	if !strings.Contains(got, "\n- Limits: at most 7 tool calls per snippet.\n"+SessionNote+"\n") {
		t.Errorf("Render with limits and a session:\n%s", got)
	}
}
