package transform_test

import (
	"reflect"
	"testing"

	"github.com/codeexec/codeexec/runtime/transform"
)

// TestCompileSessionGlobals checks which top-level names a session snippet
// declares, and whether as lexical (let, const, class, function) or var.
func TestCompileSessionGlobals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []transform.Global
	}{
		{"none", `console.log(1); { const a = 1 } for (let i = 0; i < 1; i++) {}`, nil},
		{"kinds", "const a = 1; let b; var c = 2\nfunction f() {} class K {}", []transform.Global{
			{Name: "a", Lexical: true}, {Name: "b", Lexical: true}, {Name: "c"}, {Name: "f", Lexical: true}, {Name: "K", Lexical: true},
		}},
		{"patterns", `const {x, y: [z = 1, ...r], ...o} = {}, [, w] = []`, []transform.Global{
			{Name: "x", Lexical: true}, {Name: "z", Lexical: true}, {Name: "r", Lexical: true}, {Name: "o", Lexical: true}, {Name: "w", Lexical: true},
		}},
		{"a name declared twice, once as var", "var v = 1\nfunction v2() {}\nvar v2", []transform.Global{{Name: "v"}, {Name: "v2"}}},
		// esbuild declares an enum with let inside a function.
		{"TypeScript", "const n: number = 1\nenum E { A }\ntype T = string", []transform.Global{{Name: "n", Lexical: true}, {Name: "E", Lexical: true}}},
		{"nested function stays local", `function outer() { const inner = 1 }`, []transform.Global{{Name: "outer", Lexical: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, d := transform.CompileSession(tt.src, "s.ts")
			if d != nil {
				t.Fatalf("compile: %s", d)
			}
			if got := p.Globals(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Globals = %+v, want %+v", got, tt.want)
			}
			plain, d := transform.Compile(tt.src, "s.ts")
			if d != nil || plain.Globals() != nil {
				t.Errorf("Compile: %v, Globals %v; want no globals", d, plain.Globals())
			}
		})
	}
}

// FuzzCompileSession checks that the session rewrite never breaks a
// snippet that compiles: CompileSession compiles whatever Compile does.
func FuzzCompileSession(f *testing.F) {
	for _, seed := range []string{
		"const a = 1", "let b\nvar c = 2, d", "const {x, y: [z]} = o, [p, ...q] = r",
		"function f() {} class K extends f {}", "'use strict'; function s() {}",
		"const e = new TextEncoder(), m = new Map\nlet n = (1 + 2)", "const t: number = await x<T>(1)",
		"export const v = 1", "enum E { A }", "const f = async (a, b) => a + b, g = x => x, h = 1",
		"let l\n[1, 2].forEach(x => x)", "class A {}\n(function () {})()", "var v; function v() {}",
		"const s = `a${b}c`, r = /x/g, u = a?.b ?? c", "label: { const inner = 1 }",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, d := transform.Compile(src, "f.ts"); d != nil {
			return
		}
		if _, d := transform.CompileSession(src, "f.ts"); d != nil {
			t.Fatalf("%q compiles, but not in a session: %s", src, d)
		}
	})
}
