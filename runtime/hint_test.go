package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/internal/suggest"
)

// TestReferenceErrorHint checks that a run ending with an undefined name
// says what it may mean: a global, a suggested name, or nothing; that one
// ending with a call of a missing method says it in Node's words, with
// the closest suggested name of the namespace; and that a snippet that
// catches the error sees the engine's own message.
func TestReferenceErrorHint(t *testing.T) {
	t.Parallel()
	setup := func(env *Env) error {
		env.Suggest("gh.search_issues", "gh.read_file")
		vm := env.VM()
		gh := vm.NewObject()
		_ = gh.Set("search_issues", func() {})
		_ = gh.Set("read_file", func() {})
		if err := vm.Set("gh", gh); err != nil {
			return err
		}
		return vm.Set("read", func() {})
	}
	tests := []struct{ src, want string }{
		{`reed("x")`, "ReferenceError: reed is not defined (did you mean read?)"},
		{`await search_issues("x")`, "ReferenceError: search_issues is not defined (did you mean gh.search_issues?)"},
		{`consol.log(1)`, "ReferenceError: consol is not defined (did you mean console?)"},
		{`strucuredClone({})`, "ReferenceError: strucuredClone is not defined (did you mean structuredClone?)"}, // a lazy global
		{`globalThis.myHelper = 1; myHelpr + 1`, "ReferenceError: myHelpr is not defined (did you mean myHelper?)"},
		{`zzz + 1`, "ReferenceError: zzz is not defined\n"},
		{`await gh.searchIssues("x")`, "TypeError: gh.searchIssues is not a function (did you mean gh.search_issues?)\n"},
		{`await gh .  readFile("x")`, "TypeError: gh .  readFile is not a function (did you mean gh.read_file?)\n"},
		{`console.lg(1)`, "TypeError: console.lg is not a function\n"},
		{`const o = { a() {} }; o?.b()`, "TypeError: o?.b is not a function\n"},
		{`"abc".toUppercase()`, "TypeError: Object has no member 'toUppercase'\n"}, // no identifier chain: the engine's words
	}
	for _, tt := range tests {
		res := Run(context.Background(), tt.src, Options{Setup: setup})
		if res.Error == nil {
			t.Errorf("%s: no error", tt.src)
			continue
		}
		if report := res.Error.Report(); !strings.HasPrefix(report, tt.want) {
			t.Errorf("%s: report\n%s\nwant it to begin %q", tt.src, report, tt.want)
		}
		if !strings.HasPrefix(res.Error.Stack, res.Error.Name+": "+res.Error.Message+"\n") {
			t.Errorf("%s: the stack does not begin with the message: %q", tt.src, res.Error.Stack)
		}
	}
	res := Run(context.Background(), `const m = []; try { reed("x") } catch (e) { m.push(e.message) } try { gh.searchIssues() } catch (e) { m.push(e.message) } return m`, Options{Setup: setup})
	if res.Error != nil || string(res.Value) != `["reed is not defined","Object has no member 'searchIssues'"]` {
		t.Errorf("caught: %s, %v", res.Value, res.Error)
	}
}

// TestMemberHintColumns checks memberHint at the edges of its line: a
// column past the end, at the start, and inside a wide character.
func TestMemberHintColumns(t *testing.T) {
	t.Parallel()
	r := &run{known: []string{"gh.read_file"}}
	const msg = "Object has no member 'readFile'"
	tests := []struct {
		line string
		col  int
		want string
	}{
		{"gh.readFile(", 12, "gh.readFile is not a function (did you mean gh.read_file?)"},
		{"gh.readFile", 40, "gh.readFile is not a function (did you mean gh.read_file?)"},
		{"gh.readFile(", 1, msg},
		{"😀 gh.readFile(", 15, "gh.readFile is not a function (did you mean gh.read_file?)"},
		{"x(gh).readFile(", 15, msg},
	}
	for _, tt := range tests {
		if got := r.memberHint(msg, tt.line, tt.col); got != tt.want {
			t.Errorf("memberHint(%q, %d) = %q, want %q", tt.line, tt.col, got, tt.want)
		}
	}
}

// FuzzMemberHint checks that memberHint never panics, whatever the source
// line, column and message, and that suggest.Closest never offers the name it
// was given.
func FuzzMemberHint(f *testing.F) {
	f.Add("Object has no member 'readFile'", "gh.readFile(", 12)
	f.Add("Object has no member 'x'", "😀.x(", 4)
	f.Add("reed is not defined", "", 0)
	r := &run{known: []string{"gh.read_file", "gh.search_issues"}}
	f.Fuzz(func(t *testing.T, msg, line string, col int) {
		_ = r.memberHint(msg, line, col)
		if got := suggest.Closest(msg, append(r.known, line, "read", "console")); got != "" && got == msg {
			t.Fatalf("closestName returned the name itself: %q", got)
		}
	})
}
