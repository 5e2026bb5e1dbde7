package goja

import (
	"testing"
)

// TestStackOverflowRangeError checks that with SetStackOverflowRangeError
// (codeexec patch) recursion past SetMaxCallStackSize is a RangeError the
// script catches wherever the recursion runs, generators and async
// functions made at the limit included, that the engine is balanced
// afterwards (the same recursion is caught again, shallower calls work,
// no frame is left), and that recursion just below the limit works.
func TestStackOverflowRangeError(t *testing.T) {
	const msg = "too deep"
	cases := []struct{ name, src string }{
		{"function", `function f() { return f() } f()`},
		{"arrow", `const f = () => f(); f()`},
		{"method", `const o = { m() { return this.m() } }; o.m()`},
		{"getter", `const o = { get x() { return this.x } }; o.x`},
		{"constructor", `class A { constructor() { new A() } } new A()`},
		{"native callback", `function f() { [1].forEach(f) } f()`},
		{"bound function", `function f() { return g() } const g = f.bind(null); f()`},
		{"generator", `function* h() { h().next(); yield 1 } [...h()]`},
		{"generator made at the limit", `function* g() {} function f() { g(); f() } f()`},
		{"async function called at the limit", `async function a() {} function f() { a(); f() } f()`},
		{"yield* of an iterator object", `function* g() { const it = g(); yield* { [Symbol.iterator]() { return this }, next: (x) => it.next(x) } } [...g()]`},
		{"toString", `const o = { toString() { return String(o) } }; String(o)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New()
			r.SetMaxCallStackSize(200)
			r.SetStackOverflowRangeError(msg)
			// The engine's own RangeError, whatever the global is.
			v, err := r.RunString(`
			const R = RangeError;
			globalThis.RangeError = class {};
			function attempt() {
				try { ` + c.src + ` } catch (e) { return e instanceof R && e.message }
				return "no error";
			}
			function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1) }
			[attempt(), attempt(), depth(150)].join(" / ")`)
			if err != nil {
				t.Fatal(err)
			}
			if want := msg + " / " + msg + " / 150"; v.String() != want {
				t.Fatalf("got %q, want %q", v.String(), want)
			}
			if n := len(r.vm.callStack); n != 0 {
				t.Fatalf("%d frames left on the call stack", n)
			}
		})
	}
}

// TestStackOverflowRangeErrorAsync checks the RangeError in an async
// function (a rejection the awaiting code catches) and in a promise job.
func TestStackOverflowRangeErrorAsync(t *testing.T) {
	r := New()
	r.SetMaxCallStackSize(200)
	r.SetStackOverflowRangeError(NativeDepthErrorMessage)
	v, err := r.RunString(`
	let out = [];
	async function a() { return a() }
	(async () => {
		try { await a() } catch (e) { out.push(e.name + ": " + e.message) }
		await Promise.resolve().then(function f() { return f() }).catch((e) => out.push(e.name));
	})();
	out`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "RangeError: "+NativeDepthErrorMessage+",RangeError" {
		t.Fatalf("got %q", got)
	}
}

// TestStackOverflowRangeErrorUncaught checks that an uncaught overflow is
// an *Exception of the RangeError, and that without the setting (or with
// it reset) the limit is the uncatchable *StackOverflowError as before.
func TestStackOverflowRangeErrorUncaught(t *testing.T) {
	r := New()
	r.SetMaxCallStackSize(50)
	r.SetStackOverflowRangeError("deep")
	_, err := r.RunString(`function f() { f() } f()`)
	ex, ok := err.(*Exception)
	if !ok || ex.Value().String() != "RangeError: deep" {
		t.Fatalf("error %v (%T), want the RangeError as an *Exception", err, err)
	}
	r.SetStackOverflowRangeError("")
	_, err = r.RunString(`try { f() } catch (e) {}`)
	if _, ok := err.(*StackOverflowError); !ok {
		t.Fatalf("error %v (%T), want a *StackOverflowError", err, err)
	}
}

// TestStackOverflowRangeErrorNativeRoom checks that a catch handler at the
// limit can call native functions, while a function of the script that it
// calls from there is held to the limit: every catch handler but the
// deepest calls both.
func TestStackOverflowRangeErrorNativeRoom(t *testing.T) {
	r := New()
	r.SetMaxCallStackSize(100)
	r.SetStackOverflowRangeError("deep")
	v, err := r.RunString(`
	let natives = 0, scripts = 0;
	function f() {
		try { f() } catch (e) {
			JSON.stringify({ a: [1] }); String(e); natives++;
			try { (() => 1)(); scripts++ } catch (e2) {}
			throw e;
		}
	}
	try { f() } catch (e) {}
	[natives > 90, natives - scripts]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "true,1" {
		t.Fatalf("got %s, want true,1", got)
	}
}
