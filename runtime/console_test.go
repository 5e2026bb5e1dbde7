package runtime

import (
	"testing"
)

// TestES2024Additions checks Object.groupBy, Map.groupBy and
// Promise.withResolvers (ES2024, which node v20 lacks: expectations are
// the specification's), and that they exist only when mentioned.
func TestES2024Additions(t *testing.T) {
	runValueCases(t, []valueCase{
		{`Object.groupBy([1, 2, 3, 4, 5], (n) => n % 2 ? "odd" : "even")`, `{"odd":[1,3,5],"even":[2,4]}`},
		{`Object.getPrototypeOf(Object.groupBy([], (x) => x)) === null`, `true`},
		{`Object.groupBy("abca", (c, i) => c + i % 2)`, `{"a0":["a"],"b1":["b"],"c0":["c"],"a1":["a"]}`},
		{`[...Map.groupBy([1.5, 2.5, -0, 0], (n) => Math.floor(n))].map(([k, v]) => [Object.is(k, -0) ? "-0" : k, v])`, `[[1,[1.5]],[2,[2.5]],[0,[0,0]]]`},
		{`(() => { try { Object.groupBy([1], 5) } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(async () => { const { promise, resolve } = Promise.withResolvers(); setTimeout(() => resolve("done"), 1); return await promise })()`, `"done"`},
		{`(async () => { const { promise, reject } = Promise.withResolvers(); reject(new Error("r")); return await promise.catch((e) => e.message) })()`, `"r"`},
		{`Object.keys(Promise.withResolvers()).join()`, `"promise,resolve,reject"`},
	})
	res := mustRun(t, `return [typeof Object["group" + "By"], typeof Promise["with" + "Resolvers"]]`, Options{})
	if string(res.Value) != `["undefined","undefined"]` {
		t.Errorf("without a mention: %s", res.Value)
	}
}

// TestLazyGlobals checks that the lazily installed globals behave as
// ordinary ones: typeof, assignment, deletion, no enumeration, and a fresh
// set in every run.
func TestLazyGlobals(t *testing.T) {
	checkLeaks(t)
	runValueCases(t, []valueCase{
		{`["structuredClone", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "atob", "btoa", "crypto", "performance", "DOMException", "Intl", "global"].map((n) => typeof globalThis[n])`,
			`["function","function","function","function","function","function","function","object","object","function","object","object"]`},
		{`typeof URL === "function" && URL === globalThis.URL && "URL" in globalThis`, `true`},
		{`Object.keys(globalThis).filter((k) => ["URL", "crypto", "Intl"].includes(k))`, `[]`},
		{`(() => { URL = 5; return URL })()`, `5`},
		{`(() => { globalThis.atob = () => "mine"; return atob("x") })()`, `"mine"`},
		{`(() => { const u = URL; delete globalThis.URL; return [typeof u, typeof globalThis.URL] })()`, `["function","function"]`},
		{`Object.prototype.toString.call(crypto) + Object.prototype.toString.call(performance) + Object.prototype.toString.call(Intl)`, `"[object Crypto][object Performance][object Intl]"`},
	})
	mustRun(t, `(URL as any).prototype.extra = 1; (globalThis as any).URL = null; (Intl as any).NumberFormat = null;`, Options{})
	res := mustRun(t, `return [typeof URL, (URL as any).prototype.extra, typeof Intl.NumberFormat];`, Options{})
	if string(res.Value) != `["function",null,"function"]` {
		t.Errorf("a second run saw the first's changes: %s", res.Value)
	}
}
