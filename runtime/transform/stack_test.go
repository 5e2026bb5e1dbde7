package transform

import (
	"encoding/json"
	"testing"

	"github.com/dop251/goja"
)

// TestStackReads checks which member reads go through StackReader: each
// case runs with a StackReader that counts its calls and returns its
// argument, and must give the value it gives unwrapped, with the number
// of calls it makes (0: ReadsStack is false).
func TestStackReads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		want  string // the value, as JSON
		calls int
	}{
		{"dot (plain JavaScript: no esbuild)", `const e = { stack: 1 }; return e.stack`, `1`, 1},
		{"string key", `const e = { stack: 1 }; return e["stack"]`, `1`, 1},
		{"escaped name", `const e = { stack: 1 }; return e.st\u0061ck`, `1`, 1},
		{"typed (through esbuild)", "type T = { stack: number };\nconst e: T = { stack: 1 };\nreturn (e as T).stack", `1`, 1},
		{"method call on it", `const o = { stack: [1] }; o.stack.push(2); return o.stack`, `[1,2]`, 2},
		{"call of it keeps this", `const o = { n: 3, stack() { return this.n } }; return o.stack()`, `3`, 1},
		{"nested", `const e = { cause: { stack: 2 } }; return e.cause.stack`, `2`, 1},
		{"optional of undefined", `const e: any = undefined; return [e?.stack]`, `[null]`, 1},
		{"optional of an object", `const e: any = { stack: 1 }; return e?.stack`, `1`, 1},
		{"in a function", `function f(e: any) { return e.stack } return f({ stack: 1 }) + f({ stack: 2 })`, `3`, 2},
		{"assigned", `const e: any = {}; e.stack = 1; e["stack"] = 2; return 0`, `0`, 0},
		{"compound assignment reads nothing wrapped", `const e: any = { stack: 1 }; e.stack += 1; return 0`, `0`, 0},
		{"deleted", `const e: any = { stack: 1 }; delete e.stack; return Object.keys(e)`, `[]`, 1},
		{"optional before the object", `const a: any = undefined; return [a?.b.stack]`, `[null]`, 0},
		{"optional chain before the object", `const a: any = { b: { stack: 1 } }; return a?.b.stack`, `1`, 0},
		{"parenthesized chain", `const a: any = { b: { stack: 1 } }; return (a?.b).stack`, `1`, 1},
		{"super", `class A { get stack() { return 5 } } class B extends A { get s() { return super.stack } } return new B().s`, `5`, 0},
		{"member of super", `class A { get p() { return { stack: 6 } } } class B extends A { get s() { return super.p.stack } } return new B().s`, `6`, 1},
		{"other names", `const e = { stacks: 1, Stack: 2 }; return e.stacks + e.Stack + e["stacks"]`, `4`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, d := compile(tt.src, "s.ts", false)
			if d != nil {
				t.Fatal(d)
			}
			if p.ReadsStack() != (tt.calls > 0) {
				t.Errorf("ReadsStack() = %v, want %v", p.ReadsStack(), tt.calls > 0)
			}
			calls := 0
			got, err := json.Marshal(runCompiled(t, p, map[string]any{
				StackReader: func(v goja.Value) goja.Value { calls++; return v },
			}))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("value %s, want %s", got, tt.want)
			}
			if calls != tt.calls {
				t.Errorf("%d calls of StackReader, want %d", calls, tt.calls)
			}
		})
	}
}
