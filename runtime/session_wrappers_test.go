package runtime

import (
	"context"
	"testing"
)

// TestSessionBuiltinWrappersOnce checks that the replacements of RegExp
// and Date (webapi's regexp.js and date.js, which wrap the built-in) are
// made once per session: a run that mentions RegExp or Date does not wrap
// the previous run's wrapper again, so a call goes through one wrapper
// however many runs came before.
func TestSessionBuiltinWrappersOnce(t *testing.T) {
	t.Parallel()
	// depth counts the frames of the wrappers, in a call that the
	// innermost (the built-in) rejects.
	const depth = `const frames = (f) => { try { f() } catch (e) { return String(e.stack).split("\n").filter(l => /node:internal\/(regexp|date)/.test(l)).length } return -1 }
return [frames(() => Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get.call({})), frames(() => Date.prototype.toString.call({}))]`
	s := NewSession()
	defer s.Close()
	first := s.Run(context.Background(), depth, Options{Limits: Limits{Timeout: testTimeout}})
	if first.Error != nil {
		t.Fatal(first.Error.Report())
	}
	// One wrapper each: with none seen, the comparison below could not
	// fail.
	if string(first.Value) != `[1,1]` {
		t.Fatalf("wrapper frames in RegExp.prototype.source and Date.prototype.toString: %s in the first run, want [1,1]", first.Value)
	}
	for i := range 50 {
		res := s.Run(context.Background(), `return [new RegExp("a+").test("caab"), /\p{L}/u.test("é"), new Date(0).getTime()]`, Options{Limits: Limits{Timeout: testTimeout}})
		if res.Error != nil || string(res.Value) != `[true,true,0]` {
			t.Fatalf("run %d: value %s, error %v", i, res.Value, res.Error)
		}
	}
	last := s.Run(context.Background(), depth, Options{Limits: Limits{Timeout: testTimeout}})
	if last.Error != nil {
		t.Fatal(last.Error.Report())
	}
	if string(last.Value) != string(first.Value) {
		t.Fatalf("wrapper frames in RegExp.prototype.source and Date.prototype.toString: %s after 50 runs, %s in the first run", last.Value, first.Value)
	}
}
