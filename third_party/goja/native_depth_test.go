package goja

import (
	"testing"
)

// TestNativeDepth checks that each path that recurses in Go without a
// JavaScript frame ends with a catchable RangeError under SetMaxNativeDepth
// (codeexec patch): without the limit each of them overflows the goroutine
// stack, a fatal error, or loops forever.
func TestNativeDepth(t *testing.T) {
	cases := []struct{ name, src string }{
		{"proxy prototype cycle get", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a.missing`},
		{"proxy prototype cycle has", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); "missing" in a`},
		{"proxy prototype cycle set", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a.missing = 1`},
		{"proxy prototype cycle symbol", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a[Symbol.iterator]`},
		{"proxy prototype cycle index", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a[5]`},
		{"proxy prototype cycle toString", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); String(a)`},
		{"proxy prototype cycle for-in", `const a = {x: 1}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); for (const k in a) {}`},
		{"proxy prototype cycle instanceof", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); a instanceof Array`},
		{"proxy prototype cycle isPrototypeOf", `const a = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); Array.prototype.isPrototypeOf(a)`},
		{"proxy chain call", `let f = function() { return 1 }; for (let i = 0; i < 2000; i++) f = new Proxy(f, {}); f()`},
		{"proxy chain keys", `let o = {a: 1}; for (let i = 0; i < 2000; i++) o = new Proxy(o, {}); Object.keys(o)`},
		{"bound function chain", `let f = function() { return 1 }; for (let i = 0; i < 2000; i++) f = f.bind(null); f()`},
		{"native getter cycle", `const o = {}; Object.defineProperty(o, Symbol.toStringTag, { get: Object.prototype.toString }); String(o)`},
		{"bound native getter cycle", `const o = {}; Object.defineProperty(o, "x", { get: Reflect.get.bind(null, o, "x") }); o.x`},
		{"bound native setter cycle", `const o = {}; Object.defineProperty(o, "x", { set: function(v) { Reflect.set(o, "x", v) }.bind(null) }); Object.defineProperty(o, "y", { set: Reflect.set.bind(null, o, "y", 1) }); o.y = 1`},
		{"native toString cycle", `const o = { toString: Function.prototype.call.bind(String, null) }; o.toString = String.bind(null, o); String(o)`},
		{"JSON.stringify of endless getters", `const mk = () => ({ get a() { return mk() } }); JSON.stringify(mk())`},
		{"JSON.stringify of endless proxies", `const mk = () => new Proxy({}, { ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: (t, k) => k === "a" ? mk() : undefined }); JSON.stringify(mk())`},
		{"JSON.parse reviver walk", `JSON.parse('{"a":1,"b":2}', function (k, v) { if (k === "a") { const mk = () => ({ get b() { return mk() } }); Object.defineProperty(this, "b", { get: mk, enumerable: true }) } return v })`},
		{"Array.prototype.flat of endless arrays", `const mk = () => { const a = [0]; Object.defineProperty(a, 0, { get: mk }); return a }; mk().flat(Infinity)`},
		{"join of endless arrays", `const mk = () => { const a = [0]; Object.defineProperty(a, 0, { get: mk }); return a }; mk().join()`},
		{"generators delegating to themselves", `function* g() { yield* g() } [...g()]`},
		{"generators delegating in try-finally", `function* g() { try { yield* g() } finally { } } [...g()]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New()
			r.SetMaxNativeDepth(1000)
			v, err := r.RunString(`
			let caught;
			try { ` + c.src + ` } catch (e) { caught = e }
			// The counter is back to zero: the limit leaves room again.
			const o = {}; const p = new Proxy(o, {}); p.x = 1;
			caught instanceof RangeError && caught.message`)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != NativeDepthErrorMessage {
				t.Fatalf("got %q, want the RangeError %q", got, NativeDepthErrorMessage)
			}
			if r.nativeDepth != 0 {
				t.Fatalf("nativeDepth is %d after the run, want 0", r.nativeDepth)
			}
		})
	}
}

// TestNativeDepthRoom checks that ordinary nesting below the limit works.
func TestNativeDepthRoom(t *testing.T) {
	r := New()
	r.SetMaxNativeDepth(1000)
	v, err := r.RunString(`
	let deep = [];
	for (let i = 0; i < 500; i++) deep = [deep];
	let f = function() { return 7 }; for (let i = 0; i < 500; i++) f = new Proxy(f, {});
	JSON.stringify(deep).length + deep.flat(Infinity).length + f()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.ToInteger(); got != 1002+0+7 {
		t.Fatalf("got %d, want 1009", got)
	}
}
