package console_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// TestConsoleFormat checks console.log against Node's output for the cases
// the formatter implements. Every expected text here was produced by
// node v20 from the same JavaScript.
func TestConsoleFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
	}{
		{"strings quoted inside containers", `console.log(["a", 1, null, undefined, true])`, "[ 'a', 1, null, undefined, true ]"},
		{"array", `console.log([1, 2, 3])`, "[ 1, 2, 3 ]"},
		{"object", `console.log({ a: 1, b: 'x' })`, "{ a: 1, b: 'x' }"},
		{"depth object", `console.log({ a: { b: { c: { d: 1 } } } })`, "{ a: { b: { c: [Object] } } }"},
		{"depth array", `console.log([[[[1]]]])`, "[ [ [ [Array] ] ] ]"},
		{"depth mixed", `console.log({ a: [{ b: { c: 1 } }] })`, "{ a: [ { b: [Object] } ] }"},
		{"map and set", `console.log(new Map([["a", 1], ["b", { x: 1 }]]), new Set([1, "two"]))`, "Map(2) { 'a' => 1, 'b' => { x: 1 } } Set(2) { 1, 'two' }"},
		{"map object key", `console.log(new Map([[{ k: 1 }, [1, 2]]]))`, "Map(1) { { k: 1 } => [ 1, 2 ] }"},
		{"nested maps, empty collections", `console.log(new Map(), new Set(), new Map([[1, new Map([[2, 3]])]]))`, "Map(0) {} Set(0) {} Map(1) { 1 => Map(1) { 2 => 3 } }"},
		{"class instance", `class Foo { constructor() { this.x = 1 } }; console.log(new Foo())`, "Foo { x: 1 }"},
		{"empty class instance", `class Empty {}; console.log(new Empty(), [new Empty()])`, "Empty {} [ Empty {} ]"},
		{"null prototype", `const n = Object.create(null); n.k = 1; console.log(n)`, "[Object: null prototype] { k: 1 }"},
		{"null prototype nested", `console.log(Object.assign(Object.create(null), { a: { b: 1 } }))`, "[Object: null prototype] { a: { b: 1 } }"},
		{"functions", `function f() {}; console.log(f, [f], { f })`, "[Function: f] [ [Function: f] ] { f: [Function: f] }"},
		{"classes", `console.log(class A {}, [class B {}], class {})`, "[class A] [ [class B] ] [class (anonymous)]"},
		{"function kinds", `console.log(() => 1, async function g() {}, function* gen() {})`, "[Function (anonymous)] [AsyncFunction: g] [GeneratorFunction: gen]"},
		{"circular object", `const c = { name: "c" }; c.self = c; console.log(c)`, "<ref *1> { name: 'c', self: [Circular *1] }"},
		{"circular array", `const a = [1]; a.push(a); console.log(a)`, "<ref *1> [ 1, [Circular *1] ]"},
		{"circular through a child", `const d = { inner: {} }; d.inner.back = d; console.log(d)`, "<ref *1> { inner: { back: [Circular *1] } }"},
		{"shared is not circular", `const x = {}; const y = { x1: x, x2: x }; console.log(y)`, "{ x1: {}, x2: {} }"},
		{"negative zero", `console.log(-0, [-0], 0, { z: -0 })`, "-0 [ -0 ] 0 { z: -0 }"},
		{"numbers", `console.log([1.5, -2, 1e21, 0.1 + 0.2, NaN, Infinity, -Infinity])`, "[ 1.5, -2, 1e+21, 0.30000000000000004, NaN, Infinity, -Infinity ]"},
		{"format s d i f", `console.log("%s is %d years and %i, %f", "Bob", 42.5, 42.9, 1.5)`, "Bob is 42.5 years and 42, 1.5"},
		{"format j", `console.log("%j", { a: [1] })`, `{"a":[1]}`},
		{"format o O", `console.log("%o / %O", { a: 1 }, [1])`, "{ a: 1 } / [ 1 ]"},
		{"format percent and extra args", `console.log("100%% sure", "extra")`, "100% sure extra"},
		{"format s object then rest", `console.log("%s", { a: 1 }, "tail")`, "{ a: 1 } tail"},
		{"format d of a word", `console.log("%d", "abc")`, "NaN"},
		{"format missing argument", `console.log("%s %s", "only")`, "only %s"},
		{"format unknown specifier", `console.log("%x %s", "a")`, "%x a"},
		{"format without args", `console.log("no args %s")`, "no args %s"},
		{"format c", `console.log("%c styled", "color: red")`, " styled"},
		{"format s null undefined", `console.log("%s", null, undefined)`, "null undefined"},
		{"format j undefined", `console.log("%j", undefined)`, "undefined"},
		{"format j circular", `const cj = {}; cj.c = cj; console.log("%j", cj)`, "[Circular]"},
		{"format s bigint", `console.log("%s", 1n, "%d", 2)`, "1n %d 2"},
		{"format only in first argument", `console.log(1, "%s", 2)`, "1 %s 2"},
		{"long object broken over lines", `console.log({ aaaaaaaaaa: "aaaaaaaaaaaaaaa", bbbbbbbbbbbb: "bbbbbbbbbbbbbbbbbb", cccccccccccc: "cccccccccccccccccc", dddd: 1 })`,
			"{\n  aaaaaaaaaa: 'aaaaaaaaaaaaaaa',\n  bbbbbbbbbbbb: 'bbbbbbbbbbbbbbbbbb',\n  cccccccccccc: 'cccccccccccccccccc',\n  dddd: 1\n}"},
		{"long array broken over lines", `console.log(["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])`,
			"[\n  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',\n  'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'\n]"},
		{"long map broken over lines", `console.log(new Map([["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1], ["bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 2]]))`,
			"Map(2) {\n  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' => 1,\n  'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' => 2\n}"},
		{"short child of a long object", `console.log({ a: { b: { c: { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: 2 } } }, zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz: 1 })`,
			"{\n  a: { b: { c: [Object] } },\n  zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz: 1\n}"},
		{"primitives", `console.log(undefined, null, "str", 1n, true)`, "undefined null str 1n true"},
		{"dates", `console.log(new Date(0), [new Date(0)])`, "1970-01-01T00:00:00.000Z [ 1970-01-01T00:00:00.000Z ]"},
		{"key quoting", `console.log({ "key-with-dash": 1, valid_id: 2, 1: 4 })`, "{ '1': 4, 'key-with-dash': 1, valid_id: 2 }"},
		{"quote choice", "console.log([\"it's\", 'say \"hi\"', `it's \"both\"`])", "[ \"it's\", 'say \"hi\"', `it's \"both\"` ]"},
		{"escapes", `console.log(["a\nb", "tab\there", "back\\slash"])`, `[ 'a\nb', 'tab\there', 'back\\slash' ]`},
		{"top-level strings bare", `console.log("a\nb", "top level strings are bare")`, "a\nb top level strings are bare"},
		{"empty containers", `console.log([[]], [{}], {}, [], { a: {} })`, "[ [] ] [ {} ] {} [] { a: {} }"},
		{"regexps", `console.log(/re/g, [/x/i])`, "/re/g [ /x/i ]"},
		{"promises", `console.log(Promise.resolve(4), new Promise(() => {}))`, "Promise { 4 } Promise { <pending> }"},
		{"undefined property", `console.log({ a: undefined, b: null })`, "{ a: undefined, b: null }"},
		{"same object repeated", `console.log(Array(3).fill({ x: 1 }))`, "[ { x: 1 }, { x: 1 }, { x: 1 } ]"},
		{"collections in object", `console.log({ arr: [1, 2, 3], map: new Map([["k", "v"]]), set: new Set(["s"]) })`, "{ arr: [ 1, 2, 3 ], map: Map(1) { 'k' => 'v' }, set: Set(1) { 's' } }"},
		{"more than 100 items", `console.log(Array.from({ length: 102 }, () => 0).join("").length, Array.from({ length: 101 }, (_, i) => i).slice(99))`, "102 [ 99, 100 ]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{Filename: "snippet.js"})
			if got := strings.TrimSuffix(res.Stdout, "\n"); got != tt.want {
				t.Errorf("console.log printed\n%s\nwant (node)\n%s", got, tt.want)
			}
		})
	}
}

// TestConsoleLongArrayItems checks the item cap: more than 100 entries end
// with "... N more items".
func TestConsoleLongArrayItems(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `console.log(Array.from({ length: 120 }, () => "x"))`, runtime.Options{})
	if !strings.HasSuffix(res.Stdout, "  ... 20 more items\n]\n") || strings.Count(res.Stdout, "'x'") != 100 {
		t.Errorf("Stdout %q", res.Stdout)
	}
}

// TestConsoleFormatBugs checks cases where the formatter differs from Node
// in ways that mislead a reader or fail the run. Expected texts are node
// v20's.
func TestConsoleFormatBugs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
	}{
		{"nested multi-line object indentation", `console.log([{ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: 2 }])`,
			"[\n  {\n    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1,\n    bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: 2\n  }\n]"},
		{"nested multi-line object in object", `console.log({ outer: { aaaaaaaaaa: "aaaaaaaaaaaaaaa", bbbbbbbbbbbb: "bbbbbbbbbbbbbbbbbb", cccccccccccc: "cccccccccccccccccc" } })`,
			"{\n  outer: {\n    aaaaaaaaaa: 'aaaaaaaaaaaaaaa',\n    bbbbbbbbbbbb: 'bbbbbbbbbbbbbbbbbb',\n    cccccccccccc: 'cccccccccccccccccc'\n  }\n}"},
		{"async arrow", `console.log(async () => {}, { fn: async () => {} })`, "[AsyncFunction (anonymous)] { fn: [AsyncFunction: fn] }"},
		{"symbols", `console.log(Symbol("s"), [Symbol("t")])`, "Symbol(s) [ Symbol(t) ]"},
		{"format d of a bigint", `console.log("%d", 2n)`, "2n"},
		{"format i of a bigint", `console.log("%i", 3n)`, "3n"},
		{"boxed primitives", `console.log(new Number(3), new String("s"), new Boolean(false))`, "[Number: 3] [String: 's'] [Boolean: false]"},
		{"getters are not called", `console.log({ get x() { throw new Error("getter ran") }, set y(v) {} })`, "{ x: [Getter], y: [Setter] }"},
		{"identifier keys with a dollar are quoted", `console.log({ $d: 3 })`, "{ '$d': 3 }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.Run(t, tt.src, runtime.Options{Filename: "snippet.js"})
			if res.Error != nil {
				t.Errorf("BUG: console.log failed the run: %s", res.Error)
				return
			}
			if got := strings.TrimSuffix(res.Stdout, "\n"); got != tt.want {
				t.Errorf("BUG: console.log printed\n%s\nwant (node)\n%s", got, tt.want)
			}
		})
	}
}

// TestConsoleErrorObjects checks that an Error printed by console.log, or
// returned, shows a Node-style stack: four-space frames at positions in the
// snippet, without goja's program counters, tabs or the wrapper's frame.
func TestConsoleErrorObjects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		get       func(*runtime.Result) string
		head      string
	}{
		{"console.log of an error", `console.log(new Error("logged"))`, func(r *runtime.Result) string { return r.Stdout }, "Error: logged\n    at snippet.ts:1:13"},
		{"error in an object", `console.log({ e: new RangeError("inner") })`, func(r *runtime.Result) string { return r.Stdout }, "{\n  e: RangeError: inner\n      at snippet.ts:1:18"},
		{"returned error", `return new TypeError("as value");`, func(r *runtime.Result) string { return r.ValueText }, "TypeError: as value\n    at snippet.ts:1:8"},
		{"caught error", "try {\n  null!.x;\n} catch (e) {\n  console.error(e);\n}", func(r *runtime.Result) string { return r.Stderr }, "TypeError: "},
	}
	pcRE := regexp.MustCompile(`:\d+:\d+\(\d+\)`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runtest.MustRun(t, tt.src, runtime.Options{})
			got := tt.get(res)
			if !strings.HasPrefix(got, tt.head) || strings.Contains(got, "\t") || pcRE.MatchString(got) || strings.Contains(got, "snippet.ts:2:3") && !strings.Contains(tt.src, "\n") {
				t.Errorf("BUG: printed %q, want it to start with %q, Node-style (no tabs, no goja program counters, no wrapper frame)", got, tt.head)
			}
		})
	}
}
