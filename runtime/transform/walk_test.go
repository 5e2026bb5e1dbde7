package transform

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

// TestFunctionsUntouched checks that the walk leaves every kind of
// function of a snippet as the snippet wrote it: it runs, and its
// toString is the snippet's own text.
func TestFunctionsUntouched(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, decl, call, fn, text string }{
		{"function declaration", `function f() { return 1 }`, `f()`, `f`, `function f() { return 1 }`},
		{"use strict", `function f() { "use strict"; return 1 }`, `f()`, `f`, `function f() { "use strict"; return 1 }`},
		{"function expression", `const f = function () { return 1 }`, `f()`, `f`, `function () { return 1 }`},
		{"expression arrow", `const f = () => 1`, `f()`, `f`, `() => 1`},
		{"block arrow", `const f = () => { return 1 }`, `f()`, `f`, `() => { return 1 }`},
		{"async arrow", `const f = async () => { await null; return 1 }`, `f()`, `f`, `async () => { await null; return 1 }`},
		{"method", `const o = { f() { return 1 } }`, `o.f()`, `o.f`, `f() { return 1 }`},
		{"getter", `const o = { get f() { return 1 } }`, `o.f`, `Object.getOwnPropertyDescriptor(o, "f").get`, `get f() { return 1 }`},
		{"class", `class K { x = 1; f() { return this.x } }`, `new K().f()`, `K`, `class K { x = 1; f() { return this.x } }`},
		{"generator", `function* f() { yield 1 }`, `f().next().value`, `f`, `function* f() { yield 1 }`},
		{"nested", `function outer() { return function f() { return 1 } }; const f = outer()`, `f()`, `f`, `function f() { return 1 }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := tt.decl + "\nconst v = await " + tt.call + ";\nreturn [v, " + tt.fn + ".toString()];"
			p, d := compile(src, "i.js", false)
			if d != nil {
				t.Fatal(d)
			}
			got := runCompiled(t, p, nil).([]any)
			if got[0] != int64(1) || got[1] != tt.text {
				t.Errorf("got %v, %q; want 1, %q", got[0], got[1], tt.text)
			}
		})
	}
}

// everywhere has a function in every place of the grammar that can hold
// one.
const everywhere = `
function a(x = () => 1, { y = () => 2 } = {}, [z = () => 3] = [], ...r) { "use strict"; return () => 4 }
const b = [() => 5, ...[() => 6]], c = { [(() => "k")()]: () => 7, m() {}, get g() { return 1 }, set s(v) {}, p: function () {}, short: 1 };
const { d = () => 8, ...rest } = { e: () => 9 };
let t = tag` + "`${() => 10}`" + `, u = ` + "`${() => 11}`" + `;
function tag(s, ...v) { return v }
o?.(() => 12)?.[() => 13]; new (function () {})(() => 14);
(() => 15) ? (() => 16) : (() => 17); !(() => 18); (() => 19), (() => 20);
typeof (() => 21) + (() => 22); x = () => 23; [x = () => 24] = []; ({ x = () => 25 } = {});
for (let i = () => 26; i; i = () => 27) break;
for (const k in { a: () => 28 }) {} for (const v of [() => 29]) {} for (var w in { k: () => 30 }) {}
for (x of [() => 31]) {} for (x in { k: () => 32 }) {}
while ((() => 0)()) {} do {} while ((() => 0)());
if (() => 33) { () => 34 } else { () => 35 }
lbl: { () => 36 }
switch (() => 37) { case () => 38: () => 39; default: () => 40 }
try { () => 41 } catch ({ e = () => 42 }) { () => 43 } finally { () => 44 }
with ({}) { () => 45 }
class K extends (() => Object)() { f = () => 46; static g = () => 47; #h = () => 48; static { () => 49 } [(() => "m")()]() {} constructor() { super(); } *gen() { yield () => 50 } async am() { await (() => 51) } }
async function* ag() { yield* [() => 52] }
throw () => 53;
return () => 54;
`

// bigSnippet is a 3,000-line snippet of small functions, objects and
// arrows, for the cost of the walk against parsing.
var bigSnippet = func() string {
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "function f%d(a, b) {\n  const o = { k: a, m() { return b }, get g() { return a + b } };\n  const xs = [a, b].map((x) => x * 2).filter((x) => x > 1);\n  if (xs.length > 1) { return o.m() + xs[0] }\n  return o.g;\n}\n", i)
	}
	return b.String()
}()

// BenchmarkParse3000Lines and BenchmarkParseInstrument3000Lines give, in
// one run, what the walk over the syntax tree (stack reads, features)
// adds to the parse of a large snippet that it follows.
func BenchmarkParse3000Lines(b *testing.B) { benchParse(b, false) }

func BenchmarkParseInstrument3000Lines(b *testing.B) { benchParse(b, true) }

func benchParse(b *testing.B, instrumented bool) {
	code := wrapPrefix + bigSnippet + wrapSuffix
	for b.Loop() {
		p, err := parse("big.js", code)
		if err != nil {
			b.Fatal(err)
		}
		if instrumented {
			instrument(p)
		}
	}
}

// runCompiled runs p in a new VM with the given globals and returns what
// the snippet returned; it fails the test when the snippet fails.
func runCompiled(t *testing.T, p *Program, globals map[string]any) any {
	t.Helper()
	vm := goja.New()
	for name, v := range globals {
		if err := vm.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vm.RunProgram(p.Code())
	if err != nil {
		t.Fatal(err)
	}
	res := v.Export().(*goja.Promise)
	if res.State() != goja.PromiseStateFulfilled {
		t.Fatalf("the snippet failed: %v", res.Result())
	}
	return res.Result().Export()
}

// TestFeaturesSeeEveryName walks the tree of everywhere, and of a snippet
// with a name or literal in every place that holds one, through
// reflection, and checks that the features' walk matched every name and
// every literal's text it finds against the hints.
func TestFeaturesSeeEveryName(t *testing.T) {
	t.Parallel()
	const names = `
lbl1: for (const [k1, { k2, k3: k4 = "s1", ...k5 }] of [[1, {}]]) { continue lbl1 }
const o1 = { p1: 1, "p2": 2, [k6]: 3, p3, m1() {}, get g1() { return 1 }, set s1(v1) {}, *ag1() {} };
class C1 extends B1 { f1 = 1; static f2; #f3 = 2; "f4" = 3; m2() { return this.#f3 } static { x1 } }
const t1 = tag1` + "`q1${e1}q2${e2}q3`" + `, r1 = /re1(?=x)/g, f5 = function f6() {}, c2 = class C3 {};
o1.p4.p5?.p6; o1?.["p7"]; o2.p8 = o3.p9 = 1; new.target; delete o1.p10;
`
	for _, src := range []string{everywhere, names} {
		prog, err := parse("e.js", wrapPrefix+src+wrapSuffix)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		instrumentSeeing(prog, func(s string) { seen[s] = true })
		found := 0
		check := func(s string) {
			found++
			if !seen[s] && !strings.HasPrefix(s, "__codeexec") {
				t.Errorf("the walk did not see %q", s)
			}
		}
		astPkg := reflect.TypeOf(ast.Program{}).PkgPath()
		var visit func(v reflect.Value)
		visit = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.Interface, reflect.Pointer:
				if !v.IsNil() {
					visit(v.Elem())
				}
				return
			case reflect.Slice:
				for i := 0; i < v.Len(); i++ {
					visit(v.Index(i))
				}
				return
			case reflect.Struct:
				if v.Type().PkgPath() != astPkg {
					return
				}
			default:
				return
			}
			switch n := v.Addr().Interface().(type) {
			case *ast.Identifier:
				check(n.Name.String())
				return
			case *ast.StringLiteral:
				check(n.Literal)
				return
			case *ast.TemplateElement:
				check(n.Literal)
				return
			case *ast.RegExpLiteral:
				check(n.Literal)
				return
			case *ast.MetaProperty:
				return // new.target, import.meta: no names of the snippet's
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).Name != "DeclarationList" && v.Field(i).CanInterface() {
					visit(v.Field(i))
				}
			}
		}
		visit(reflect.ValueOf(prog))
		if found < 40 {
			t.Errorf("the reflective walk found %d names and literals; there are more", found)
		}
	}
}
