package runtime

import "testing"

// TestUninspectableThrownValues checks that a thrown value whose
// inspection throws or never ends is reported as the snippet's error, not
// as an internal error.
func TestUninspectableThrownValues(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`throw { get [Symbol.toStringTag]() { throw new Error("x") } }`,
		`throw { get [Symbol.toStringTag]() { for (;;) {} } }`,
		`const o = Object.create(Error.prototype); Object.defineProperty(o, "stack", { get() { for (;;) {} } }); throw o`,
	} {
		e := mustFail(t, src, Options{Limits: Limits{Timeout: spinTimeout}})
		if e.Kind == KindInternal {
			t.Errorf("%s: internal error %s", src, e)
		}
	}
}

// TestThrowingToolProperty checks that an error whose tool property is a
// getter that throws or never returns is reported as the snippet's error
// (or its timeout), not as an internal error, like its other properties.
func TestThrowingToolProperty(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, name string }{
		{`const e = new Error("x"); Object.defineProperty(e, "tool", { get() { throw 1 } }); throw e`, "Error"},
		{`const e = new Error("x"); e.name = "ToolError"; Object.defineProperty(e, "tool", { get() { throw 1 } }); throw e`, "ToolError"},
	} {
		e := mustFail(t, tc.src, Options{})
		if e.Kind != KindException || e.Name != tc.name || e.Message != "x" {
			t.Errorf("%s: got %s %s %q, want an exception %s %q", tc.src, e.Kind, e.Name, e.Message, tc.name, "x")
		}
	}
	src := `const e = new Error("x"); e.name = "ToolError"; Object.defineProperty(e, "tool", { get() { for (;;) {} } }); throw e`
	if e := mustFail(t, src, Options{Limits: Limits{Timeout: spinTimeout}}); e.Kind != KindLimit {
		t.Errorf("%s: got %s %s, want the timeout", src, e.Kind, e)
	}
}
