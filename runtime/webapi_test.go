package runtime

import (
	"testing"

	_ "time/tzdata" // time zones for the Intl tests on hosts without tzdata
)

// Expected values in this file were produced by node v20 (TZ=UTC) with
// JSON.stringify of the same expressions, except where a comment says
// otherwise.

// TestTextEncoding checks that TextEncoder and TextDecoder encode and decode UTF-8 as the WHATWG Encoding standard does (BOM, replacement characters, fatal mode, streaming).
func TestTextEncoding(t *testing.T) {
	runValueCases(t, []valueCase{
		{`Array.from(new TextEncoder().encode("héllo 😀"))`, `[104,195,169,108,108,111,32,240,159,152,128]`},
		{`new TextEncoder().encode().length`, `0`},
		{`new TextEncoder().encoding`, `"utf-8"`},
		{`(() => { const d = new Uint8Array(4); const r = new TextEncoder().encodeInto("héllo", d); return [r.read, r.written, Array.from(d)] })()`, `[3,4,[104,195,169,108]]`},
		{`new TextDecoder().decode(new Uint8Array([104, 195, 169, 240, 159, 152, 128]))`, `"hé😀"`},
		{`new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 104, 105]))`, `"hi"`},
		{`new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 104])).length`, `2`},
		{`new TextDecoder().decode(new Uint8Array([0xff, 104, 0xe2, 0x82, 105]))`, `"�h�i"`},
		{`new TextDecoder().decode(new Uint8Array([104, 105]).buffer)`, `"hi"`},
		{`new TextDecoder().decode(new DataView(new Uint8Array([65, 66, 67]).buffer, 1))`, `"BC"`},
		{`new TextDecoder().decode()`, `""`},
		{`(() => { try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, `["TypeError","The encoded data was not valid for encoding utf-8","ERR_ENCODING_INVALID_ENCODED_DATA"]`},
		{`(() => { try { new TextDecoder("latin1x"); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, `["RangeError","The \"latin1x\" encoding is not supported","ERR_ENCODING_NOT_SUPPORTED"]`},
		{`(() => { const d = new TextDecoder(); return d.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + "|" + d.decode(new Uint8Array([0xac])) })()`, `"|€"`},
		{`[new TextDecoder().encoding, new TextDecoder().fatal, new TextDecoder("UTF8", { fatal: true }).fatal, new TextDecoder().ignoreBOM]`, `["utf-8",false,true,false]`},
	})
}

// TestURLSearchParams checks that URLSearchParams parses and serializes application/x-www-form-urlencoded data.
func TestURLSearchParams(t *testing.T) {
	runValueCases(t, []valueCase{
		{`(() => { const p = new URLSearchParams("?a=1&b=x%20y&a=3&c=%E2%82%AC&d=+plus+&e"); return [p.get("a"), p.getAll("a"), p.get("b"), p.get("c"), p.get("d"), p.get("e"), p.get("zz"), p.has("a"), p.has("a", "3"), p.size, p.toString()] })()`, `["1",["1","3"],"x y","€"," plus ","",null,true,true,6,"a=1&b=x+y&a=3&c=%E2%82%AC&d=+plus+&e="]`},
		{`new URLSearchParams({ q: "a b", n: 1, t: true }).toString()`, `"q=a+b&n=1&t=true"`},
		{`new URLSearchParams([["x", "1"], ["y", "é"]]).toString()`, `"x=1&y=%C3%A9"`},
		{`new URLSearchParams(new Map([["k", "v"]])).toString()`, `"k=v"`},
		{`(() => { const p = new URLSearchParams("b=2&a=1&c=3&a=0"); p.sort(); p.delete("c"); return [...p] })()`, `[["a","1"],["a","0"],["b","2"]]`},
		{`(() => { const p = new URLSearchParams("a=1&b=2"); const out = []; p.forEach((v, k) => out.push(k + "=" + v)); return [out, [...p.keys()], [...p.values()], [...p.entries()]] })()`, `[["a=1","b=2"],["a","b"],["1","2"],[["a","1"],["b","2"]]]`},
		{`new URLSearchParams("x=*-._~!'()").toString()`, `"x=*-._%7E%21%27%28%29"`},
		{`(() => { try { new URLSearchParams([["a"]]); return "no" } catch (e) { return [e.name, e.message] } })()`, `["TypeError","Each query pair must be an iterable [name, value] tuple"]`},
	})
}

// TestURL checks that URL parses, resolves and serializes URLs as Node's WHATWG URL does.
func TestURL(t *testing.T) {
	runValueCases(t, []valueCase{
		{`(() => { const u = new URL("https://user:pw@Example.COM:443/a/./b/../c?x=1&y=2#frag"); return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash] })()`, `["https://user:pw@example.com/a/c?x=1&y=2#frag","https://example.com","https:","user","pw","example.com","example.com","","/a/c","?x=1&y=2","#frag"]`},
		{`(() => { const u = new URL("http://example.com:8080"); return [u.href, u.host, u.port, u.pathname, u.origin] })()`, `["http://example.com:8080/","example.com:8080","8080","/","http://example.com:8080"]`},
		{`new URL("../d/e?q#h", "https://a.org/b/c/").href`, `"https://a.org/b/d/e?q#h"`},
		{`new URL("/root", "https://a.org/b/c").href`, `"https://a.org/root"`},
		{`new URL("?only", "https://a.org/b/c?old#f").href`, `"https://a.org/b/c?only"`},
		{`new URL("#frag", "https://a.org/b/c?old#f").href`, `"https://a.org/b/c?old#frag"`},
		{`new URL("//other.net/p", "https://a.org/b").href`, `"https://other.net/p"`},
		{`new URL("https://a.org/sp ace/\u00e9?q=a b&c=\"d\"#h h").href`, `"https://a.org/sp%20ace/%C3%A9?q=a%20b&c=%22d%22#h%20h"`},
		{`new URL("https://\u00e9xample.com/").hostname`, `"xn--xample-9ua.com"`},
		{`new URL("http://0x7f.1/").hostname`, `"127.0.0.1"`},
		{`new URL("http://[::1]:3000/x").host`, `"[::1]:3000"`},
		{`new URL("http://[2001:db8:0:0:0:0:2:1]/").hostname`, `"[2001:db8::2:1]"`},
		{`new URL("mailto:someone@example.com").pathname`, `"someone@example.com"`},
		{`new URL("file:///etc/hosts").href`, `"file:///etc/hosts"`},
		{`new URL("data:text/plain,hello world").href`, `"data:text/plain,hello world"`},
		{`new URL("custom://host/path?x").host`, `"host"`},
		{`new URL("HTTP://A.COM").href`, `"http://a.com/"`},
		{`new URL("http://a.com/%7Efoo/a%2fb").pathname`, `"/%7Efoo/a%2fb"`},
		{`(() => { try { new URL("not a url"); return "no" } catch (e) { return [e.name, e.message, e.code, e.input] } })()`, `["TypeError","Invalid URL","ERR_INVALID_URL","not a url"]`},
		{`(() => { try { new URL("/relative"); return "no" } catch (e) { return [e.name, e.message] } })()`, `["TypeError","Invalid URL"]`},
		{`[URL.canParse("https://a"), URL.canParse("nope"), URL.canParse("/x", "https://a")]`, `[true,false,true]`},
		{`(() => { const u = new URL("https://a.org/p?x=1"); u.searchParams.append("y", "2 3"); u.searchParams.set("x", "9"); return [u.href, u.search] })()`, `["https://a.org/p?x=9&y=2+3","?x=9&y=2+3"]`},
		{`(() => { const u = new URL("https://a.org/p"); u.pathname = "/new path"; u.hash = "h"; u.search = "?q=1"; u.port = "8443"; u.hostname = "b.org"; return u.href })()`, `"https://b.org:8443/new%20path?q=1#h"`},
		{`(() => { const u = new URL("https://a.org/p?a=1"); u.search = ""; return [u.href, u.searchParams.get("a")] })()`, `["https://a.org/p",null]`},
		{`(() => { const u = new URL("https://a.org/p"); u.protocol = "http"; u.username = "me"; u.password = "p@ss"; return u.href })()`, `"http://me:p%40ss@a.org/p"`},
		{`JSON.stringify({ u: new URL("https://a.org/x") })`, `"{\"u\":\"https://a.org/x\"}"`},
		{`String(new URL("https://a.org/x?y#z"))`, `"https://a.org/x?y#z"`},
	})
}

// TestBase64 checks that atob and btoa implement forgiving base64 with Node's errors.
func TestBase64(t *testing.T) {
	runValueCases(t, []valueCase{
		{`[btoa("hello"), btoa(""), btoa("\u00ff\u00fe"), atob("aGVsbG8="), atob(" aGVs bG8 "), atob("aGk"), atob("")]`, `["aGVsbG8=","","//4=","hello","hello","hi",""]`},
		{`(() => { try { btoa("€"); return "no" } catch (e) { return [e.name, e.message, e.code] } })()`, `["InvalidCharacterError","Invalid character",5]`},
		{`(() => { try { atob("a"); return "no" } catch (e) { return [e.name, e.message] } })()`, `["InvalidCharacterError","The string to be decoded is not correctly encoded."]`},
		{`(() => { try { atob("@@@@"); return "no" } catch (e) { return [e.name, e.message] } })()`, `["InvalidCharacterError","Invalid character"]`},
		{`[btoa(undefined), btoa(null), btoa(12), atob(undefined === 1 ? "" : "MTI=")]`, `["dW5kZWZpbmVk","bnVsbA==","MTI=","12"]`},
	})
}

// TestCrypto checks that crypto.randomUUID and crypto.getRandomValues.
func TestCrypto(t *testing.T) {
	runValueCases(t, []valueCase{
		{`/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())`, `true`},
		{`crypto.randomUUID() !== crypto.randomUUID()`, `true`},
		{`(() => { const a = new Uint32Array(8); const r = crypto.getRandomValues(a); return [r === a, a.some((x) => x !== 0)] })()`, `[true,true]`},
		{`(() => { try { crypto.getRandomValues(new Float64Array(2)); return "no" } catch (e) { return [e.name, e.message] } })()`, `["TypeMismatchError","The data argument must be an integer-type TypedArray"]`},
		{`(() => { try { crypto.getRandomValues(new Uint8Array(65537)); return "no" } catch (e) { return [e.name, e.message] } })()`, `["QuotaExceededError","The requested length exceeds 65,536 bytes"]`},
		{`crypto.getRandomValues(new Uint8Array(65536)).length`, `65536`},
	})
}

// TestPerformance checks that performance.now, timeOrigin, mark and measure.
func TestPerformance(t *testing.T) {
	runValueCases(t, []valueCase{
		{`[typeof performance.now(), performance.now() >= 0, performance.now() < 60000, typeof performance.timeOrigin, performance.timeOrigin > 1.6e12]`, `["number",true,true,"number",true]`},
		{`(() => { const a = performance.now(); let x = 0; for (let i = 0; i < 1e5; i++) x += i; return performance.now() >= a })()`, `true`},
		{`(() => { performance.mark("a"); const m = performance.measure("m", "a"); return [m.name, m.entryType, m.duration >= 0, performance.getEntriesByType("mark").length] })()`, `["m","measure",true,1]`},
	})
}

// TestDOMException checks that DOMException and the global alias.
func TestDOMException(t *testing.T) {
	runValueCases(t, []valueCase{
		{`[typeof DOMException, new DOMException("m", "AbortError").name, new DOMException("m", "AbortError").code, new DOMException("m").name, String(new DOMException("msg", "NotFoundError"))]`, `["function","AbortError",20,"Error","NotFoundError: msg"]`},
		{`typeof global === "object" && global === globalThis`, `true`},
	})
}

// TestNumberLocale checks that Number.prototype.toLocaleString and Intl.NumberFormat: en-US in full, a few other locales, and en-US for any other.
func TestNumberLocale(t *testing.T) {
	runValueCases(t, []valueCase{
		{`(1234.5).toLocaleString()`, `"1,234.5"`},
		{`(1234567.891).toLocaleString("en-US")`, `"1,234,567.891"`},
		{`(0.256).toLocaleString("en-US", { style: "percent" })`, `"26%"`},
		{`(1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" })`, `"$1,234.50"`},
		{`(-5).toLocaleString("en-US", { style: "currency", currency: "USD" })`, `"-$5.00"`},
		{`(1234.5).toLocaleString("en-US", { style: "currency", currency: "EUR" })`, `"€1,234.50"`},
		{`(1234.5).toLocaleString("en-US", { style: "currency", currency: "JPY" })`, `"¥1,235"`},
		{`(1).toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "code" })`, `"USD 1.00"`},
		{`(1).toLocaleString("en-US", { minimumFractionDigits: 2 })`, `"1.00"`},
		{`(1234.5678).toLocaleString("en-US", { maximumFractionDigits: 2 })`, `"1,234.57"`},
		{`(1.005).toLocaleString("en-US", { maximumFractionDigits: 2 })`, `"1.01"`},
		{`(2.5).toLocaleString("en-US", { maximumFractionDigits: 0 })`, `"3"`},
		{`(-2.5).toLocaleString("en-US", { maximumFractionDigits: 0 })`, `"-3"`},
		{`(0.0005).toLocaleString()`, `"0.001"`},
		{`(1e21).toLocaleString()`, `"1,000,000,000,000,000,000,000"`},
		{`(-0).toLocaleString()`, `"-0"`},
		{`[NaN.toLocaleString(), Infinity.toLocaleString(), (-Infinity).toLocaleString()]`, `["NaN","∞","-∞"]`},
		{`(12345).toLocaleString("en-US", { useGrouping: false })`, `"12345"`},
		{`(5).toLocaleString("en-US", { minimumIntegerDigits: 3 })`, `"005"`},
		{`(123456).toLocaleString("en-US", { maximumSignificantDigits: 3 })`, `"123,000"`},
		{`(1.5).toLocaleString("en-US", { minimumSignificantDigits: 5 })`, `"1.5000"`},
		{`(0.12345).toLocaleString("en-US", { style: "percent", maximumFractionDigits: 1 })`, `"12.3%"`},
		{`(5).toLocaleString("en-US", { signDisplay: "always" })`, `"+5"`},
		{`(0).toLocaleString("en-US", { signDisplay: "exceptZero" })`, `"0"`},
		{`[1234, 1234567, 999999, 15300, 153000, 999, 0.5, 1.234].map((n) => n.toLocaleString("en-US", { notation: "compact" }))`, `["1.2K","1.2M","1M","15K","153K","999","0.5","1.2"]`},
		{`(1234567).toLocaleString("en-US", { notation: "compact", compactDisplay: "long" })`, `"1.2 million"`},
		{`[123456, 0.00123].map((n) => n.toLocaleString("en-US", { notation: "scientific" }))`, `["1.235E5","1.23E-3"]`},
		{`(123456).toLocaleString("en-US", { notation: "engineering" })`, `"123.456E3"`},
		{`(50).toLocaleString("en-US", { style: "unit", unit: "kilometer-per-hour" })`, `"50 km/h"`},
		{`(2).toLocaleString("en-US", { style: "unit", unit: "megabyte", unitDisplay: "long" })`, `"2 megabytes"`},
		{`(1234.5).toLocaleString("de-DE")`, `"1.234,5"`},
		{`(1234.5).toLocaleString("fr-FR")`, `"1 234,5"`},
		{`(1234.5).toLocaleString("de-DE", { style: "currency", currency: "EUR" })`, `"1.234,50 €"`},
		{`(12345.5).toLocaleString("es-ES")`, `"12.345,5"`},
		{`(1234.5).toLocaleString("es-ES")`, `"1234,5"`},
		{`(1234567.891).toLocaleString("en-IN")`, `"12,34,567.891"`},
		{`(1234.5).toLocaleString("xx-YY")`, `"1,234.5"`},
		{`(1234.5).toLocaleString(["de-DE", "en-US"])`, `"1.234,5"`},
		{`(12345678901234567890n).toLocaleString("en-US")`, `"12,345,678,901,234,567,890"`},
		{`new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(1234.5678)`, `"1,234.57"`},
		{`new Intl.NumberFormat().format(1e6)`, `"1,000,000"`},
		{`[1, 2.5, 1000].map(new Intl.NumberFormat("en-US").format)`, `["1","2.5","1,000"]`},
		{`new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatToParts(-1234.5)`, `[{"type":"minusSign","value":"-"},{"type":"currency","value":"$"},{"type":"integer","value":"1"},{"type":"group","value":","},{"type":"integer","value":"234"},{"type":"decimal","value":"."},{"type":"fraction","value":"50"}]`},
		{`new Intl.NumberFormat("de").resolvedOptions()`, `{"locale":"de","numberingSystem":"latn","style":"decimal","minimumIntegerDigits":1,"minimumFractionDigits":0,"maximumFractionDigits":3,"useGrouping":"auto","notation":"standard","signDisplay":"auto","roundingMode":"halfExpand","roundingIncrement":1,"trailingZeroDisplay":"auto","roundingPriority":"auto"}`},
		{`new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).resolvedOptions()`, `{"locale":"en-US","numberingSystem":"latn","style":"currency","currency":"USD","currencyDisplay":"symbol","currencySign":"standard","minimumIntegerDigits":1,"minimumFractionDigits":2,"maximumFractionDigits":2,"useGrouping":"auto","notation":"standard","signDisplay":"auto","roundingMode":"halfExpand","roundingIncrement":1,"trailingZeroDisplay":"auto","roundingPriority":"auto"}`},
		{`(() => { try { new Intl.NumberFormat("en-US", { style: "currency" }); return "no" } catch (e) { return [e.name, e.message] } })()`, `["TypeError","Currency code is required with currency style."]`},
		{`(() => { try { new Intl.NumberFormat("en_US"); return "no" } catch (e) { return [e.name, e.message] } })()`, `["RangeError","Incorrect locale information provided"]`},
		{`(() => { try { new Intl.NumberFormat("en-US", { style: "bogus" }); return "no" } catch (e) { return [e.name, e.message] } })()`, `["RangeError","Value bogus out of range for Intl.NumberFormat options property style"]`},
		{`[1, 2.5, 1000].toLocaleString()`, `"1,2.5,1,000"`},
	})
}

// TestDateLocale checks that Date.prototype.toLocale*String and Intl.DateTimeFormat in en-US patterns.
func TestDateLocale(t *testing.T) {
	runValueCases(t, []valueCase{
		{`new Date(0).toLocaleDateString("en-US", { timeZone: "UTC" })`, `"1/1/1970"`},
		{`new Date(0).toLocaleTimeString("en-US", { timeZone: "UTC" })`, `"12:00:00 AM"`},
		{`new Date(0).toLocaleString("en-US", { timeZone: "UTC" })`, `"1/1/1970, 12:00:00 AM"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" })`, `"January 2, 2024"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", weekday: "long", year: "numeric", month: "short", day: "numeric" })`, `"Tuesday, Jan 2, 2024"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "2-digit", day: "2-digit", year: "numeric" })`, `"01/02/2024"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleTimeString("en-US", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" })`, `"03:04 PM"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleTimeString("en-US", { timeZone: "UTC", hour12: false })`, `"15:04:05"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "America/New_York" })`, `"1/2/2024, 10:04:05 AM"`},
		{`new Date(Date.UTC(2024, 6, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "Asia/Tokyo", timeZoneName: "short" })`, `"7/3/2024, 12:04:05 AM GMT+9"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "long" })`, `"January"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric" })`, `"Jan 2"`},
		{`new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long" })`, `"January 2024"`},
		{`["full", "long", "medium", "short"].map((s) => new Date(Date.UTC(2024, 0, 2, 15, 4, 5)).toLocaleString("en-US", { timeZone: "UTC", dateStyle: s, timeStyle: s }))`, `["Tuesday, January 2, 2024 at 3:04:05 PM Coordinated Universal Time","January 2, 2024 at 3:04:05 PM UTC","Jan 2, 2024, 3:04:05 PM","1/2/24, 3:04 PM"]`},
		{`new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }).format(new Date(0))`, `"1/1/1970"`},
		{`new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" }).format(0)`, `"Jan 1, 1970"`},
		{`new Date(NaN).toLocaleDateString()`, `"Invalid Date"`},
		{`new Date(0).toLocaleDateString("de-DE", { timeZone: "UTC" }).length > 0`, `true`},
		{`(() => { try { new Date(0).toLocaleString("en-US", { timeZone: "Not/AZone" }); return "no" } catch (e) { return [e.name, e.message] } })()`, `["RangeError","Invalid time zone specified: Not/AZone"]`},
		{`new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hour: "numeric" }).resolvedOptions()`, `{"locale":"en-US","calendar":"gregory","numberingSystem":"latn","timeZone":"UTC","hourCycle":"h12","hour12":true,"hour":"numeric"}`},
	})
}

// TestIntlOther checks that Intl.PluralRules, Collator, ListFormat and RelativeTimeFormat for English.
func TestIntlOther(t *testing.T) {
	runValueCases(t, []valueCase{
		{`new Intl.PluralRules("en-US").select(1) + new Intl.PluralRules("en-US").select(2) + new Intl.PluralRules("en-US", { type: "ordinal" }).select(22)`, `"oneothertwo"`},
		{`["b", "a", "C", "item10", "item2"].sort(new Intl.Collator("en", { numeric: true }).compare)`, `["a","b","C","item2","item10"]`},
		{`[new Intl.ListFormat("en", { type: "conjunction" }).format(["a", "b", "c"]), new Intl.ListFormat("en", { type: "disjunction" }).format(["a", "b"])]`, `["a, b, and c","a or b"]`},
		{`[new Intl.RelativeTimeFormat("en").format(-1, "day"), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"), new Intl.RelativeTimeFormat("en").format(3, "hours")]`, `["1 day ago","yesterday","in 3 hours"]`},
	})
}

// valueCase is a JavaScript expression and the JSON of its value.
type valueCase struct{ expr, want string }

// runValueCases runs `return (expr);` for each case (in UTC) and compares
// the returned JSON.
func runValueCases(t *testing.T, cases []valueCase) {
	t.Helper()
	t.Setenv("TZ", "UTC")
	for _, c := range cases {
		res := runSnippet(t, "return ("+c.expr+");", Options{Filename: "case.js"})
		if res.Error != nil {
			t.Errorf("%s\nfailed: %s", c.expr, res.Error.Report())
			continue
		}
		if string(res.Value) != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.expr, res.Value, c.want)
		}
	}
}

// TestWebapiPreludesCompile compiles every embedded prelude.
func TestWebapiPreludesCompile(t *testing.T) {
	for name, prg := range webapiPrograms {
		if prg() == nil {
			t.Errorf("%s did not compile", name)
		}
	}
}
