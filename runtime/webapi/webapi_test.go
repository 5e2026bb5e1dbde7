package webapi_test

import (
	"testing"

	_ "time/tzdata" // time zones for the Intl tests on hosts without tzdata

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// Expected values in this file were produced by node v20 (TZ=UTC) with
// JSON.stringify of the same expressions, except where a comment says
// otherwise.

// TestTextEncoding checks that TextEncoder and TextDecoder encode and decode UTF-8 as the WHATWG Encoding standard does (BOM, replacement characters, fatal mode, streaming).
func TestTextEncoding(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `Array.from(new TextEncoder().encode("héllo 😀"))`, Want: `[104,195,169,108,108,111,32,240,159,152,128]`},
		{Expr: `new TextEncoder().encode().length`, Want: `0`},
		{Expr: `new TextEncoder().encoding`, Want: `"utf-8"`},
		{Expr: `(() => { const d = new Uint8Array(4); const r = new TextEncoder().encodeInto("héllo", d); return [r.read, r.written, Array.from(d)] })()`, Want: `[3,4,[104,195,169,108]]`},
		{Expr: `new TextDecoder().decode(new Uint8Array([104, 195, 169, 240, 159, 152, 128]))`, Want: `"hé😀"`},
		{Expr: `new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 104, 105]))`, Want: `"hi"`},
		{Expr: `new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 104])).length`, Want: `2`},
		{Expr: `new TextDecoder().decode(new Uint8Array([0xff, 104, 0xe2, 0x82, 105]))`, Want: `"�h�i"`},
		{Expr: `new TextDecoder().decode(new Uint8Array([104, 105]).buffer)`, Want: `"hi"`},
		{Expr: `new TextDecoder().decode(new DataView(new Uint8Array([65, 66, 67]).buffer, 1))`, Want: `"BC"`},
		{Expr: `new TextDecoder().decode()`, Want: `""`},
		{Expr: `(() => { try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, Want: `["TypeError","The encoded data was not valid for encoding utf-8","ERR_ENCODING_INVALID_ENCODED_DATA"]`},
		{Expr: `(() => { try { new TextDecoder("latin1x"); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, Want: `["RangeError","The \"latin1x\" encoding is not supported","ERR_ENCODING_NOT_SUPPORTED"]`},
		{Expr: `(() => { const d = new TextDecoder(); return d.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + "|" + d.decode(new Uint8Array([0xac])) })()`, Want: `"|€"`},
		{Expr: `[new TextDecoder().encoding, new TextDecoder().fatal, new TextDecoder("UTF8", { fatal: true }).fatal, new TextDecoder().ignoreBOM]`, Want: `["utf-8",false,true,false]`},
	})
}

// TestURLSearchParams checks that URLSearchParams parses and serializes application/x-www-form-urlencoded data.
func TestURLSearchParams(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const p = new URLSearchParams("?a=1&b=x%20y&a=3&c=%E2%82%AC&d=+plus+&e"); return [p.get("a"), p.getAll("a"), p.get("b"), p.get("c"), p.get("d"), p.get("e"), p.get("zz"), p.has("a"), p.has("a", "3"), p.size, p.toString()] })()`, Want: `["1",["1","3"],"x y","€"," plus ","",null,true,true,6,"a=1&b=x+y&a=3&c=%E2%82%AC&d=+plus+&e="]`},
		{Expr: `new URLSearchParams({ q: "a b", n: 1, t: true }).toString()`, Want: `"q=a+b&n=1&t=true"`},
		{Expr: `new URLSearchParams([["x", "1"], ["y", "é"]]).toString()`, Want: `"x=1&y=%C3%A9"`},
		{Expr: `new URLSearchParams(new Map([["k", "v"]])).toString()`, Want: `"k=v"`},
		{Expr: `(() => { const p = new URLSearchParams("b=2&a=1&c=3&a=0"); p.sort(); p.delete("c"); return [...p] })()`, Want: `[["a","1"],["a","0"],["b","2"]]`},
		{Expr: `(() => { const p = new URLSearchParams("a=1&b=2"); const out = []; p.forEach((v, k) => out.push(k + "=" + v)); return [out, [...p.keys()], [...p.values()], [...p.entries()]] })()`, Want: `[["a=1","b=2"],["a","b"],["1","2"],[["a","1"],["b","2"]]]`},
		{Expr: `new URLSearchParams("x=*-._~!'()").toString()`, Want: `"x=*-._%7E%21%27%28%29"`},
		{Expr: `(() => { try { new URLSearchParams([["a"]]); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["TypeError","Each query pair must be an iterable [name, value] tuple"]`},
		// The iterators are Node's (and not generators, whose constructor
		// would reach GeneratorFunction).
		{Expr: `(() => { const p = new URLSearchParams("a=1&b=2"); const it = p.keys(); const a = util.inspect(it); it.next(); const b = util.inspect(it); it.next(); return [a, b, util.inspect(it), util.inspect(p.entries()), util.inspect(p.values())] })()`,
			Want: `["URLSearchParams Iterator { 'a', 'b' }","URLSearchParams Iterator { 'b' }","URLSearchParams Iterator {  }","URLSearchParams Iterator { [ 'a', '1' ], [ 'b', '2' ] }","URLSearchParams Iterator { '1', '2' }"]`},
		{Expr: `(() => { const it = new URLSearchParams("a=1").entries(); return [Object.prototype.toString.call(it), Object.getOwnPropertyNames(it), it[Symbol.iterator]() === it, Object.getOwnPropertyNames(Object.getPrototypeOf(it)), it.constructor === Object, typeof it.return] })()`,
			Want: `["[object URLSearchParams Iterator]",[],true,["next"],true,"undefined"]`},
		{Expr: `(() => { const p = new URLSearchParams("a=1"); const it = p.entries(); p.append("b", "2"); const u = new URL("http://h/?m=1"); const k = u.searchParams.keys(); u.search = "?n=2&o=3"; return [[...it], [...k]] })()`,
			Want: `[[["a","1"],["b","2"]],["n","o"]]`},
		{Expr: `[() => URLSearchParams.prototype.keys.call({}), () => new URLSearchParams().keys().next.call({})].map((f) => { try { f(); return "no error" } catch (e) { return [e.name, e.code, e.message] } })`,
			Want: `[["TypeError","ERR_INVALID_THIS","Value of \"this\" must be of type URLSearchParams"],["TypeError","ERR_INVALID_THIS","Value of \"this\" must be of type URLSearchParamsIterator"]]`},
		{Expr: `util.inspect(new URLSearchParams(Array.from({ length: 12 }, (_, i) => ["key" + i, "value number " + i])).entries()).split("\n").length`, Want: `13`},
	})
}

// TestURL checks that URL parses, resolves and serializes URLs as Node's WHATWG URL does.
func TestURL(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const u = new URL("https://user:pw@Example.COM:443/a/./b/../c?x=1&y=2#frag"); return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash] })()`, Want: `["https://user:pw@example.com/a/c?x=1&y=2#frag","https://example.com","https:","user","pw","example.com","example.com","","/a/c","?x=1&y=2","#frag"]`},
		{Expr: `(() => { const u = new URL("http://example.com:8080"); return [u.href, u.host, u.port, u.pathname, u.origin] })()`, Want: `["http://example.com:8080/","example.com:8080","8080","/","http://example.com:8080"]`},
		{Expr: `new URL("../d/e?q#h", "https://a.org/b/c/").href`, Want: `"https://a.org/b/d/e?q#h"`},
		{Expr: `new URL("/root", "https://a.org/b/c").href`, Want: `"https://a.org/root"`},
		{Expr: `new URL("?only", "https://a.org/b/c?old#f").href`, Want: `"https://a.org/b/c?only"`},
		{Expr: `new URL("#frag", "https://a.org/b/c?old#f").href`, Want: `"https://a.org/b/c?old#frag"`},
		{Expr: `new URL("//other.net/p", "https://a.org/b").href`, Want: `"https://other.net/p"`},
		{Expr: `new URL("https://a.org/sp ace/\u00e9?q=a b&c=\"d\"#h h").href`, Want: `"https://a.org/sp%20ace/%C3%A9?q=a%20b&c=%22d%22#h%20h"`},
		{Expr: `new URL("https://\u00e9xample.com/").hostname`, Want: `"xn--xample-9ua.com"`},
		{Expr: `new URL("http://0x7f.1/").hostname`, Want: `"127.0.0.1"`},
		{Expr: `new URL("http://[::1]:3000/x").host`, Want: `"[::1]:3000"`},
		{Expr: `new URL("http://[2001:db8:0:0:0:0:2:1]/").hostname`, Want: `"[2001:db8::2:1]"`},
		{Expr: `new URL("mailto:someone@example.com").pathname`, Want: `"someone@example.com"`},
		{Expr: `new URL("file:///etc/hosts").href`, Want: `"file:///etc/hosts"`},
		{Expr: `new URL("data:text/plain,hello world").href`, Want: `"data:text/plain,hello world"`},
		{Expr: `new URL("custom://host/path?x").host`, Want: `"host"`},
		{Expr: `new URL("HTTP://A.COM").href`, Want: `"http://a.com/"`},
		{Expr: `new URL("http://a.com/%7Efoo/a%2fb").pathname`, Want: `"/%7Efoo/a%2fb"`},
		{Expr: `(() => { try { new URL("not a url"); return "no" } catch (e) { return [e.name, e.message, e.code, e.input] } })()`, Want: `["TypeError","Invalid URL","ERR_INVALID_URL","not a url"]`},
		{Expr: `(() => { try { new URL("/relative"); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["TypeError","Invalid URL"]`},
		{Expr: `[URL.canParse("https://a"), URL.canParse("nope"), URL.canParse("/x", "https://a")]`, Want: `[true,false,true]`},
		{Expr: `(() => { const u = new URL("https://a.org/p?x=1"); u.searchParams.append("y", "2 3"); u.searchParams.set("x", "9"); return [u.href, u.search] })()`, Want: `["https://a.org/p?x=9&y=2+3","?x=9&y=2+3"]`},
		{Expr: `(() => { const u = new URL("https://a.org/p"); u.pathname = "/new path"; u.hash = "h"; u.search = "?q=1"; u.port = "8443"; u.hostname = "b.org"; return u.href })()`, Want: `"https://b.org:8443/new%20path?q=1#h"`},
		{Expr: `(() => { const u = new URL("https://a.org/p?a=1"); u.search = ""; return [u.href, u.searchParams.get("a")] })()`, Want: `["https://a.org/p",null]`},
		{Expr: `(() => { const u = new URL("https://a.org/p"); u.protocol = "http"; u.username = "me"; u.password = "p@ss"; return u.href })()`, Want: `"http://me:p%40ss@a.org/p"`},
		{Expr: `JSON.stringify({ u: new URL("https://a.org/x") })`, Want: `"{\"u\":\"https://a.org/x\"}"`},
		{Expr: `String(new URL("https://a.org/x?y#z"))`, Want: `"https://a.org/x?y#z"`},
	})
}

// TestBase64 checks that atob and btoa implement forgiving base64 with Node's errors.
func TestBase64(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[btoa("hello"), btoa(""), btoa("\u00ff\u00fe"), atob("aGVsbG8="), atob(" aGVs bG8 "), atob("aGk"), atob("")]`, Want: `["aGVsbG8=","","//4=","hello","hello","hi",""]`},
		{Expr: `(() => { try { btoa("€"); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, Want: `["InvalidCharacterError","Invalid character",5]`},
		{Expr: `(() => { try { atob("a"); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["InvalidCharacterError","The string to be decoded is not correctly encoded."]`},
		{Expr: `(() => { try { atob("@@@@"); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["InvalidCharacterError","Invalid character"]`},
		{Expr: `[btoa(undefined), btoa(null), btoa(12), atob(undefined === 1 ? "" : "MTI=")]`, Want: `["dW5kZWZpbmVk","bnVsbA==","MTI=","12"]`},
	})
}

// TestCrypto checks that crypto.randomUUID and crypto.getRandomValues.
func TestCrypto(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())`, Want: `true`},
		{Expr: `crypto.randomUUID() !== crypto.randomUUID()`, Want: `true`},
		{Expr: `(() => { const a = new Uint32Array(8); const r = crypto.getRandomValues(a); return [r === a, a.some((x) => x !== 0)] })()`, Want: `[true,true]`},
		{Expr: `(() => { try { crypto.getRandomValues(new Float64Array(2)); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["TypeMismatchError","The data argument must be an integer-type TypedArray"]`},
		{Expr: `(() => { try { crypto.getRandomValues(new Uint8Array(65537)); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["QuotaExceededError","The requested length exceeds 65,536 bytes"]`},
		{Expr: `crypto.getRandomValues(new Uint8Array(65536)).length`, Want: `65536`},
	})
}

// TestPerformance checks that performance.now, timeOrigin, mark and measure.
func TestPerformance(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[typeof performance.now(), performance.now() >= 0, performance.now() < 60000, typeof performance.timeOrigin, performance.timeOrigin > 1.6e12]`, Want: `["number",true,true,"number",true]`},
		{Expr: `(() => { const a = performance.now(); let x = 0; for (let i = 0; i < 1e5; i++) x += i; return performance.now() >= a })()`, Want: `true`},
		{Expr: `(() => { performance.mark("a"); const m = performance.measure("m", "a"); return [m.name, m.entryType, m.duration >= 0, performance.getEntriesByType("mark").length] })()`, Want: `["m","measure",true,1]`},
	})
}

// TestDOMException checks that DOMException and the global alias.
func TestDOMException(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[typeof DOMException, new DOMException("m", "AbortError").name, new DOMException("m", "AbortError").code, new DOMException("m").name, String(new DOMException("msg", "NotFoundError"))]`, Want: `["function","AbortError",20,"Error","NotFoundError: msg"]`},
		{Expr: `typeof global === "object" && global === globalThis`, Want: `true`},
	})
}

// TestNumberLocale checks that Number.prototype.toLocaleString and Intl.NumberFormat: en-US in full, a few other locales, and en-US for any other.
func TestNumberLocale(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(1234.5).toLocaleString()`, Want: `"1,234.5"`},
		{Expr: `[(1234.5).toLocaleString(), (1234.5).toLocaleString("de-DE"), (1234.5).toLocaleString(), (12345n).toLocaleString()]`, Want: `["1,234.5","1.234,5","1,234.5","12,345"]`},
		{Expr: `(1234567.891).toLocaleString("en-US")`, Want: `"1,234,567.891"`},
		{Expr: `(0.256).toLocaleString("en-US", { style: "percent" })`, Want: `"26%"`},
		{Expr: `(1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" })`, Want: `"$1,234.50"`},
		{Expr: `(-5).toLocaleString("en-US", { style: "currency", currency: "USD" })`, Want: `"-$5.00"`},
		{Expr: `(1234.5).toLocaleString("en-US", { style: "currency", currency: "EUR" })`, Want: `"€1,234.50"`},
		{Expr: `(1234.5).toLocaleString("en-US", { style: "currency", currency: "JPY" })`, Want: `"¥1,235"`},
		{Expr: `(1).toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "code" })`, Want: `"USD 1.00"`},
		{Expr: `(1).toLocaleString("en-US", { minimumFractionDigits: 2 })`, Want: `"1.00"`},
		{Expr: `(1234.5678).toLocaleString("en-US", { maximumFractionDigits: 2 })`, Want: `"1,234.57"`},
		{Expr: `(1.005).toLocaleString("en-US", { maximumFractionDigits: 2 })`, Want: `"1.01"`},
		{Expr: `(2.5).toLocaleString("en-US", { maximumFractionDigits: 0 })`, Want: `"3"`},
		{Expr: `(-2.5).toLocaleString("en-US", { maximumFractionDigits: 0 })`, Want: `"-3"`},
		{Expr: `(0.0005).toLocaleString()`, Want: `"0.001"`},
		{Expr: `(1e21).toLocaleString()`, Want: `"1,000,000,000,000,000,000,000"`},
		{Expr: `(-0).toLocaleString()`, Want: `"-0"`},
		{Expr: `[NaN.toLocaleString(), Infinity.toLocaleString(), (-Infinity).toLocaleString()]`, Want: `["NaN","∞","-∞"]`},
		{Expr: `(12345).toLocaleString("en-US", { useGrouping: false })`, Want: `"12345"`},
		{Expr: `(5).toLocaleString("en-US", { minimumIntegerDigits: 3 })`, Want: `"005"`},
		{Expr: `(123456).toLocaleString("en-US", { maximumSignificantDigits: 3 })`, Want: `"123,000"`},
		{Expr: `(1.5).toLocaleString("en-US", { minimumSignificantDigits: 5 })`, Want: `"1.5000"`},
		{Expr: `(0.12345).toLocaleString("en-US", { style: "percent", maximumFractionDigits: 1 })`, Want: `"12.3%"`},
		{Expr: `(5).toLocaleString("en-US", { signDisplay: "always" })`, Want: `"+5"`},
		{Expr: `(0).toLocaleString("en-US", { signDisplay: "exceptZero" })`, Want: `"0"`},
		{Expr: `[1234, 1234567, 999999, 15300, 153000, 999, 0.5, 1.234].map((n) => n.toLocaleString("en-US", { notation: "compact" }))`, Want: `["1.2K","1.2M","1M","15K","153K","999","0.5","1.2"]`},
		{Expr: `(1234567).toLocaleString("en-US", { notation: "compact", compactDisplay: "long" })`, Want: `"1.2 million"`},
		{Expr: `[123456, 0.00123].map((n) => n.toLocaleString("en-US", { notation: "scientific" }))`, Want: `["1.235E5","1.23E-3"]`},
		{Expr: `(123456).toLocaleString("en-US", { notation: "engineering" })`, Want: `"123.456E3"`},
		{Expr: `(50).toLocaleString("en-US", { style: "unit", unit: "kilometer-per-hour" })`, Want: `"50 km/h"`},
		{Expr: `(2).toLocaleString("en-US", { style: "unit", unit: "megabyte", unitDisplay: "long" })`, Want: `"2 megabytes"`},
		{Expr: `(1234.5).toLocaleString("de-DE")`, Want: `"1.234,5"`},
		{Expr: `(1234.5).toLocaleString("fr-FR")`, Want: `"1 234,5"`},
		{Expr: `(1234.5).toLocaleString("de-DE", { style: "currency", currency: "EUR" })`, Want: `"1.234,50 €"`},
		{Expr: `(12345.5).toLocaleString("es-ES")`, Want: `"12.345,5"`},
		{Expr: `(1234.5).toLocaleString("es-ES")`, Want: `"1234,5"`},
		{Expr: `(1234567.891).toLocaleString("en-IN")`, Want: `"12,34,567.891"`},
		{Expr: `(1234.5).toLocaleString("xx-YY")`, Want: `"1,234.5"`},
		{Expr: `(1234.5).toLocaleString(["de-DE", "en-US"])`, Want: `"1.234,5"`},
		{Expr: `(12345678901234567890n).toLocaleString("en-US")`, Want: `"12,345,678,901,234,567,890"`},
		{Expr: `new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(1234.5678)`, Want: `"1,234.57"`},
		{Expr: `new Intl.NumberFormat().format(1e6)`, Want: `"1,000,000"`},
		{Expr: `[1, 2.5, 1000].map(new Intl.NumberFormat("en-US").format)`, Want: `["1","2.5","1,000"]`},
		{Expr: `new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatToParts(-1234.5)`, Want: `[{"type":"minusSign","value":"-"},{"type":"currency","value":"$"},{"type":"integer","value":"1"},{"type":"group","value":","},{"type":"integer","value":"234"},{"type":"decimal","value":"."},{"type":"fraction","value":"50"}]`},
		{Expr: `new Intl.NumberFormat("de").resolvedOptions()`, Want: `{"locale":"de","numberingSystem":"latn","style":"decimal","minimumIntegerDigits":1,"minimumFractionDigits":0,"maximumFractionDigits":3,"useGrouping":"auto","notation":"standard","signDisplay":"auto","roundingMode":"halfExpand","roundingIncrement":1,"trailingZeroDisplay":"auto","roundingPriority":"auto"}`},
		{Expr: `new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).resolvedOptions()`, Want: `{"locale":"en-US","numberingSystem":"latn","style":"currency","currency":"USD","currencyDisplay":"symbol","currencySign":"standard","minimumIntegerDigits":1,"minimumFractionDigits":2,"maximumFractionDigits":2,"useGrouping":"auto","notation":"standard","signDisplay":"auto","roundingMode":"halfExpand","roundingIncrement":1,"trailingZeroDisplay":"auto","roundingPriority":"auto"}`},
		{Expr: `(() => { try { new Intl.NumberFormat("en-US", { style: "currency" }); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["TypeError","Currency code is required with currency style."]`},
		{Expr: `(() => { try { new Intl.NumberFormat("en_US"); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["RangeError","Incorrect locale information provided"]`},
		{Expr: `(() => { try { new Intl.NumberFormat("en-US", { style: "bogus" }); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["RangeError","Value bogus out of range for Intl.NumberFormat options property style"]`},
		{Expr: `[1, 2.5, 1000].toLocaleString()`, Want: `"1,2.5,1,000"`},
	})
}

// TestDateLocale checks that Date.prototype.toLocale*String and Intl.DateTimeFormat in en-US patterns.
func TestDateLocale(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `new Date(0).toLocaleDateString("en-US", { timeZone: "UTC" })`, Want: `"1/1/1970"`},
		{Expr: `new Date(0).toLocaleTimeString("en-US", { timeZone: "UTC" })`, Want: `"12:00:00 AM"`},
		{Expr: `new Date(0).toLocaleString("en-US", { timeZone: "UTC" })`, Want: `"1/1/1970, 12:00:00 AM"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" })`, Want: `"January 2, 2024"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", weekday: "long", year: "numeric", month: "short", day: "numeric" })`, Want: `"Tuesday, Jan 2, 2024"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "2-digit", day: "2-digit", year: "numeric" })`, Want: `"01/02/2024"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleTimeString("en-US", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" })`, Want: `"03:04 PM"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleTimeString("en-US", { timeZone: "UTC", hour12: false })`, Want: `"15:04:05"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "America/New_York" })`, Want: `"1/2/2024, 10:04:05 AM"`},
		{Expr: `new Date(Date.UTC(2024, 6, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "Asia/Tokyo", timeZoneName: "short" })`, Want: `"7/3/2024, 12:04:05 AM GMT+9"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "long" })`, Want: `"January"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric" })`, Want: `"Jan 2"`},
		{Expr: `new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long" })`, Want: `"January 2024"`},
		{Expr: `["full", "long", "medium", "short"].map((s) => new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "UTC", dateStyle: s, timeStyle: s }))`, Want: `["Tuesday, January 2, 2024 at 3:04:05 PM Coordinated Universal Time","January 2, 2024 at 3:04:05 PM UTC","Jan 2, 2024, 3:04:05 PM","1/2/24, 3:04 PM"]`},
		{Expr: `new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }).format(new Date(0))`, Want: `"1/1/1970"`},
		{Expr: `new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" }).format(0)`, Want: `"Jan 1, 1970"`},
		{Expr: `new Date(NaN).toLocaleDateString()`, Want: `"Invalid Date"`},
		{Expr: `(() => { const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5)); const calls = (o) => [d.toLocaleDateString(undefined, o), d.toLocaleTimeString(undefined, o), d.toLocaleString(undefined, o), d.toLocaleDateString(undefined, o)]; const plain = calls(undefined), fresh = calls({}); return [plain.every((s, i) => s === fresh[i]), plain[0] === plain[3], new Set(plain).size] })()`, Want: `[true,true,3]`},
		{Expr: `new Date(0).toLocaleDateString("de-DE", { timeZone: "UTC" }).length > 0`, Want: `true`},
		{Expr: `(() => { try { new Date(0).toLocaleString("en-US", { timeZone: "Not/AZone" }); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["RangeError","Invalid time zone specified: Not/AZone"]`},
		{Expr: `new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hour: "numeric" }).resolvedOptions()`, Want: `{"locale":"en-US","calendar":"gregory","numberingSystem":"latn","timeZone":"UTC","hourCycle":"h12","hour12":true,"hour":"numeric"}`},
	})
}

// TestDate checks date.js's Date: full zone names in toString and
// toTimeString, and no date in a string of seven or more digits.
func TestDate(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[String(new Date(0)), new Date(0).toTimeString(), Date.prototype.toString.call(new Date(86400000))]`, Want: `["Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)","00:00:00 GMT+0000 (Coordinated Universal Time)","Fri Jan 02 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"]`},
		{Expr: `["1234567", " 12345678 ", "123456", "2024", "\t1234567\n", "1234567a"].map((s) => Number.isNaN(Date.parse(s)))`, Want: `[true,true,false,false,true,true]`},
		{Expr: `["1234567", "123456", "2024-01-02"].map((s) => Number.isNaN(new Date(s).getTime()))`, Want: `[true,false,false]`},
		{Expr: `[typeof Date(), Date().endsWith("(Coordinated Universal Time)"), Date.length, Date.name, new Date(5) instanceof Date, Date.prototype.constructor === Date]`, Want: `["string",true,7,"Date",true,true]`},
	})
}

// TestNodeErrors checks the errors that buffer.js, events.js, process.js
// and textcoding.js make with errors.js's helpers (expected values from
// node v20), and that the helpers are no globals.
func TestNodeErrors(t *testing.T) {
	t.Parallel()
	const r = `((f) => { try { f(); return "no" } catch (e) { return [e.name, e.code, e.message] } })`
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: r + `(() => Buffer.alloc(2 ** 40))`, Want: `["RangeError","ERR_OUT_OF_RANGE","The value of \"size\" is out of range. It must be >= 0 && <= 4294967296. Received 1_099_511_627_776"]`},
		{Expr: r + `(() => Buffer.alloc(2).writeUInt8(300))`, Want: `["RangeError","ERR_OUT_OF_RANGE","The value of \"value\" is out of range. It must be >= 0 and <= 255. Received 300"]`},
		{Expr: r + `(() => AbortSignal.timeout(2 ** 40))`, Want: `["RangeError","ERR_OUT_OF_RANGE","The value of \"delay\" is out of range. It must be >= 0 && <= 4294967295. Received 1_099_511_627_776"]`},
		{Expr: r + `(() => { process.exitCode = "x" })`, Want: `["TypeError","ERR_INVALID_ARG_TYPE","The \"code\" argument must be of type number. Received type string ('x')"]`},
		{Expr: r + `(() => new TextEncoder().encodeInto("a", [])).slice(0, 2)`, Want: `["TypeError","ERR_INVALID_ARG_TYPE"]`},
		{Expr: `[Buffer, Event, process, TextEncoder].length + [typeof ERR, typeof outOfRange, typeof errors].join()`, Want: `"4undefined,undefined,undefined"`},
	})
}

// TestIntlOther checks that Intl.PluralRules, Collator, ListFormat and RelativeTimeFormat for English.
func TestIntlOther(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `new Intl.PluralRules("en-US").select(1) + new Intl.PluralRules("en-US").select(2) + new Intl.PluralRules("en-US", { type: "ordinal" }).select(22)`, Want: `"oneothertwo"`},
		// Whole millions are "many" in French, Spanish, Italian, Portuguese and Catalan (node v20's CLDR).
		{Expr: `["fr", "es", "pt-PT", "it", "ca", "en"].map((l) => { const p = new Intl.PluralRules(l); return [p.select(1e6), p.select(3e6), p.select(1.5e6), p.select(1), new Intl.PluralRules(l, { minimumFractionDigits: 1 }).select(1e6), p.resolvedOptions().pluralCategories.join()] })`,
			Want: `[["many","many","other","one","other","many,one,other"],["many","many","other","one","other","many,one,other"],["many","many","other","one","other","many,one,other"],["many","many","other","one","other","many,one,other"],["many","many","other","one","other","many,one,other"],["other","other","other","one","other","one,other"]]`},
		{Expr: `["b", "a", "C", "item10", "item2"].sort(new Intl.Collator("en", { numeric: true }).compare)`, Want: `["a","b","C","item2","item10"]`},
		{Expr: `["a".localeCompare("A"), "a".localeCompare("A", undefined, { sensitivity: "base" }), "a".localeCompare("A"), ["b", "a", "B"].sort((x, y) => x.localeCompare(y))]`, Want: `[-1,0,-1,["a","b","B"]]`},
		{Expr: `[new Intl.ListFormat("en", { type: "conjunction" }).format(["a", "b", "c"]), new Intl.ListFormat("en", { type: "disjunction" }).format(["a", "b"])]`, Want: `["a, b, and c","a or b"]`},
		{Expr: `[new Intl.RelativeTimeFormat("en").format(-1, "day"), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"), new Intl.RelativeTimeFormat("en").format(3, "hours")]`, Want: `["1 day ago","yesterday","in 3 hours"]`},
	})
}

// TestES2024Additions checks Object.groupBy, Map.groupBy and
// Promise.withResolvers (ES2024, which node v20 lacks: expectations are
// the specification's), String.prototype.isWellFormed and toWellFormed,
// WeakRef and FinalizationRegistry (expectations node v20's), and that
// they exist only when mentioned.
func TestES2024Additions(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `Object.groupBy([1, 2, 3, 4, 5], (n) => n % 2 ? "odd" : "even")`, Want: `{"odd":[1,3,5],"even":[2,4]}`},
		{Expr: `Object.getPrototypeOf(Object.groupBy([], (x) => x)) === null`, Want: `true`},
		{Expr: `Object.groupBy("abca", (c, i) => c + i % 2)`, Want: `{"a0":["a"],"b1":["b"],"c0":["c"],"a1":["a"]}`},
		{Expr: `[...Map.groupBy([1.5, 2.5, -0, 0], (n) => Math.floor(n))].map(([k, v]) => [Object.is(k, -0) ? "-0" : k, v])`, Want: `[[1,[1.5]],[2,[2.5]],[0,[0,0]]]`},
		{Expr: `(() => { try { Object.groupBy([1], 5) } catch (e) { return e.name } })()`, Want: `"TypeError"`},
		{Expr: `(async () => { const { promise, resolve } = Promise.withResolvers(); setTimeout(() => resolve("done"), 1); return await promise })()`, Want: `"done"`},
		{Expr: `(async () => { const { promise, reject } = Promise.withResolvers(); reject(new Error("r")); return await promise.catch((e) => e.message) })()`, Want: `"r"`},
		{Expr: `Object.keys(Promise.withResolvers()).join()`, Want: `"promise,resolve,reject"`},
		{Expr: `["ab", "a\uD800", "\uDC00b", "\uD83D\uDE00", ""].map((s) => s.isWellFormed())`, Want: `[true,false,false,true,true]`},
		{Expr: `["a\uD800b\uDC00", "\uD83D\uDE00\uD83D", "ok"].map((s) => [...s.toWellFormed()].map((c) => c.codePointAt(0).toString(16)).join(" "))`, Want: `["61 fffd 62 fffd","1f600 fffd","6f 6b"]`},
		{Expr: `(() => { try { String.prototype.toWellFormed.call(null) } catch (e) { return e.name } })()`, Want: `"TypeError"`},
		// WeakRef and FinalizationRegistry (ES2021), which goja lacks.
		{Expr: `(() => { const t = { a: 1 }; const w = new WeakRef(t); return [w.deref() === t, Object.prototype.toString.call(w), w instanceof WeakRef] })()`, Want: `[true,"[object WeakRef]",true]`},
		{Expr: `(() => { const r = new FinalizationRegistry(() => {}); const t = {}; return [r.register(t, "held", t), r.unregister(t), Object.prototype.toString.call(r)] })()`, Want: `[null,false,"[object FinalizationRegistry]"]`},
		{Expr: `[() => WeakRef({}), () => new WeakRef(1), () => new FinalizationRegistry(5), () => new FinalizationRegistry(() => {}).register(1)].map((f) => { try { f(); return "no error" } catch (e) { return e.name + ": " + e.message } })`,
			Want: `["TypeError: Constructor WeakRef requires 'new'","TypeError: WeakRef: invalid target","TypeError: 5 is not a function","TypeError: FinalizationRegistry.prototype.register: invalid target"]`},
		{Expr: `[Object.getOwnPropertyDescriptor(globalThis, "WeakRef").enumerable, Object.keys(WeakRef.prototype).length]`, Want: `[false,0]`},
		// JSON.parse's syntax errors say node's words and position; a
		// reviver's own SyntaxError is left as it is.
		{Expr: `['{"a":1,}', "[1, 2", "{bad}", ""].map((s) => { try { JSON.parse(s) } catch (e) { return [e.name, e.message, e.stack.split("\n")[0] === e.name + ": " + e.message] } })`,
			Want: `[["SyntaxError","Expected double-quoted property name in JSON at position 7",true],["SyntaxError","Expected ',' or ']' after array element in JSON at position 5",true],["SyntaxError","Expected property name or '}' in JSON at position 1",true],["SyntaxError","Unexpected end of JSON input",true]]`},
		{Expr: `(() => { try { JSON.parse('{"a":1}', (k, v) => { if (k === "a") throw new SyntaxError("mine"); return v }) } catch (e) { return e.message } })()`, Want: `"mine"`},
		{Expr: `[JSON.parse(' {"a":[1,2]} ', (k, v) => typeof v === "number" ? v * 2 : v), JSON.parse(1), JSON.parse.name, JSON.parse.length]`, Want: `[{"a":[2,4]},1,"parse",2]`},
		// Promise.any's AggregateError has node's message.
		{Expr: `Promise.any([Promise.reject(1), Promise.reject(2)]).catch((e) => [e.name, e.message, e.errors, e instanceof AggregateError, e.stack.split("\n")[0]])`, Want: `["AggregateError","All promises were rejected",[1,2],true,"AggregateError: All promises were rejected"]`},
		{Expr: `Promise.any([Promise.reject(1), 2]).then((v) => [v, Promise.any.name, Promise.any.length])`, Want: `[2,"any",1]`},
	})
	res := runtest.MustRun(t, `return [typeof Object["group" + "By"], typeof Promise["with" + "Resolvers"], typeof ""["isWell" + "Formed"], typeof globalThis["Weak" + "Ref"], await Promise["any"]([Promise.reject(1)]).catch((e) => e.message)]`, runtime.Options{})
	if string(res.Value) != `["undefined","undefined","undefined","undefined",""]` {
		t.Errorf("without a mention: %s", res.Value)
	}
	// A name in a comment installs nothing; one in a string does.
	res = runtest.MustRun(t, "// Object.groupBy\nreturn typeof Object[\"group\" + \"By\"]", runtime.Options{})
	if string(res.Value) != `"undefined"` {
		t.Errorf("named in a comment: %s", res.Value)
	}
	res = runtest.MustRun(t, `return typeof Object["groupBy"]`, runtime.Options{})
	if string(res.Value) != `"function"` {
		t.Errorf("named in a string: %s", res.Value)
	}
}

// TestDisposal checks using and await using declarations, which esbuild
// lowers to helpers that read Symbol.dispose and Symbol.asyncDispose: the
// symbols are defined as Node 20 has them, only for a snippet that
// names them or declares with using (transform.Disposal).
func TestDisposal(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(() => { const log = []; const r = (n) => ({ [Symbol.dispose]() { log.push(n) } }); { using a = r("a"); using b = r("b"); log.push("body") } return log })()`, Want: `["body","b","a"]`},
		{Expr: `(async () => { const log = []; { await using a = { async [Symbol.asyncDispose]() { await null; log.push("async a") } }; using b = { [Symbol.dispose]() { log.push("b") } }; log.push("body") } return log })()`, Want: `["body","b","async a"]`},
		{Expr: `(() => { const log = []; try { using a = { [Symbol.dispose]() { log.push("disposed") } }; throw new Error("thrown") } catch (e) { log.push(e.message) } return log })()`, Want: `["disposed","thrown"]`},
		{Expr: `(() => { try { using a = {}; return "no error" } catch (e) { return e.name } })()`, Want: `"TypeError"`},
		{Expr: `(() => { using a = null; return "null is allowed" })()`, Want: `"null is allowed"`},
		{Expr: `[String(Symbol.dispose), String(Symbol.asyncDispose), typeof Symbol.dispose, Object.getOwnPropertyDescriptor(Symbol, "dispose")]`, Want: `["Symbol(nodejs.dispose)","Symbol(nodejs.asyncDispose)","symbol",{"writable":false,"enumerable":false,"configurable":false}]`},
		{Expr: `(() => { try { Symbol.dispose = 1 } catch {} return typeof Symbol.dispose })()`, Want: `"symbol"`},
	})
	// Not "dis" + "pose": esbuild folds that into the name.
	res := runtest.MustRun(t, `return typeof (Symbol as any)[["dis", "pose"].join("")]`, runtime.Options{})
	if string(res.Value) != `"undefined"` {
		t.Errorf("without a mention: %s", res.Value)
	}
}

// TestAsyncIterator checks async iteration, which esbuild lowers (goja
// has neither async generators nor for await): Symbol.asyncIterator is
// defined for a snippet that mentions it, as the registered symbol the
// lowered code uses while it is undefined.
func TestAsyncIterator(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `(async () => { const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ done: i >= 2, value: i++ }) } } }; const out = []; for await (const y of it) out.push(y); return out })()`, Want: `[0,1]`},
		{Expr: `(async () => { async function* g() { yield 1; await null; yield 2 } const out = []; for await (const x of g()) out.push(x); return [out, typeof g()[Symbol.asyncIterator]] })()`, Want: `[[1,2],"function"]`},
		{Expr: `(async () => { async function* g() { yield 1 } const out = []; for await (const x of g()) out.push(x); for await (const y of [Promise.resolve(2), 3]) out.push(y); return out })()`, Want: `[1,2,3]`},
		{Expr: `[String(Symbol.asyncIterator), typeof Symbol.asyncIterator, Object.getOwnPropertyDescriptor(Symbol, "asyncIterator").writable]`, Want: `["Symbol(Symbol.asyncIterator)","symbol",false]`},
	})
	res := runtest.MustRun(t, `return typeof Symbol["async" + "Iterator"]`, runtime.Options{})
	if string(res.Value) != `"undefined"` {
		t.Errorf("without a mention: %s", res.Value)
	}
}

// TestLazyGlobals checks that the lazily installed globals behave as
// ordinary ones: typeof, assignment, deletion, no enumeration, and a fresh
// set in every run.
func TestLazyGlobals(t *testing.T) {
	runtest.CheckLeaks(t)
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["structuredClone", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "atob", "btoa", "crypto", "performance", "DOMException", "Intl", "global"].map((n) => typeof globalThis[n])`,
			Want: `["function","function","function","function","function","function","function","object","object","function","object","object"]`},
		{Expr: `typeof URL === "function" && URL === globalThis.URL && "URL" in globalThis`, Want: `true`},
		{Expr: `Object.keys(globalThis).filter((k) => ["URL", "crypto", "Intl"].includes(k))`, Want: `[]`},
		{Expr: `(() => { URL = 5; return URL })()`, Want: `5`},
		{Expr: `(() => { globalThis.atob = () => "mine"; return atob("x") })()`, Want: `"mine"`},
		{Expr: `(() => { const u = URL; delete globalThis.URL; return [typeof u, typeof globalThis.URL] })()`, Want: `["function","function"]`},
		{Expr: `Object.prototype.toString.call(crypto) + Object.prototype.toString.call(performance) + Object.prototype.toString.call(Intl)`, Want: `"[object Crypto][object Performance][object Intl]"`},
	})
	runtest.MustRun(t, `(URL as any).prototype.extra = 1; (globalThis as any).URL = null; (Intl as any).NumberFormat = null;`, runtime.Options{})
	res := runtest.MustRun(t, `return [typeof URL, (URL as any).prototype.extra, typeof Intl.NumberFormat];`, runtime.Options{})
	if string(res.Value) != `["function",null,"function"]` {
		t.Errorf("a second run saw the first's changes: %s", res.Value)
	}
}
