package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		src, want, err string
	}{
		{src: "return 1", want: "1\n"},
		{src: "const a = [1, 2]; return a.map((x) => x * 2).join()", want: "2,4\n"},
		{src: "return await Promise.resolve('x')", want: "x\n"},
		{src: "await new Promise(() => {})", err: "did not return at once"},
		{src: "throw new Error('boom')", err: "threw Error: boom"},
		{src: "return (", err: "SyntaxError"},
	} {
		var out strings.Builder
		err := run(tc.src, &out)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("run(%q) = %v, want an error containing %q", tc.src, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("run(%q): %v", tc.src, err)
		case out.String() != tc.want:
			t.Errorf("run(%q) wrote %q, want %q", tc.src, out.String(), tc.want)
		}
	}
}
