//go:build linux

package isolation

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/runtime"
)

// TestStackSameAsInProcess checks that the stack a snippet reads itself
// (e.stack, which the runtime maps to the snippet's positions in the
// worker), prints, and fails with comes back from a worker as an
// in-process run gives it, and is the snippet's.
func TestStackSameAsInProcess(t *testing.T) {
	t.Parallel()
	tt := newTestTools(t)
	p, _ := testPool(t, Options{PoolSize: 1})
	const nested = `type Point = { x: number };
function inner(p: Point): number {
  throw new Error("at " + p.x);
}
function outer(): number {
  return inner({ x: 1 });
}
`
	tests := []struct {
		name, src string
		value     string // the stack the snippet returns, if it returns
	}{
		{"read", nested + `try { outer() } catch (e: any) { return e.stack }`,
			"Error: at 1\n    at inner (snippet.ts:3:9)\n    at outer (snippet.ts:6:10)\n    at snippet.ts:8:7"},
		{"read after await", "interface O { n: number }\nasync function load(o: O) {\n  await null;\n  throw new TypeError(\"bad \" + o.n);\n}\ntry { await load({ n: 2 }) } catch (e: any) { return e.stack }",
			"TypeError: bad 2\n    at load (snippet.ts:4:9)\n    at snippet.ts:6:13"},
		{"read and printed", nested + `try { outer() } catch (e: any) { console.log(e.stack); console.error(e); return "printed" }`, "printed"},
		{"read, then uncaught", nested + `try { outer() } catch (e: any) { void e.stack; throw e }`, ""},
		{"a tool's rejection", "type T = string;\ntry { await fail(\"no\") } catch (e: any) { return e.stack }",
			"ToolError: no\n    at fail (native)\n    at snippet.ts:2:13"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := runtime.Options{Limits: runtime.Limits{Timeout: testTimeout}}
			want := runtime.Run(context.Background(), tc.src, runtime.Options{Limits: runtime.Limits{Timeout: opts.Timeout}, Setup: bindings.New(tt.reg).Setup})
			got := p.Run(context.Background(), tc.src, tt.reg, opts)
			compareResults(t, got, want)
			if tc.value != "" {
				v, _ := json.Marshal(tc.value)
				if string(got.Value) != string(v) {
					t.Errorf("value %s, want %s", got.Value, v)
				}
			}
			// What the snippet printed, and the error it failed with.
			for _, text := range []string{got.Stdout, got.Stderr, stackOf(got.Error)} {
				if text != "" && !strings.Contains(text, "\n    at inner (snippet.ts:3:9)\n    at outer (snippet.ts:6:10)\n") {
					t.Errorf("%q lacks the frames of inner and outer", text)
				}
			}
		})
	}
}

// stackOf returns e's stack, or "" for no error.
func stackOf(e *runtime.Error) string {
	if e == nil {
		return ""
	}
	return e.Stack
}
