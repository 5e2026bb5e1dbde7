package convert_test

import (
	"context"
	"testing"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/convert"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// TestValueExport checks the return value's JSON export of values that
// JSON.stringify handles specially.
func TestValueExport(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `"<a href=\"x\">&amp;</a>"`, Want: `"<a href=\"x\">&amp;</a>"`},
		{Expr: `{ f: async () => 1, g: function* () {}, h: class {}, v: 1 }`, Want: `{"v":1}`},
		{Expr: `[async () => 1, Symbol("s"), undefined]`, Want: `[null,null,null]`},
		{Expr: `{ get g() { return 2 }, n: [1n] }`, Want: `{"g":2,"n":[1]}`},
		{Expr: `new Proxy({ a: 1 }, {})`, Want: `{"a":1}`},
		{Expr: `{ d: new Date(0), u: new URL("https://a.org/x") }`, Want: `{"d":"1970-01-01T00:00:00.000Z","u":"https://a.org/x"}`},
		{Expr: `{ nested: { toJSON() { return { replaced: true } } } }`, Want: `{"nested":{"replaced":true}}`},
	})
	for _, c := range []struct{ src, name, msg string }{
		{`return { get x() { throw new RangeError("from getter") } };`, "RangeError", "from getter"},
		{`return { toJSON() { throw new TypeError("bad toJSON") } };`, "TypeError", "bad toJSON"},
		{`return new Proxy({}, { ownKeys() { throw new Error("trap") } });`, "Error", "trap"},
	} {
		e := runtest.MustFail(t, c.src, runtime.Options{})
		if e.Kind != runtime.KindException || e.Name != c.name || e.Message != c.msg {
			t.Errorf("%s: error %+v, want the snippet's %s: %s", c.src, e, c.name, c.msg)
		}
	}
}

// TestParseJSONWithoutGlobals checks that a value a host call brings
// into the VM with ExportJSON and ParseJSON does not depend on the
// snippet's JSON global, and keeps its keys in the snippet's order (a Go
// map would give them in random order, sorting would put "a" first).
func TestParseJSONWithoutGlobals(t *testing.T) {
	t.Parallel()
	setup := func(env *runtime.Env) error {
		vm := env.VM()
		return vm.Set("echo", func(c goja.FunctionCall) goja.Value {
			raw, err := convert.ExportJSON(vm, c.Argument(0))
			if err != nil {
				panic(runtime.NewError(vm, "TypeError", err.Error()))
			}
			return env.Go(func(ctx context.Context) runtime.Outcome {
				return runtime.Outcome{Settle: func(vm *goja.Runtime) (goja.Value, bool) {
					v, err := convert.ParseJSON(vm, raw)
					if err != nil {
						return runtime.NewError(vm, "Error", err.Error()), true
					}
					return v, false
				}}
			})
		})
	}
	res := runtest.MustRun(t, `JSON.parse = null as any; (globalThis as any).JSON = undefined; return await echo({ "k y": true, a: [1, "x", { b: null }] });`, runtime.Options{Setup: setup})
	if want := `{"k y":true,"a":[1,"x",{"b":null}]}`; string(res.Value) != want {
		t.Errorf("Value %s, want %s", res.Value, want)
	}
}

// TestStructuredClone checks that structuredClone is a deep copy of plain data, keeping shared and circular references, and refuses functions, symbols and promises with a DataCloneError.
func TestStructuredClone(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `structuredClone({ a: [1, { b: 2 }], d: new Date(0) })`, Want: `{"a":[1,{"b":2}],"d":"1970-01-01T00:00:00.000Z"}`},
		{Expr: `(() => { const m = new Map([[1, { x: 1 }]]); const c = structuredClone(m); return [c instanceof Map, c.get(1).x, c.get(1) !== m.get(1)] })()`, Want: `[true,1,true]`},
		{Expr: `(() => { const s = structuredClone(new Set([1, 2])); return [s instanceof Set, [...s]] })()`, Want: `[true,[1,2]]`},
		{Expr: `(() => { const o = { n: 1 }; o.self = o; const c = structuredClone(o); return [c.self === c, c !== o] })()`, Want: `[true,true]`},
		{Expr: `(() => { const shared = {}; const c = structuredClone({ a: shared, b: shared }); return c.a === c.b })()`, Want: `true`},
		{Expr: `(() => { const r = structuredClone(/ab+c/gi); return [r instanceof RegExp, r.source, r.flags] })()`, Want: `[true,"ab+c","gi"]`},
		{Expr: `(() => { const d = structuredClone(new Date(86400000)); return [d instanceof Date, d.getTime()] })()`, Want: `[true,86400000]`},
		{Expr: `(() => { const t = structuredClone(new Uint16Array([1, 2, 3]).subarray(1)); return [t.constructor.name, Array.from(t), t.byteOffset, t.buffer.byteLength] })()`, Want: `["Uint16Array",[2,3],2,6]`},
		{Expr: `(() => { const b = structuredClone(new Uint8Array([9, 8]).buffer); return [b instanceof ArrayBuffer, b.byteLength, new Uint8Array(b)[0]] })()`, Want: `[true,2,9]`},
		{Expr: `(() => { class K { constructor() { this.a = 1 } m() {} }; const c = structuredClone(new K()); return [c.constructor === Object, c.a, typeof c.m] })()`, Want: `[true,1,"undefined"]`},
		{Expr: `(() => { const c = structuredClone([1, , 3]); return [c.length, 1 in c] })()`, Want: `[3,false]`},
		{Expr: `(() => { const e = structuredClone(new RangeError("r")); return [e instanceof RangeError, e.name, e.message] })()`, Want: `[true,"RangeError","r"]`},
		{Expr: `(() => { try { structuredClone({ f() {} }); return "no" } catch (e) { return [e.name, e.message, e instanceof DOMException, e instanceof Error, e.code] } })()`, Want: `["DataCloneError","f() {} could not be cloned.",true,true,25]`},
		{Expr: `(() => { try { structuredClone(Symbol("s")); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["DataCloneError","Symbol(s) could not be cloned."]`},
		{Expr: `(() => { try { structuredClone(Promise.resolve()); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["DataCloneError","#<Promise> could not be cloned."]`},
		{Expr: `(() => { try { structuredClone(); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["TypeError","The value argument must be specified"]`},
		{Expr: `structuredClone([1n, "s", null, undefined, true, -0, NaN].map(String))`, Want: `["1","s","null","undefined","true","0","NaN"]`},
		{Expr: `(() => { const c = structuredClone(Object(5)); return [typeof c, c.valueOf()] })()`, Want: `["object",5]`},
	})
}
