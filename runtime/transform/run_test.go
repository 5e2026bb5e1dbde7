package transform_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
	"github.com/codeexec/codeexec/runtime/transform"
)

// TestTypeScriptFeatures runs snippets that use TypeScript-only syntax; the
// types are stripped and the JavaScript left behaves as written.
func TestTypeScriptFeatures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string // Result.Value, exact JSON text
	}{
		{"interface and type alias", `interface P { x: number; y?: string }
type T = string | number;
const p: P = { x: 1 };
const t: T = "s";
return [p.x, t];`, `[1,"s"]`},
		{"generic function", `function id<T>(x: T): T { return x }
return id<string>("a");`, `"a"`},
		{"generic arrow in ts file", `const f = <T,>(x: T): T => x; return f(2);`, `2`},
		{"generic class", `class Box<T> { constructor(private v: T) {} get(): T { return this.v } }
return new Box<number>(7).get();`, `7`},
		{"enum", `enum Color { Red, Green = 5, Blue }
return [Color.Red, Color.Green, Color.Blue, Color[5]];`, `[0,5,6,"Green"]`},
		{"string enum", `enum Dir { Up = "UP", Down = "DOWN" } return Dir.Down;`, `"DOWN"`},
		{"const enum", `const enum E { A = 1, B } return E.B;`, `2`},
		{"private fields and TS private", `class A {
  #secret = 1;
  private p = 2;
  static #count = 3;
  static { A.#count += 10 }
  get secret() { return this.#secret }
  static count() { return A.#count }
  has(o: object) { return #secret in o }
  sum() { return this.#secret + this.p }
}
const a = new A();
return [a.secret, A.count(), a.has(a), a.has({}), a.sum()];`, `[1,13,true,false,3]`},
		{"parameter properties", `class P { constructor(public x: number, private y = 2) {} sum() { return this.x + this.y } }
return new P(1).sum();`, `3`},
		{"abstract class and implements", `interface HasF { f(): number }
abstract class S implements HasF { abstract f(): number; g() { return this.f() * 2 } }
class K extends S { f() { return 21 } }
return new K().g();`, `42`},
		{"optional chaining and nullish", `const o: { a?: { b?: number } } = {};
let z: number | undefined;
z ??= 4;
return [o.a?.b, o.a?.b ?? "dflt", z, o?.a?.["b"], (o as any).f?.()];`, `[null,"dflt",4,null,null]`},
		{"satisfies", `const cfg = { port: 80, host: "h" } satisfies Record<string, string | number>;
return cfg.port;`, `80`},
		{"type assertions", `const u: unknown = "abc";
const n = <number>(<unknown>5);
const s = (u as string).length;
const el = document_like()!;
function document_like(): { v: number } | null { return { v: 1 } }
return [n, s, el.v];`, `[5,3,1]`},
		{"definite assignment and tuples", `let d!: number; d = 3; const tup: [number, string] = [d, "x"]; return tup;`, `[3,"x"]`},
		{"overloads", `function over(a: string): string;
function over(a: number): number;
function over(a: any) { return a }
return over(3);`, `3`},
		{"declare", `declare const foo: number; declare function bar(): void; return typeof foo;`, `"undefined"`},
		{"keyof typeof mapped types", `const o = { a: 1, b: 2 };
type K = keyof typeof o;
type R = { readonly [P in K]: number };
const r: R = { a: 3, b: 4 };
const k: K = "b";
return r[k];`, `4`},
		{"type-only generic call and index", `const m = new Map<string, number[]>(); m.set("a", [1]); return m.get("a")![0];`, `1`},
		{"async arrow with types", `const f = async (x: number): Promise<number> => x * 2; return await f(21);`, `42`},
		{"getters setters accessibility", `class C { protected _v = 0; public get v(): number { return this._v } public set v(x: number) { this._v = x } }
const c = new C(); c.v = 9; return c.v;`, `9`},
		{"unicode and template", "const who: string = \"wörld\"; return `héllo ${who}`;", `"héllo wörld"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{})
			if string(res.Value) != tt.want {
				t.Errorf("Value = %s, want %s", res.Value, tt.want)
			}
		})
	}
}

// TestTopLevelAwaitAndReturn checks the wrapper: top-level await and return
// work in TypeScript and JavaScript files alike.
func TestTopLevelAwaitAndReturn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, src string
		want            string // Value; "" means no value
		stdout          string
	}{
		{"await value", "snippet.ts", `return await Promise.resolve(41) + 1;`, `42`, ""},
		{"await in loop", "snippet.ts", "let s = 0;\nfor (const x of [1, 2, 3]) s += await Promise.resolve(x);\nreturn s;", `6`, ""},
		{"early return", "snippet.ts", "const x = 1;\nif (x) return \"early\";\nconsole.log(\"not reached\");", `"early"`, ""},
		{"bare return", "snippet.ts", "console.log(1);\nreturn;\nconsole.log(2);", "", "1\n"},
		{"no return", "snippet.ts", `console.log("hi")`, "", "hi\n"},
		{"return a promise", "snippet.ts", `return new Promise(r => setTimeout(() => r("later"), 5));`, `"later"`, ""},
		{"js await and return", "snippet.js", "const x = 1;\nreturn x + await Promise.resolve(2);", `3`, ""},
		{"mjs", "a.mjs", `return await 5;`, `5`, ""},
		{"cjs", "a.cjs", `return await 6;`, `6`, ""},
		{"no extension is typescript", "snippet", `const x: number = 7; return x;`, `7`, ""},
		{"tsx-free mts", "x.mts", `const x: number = 8; return x;`, `8`, ""},
		{"empty snippet", "snippet.ts", ``, "", ""},
		{"only comments", "snippet.ts", "// nothing\n/* at all */", "", ""},
		{"wrapper text inside a string", "snippet.ts", `const s = "})()"; return s;`, `"})()"`, ""},
		{"CRLF line endings", "snippet.ts", "const a = 1;\r\nconst b = 2;\r\nreturn a + b;\r\n", `3`, ""},
		{"trailing line comment without newline", "snippet.ts", `return 1 // done`, `1`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{Filename: tt.file})
			if string(res.Value) != tt.want {
				t.Errorf("Value = %s, want %s", res.Value, tt.want)
			}
			if res.Stdout != tt.stdout {
				t.Errorf("Stdout = %q, want %q", res.Stdout, tt.stdout)
			}
		})
	}
}

// TestGenericCallNotJavaScript checks snippets that are valid JavaScript
// but mean a generic call in TypeScript: in a .ts file they must be
// TypeScript, in a .js file JavaScript.
func TestGenericCallNotJavaScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, ts, js string
	}{
		{"generic call", `const a = 1, b = 2, f = (x) => x; return f<a>(b);`, `2`, `false`},
		{"generic call with spaces and newline", "const a = 1, b = 2, f = (x) => x;\nreturn f < a >\n  (b);", `2`, `false`},
		{"generic tagged template", "const a = 1, tag = (s) => s[0]; return tag<a>`x`;", `"x"`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{Filename: "snippet.ts"})
			if string(res.Value) != tt.ts {
				t.Errorf(".ts: Value %s, want %s", res.Value, tt.ts)
			}
			if tt.js == "" {
				return
			}
			res = runtest.MustRun(t, tt.src, runtime.Options{Filename: "snippet.js"})
			if string(res.Value) != tt.js {
				t.Errorf(".js: Value %s, want %s", res.Value, tt.js)
			}
		})
	}
}

// TestJavaScriptLoader checks that .js files are parsed as JavaScript, so
// TypeScript syntax in them is an error, while other names are TypeScript.
func TestJavaScriptLoader(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"snippet.js", "x.mjs", "x.cjs", "dir/x.js"} {
		t.Run(file, func(t *testing.T) {
			e := runtest.MustFail(t, "const x: number = 1;\nreturn x;", runtime.Options{Filename: file})
			if e.Kind != runtime.KindCompile || e.File != file || e.Line != 1 || e.Column != 8 {
				t.Errorf("got %s at %s:%d:%d kind %s, want a compile error at %s:1:8", e, e.File, e.Line, e.Column, e.Kind, file)
			}
		})
	}
	for _, file := range []string{"snippet.ts", "x.mts", "x.cts", "x.txt", "noext"} {
		t.Run(file, func(t *testing.T) {
			res := runtest.MustRun(t, "const x: number = 1;\nreturn x;", runtime.Options{Filename: file})
			if string(res.Value) != "1" {
				t.Errorf("Value = %s, want 1", res.Value)
			}
		})
	}
}

// TestModuleSyntaxDropped checks that type-only imports and export keywords
// disappear without moving any position.
func TestModuleSyntaxDropped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, src string
		want            string
	}{
		{"import type braces", "snippet.ts", `import type { X } from "y";
const v: X = 1 as any; return v;`, `1`},
		{"import type default single quotes", "snippet.ts", `import type X from 'y'
return 2;`, `2`},
		{"import type namespace", "snippet.ts", `import type * as NS from "y"; const v: NS.T = 3 as any; return v;`, `3`},
		{"import type multi-line", "snippet.ts", "import type {\n  A,\n  B,\n} from \"y\";\nreturn 4;", `4`},
		{"type-only specifiers", "snippet.ts", "import { type A, type B as C } from \"y\";\nconst v: A & C = 6 as any; return v;", `6`},
		{"type-only specifiers multi-line", "snippet.ts", "import {\n  type A,\n  type B,\n} from 'y'\nreturn 7;", `7`},
		{"several type imports", "snippet.ts", "import type { A } from \"a\";\nimport type { B } from \"b\";\nimport type { C } from \"c\";\nreturn 5;", `5`},
		{"export const and function", "snippet.ts", `export const z: number = 1;
export function f() { return 2 }
return z + f();`, `3`},
		{"export class, async function, let", "snippet.ts", `export class C { v = 1 }
export async function g() { return 2 }
export let n = 3;
return new C().v + await g() + n;`, `6`},
		{"export type, interface, enum", "snippet.ts", `export type T = string; export interface I { a: T } export enum E { A = 2 } return E.A;`, `2`},
		{"export list", "snippet.ts", `const a = 1; export { a }; return a;`, `1`},
		{"export in js", "snippet.js", "export const y = 2;\nreturn y;", `2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{Filename: tt.file})
			if string(res.Value) != tt.want {
				t.Errorf("Value = %s, want %s", res.Value, tt.want)
			}
		})
	}

	// Positions after a dropped import stay those of the original file.
	e := runtest.MustFail(t, "import type {\n  A,\n} from \"y\";\nexport const q = 1;\n  throw new Error(\"line5\");", runtime.Options{})
	if e.Line != 5 || e.Column != 9 || e.SourceLine != `  throw new Error("line5");` {
		t.Errorf("error at %d:%d %q, want 5:9 on the original line", e.Line, e.Column, e.SourceLine)
	}
	e = runtest.MustFail(t, `export const q = 1; throw new Error("x");`, runtime.Options{})
	if e.Line != 1 || e.Column != 27 {
		t.Errorf("error at %d:%d, want 1:27 (after a dropped export on line 1)", e.Line, e.Column)
	}
}

// TestValueImportsRefused checks that module syntax that needs a module
// system is a compile error at the statement, saying that modules are not
// available and tools are globals.
func TestValueImportsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, src string
		line, col       int
	}{
		{"default import", "snippet.ts", `import fs from "fs";`, 1, 1},
		{"named import indented on line 2", "snippet.ts", "const a = 1;\n  import {a} from \"b\";", 2, 3},
		{"namespace import", "snippet.ts", `import * as x from "y";`, 1, 1},
		{"side-effect import", "snippet.ts", `import "side";`, 1, 1},
		{"default and named", "snippet.ts", "// first line\nimport fs, { readFile } from \"fs\";\nreturn 1;", 2, 1},
		{"after statements on line 1", "snippet.ts", `const x = 1; import y from "y";`, 1, 14},
		{"after a type import", "snippet.ts", "import type { T } from \"t\";\nimport v from \"v\";", 2, 1},
		{"mixed type and value specifiers", "snippet.ts", "import { type A, b } from \"y\";", 1, 1},
		{"import equals require", "snippet.ts", `import x = require("y");`, 1, 1},
		{"value import in js", "snippet.js", "const x = 1;\nexport const y = 2;\nimport z from \"z\";", 3, 1},
		{"export star re-export", "snippet.ts", `export * from "x";`, 1, 1},
		{"export named re-export", "snippet.ts", "const a = 1;\nexport { a } from \"b\";", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := runtest.MustFail(t, tt.src, runtime.Options{Filename: tt.file})
			if e.Kind != runtime.KindCompile || e.Name != "SyntaxError" {
				t.Errorf("Kind %s Name %s, want compile SyntaxError", e.Kind, e.Name)
			}
			if e.File != tt.file || e.Line != tt.line || e.Column != tt.col {
				t.Errorf("position %s:%d:%d, want %s:%d:%d", e.File, e.Line, e.Column, tt.file, tt.line, tt.col)
			}
			if !strings.Contains(e.Message, "modules are not available") || !strings.Contains(e.Message, "tools are global") {
				t.Errorf("message %q does not say modules are unavailable and tools are globals", e.Message)
			}
			wantLine := transform.SplitLines(tt.src)[tt.line-1]
			if e.SourceLine != wantLine {
				t.Errorf("SourceLine = %q, want the original line %q", e.SourceLine, wantLine)
			}
			prefix := tt.file + ":" + itoa(tt.line) + ":" + itoa(tt.col) + ": error: "
			if !strings.HasPrefix(e.Stack, prefix) || !strings.HasPrefix(e.Report(), prefix) {
				t.Errorf("Stack %q / Report %q do not start with %q", e.Stack, e.Report(), prefix)
			}
		})
	}
}

// TestSyntaxErrors checks compile errors: esbuild's "file:line:col: error:"
// form with the original line and a 1-based column, including line 1 (where
// the wrapper shifts columns) and the end of the file.
func TestSyntaxErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		line, col int
		msg       string // substring of Message
	}{
		{"line 2", "const x = 1;\nconst y = ;", 2, 11, `Unexpected ";"`},
		{"line 1 column shifted by the wrapper", "const y = ;", 1, 11, `Unexpected ";"`},
		{"line 1 column 1", "= 1;", 1, 1, `Unexpected "="`},
		{"bracket", "const a = [1, 2;", 1, 16, `Expected "]"`},
		{"redeclared", "let a = 1;\nlet a = 2;", 2, 5, `"a" has already been declared`},
		{"type error syntax in ts", "const x: = 1;", 1, 10, `Unexpected "="`},
		{"unterminated string", "\"unterminated", 1, 14, `Unterminated string`},
		{"deep line", strings.Repeat("\n", 40) + "  let let = 1;", 41, 7, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := runtest.MustFail(t, tt.src, runtime.Options{})
			if e.Kind != runtime.KindCompile || e.Name != "SyntaxError" {
				t.Errorf("Kind %s Name %s, want compile SyntaxError", e.Kind, e.Name)
			}
			if e.File != runtime.DefaultFilename || e.Line != tt.line || e.Column != tt.col {
				t.Errorf("position %s:%d:%d, want %s:%d:%d (%s)", e.File, e.Line, e.Column, runtime.DefaultFilename, tt.line, tt.col, e.Message)
			}
			if !strings.Contains(e.Message, tt.msg) {
				t.Errorf("Message %q does not contain %q", e.Message, tt.msg)
			}
			want := runtime.DefaultFilename + ":" + itoa(tt.line) + ":" + itoa(tt.col) + ": error: " + e.Message
			if e.Stack != want {
				t.Errorf("Stack = %q, want %q", e.Stack, want)
			}
			if srcLine := transform.SplitLines(tt.src)[tt.line-1]; e.SourceLine != srcLine {
				t.Errorf("SourceLine = %q, want %q", e.SourceLine, srcLine)
			}
			// The report shows the line and a caret under the column.
			rep := e.Report()
			lines := strings.Split(rep, "\n")
			if !strings.HasPrefix(rep, want) || len(lines) < 2 {
				t.Fatalf("Report() = %q", rep)
			}
			caret := lines[len(lines)-1]
			if caret != strings.Repeat(" ", tt.col-1)+"^" {
				t.Errorf("caret line %q, want the caret at column %d\n%s", caret, tt.col, rep)
			}
		})
	}
}

// TestSyntaxErrorAtEndOfFile checks that an unclosed construct is reported
// inside the user's source, not on the wrapper's closing line.
func TestSyntaxErrorAtEndOfFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		eof       bool // the message must say the file ended
	}{
		{"unclosed function brace", "function f() {\n  return 1;", true},
		{"unclosed object", "const o = {\n  a: 1", true},
		{"unclosed call", "console.log(1,\n  2", true},
		{"unterminated template", "const s = `abc\nmore", false},
		{"unterminated comment", "const s = 1; /* abc\nmore", false},
		{"unclosed block one line", "if (true) {", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := runtest.MustFail(t, tt.src, runtime.Options{})
			n := len(transform.SplitLines(tt.src))
			if e.Kind != runtime.KindCompile {
				t.Errorf("Kind %s, want compile", e.Kind)
			}
			if e.Line < 1 || e.Line > n {
				t.Errorf("BUG: error at line %d of a %d-line snippet (the wrapper's line): %s", e.Line, n, e.Report())
			}
			if strings.Contains(e.SourceLine, "})()") || strings.Contains(e.Report(), "})()") {
				t.Errorf("BUG: the report shows the wrapper's code:\n%s", e.Report())
			}
			if tt.eof && !strings.Contains(e.Message, "end of file") {
				t.Errorf("BUG: message %q does not say the file ended early", e.Message)
			}
		})
	}

	// A stray closing brace is the user's error on line 1, not the end of
	// the file.
	e := runtest.MustFail(t, "}", runtime.Options{})
	if e.Line != 1 || e.Column != 1 {
		t.Errorf("BUG: stray '}' reported at %d:%d %q, want 1:1", e.Line, e.Column, e.Message)
	}
}

// TestCompileErrorShowsOriginalLine checks that module syntax refused after
// an export keyword was blanked still shows the user's own text, and that
// `export default` is dropped like other export keywords.
func TestCompileErrorShowsOriginalLine(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"export const a = 1; export * from \"x\";", "export { a } from \"b\";"} {
		e := runtest.MustFail(t, src, runtime.Options{})
		if e.Kind != runtime.KindCompile {
			t.Errorf("%q: Kind %s, want compile", src, e.Kind)
		}
		if e.SourceLine != src {
			t.Errorf("%q: SourceLine = %q, want the original line (not the blanked one)", src, e.SourceLine)
		}
	}
	for _, src := range []string{"export default 1;", "export default function f() {}\nreturn f.name"} {
		if res := runtime.Run(context.Background(), src, runtime.Options{}); res.Error != nil {
			t.Errorf("%q: %s", src, res.Error.Report())
		}
	}
}

// TestRequireRefused checks that require throws the modules message.
func TestRequireRefused(t *testing.T) {
	t.Parallel()
	for _, src := range []string{`require("fs")`, `const fs = require("fs"); fs.readFileSync("x")`, "const x = 1;\nconst { readFileSync } = require(\"fs\");"} {
		e := runtest.MustFail(t, src, runtime.Options{})
		if e.Kind != runtime.KindException || e.Name != "Error" {
			t.Errorf("%q: Kind %s Name %s, want exception Error", src, e.Kind, e.Name)
		}
		if !strings.Contains(e.Message, "require(") || !strings.Contains(e.Message, "modules are not available") || !strings.Contains(e.Message, "tools are global") {
			t.Errorf("%q: message %q", src, e.Message)
		}
		if e.File != runtime.DefaultFilename || e.Line != len(transform.SplitLines(src)) {
			t.Errorf("%q: position %s:%d", src, e.File, e.Line)
		}
	}
	// require is catchable like any exception.
	res := runtest.MustRun(t, `try { require("fs") } catch (e) { return e instanceof Error }`, runtime.Options{})
	if string(res.Value) != "true" {
		t.Errorf("caught require error: Value %s", res.Value)
	}
}

// TestDynamicImportRefused checks import() and import.meta, which esbuild
// passes and goja cannot parse: a compile error.
func TestDynamicImportRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		line      int
	}{
		{"import call", `const m = await import("x");`, 1},
		{"import.meta", `console.log(import.meta.url);`, 1},
		{"import call on line 3", "const m = 1;\n\nconst k = await import(\"x\");", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := runtest.MustFail(t, tt.src, runtime.Options{})
			if e.Kind != runtime.KindCompile || e.Name != "SyntaxError" {
				t.Fatalf("Kind %s Name %s, want compile SyntaxError", e.Kind, e.Name)
			}
			if !strings.Contains(e.Message, "modules are not available") {
				t.Errorf("BUG: message %q does not explain that modules are unavailable", e.Message)
			}
			if e.Line != tt.line {
				t.Errorf("BUG: reported on line %d, want %d", e.Line, tt.line)
			}
		})
	}
}

// TestForAwaitAndAsyncGenerators checks syntax goja lacks, which esbuild
// lowers.
func TestForAwaitAndAsyncGenerators(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
	}{
		{"for await over async generator", `async function* g() { yield 1; await null; yield 2 }
const out: number[] = [];
for await (const v of g()) out.push(v);
return out;`, `[1,2]`},
		{"for await over promises", `const out = [];
for await (const v of [Promise.resolve("a"), "b", new Promise(r => setTimeout(() => r("c"), 2))]) out.push(v);
return out;`, `["a","b","c"]`},
		{"async generator methods", `class Q { async *items() { for (let i = 0; i < 3; i++) { await new Promise(r => setTimeout(r, 1)); yield i } } }
const r = [];
for await (const x of new Q().items()) r.push(x * 10);
return r;`, `[0,10,20]`},
		{"manual next", `async function* g() { const x = yield 1; yield x * 2 }
const it = g();
const a = await it.next();
const b = await it.next(21);
const c = await it.next();
return [a.value, b.value, c.done];`, `[1,42,true]`},
		{"break out of for await", `async function* g() { try { yield 1; yield 2 } finally { console.log("cleanup") } }
for await (const v of g()) { if (v === 1) break }
return "ok";`, `"ok"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{})
			if string(res.Value) != tt.want {
				t.Errorf("Value = %s, want %s", res.Value, tt.want)
			}
		})
	}

	// A throw inside an async generator is reported at its position.
	e := runtest.MustFail(t, "async function* g() { yield 1; throw new Error(\"in gen\") }\nfor await (const v of g()) console.log(v);", runtime.Options{})
	if e.Message != "in gen" || e.Line != 1 || e.Column != 38 {
		t.Errorf("error %q at %d:%d, want \"in gen\" at 1:38", e.Message, e.Line, e.Column)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestParserPanicIsACompileError checks that code goja's parser panics on
// (the string "\u{10FFFF}") is a compile error at the literal, in a plain
// run and in a session, and never takes the host down.
func TestParserPanicIsACompileError(t *testing.T) {
	t.Parallel()
	src := "const a = 1;\nreturn \"\\u{10FFFF}\".length"
	e := runtest.MustFail(t, src, runtime.Options{})
	if e.Kind != runtime.KindCompile || e.Line != 2 || e.Column != 8 || !strings.Contains(e.Message, "the engine cannot parse this code") {
		t.Errorf("error %+v, want a compile error at 2:8", e)
	}
	if _, err := transform.CompileSession(src, "s.ts"); err == nil {
		t.Errorf("CompileSession accepted what the parser cannot parse")
	}
}

// TestTopLevelTypeScript checks that TypeScript esbuild accepts at a
// module's top level compiles in a snippet (whose top level is a function
// body): namespaces, nested and exported members, declare blocks, enums,
// angle-bracket casts; the lines after a namespace keep their numbers.
func TestTopLevelTypeScript(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, value string }{
		{"namespace N { export const v = 2 }\nreturn N.v", `2`},
		{"namespace A.B { export const c = \"}\" + `{` }\nreturn A.B.c", `"}{"`},
		{"namespace M {\n  export function f(n: number) { return n * 2 } // }\n  /* { */\n}\nreturn M.f(21)", `42`},
		{"declare global { interface Window { x: number } }\ndeclare namespace D { const x: number }\nenum Color { Red, Green }\nreturn [Color.Green, <number>(1 as any)]", `[1,1]`},
		{"export namespace E { export const e = 1 }\nreturn E.e", `1`},
		{"namespace S { export const t = \"x    y\" }\nreturn S.t", `"x    y"`},
		{"namespace T {\n  export const t = `a\n   b${1}\n`\n}\nreturn T.t", `"a\n   b1\n"`},
		{"namespace U { export const t = `a\\nb`, r = String.raw`c\\nd` }\nreturn [U.t, U.r]", `["a\nb","c\\nd"]`},
		{"namespace C { //! a comment esbuild keeps\n  export const c = 3 }\nreturn C.c", `3`},
	}
	for _, tt := range tests {
		res := runtest.MustRun(t, tt.src, runtime.Options{})
		if string(res.Value) != tt.value {
			t.Errorf("%q: value %s, want %s", tt.src, res.Value, tt.value)
		}
	}
	for _, src := range []string{
		"namespace N {\n  export const v = 1\n}\nconst x = 1;\nnull!.boom",
		"namespace N {\n  export const t = `a\n b`\n}\nnull!.boom",
		"namespace N { export const t = `a\\n\\nb` }\n\n\nconst x = 1;\nnull!.boom",
	} {
		e := runtest.MustFail(t, src, runtime.Options{})
		if e.Line != 5 {
			t.Errorf("%q: the error after a namespace is on line %d, want 5", src, e.Line)
		}
	}
}
