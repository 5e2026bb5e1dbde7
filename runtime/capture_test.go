package runtime

import (
	"context"
	"testing"
)

// TestCaptureStackTrace checks Error.captureStackTrace against what node
// v20 gives for the same code, but for the positions, which are goja's
// as in every stack (a call's is its opening parenthesis, V8's the
// called name), mapped to the snippet as written.
func TestCaptureStackTrace(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"plain object", `const o = { name: "N", message: "m" }; Error.captureStackTrace(o); return o.stack`,
			`"N: m\n    at snippet.ts:1:63"`},
		{"no name or message", `const p = {}; Error.captureStackTrace(p); return p.stack`,
			`"Error\n    at snippet.ts:1:38"`},
		{"frames above fn dropped", "function inner() { const q = {}; Error.captureStackTrace(q, inner); return q.stack }\nfunction outer() { return inner() }\nreturn outer()",
			`"Error\n    at outer (snippet.ts:2:32)\n    at snippet.ts:3:13"`},
		{"fn not being called", `function notOnStack() {} const r = {}; Error.captureStackTrace(r, notOnStack); return r.stack`,
			`"Error"`},
		{"an error class's constructor", "class MyErr extends Error { constructor(m: string) { super(m); this.name = \"MyErr\"; Error.captureStackTrace(this, MyErr) } }\nfunction thrower() { throw new MyErr(\"x\") }\ntry { thrower() } catch (e) { return e.stack }",
			`"MyErr: x\n    at thrower (snippet.ts:2:28)\n    at snippet.ts:3:7"`},
		{"this.constructor in a base class", "class Base extends Error { constructor(m: string) { super(m); this.name = new.target.name; Error.captureStackTrace(this, this.constructor) } }\nclass Sub extends Base {}\nfunction f() { return new Sub(\"y\").stack }\nreturn f()",
			`"Sub: y\n    at f (snippet.ts:3:23)\n    at snippet.ts:4:8"`},
		{"the property", `const o = {}; Error.captureStackTrace(o); const d = Object.getOwnPropertyDescriptor(o, "stack"); return [d.writable, d.enumerable, d.configurable]`,
			`[true,false,true]`},
		{"the function", `const d = Object.getOwnPropertyDescriptor(Error, "captureStackTrace"); return [typeof d.value, d.writable, d.enumerable, d.configurable, Error.captureStackTrace.name]`,
			`["function",true,false,true,"captureStackTrace"]`},
		{"not an object", `try { Error.captureStackTrace(1) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: invalid_argument"`},
		{"without a mention", `return typeof Error["capture" + "StackTrace"]`, `"undefined"`},
	}
	for _, tt := range tests {
		res := Run(context.Background(), tt.src, Options{})
		if res.Error != nil {
			t.Errorf("%s: %s", tt.name, res.Error.Report())
			continue
		}
		if string(res.Value) != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, res.Value, tt.want)
		}
	}
}
