package runtime

import (
	"testing"
	"time"
)

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
		e := mustFail(t, src, Options{Timeout: 300 * time.Millisecond})
		if e.Kind == KindInternal {
			t.Errorf("%s: internal error %s", src, e)
		}
	}
}
