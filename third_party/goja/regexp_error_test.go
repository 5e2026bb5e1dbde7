package goja

import (
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// TestRegexpMatchError checks that a match regexp2 cannot finish throws a
// RangeError the script can catch, through each way a script runs a
// regular expression, where it used to report no match (codeexec patch):
// past the match timeout, and past regexp2's backtracking stack limit.
func TestRegexpMatchError(t *testing.T) {
	defer func(d time.Duration) { regexp2.DefaultMatchTimeout = d }(regexp2.DefaultMatchTimeout)
	regexp2.DefaultMatchTimeout = 20 * time.Millisecond
	const input = `"a".repeat(28) + "!"`
	cases := []struct{ name, src, want string }{
		{"test", `/^(\w+\s?)*\1$/.test(` + input + `)`, "was stopped after 20ms without finishing"},
		{"exec", `/^(\w+\s?)*\1$/.exec(` + input + `)`, "was stopped after 20ms without finishing"},
		{"match", `(` + input + `).match(/^(\w+\s?)*\1$/)`, "was stopped after 20ms without finishing"},
		{"global match", `(` + input + `).match(/^(\w+\s?)*\1$/g)`, "was stopped after 20ms without finishing"},
		{"matchAll", `[...(` + input + `).matchAll(/^(\w+\s?)*\1$/g)]`, "was stopped after 20ms without finishing"},
		{"replace", `(` + input + `).replace(/^(\w+\s?)*\1$/g, "")`, "was stopped after 20ms without finishing"},
		{"search", `(` + input + `).search(/^(\w+\s?)*\1$/)`, "was stopped after 20ms without finishing"},
		{"split", `(` + input + `).split(/^(\w+\s?)*\1$/)`, "was stopped after 20ms without finishing"},
		{"unicode", `/^(\w+\s?)*\1$/u.test(` + input + `)`, "was stopped after 20ms without finishing"},
		{"backtracking stack", `/^(?:(a)|b)*\1c$/.test("a".repeat(200000))`, "maximum backtracking stack size exceeded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New()
			v, err := r.RunString(`try { ` + c.src + `; "no error" } catch (e) { e instanceof RangeError ? e.message : "not a RangeError: " + e }`)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(v.String(), c.want) {
				t.Fatalf("got %q, want a RangeError saying %q", v.String(), c.want)
			}
		})
	}
}
