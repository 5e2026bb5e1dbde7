// Node-global cases compared byte for byte with node v20 by
// TestGlobalsMatchNode: one snippet per line, run as the body of an async
// function; what it prints (stdout, stderr) and what it throws must be the
// same. A line "// differs: REASON" marks the next case as one that is
// known to differ, and why.

// Buffer: creation and encodings
console.log(Buffer.from("héllo wörld"))
console.log(Buffer.from("héllo").toString("base64"), Buffer.from("héllo").toString("hex"))
console.log(Buffer.from("aGVsbG8gd29ybGQ=", "base64").toString())
console.log(Buffer.from("aGVsbG8", "base64").toString(), Buffer.from("aGVs bG8=\n", "base64").toString())
console.log(Buffer.from("hello?>>").toString("base64url"), Buffer.from("aGVsbG8_Pj4", "base64url").toString())
console.log(Buffer.from("68656c6c6f", "hex").toString(), Buffer.from("6865zz", "hex"), Buffer.from("abc", "hex"))
console.log(Buffer.from("ÿé€", "latin1"), Buffer.from([0xff, 0xe9]).toString("latin1"))
console.log(Buffer.from("hé", "utf16le"), Buffer.from([104, 0, 233, 0]).toString("ucs2"))
console.log(Buffer.from("héllo", "ascii"), Buffer.from([0xe9, 0x41]).toString("ascii"))
console.log(Buffer.from([1, 2, 3, 256, -1]), Buffer.from(new Uint8Array([9, 8])), Buffer.from(Buffer.from("x")))
console.log(Buffer.from(new Uint16Array([1, 2]).buffer), Buffer.from(new ArrayBuffer(8), 2, 3).length)
console.log(Buffer.alloc(4), Buffer.alloc(5, "ab"), Buffer.alloc(3, 1), Buffer.allocUnsafe(3).length)
console.log(Buffer.alloc(60))
console.log([Buffer.from("ab")], { b: Buffer.from("x") }, Buffer.alloc(0))
console.log(Buffer.from([0xc3, 0x28, 0x41]).toString(), Buffer.from("😀").length, Buffer.from("\ud800x"))
// Buffer: statics
console.log(Buffer.byteLength("héllo"), Buffer.byteLength("😀"), Buffer.byteLength("aGVsbG8=", "base64"), Buffer.byteLength("abcd", "hex"), Buffer.byteLength("hé", "utf16le"), Buffer.byteLength(new Uint8Array(7)))
console.log(Buffer.isBuffer(Buffer.from("a")), Buffer.isBuffer(new Uint8Array(1)), Buffer.isBuffer("a"))
console.log(Buffer.isEncoding("utf8"), Buffer.isEncoding("UTF-8"), Buffer.isEncoding("base64url"), Buffer.isEncoding("nope"), Buffer.isEncoding(""))
console.log(Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer.compare(Buffer.from("b"), Buffer.from("a")), Buffer.compare(Buffer.from("ab"), Buffer.from("ab")), Buffer.compare(Buffer.from("a"), Buffer.from("ab")))
console.log([Buffer.from("c"), Buffer.from("a"), Buffer.from("b")].sort(Buffer.compare).map(String))
console.log(Buffer.concat([Buffer.from("ab"), Buffer.from("cd")]).toString(), Buffer.concat([Buffer.from("ab"), Buffer.from("cd")], 3), Buffer.concat([]).length)
console.log(JSON.stringify(Buffer.from("hi")), JSON.stringify({ b: Buffer.from([1]) }))
console.log(Buffer.from(JSON.parse(JSON.stringify(Buffer.from("round")))).toString())
console.log(Buffer.poolSize, typeof Buffer, Buffer.name, Buffer.from("a") instanceof Uint8Array)
// Buffer: instance methods
console.log(Buffer.from("hello").toString("utf8", 1, 3), Buffer.from("hello").toString(undefined, 2), Buffer.from("hello").toString("hex", 4, 99))
console.log(Buffer.from("hello").slice(1, 3), Buffer.from("hello").subarray(-2), Buffer.from("hello").slice(-3, -1).toString())
console.log((() => { const b = Buffer.from("hello"); b.slice(0, 1)[0] = 72; return b.toString(); })())
console.log(Buffer.from("hello world").indexOf("o"), Buffer.from("hello world").indexOf("o", 5), Buffer.from("hello world").lastIndexOf("o"), Buffer.from("hello").indexOf("z"))
console.log(Buffer.from("hello").indexOf(108), Buffer.from("hello").indexOf(Buffer.from("ll")), Buffer.from("hello").indexOf(""), Buffer.from("hello").includes("ell"), Buffer.from("hello").includes("x"))
console.log(Buffer.from("héllo").indexOf("l"), Buffer.from("abcabc").lastIndexOf("b", 3), Buffer.from("abc").indexOf("c", -1))
console.log(Buffer.from("abc").equals(Buffer.from("abc")), Buffer.from("abc").equals(Buffer.from("abd")), Buffer.from("b").compare(Buffer.from("a")))
console.log((() => { const b = Buffer.alloc(8); const n = b.write("héllo", 1); return [n, b]; })())
console.log((() => { const b = Buffer.alloc(4); return [b.write("abcdef"), b.write("zz", 3), b.toString()]; })())
console.log(Buffer.alloc(6).fill("ab"), Buffer.alloc(4).fill(0x41), Buffer.alloc(5).fill("x", 1, 3), Buffer.alloc(4).fill("6162", "hex"))
console.log((() => { const a = Buffer.from("hello"), b = Buffer.alloc(3); const n = a.copy(b, 0, 1); return [n, b.toString()]; })())
console.log(Buffer.from("hello").toJSON(), Buffer.from([1, 2, 3]).reverse(), Buffer.from([1, 2]).map((x) => x * 2))
console.log([...Buffer.from("ab")], Array.from(Buffer.from("ab").entries()), Buffer.from("ab").length)
// Buffer: numbers
console.log((() => { const b = Buffer.alloc(8); b.writeUInt32BE(0xdeadbeef, 0); b.writeUInt16LE(0x1234, 4); return [b, b.readUInt32BE(0), b.readUInt16LE(4), b.readInt8(0), b.readUInt8(1)]; })())
console.log((() => { const b = Buffer.alloc(8); b.writeDoubleLE(3.14); return [b, b.readDoubleLE(0)]; })())
console.log((() => { const b = Buffer.alloc(4); b.writeFloatBE(1.5); b.writeInt16BE(-2, 2); return [b, b.readFloatBE(0), b.readInt16BE(2)]; })())
console.log((() => { const b = Buffer.alloc(8); b.writeBigInt64LE(-5n); return [b, b.readBigInt64LE(0), b.readBigUInt64LE(0)]; })())
console.log((() => { const b = Buffer.alloc(4); b.writeInt32LE(-123456); return [b.readInt32LE(0), b.readUint32LE(0), b.writeUInt8(7, 3)]; })())
console.log(Buffer.from([1, 2, 3, 4]).swap16(), Buffer.from([1, 2, 3, 4]).swap32(), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]).swap64())
console.log((() => { const b = Buffer.alloc(6); b.writeUIntBE(0x123456, 0, 3); b.writeIntLE(-2, 3, 3); return [b, b.readUIntBE(0, 3), b.readIntLE(3, 3), b.readUIntLE(0, 6), b.readIntBE(0, 6), b.readUintLE(0, 2)]; })())
try { Buffer.alloc(2).readUIntLE(0, 7) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.alloc(2).writeUIntBE(70000, 0, 2) } catch (e) { console.log(e.name, e.code, e.message) }
// Buffer: errors
try { Buffer.from("a").readUInt32LE(0) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.from("abcd").readUInt16LE(3) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.alloc(1).writeUInt8(300) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.from(5) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.from({}) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.from("a").toString("nope") } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.alloc(-1) } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.from([1, 2, 3]).swap16() } catch (e) { console.log(e.name, e.code, e.message) }
try { Buffer.byteLength(5) } catch (e) { console.log(e.name, e.code, e.message) }
// atob/btoa and TextEncoder alongside Buffer
console.log(atob(Buffer.from("hi there").toString("base64")), Buffer.from(btoa("xyz"), "base64").toString())
console.log(new TextDecoder().decode(Buffer.from("é€")), Buffer.from(new TextEncoder().encode("ü")))
for (const v of [[], "s", null, new Uint16Array(2)]) { try { new TextEncoder().encodeInto("a", v) } catch (e) { console.log(e.name, e.code, e.message) } }

// process
console.log(typeof process, typeof process.env, process.platform, Array.isArray(process.argv), typeof process.cwd())
console.log(process.env.NO_SUCH_VARIABLE_X ?? "dev", "NO_SUCH_VARIABLE_X" in process.env)
process.stdout.write("no newline"); process.stdout.write(" then one\n")
process.stderr.write("to stderr\n")
console.log(process.stdout.write("x\n"), typeof process.stdout.isTTY)
process.stdout.write(Buffer.from("bytes\n"))
console.log(Array.isArray(process.hrtime()), process.hrtime().length, typeof process.hrtime.bigint(), process.hrtime.bigint() > 0n)
console.log((() => { const t = process.hrtime(); const d = process.hrtime(t); return [d.length, d[0] >= 0, d[1] >= 0]; })())
console.log(Object.keys(process.memoryUsage()), typeof process.memoryUsage().heapUsed, typeof process.memoryUsage.rss())
console.log(typeof process.uptime(), typeof process.nextTick, typeof process.exit, process.exitCode)
process.nextTick(() => console.log("tick")); console.log("sync")
process.nextTick((a, b) => console.log("args", a, b), 1, 2)
// differs: this corpus runs in node as an ES module, whose top level runs promise jobs before nextTick; a snippet's top level runs ticks first, as a Node script (node -e, the REPL) does
Promise.resolve().then(() => console.log("p1")); process.nextTick(() => console.log("tick")); Promise.resolve().then(() => console.log("p2")); queueMicrotask(() => console.log("micro"))
process.nextTick(() => { console.log("t1"); process.nextTick(() => console.log("t3")); }); process.nextTick(() => console.log("t2"))
try { process.nextTick(5) } catch (e) { console.log(e.name, e.code, e.message) }
console.log("before"); process.exit(0); console.log("after")
console.log("before"); try { process.exit(2) } catch (e) { console.log("caught") } finally { console.log("finally") }
setTimeout(() => console.log("never"), 10); process.exit()
try { process.exitCode = "x" } catch (e) { console.log(e.name, e.code, e.message) }
console.log(typeof process.on, process.on("exit", () => {}) === process, process.emit("nothing"))

// Timers and their order
setTimeout(() => console.log("timeout"), 0); setImmediate(() => console.log("immediate")); Promise.resolve().then(() => console.log("promise")); console.log("sync")
await new Promise((r) => setTimeout(r, 5)); setTimeout(() => console.log("timeout"), 0); setImmediate(() => console.log("immediate"))
setTimeout(() => { setTimeout(() => console.log("T"), 0); setImmediate(() => console.log("I")); }, 0); await new Promise((r) => setTimeout(r, 20))
setImmediate(() => { console.log("i1"); setImmediate(() => console.log("i3")); Promise.resolve().then(() => console.log("p")); }); setImmediate(() => console.log("i2"))
const im = setImmediate(() => console.log("cleared")); clearImmediate(im); setImmediate((x) => console.log("arg", x), 42)
const order = []; await new Promise((resolve) => { setTimeout(() => { setImmediate(() => order.push("immediate")); setTimeout(() => { order.push("timeout0"); resolve(); }, 0); const end = performance.now() + 5; while (performance.now() < end) {} }, 5); }); console.log(order.join(","))
setTimeout(() => { Promise.resolve().then(() => console.log("p")); queueMicrotask(() => console.log("m")); process.nextTick(() => console.log("t")); }, 1); await new Promise((r) => setTimeout(r, 10))
const t = setTimeout(() => console.log("never"), 50); console.log(t.constructor.name, typeof +t, t.hasRef(), t.unref() === t, t.hasRef(), typeof t.refresh, typeof t.close)
const a = setTimeout(() => console.log("a"), 5); clearTimeout(+a); const b = setTimeout(() => console.log("b"), 5); clearTimeout(b); await new Promise((r) => setTimeout(r, 20)); console.log("done")
console.log(typeof setImmediate, typeof clearImmediate, typeof setImmediate(() => {}))
await new Promise((r) => setImmediate(r)); console.log("resolved by setImmediate")

// EventTarget, Event, CustomEvent
const t = new EventTarget(); t.addEventListener("ping", (e) => console.log("got", e.type, e instanceof Event, e.target === t)); console.log(t.dispatchEvent(new Event("ping")))
const t = new EventTarget(); const f = () => console.log("once"); t.addEventListener("x", f, { once: true }); t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x"))
const t = new EventTarget(); const f = () => console.log("dup"); t.addEventListener("x", f); t.addEventListener("x", f); t.dispatchEvent(new Event("x")); t.removeEventListener("x", f); t.dispatchEvent(new Event("x")); console.log("end")
const t = new EventTarget(); t.addEventListener("x", (e) => e.preventDefault()); console.log(t.dispatchEvent(new Event("x")), t.dispatchEvent(new Event("x", { cancelable: true })))
const t = new EventTarget(); t.addEventListener("x", (e) => { console.log(1); e.stopImmediatePropagation(); }); t.addEventListener("x", () => console.log(2)); t.dispatchEvent(new Event("x"))
const t = new EventTarget(); t.addEventListener("x", { handleEvent(e) { console.log("handleEvent", e.type); } }); t.dispatchEvent(new Event("x"))
const e = new Event("x", { bubbles: true, cancelable: true }); console.log(e.type, e.bubbles, e.cancelable, e.composed, e.defaultPrevented, e.isTrusted, e.eventPhase, e.target, typeof e.timeStamp)
const e = new CustomEvent("c", { detail: { n: 1 } }); console.log(e.detail, e instanceof Event, e.type, new CustomEvent("d").detail)
const t = new EventTarget(); t.addEventListener("c", (e) => console.log(e.detail)); t.dispatchEvent(new CustomEvent("c", { detail: [1, 2] }))
class Emitter extends EventTarget { fire() { this.dispatchEvent(new Event("fire")); } } const m = new Emitter(); m.addEventListener("fire", () => console.log("fired")); m.fire()
const t = new EventTarget(); const ac = new AbortController(); t.addEventListener("x", () => console.log("heard"), { signal: ac.signal }); t.dispatchEvent(new Event("x")); ac.abort(); t.dispatchEvent(new Event("x")); console.log("done")
try { new Event() } catch (e) { console.log(e.name, e.code, e.message) }
try { new EventTarget().dispatchEvent({ type: "x" }) } catch (e) { console.log(e.name, e.code) }
console.log(Event.NONE, Event.AT_TARGET, Object.prototype.toString.call(new Event("x")), Object.prototype.toString.call(new EventTarget()))

// AbortController and AbortSignal
const ac = new AbortController(); console.log(ac.signal.aborted, ac.signal.reason); ac.abort(); console.log(ac.signal.aborted, ac.signal.reason.name, ac.signal.reason.message, ac.signal.reason instanceof DOMException)
const ac = new AbortController(); ac.signal.addEventListener("abort", (e) => console.log("abort event", e.type)); ac.signal.onabort = () => console.log("onabort"); ac.abort("why"); ac.abort("again"); console.log(ac.signal.reason)
const ac = new AbortController(); ac.abort(new Error("custom")); try { ac.signal.throwIfAborted() } catch (e) { console.log("threw", e.message) }
new AbortController().signal.throwIfAborted(); console.log("not aborted")
const s = AbortSignal.abort(); console.log(s.aborted, s.reason.name, AbortSignal.abort("r").reason)
const s = AbortSignal.timeout(10); console.log(s.aborted); await new Promise((r) => setTimeout(r, 30)); console.log(s.aborted, s.reason.name, s.reason.message)
const s = AbortSignal.timeout(10); s.addEventListener("abort", () => console.log("timed out", s.reason.name)); await new Promise((r) => setTimeout(r, 40))
AbortSignal.timeout(100000); console.log("a pending timeout signal does not keep the run alive")
const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]); console.log(s.aborted); b.abort("b first"); console.log(s.aborted, s.reason); a.abort("a"); console.log(s.reason)
console.log(AbortSignal.any([AbortSignal.abort("pre")]).reason, AbortSignal.any([]).aborted)
const ac = new AbortController(); console.log(ac); ac.abort(); console.log(ac.signal)
try { new AbortSignal() } catch (e) { console.log(e.name, e.code, e.message) }
try { AbortSignal.timeout(-1) } catch (e) { console.log(e.name, e.code, e.message) }
console.log(typeof AbortController, typeof AbortSignal, new AbortController().signal instanceof EventTarget, Object.prototype.toString.call(new AbortController().signal))
const ac = new AbortController(); const p = new Promise((_, rej) => ac.signal.addEventListener("abort", () => rej(ac.signal.reason))); setTimeout(() => ac.abort(), 5); try { await p } catch (e) { console.log("rejected with", e.name) }

// No network
// differs: node 20 really fetches; the sandbox rejects, saying there is no network
try { await fetch("https://example.com") } catch (e) { console.log(e.message) }
// differs: node 20 has no XMLHttpRequest global
console.log(typeof fetch, typeof XMLHttpRequest)
// differs: node 20 has no WebSocket global (it came in node 22)
try { new WebSocket("wss://example.com") } catch (e) { console.log(e.message) }

// Regular expressions: Unicode property escapes and the d flag
console.log(/\p{Lu}/u.test("A"), /\p{Lu}/u.test("a"), /\p{Ll}+/u.exec("ABcdé")[0], /\P{Lu}/u.test("A"))
console.log("Crème Brûlée à la façon".normalize("NFD").replace(/\p{M}/gu, ""), "Ünïcödé".normalize("NFD").replace(/\p{Mn}/gu, ""))
console.log("Hello, 世界! Привет".match(/\p{L}+/gu), "a1b22c333".match(/\p{N}+/gu), "x-y_z.w".split(/\p{P}/u))
console.log("αβγ abc Ωμέγα".match(/\p{Script=Greek}+/gu), /\p{sc=Cyrillic}/u.test("Ж"), /\p{Script=Han}/u.test("漢"), /\p{Script=Latin}/u.test("é"))
console.log(/\p{General_Category=Decimal_Number}/u.test("٣"), /\p{gc=Lu}/u.test("Σ"), /\p{Letter}/u.test("ß"), /\p{Uppercase_Letter}/u.test("ß"))
console.log(/[\p{L}\p{N}_]+/u.exec("!!héllo_42??")[0], /[^\p{L}]+/u.exec("abc 123 def")[0], /[\P{L}]+/u.exec("abc 123 def")[0])
console.log(/\p{White_Space}/u.test("\u00a0"), /\p{Alphabetic}/u.test("ǅ"), /\p{Any}/u.test(String.fromCodePoint(0x10FFFF)), /\p{ASCII}/u.test("é"), /\p{Lowercase}/u.test("ª"))
console.log("😀 smile 👍".replace(/\P{L}/gu, "").length, /\p{So}/u.test("😀"), /\p{Cn}/u.test("\u0378"), /\p{Cc}/u.test("\n"))
console.log(/\p{Lu}/u.source, String(/\p{Lu}/gu), /[\p{L}]/u.flags, new RegExp("\\p{Lu}", "u").test("É"), RegExp("\\p{Ll}", "gu").source)
console.log(/\p{L}/.test("p{L}"), /\p{L}/.test("a"), /p{L}/.test("p{L}"))
console.log(/b+/d.hasIndices, /b+/d.exec("abbc").indices, /x/dg.flags, "aXbX".replace(/X/dg, "-"), [..."a1b2".matchAll(/\d/dg)].map((m) => m.indices[0]))
try { new RegExp("\\p{Nope}", "u") } catch (e) { console.log(e.name) }
try { new RegExp("\\p{Greek}", "u") } catch (e) { console.log(e.name) }
console.log(/\p{Lu}/u instanceof RegExp, Object.prototype.toString.call(/\p{L}/u), /a/.constructor === RegExp, new RegExp(/\p{Lu}/u).test("B"))
console.log(/a(b)/d.exec("ab").indices)
console.log(/(?<y>\d{4})/d.exec("in 2024").indices.groups.y, /(?<y>\d{4})-(?<m>\d\d)|(z)/d.exec("in 2024-05"), Object.keys(/(?<a>x)/.exec("x")), Object.keys(/(?<a>x)/d.exec("x")))
console.log(/(?<word>\w+)\s(?<n>\d+)?/.exec("see 42"), [..."x1y22".matchAll(/(?<d>\d+)/dg)].map((m) => [m.index, m.indices.groups.d]), new RegExp("(a)|(b)", "du").exec("😀b").indices)
console.log(/\p{Emoji_Presentation}/u.test("😀"), "Hi 👋🏽 ❤️ © #1 🇫🇷!".replace(/\p{Extended_Pictographic}/gu, ""), "a#1©".match(/\p{Emoji}/gu), /\p{Emoji_Modifier}/u.test("🏽"))

// Additions to the engine: what goja lacks and node v20 has
console.log(["ab", "a\uD800", "\uD83D\uDE00"].map((s) => s.isWellFormed()), "a\uD800b".toWellFormed().length, "x\uDC00".toWellFormed().charCodeAt(1))
const wr = new WeakRef({ a: 1 }); console.log(wr.deref(), wr, Object.prototype.toString.call(new FinalizationRegistry(() => {})), typeof WeakRef)
try { WeakRef({}) } catch (e) { console.log(e.name, e.message) }
try { await Promise.any([Promise.reject(1), Promise.reject(new Error("b"))]) } catch (e) { console.log(e.name, e.message, e.errors.length, e.stack.split("\n")[0]) }
for (const s of ['{"a":1,}', "", '{"a": tru}', "[1, 2", '{"a" 1}', '{"a":1,"b" 2}', "{a:1}", '"abc', '"\\x"', "-a", "1.e5", "01", '{"a":1}x', "undefined", "x".repeat(40), '{"key": "value", "list": [1, 2, 3, oops], "more": "data here"}']) { try { JSON.parse(s) } catch (e) { console.log(e.name + ": " + e.message) } }
console.log(String(Symbol.dispose), String(Symbol.asyncDispose), typeof Symbol.asyncIterator, String(Symbol.asyncIterator))
const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ done: i >= 3, value: i++ }) } } }; const got = []; for await (const x of it) got.push(x); console.log(got)
async function* agen() { yield "a"; await null; yield "b" } const seen = []; for await (const v of agen()) seen.push(v); console.log(seen)
const o = { name: "N", message: "m" }; Error.captureStackTrace(o); console.log(o.stack.split("\n")[0], Object.getOwnPropertyDescriptor(o, "stack").enumerable)
function notOnStack() {} const cs = {}; Error.captureStackTrace(cs, notOnStack); console.log(JSON.stringify(cs.stack), typeof Error.captureStackTrace)
class AppError extends Error { constructor(m) { super(m); this.name = "AppError"; Error.captureStackTrace(this, AppError) } } const ae = new AppError("bad"); console.log(ae instanceof AppError, ae.name, ae.message, ae.stack.split("\n")[0])

// Collation (localeCompare, Intl.Collator) and plural rules
console.log(["fr", "es", "pt", "it", "ca", "de"].map((l) => { const p = new Intl.PluralRules(l); return l + ":" + [0, 1, 2, 1e6, 2e6, 1.5e6].map((n) => p.select(n)).join("/") + ":" + p.resolvedOptions().pluralCategories.join("/") }))
console.log(["file10", "file2", "File1", "file1"].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })))
console.log(["item20", "item3", "item100"].sort(new Intl.Collator(undefined, { numeric: true }).compare), ["10", "9", "1"].sort(Intl.Collator("en", { numeric: true }).compare))
console.log("a".localeCompare("A", undefined, { sensitivity: "base" }), "é".localeCompare("e", "en", { sensitivity: "base" }), "é".localeCompare("e", "en", { sensitivity: "accent" }), "a".localeCompare("A", "en", { sensitivity: "case" }))
console.log("a".localeCompare("b"), "b".localeCompare("a"), "a".localeCompare("a"), "résumé".localeCompare("resume"), "a".localeCompare("B"))
console.log(["ä", "z", "a", "o", "ö"].sort(new Intl.Collator("sv").compare), ["ä", "z", "a", "o", "ö"].sort(new Intl.Collator("de").compare))
console.log(["b", "A", "a", "B"].sort(new Intl.Collator("en", { caseFirst: "upper" }).compare), ["b", "A", "a", "B"].sort(new Intl.Collator("en").compare))
console.log(["Z", "a", "z", "ä", "Ä", "b"].sort(Intl.Collator().compare), ["Z", "a", "z", "ä"].sort((a, b) => a.localeCompare(b)))
console.log(new Intl.Collator("de-DE").resolvedOptions(), new Intl.Collator("xx").resolvedOptions().locale)
console.log([["n", 1], ["ñ", 2], ["o", 3]].sort((x, y) => x[0].localeCompare(y[0], "es")).map((x) => x[0]))
console.log(new Intl.PluralRules("ar").select(3), new Intl.PluralRules("ar").select(11), new Intl.PluralRules("ar").select(0), new Intl.PluralRules("ar").select(2), new Intl.PluralRules("ar").select(100))
console.log(new Intl.PluralRules("ru").select(2), new Intl.PluralRules("ru").select(5), new Intl.PluralRules("ru").select(21), new Intl.PluralRules("ru").select(1.5), new Intl.PluralRules("pl").select(22), new Intl.PluralRules("pl").select(25))
console.log(new Intl.PluralRules("en").select(1), new Intl.PluralRules("en").select(0), new Intl.PluralRules("en").select(1.5), new Intl.PluralRules("fr").select(1.5), new Intl.PluralRules("fr").select(0), new Intl.PluralRules("ja").select(1))
console.log([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => new Intl.PluralRules("en-US", { type: "ordinal" }).select(n)))
console.log(new Intl.PluralRules("ar").resolvedOptions().pluralCategories, new Intl.PluralRules("en").resolvedOptions().pluralCategories, new Intl.PluralRules("ru").resolvedOptions().pluralCategories)
console.log(new Intl.PluralRules("en", { minimumFractionDigits: 1 }).select(1), new Intl.PluralRules("de-DE").resolvedOptions().locale)
const suffix = { one: "st", two: "nd", few: "rd", other: "th" }; const pr = new Intl.PluralRules("en-US", { type: "ordinal" }); console.log([1, 2, 3, 4, 11, 21, 102].map((n) => n + suffix[pr.select(n)]).join(" "))

// Dates in nine locales (TZ=UTC), formatToParts, Date#toString and parsing
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(l, d.toLocaleDateString(l), "|", d.toLocaleTimeString(l), "|", d.toLocaleString(l))
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(["full", "long", "medium", "short"].map((s) => d.toLocaleDateString(l, { dateStyle: s })).join(" | "))
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(["full", "long", "medium", "short"].map((s) => d.toLocaleTimeString(l, { timeStyle: s, timeZone: "UTC" })).join(" | "))
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(["full", "long", "medium", "short"].map((s) => d.toLocaleString(l, { dateStyle: s, timeStyle: "short", timeZone: "UTC" })).join(" | "))
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(d.toLocaleDateString(l, { weekday: "long", year: "numeric", month: "long", day: "numeric" }), "|", d.toLocaleDateString(l, { month: "short", day: "numeric" }), "|", d.toLocaleDateString(l, { month: "long", year: "numeric" }), "|", d.toLocaleDateString(l, { weekday: "short" }), "|", d.toLocaleDateString(l, { month: "long" }))
const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(d.toLocaleDateString(l, { year: "numeric", month: "short", day: "numeric" }), "|", d.toLocaleDateString(l, { month: "long", day: "numeric" }), "|", d.toLocaleDateString(l, { year: "numeric", month: "2-digit", day: "2-digit" }), "|", d.toLocaleTimeString(l, { hour: "2-digit", minute: "2-digit" }), "|", d.toLocaleDateString(l, { month: "short", year: "numeric" }))
console.log(new Date(Date.UTC(2024, 6, 4, 9, 30)).toLocaleDateString("en-GB"), new Date(Date.UTC(2024, 6, 4, 9, 30)).toLocaleTimeString("en-GB", { hour12: true }), new Date(Date.UTC(2024, 11, 25)).toLocaleDateString("de-DE", { day: "2-digit", month: "2-digit", year: "numeric" }))
console.log(new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).formatToParts(new Date(Date.UTC(2024, 0, 15, 14, 5))))
console.log(new Intl.DateTimeFormat("de-DE", { year: "numeric", month: "long", day: "numeric" }).formatToParts(new Date(Date.UTC(2024, 2, 5))).map((p) => p.type + "=" + p.value).join(" "))
console.log(new Intl.DateTimeFormat("en-US").formatToParts(new Date(Date.UTC(2024, 0, 15))), new Intl.DateTimeFormat("ja-JP", { dateStyle: "full" }).formatToParts(new Date(Date.UTC(2024, 0, 15))).length)
console.log(Object.fromEntries(new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" }).formatToParts(new Date(Date.UTC(2024, 0, 5))).filter((p) => p.type !== "literal").map((p) => [p.type, p.value])))
console.log(new Intl.DateTimeFormat("fr-FR").resolvedOptions().locale, new Intl.DateTimeFormat("de").format(new Date(Date.UTC(2024, 0, 15))), new Intl.DateTimeFormat("pt-BR", { dateStyle: "long" }).format(new Date(Date.UTC(2024, 0, 15))))
console.log(String(new Date(Date.UTC(2024, 0, 15, 14, 5, 9))), new Date(0).toTimeString(), `${new Date(86400000)}`)
console.log(new Date("1705312800000").getTime(), new Date("20240115").getTime(), new Date("2024").getTime(), Date.parse("1705312800000"), new Date(Number("1705312800000")).toISOString())
console.log(new Date("2024-01-15").getTime(), new Date("2024-01-15 10:00").getTime(), new Date("Jan 15, 2024").getTime(), new Date("15 January 2024 10:00 UTC").getTime(), new Date("Mon, 15 Jan 2024 10:00:00 GMT").getTime(), new Date("2024-01-15T10:00:00+02:00").getTime())
console.log(new Date(2024, 0, 15) instanceof Date, typeof Date(), Date.length, Date.name, new Date(2024, 0, 15, 10).getHours(), Date.UTC(2024, 0, 1))

const d = new Date(Date.UTC(2024, 0, 15, 14, 5, 9)); for (const l of ["en-US", "en-CA", "en-GB", "en-AU", "en-IN", "fr-CA", "fr-FR", "de-DE", "de-CH", "es-ES", "es-MX", "it-IT", "pt-BR", "pt-PT", "nl-NL", "sv-SE", "ja-JP", "zh-CN", "ko-KR", "ru-RU", "pl-PL", "hi-IN"]) console.log(l, d.toLocaleDateString(l, { timeZone: "UTC" }), "|", d.toLocaleString(l, { timeZone: "UTC" }), "|", d.toLocaleTimeString(l, { timeZone: "UTC" }))
const d = new Date(Date.UTC(2024, 2, 5, 9, 7, 3)); for (const l of ["en-CA", "en-AU", "fr-CA", "de-CH", "es-MX", "pt-PT", "it-IT", "nl-NL", "sv-SE", "ko-KR", "ru-RU", "pl-PL", "it", "ru"]) console.log(l, ["full", "long", "medium", "short"].map((s) => d.toLocaleString(l, { timeZone: "UTC", dateStyle: s, timeStyle: s === "full" ? "medium" : s })).join(" | "), "|", d.toLocaleDateString(l, { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }), "|", d.toLocaleDateString(l, { timeZone: "UTC", month: "short", day: "numeric" }), "|", d.toLocaleDateString(l, { timeZone: "UTC", weekday: "long" }), "|", d.toLocaleDateString(l, { timeZone: "UTC", month: "long" }), "|", d.toLocaleDateString(l, { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" }), "|", d.toLocaleTimeString(l, { timeZone: "UTC", hour: "2-digit", minute: "2-digit" }))
const d = new Date(Date.UTC(2024, 2, 5, 14, 7, 3)); for (const l of ["fr-CA", "en-CA", "de-CH", "sv-SE"]) console.log(l, d.toLocaleTimeString(l, { timeZone: "UTC", hour12: false }), "|", d.toLocaleTimeString(l, { timeZone: "UTC", hour12: true }), "|", d.toLocaleString(l, { timeZone: "UTC", hour12: false }), "|", d.toLocaleTimeString(l, { timeZone: "UTC", timeStyle: "short", hour12: true }))
console.log(new Date(Date.UTC(2024, 0, 15)).toLocaleDateString("en-CA", { timeZone: "UTC" }), new Intl.DateTimeFormat("en-CA", { timeZone: "UTC" }).formatToParts(new Date(Date.UTC(2024, 0, 5))), new Intl.DateTimeFormat("sv", { timeZone: "UTC", dateStyle: "short" }).format(0))

// Numbers in the nine locales
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(l, (1234567.891).toLocaleString(l), (-5.5).toLocaleString(l), (1234).toLocaleString(l, { minimumFractionDigits: 2 }), (123456789).toLocaleString(l, { maximumFractionDigits: 0 }))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(l, (1234.5).toLocaleString(l, { style: "currency", currency: "EUR" }), (1234.5).toLocaleString(l, { style: "currency", currency: "USD" }), (1234.5).toLocaleString(l, { style: "currency", currency: "JPY" }), (0.256).toLocaleString(l, { style: "percent" }))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "pt-BR"]) console.log(l, [1234, 12345, 1234567, 1.5e9, 2e12].map((n) => n.toLocaleString(l, { notation: "compact" })).join(" | "))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "pt-BR", "ja-JP"]) console.log(l, (1500).toLocaleString(l, { style: "unit", unit: "kilometer" }))
console.log(new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).formatToParts(-1234.5).map((p) => p.type + ":" + p.value).join("|"))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(l, [-5, 5, -1234.5, 0, -0].map((n) => new Intl.NumberFormat(l, { style: "currency", currency: "USD", currencySign: "accounting" }).format(n)).join(" | "), new Intl.NumberFormat(l, { style: "currency", currency: "EUR", currencySign: "accounting", signDisplay: "always" }).format(-3), new Intl.NumberFormat(l, { style: "currency", currency: "EUR", currencySign: "accounting", currencyDisplay: "code" }).format(-3))
console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).formatToParts(-5), new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).resolvedOptions().currencySign)
const nums = [999, 1234, 12345, 99999, 123456, 1234567, 9876543, 12345678, 123456789, 1.5e9, 2e12, 3.4e16, -45678]; for (const l of ["en-US", "de-DE", "fr-FR", "ja-JP", "zh-CN", "zh-TW", "ko-KR", "hi-IN", "en-IN", "es-ES", "pt-BR"]) console.log(l, nums.map((n) => n.toLocaleString(l, { notation: "compact" })).join(" | "))
for (const l of ["ja-JP", "zh-CN", "zh-TW", "ko-KR"]) console.log(l, [1234, 12345, 1234567, 123456789].map((n) => n.toLocaleString(l, { notation: "compact", compactDisplay: "long" })).join(" | "))
for (const l of ["ja-JP", "zh-CN", "zh-TW", "ko-KR", "hi-IN", "en-IN", "en-US"]) console.log(l, JSON.stringify([1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 99999999, 99950, 3.4e15, 0.5, 1.25, 12.5, -0, 999999].map((n) => n.toLocaleString(l, { notation: "compact" }))), (1234).toLocaleString(l, { notation: "compact", maximumFractionDigits: 2 }), (12345).toLocaleString(l, { notation: "compact", maximumSignificantDigits: 3 }), (123456).toLocaleString(l, { notation: "compact", useGrouping: false }))
console.log(new Intl.NumberFormat("ja-JP", { notation: "compact" }).formatToParts(-12345), new Intl.NumberFormat("ko-KR", { notation: "compact", compactDisplay: "long" }).format(1234567))
console.log((123456).toLocaleString("hi-IN"), (12345).toLocaleString("en-IN"), (1234567).toLocaleString("en-IN"), (-0).toLocaleString("en", { notation: "compact" }))
console.log((9876543).toLocaleString("ja-JP", { notation: "compact" }), (9876543).toLocaleString("zh-CN", { notation: "compact" }), (9876543).toLocaleString("hi-IN", { notation: "compact" }))
// differs: unit names are English in every locale (zh 公里, hi कि॰मी॰ in node)
console.log((1500).toLocaleString("zh-CN", { style: "unit", unit: "kilometer" }), (1500).toLocaleString("hi-IN", { style: "unit", unit: "kilometer" }))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) console.log(l, [["a", "b", "c"], ["a", "b"]].flatMap((x) => [new Intl.ListFormat(l).format(x), new Intl.ListFormat(l, { type: "disjunction" }).format(x), new Intl.ListFormat(l, { style: "short" }).format(x), new Intl.ListFormat(l, { type: "unit" }).format(x)]).join(" | "))
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) { const r = new Intl.RelativeTimeFormat(l), a = new Intl.RelativeTimeFormat(l, { numeric: "auto" }); console.log(l, [r.format(-1, "day"), r.format(3, "days"), r.format(-2, "hour"), r.format(1, "month"), r.format(-5, "year"), r.format(1.5, "week"), a.format(-1, "day"), a.format(0, "day"), a.format(1, "day"), a.format(-2, "day"), a.format(0, "second"), a.format(1, "year"), a.format(-3, "minute")].join(" | ")) }
for (const l of ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "pt-BR", "hi-IN"]) for (const style of ["short", "narrow"]) { const r = new Intl.RelativeTimeFormat(l, { style }), a = new Intl.RelativeTimeFormat(l, { style, numeric: "auto" }); console.log(l, style, [r.format(3, "month"), r.format(-1, "year"), r.format(1, "year"), r.format(-2, "day"), r.format(5, "hour"), r.format(-1, "minute"), r.format(10, "second"), r.format(2, "week"), r.format(-3, "quarter"), r.format(1, "quarter"), a.format(-1, "day"), a.format(1, "month"), a.format(0, "year"), a.format(-1, "week"), a.format(1, "quarter")].join(" | ")) }
console.log(new Intl.RelativeTimeFormat("en", { style: "short" }).resolvedOptions())
try { new Intl.RelativeTimeFormat("en", null) } catch (e) { console.log(e.name, e.message) }
try { new Intl.RelativeTimeFormat("en", { style: "tiny" }) } catch (e) { console.log(e.name, e.message) }
console.log(new Intl.RelativeTimeFormat("en-US", { style: "narrow", numeric: "auto" }).resolvedOptions(), new Intl.RelativeTimeFormat("de-DE").resolvedOptions().locale, new Intl.RelativeTimeFormat("xx", { style: "short" }).format(-3, "months"))

// path (POSIX) and util as globals, as in node -e
console.log(path.join("/a/b", "../c", "./d.txt"), path.join("a", "", "b/"), path.join(), path.join("", ""), path.join("/", ".."), path.join("a/b", "../../.."))
console.log(path.basename("/tmp/report.final.csv"), path.basename("/tmp/report.csv", ".csv"), path.basename("/tmp/dir/"), path.basename("file.txt", "txt"), path.basename("a.txt", "a.txt"), path.basename("/"))
for (const f of ["src/index.ts", "README", ".gitignore", "archive.tar.gz", "dir/.hidden.json", "a.", ".."]) console.log(f, path.extname(f), path.basename(f, path.extname(f)))
console.log(path.dirname("/a/b/c.txt"), path.dirname("a"), path.dirname("/a"), path.dirname("//a"), path.dirname(""), path.dirname("a/b/"), path.dirname("/"))
console.log(path.normalize("/foo/bar//baz/asdf/quux/.."), path.normalize("./a/../../b/"), path.normalize(""), path.normalize("a/.."), path.normalize("//x"), path.normalize("a/./b/."))
console.log(path.resolve("/foo/bar", "./baz"), path.resolve("/foo/bar", "/tmp/file/"), path.resolve("/a", "b", "..", "c"), path.resolve("x") === path.join(process.cwd(), "x"), path.resolve() === process.cwd())
console.log(path.relative("/data/orandea/test/aaa", "/data/orandea/impl/bbb"), path.relative("/a/b", "/a/b/c/d"), path.relative("/a/b/c", "/a"), JSON.stringify(path.relative("/a", "/a")), path.relative("/", "/x"), path.relative("/x/y", "/"))
console.log(path.isAbsolute("/x"), path.isAbsolute("x/y"), path.isAbsolute(""), path.isAbsolute("./x"))
console.log(path.parse("/home/user/dir/file.txt"), path.parse("file"), path.parse("/"), path.parse(".bashrc"), path.parse("a/b.c.d"))
console.log(path.format({ root: "/ignored", dir: "/home/user/dir", base: "file.txt" }), path.format({ root: "/", base: "file.txt", ext: "ignored" }), path.format({ root: "/", name: "file", ext: ".txt" }), path.format({ name: "x", ext: "md" }), path.format({}))
console.log(path.sep, path.delimiter, path.posix === path, typeof path.join, path.toNamespacedPath("/a/../b"))
try { path.join("a", 5) } catch (e) { console.log(e.name, e.code, e.message) }
try { path.basename(null) } catch (e) { console.log(e.name, e.code, e.message) }
try { path.resolve("/a", {}) } catch (e) { console.log(e.name, e.code, e.message) }
try { path.format("x") } catch (e) { console.log(e.name, e.code, e.message) }
const files = ["/srv/app/main.ts", "/srv/app/lib/util.ts", "/srv/README.md"]; console.log(files.map((f) => path.relative("/srv", f)), files.filter((f) => path.extname(f) === ".ts").map((f) => path.basename(f, ".ts")))
console.log(util.format("%s has %d items costing %f (%i%%)", "cart", 3, 9.99, 42.7), util.format("%j", { a: [1, 2] }), util.format("%o", [1]), util.format(1, "a", { b: 2 }), util.format("%s", null, "extra"))
console.log(util.inspect({ a: { b: { c: { d: 1 } } } }), util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 1 }), util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: null }), util.inspect("str"), util.inspect([1, "a", null, undefined]))
console.log(util.inspect(new Map([["k", { v: [1, 2, 3] }]]), { depth: 0 }), util.inspect(Array.from({ length: 120 }, (_, i) => i), { maxArrayLength: 5 }), util.inspect({ b: 1, a: 2 }, { sorted: true }), util.inspect({ x: "a".repeat(30), y: "b".repeat(30) }, { breakLength: 40 }))
console.log(util.inspect({ a: [1, 2, { b: 3 }] }, { compact: false }), util.inspect({ a: 1 }, false, 0), util.inspect({ a: { b: {} } }, { depth: 0 }))
console.log(util.formatWithOptions({ depth: 0 }, "value: %O", { a: { b: 1 } }), util.formatWithOptions({ compact: 1 }, { a: 1 }))
class P { constructor() { this.x = 1; } [util.inspect.custom](depth, opts) { return `P<${this.x}>`; } } console.log(util.inspect(new P()), [new P()], util.inspect.custom === Symbol.for("nodejs.util.inspect.custom"))
console.log(util.isDeepStrictEqual({ a: [1, 2, { b: new Date(0) }] }, { a: [1, 2, { b: new Date(0) }] }), util.isDeepStrictEqual({ a: 1 }, { a: "1" }), util.isDeepStrictEqual([1, 2], [1, 2, 3]), util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual({ a: undefined }, {}))
console.log(util.isDeepStrictEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]])), util.isDeepStrictEqual(new Set([1, { x: [2] }]), new Set([{ x: [2] }, 1])), util.isDeepStrictEqual(new Set([1]), new Set(["1"])), util.isDeepStrictEqual(/a/g, /a/g), util.isDeepStrictEqual(/a/g, /a/i))
console.log(util.isDeepStrictEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])), util.isDeepStrictEqual(new Uint8Array([1]), new Int8Array([1])), util.isDeepStrictEqual([1, , 3], [1, undefined, 3]), util.isDeepStrictEqual(Object.create(null), {}), util.isDeepStrictEqual(new Error("x"), new Error("x")), util.isDeepStrictEqual(new Number(1), new Number(1)))
console.log((() => { const a = { n: 1 }; a.self = a; const b = { n: 1 }; b.self = b; return util.isDeepStrictEqual(a, b); })(), util.isDeepStrictEqual({ [Symbol.for("s")]: 1 }, { [Symbol.for("s")]: 1 }), util.isDeepStrictEqual([new Map([[{ k: 1 }, "v"]])], [new Map([[{ k: 1 }, "v"]])]), util.isDeepStrictEqual(Buffer.from("ab"), Buffer.from("ab")))
const t = util.types; console.log(t.isDate(new Date()), t.isDate({ [Symbol.toStringTag]: "Date" }), t.isRegExp(/x/), t.isPromise(Promise.resolve()), t.isPromise({ then() {} }), t.isMap(new Map()), t.isSet(new Set()), t.isWeakMap(new WeakMap()), t.isWeakSet(new WeakSet()))
const t = util.types; console.log(t.isAsyncFunction(async () => {}), t.isAsyncFunction(() => {}), t.isGeneratorFunction(function* () {}), t.isTypedArray(new Float64Array(1)), t.isUint8Array(Buffer.alloc(1)), t.isUint8Array(new Int8Array(1)), t.isArrayBuffer(new ArrayBuffer(1)), t.isArrayBufferView(new DataView(new ArrayBuffer(1))), t.isDataView(new DataView(new ArrayBuffer(1))))
const t = util.types; console.log(t.isNativeError(new TypeError("x")), t.isNativeError({ name: "Error", message: "x" }), t.isBoxedPrimitive(Object(1n)), t.isNumberObject(new Number(1)), t.isStringObject("s"), t.isSymbolObject(Object(Symbol())), t.isProxy(new Proxy({}, {})), t.isProxy({}), t.isMapIterator(new Map().keys()), t.isSetIterator(new Set().values()), t.isGeneratorObject((function* () {})()), t.isArgumentsObject((function () { return arguments; })()))
function legacy(a, cb) { setTimeout(() => (a < 0 ? cb(new Error("negative")) : cb(null, a * 2)), 1); } const p = util.promisify(legacy); console.log(await p(21)); try { await p(-1); } catch (e) { console.log("rejected:", e.message); }
const sleep = util.promisify(setTimeout); const t0 = Date.now(); console.log(await sleep(5, "value"), Date.now() - t0 >= 4, sleep.name); console.log(await util.promisify(setImmediate)("imm"))
const obj = { base: 10, add(x, cb) { cb(null, this.base + x); } }; obj.addAsync = util.promisify(obj.add); console.log(await obj.addAsync(5), util.promisify(obj.add).name, typeof util.promisify.custom)
function f(cb) { cb(null, 1); } f[util.promisify.custom] = () => Promise.resolve("custom"); console.log(await util.promisify(f)(), util.promisify(f) === f[util.promisify.custom])
try { util.promisify(5) } catch (e) { console.log(e.name, e.code, e.message) }
const cbf = util.callbackify(async (x) => x + 1); cbf(1, (err, v) => console.log(err, v, cbf.name, cbf.length))
function Animal(name) { this.name = name; } Animal.prototype.speak = function () { return this.name + " makes a sound"; }; function Dog(name) { Animal.call(this, name); } util.inherits(Dog, Animal); const d = new Dog("Rex"); console.log(d.speak(), d instanceof Animal, Dog.super_ === Animal, Object.getPrototypeOf(Dog.prototype) === Animal.prototype)
console.log(util.TextEncoder === TextEncoder, util.TextDecoder === TextDecoder, new util.TextDecoder().decode(new util.TextEncoder().encode("héllo")))
console.log(util.isArray([]), util.isDeepStrictEqual(util.types.isDate, util.isDate), util.stripVTControlCharacters("\u001b[31mred\u001b[39m plain"), util.toUSVString("a\ud800b"), typeof util.deprecate(() => 1, "old"))

// Intl.DisplayNames: regions, languages, scripts, currencies, calendars, date fields
for (const l of ["en", "fr", "de", "ja", "es"]) { const r = new Intl.DisplayNames(l, { type: "region" }), c = new Intl.DisplayNames(l, { type: "currency" }), s = new Intl.DisplayNames(l, { type: "script" }); console.log(l, ["US", "GB", "DE", "FR", "JP", "CN", "IN", "BR", "419", "TW", "HK", "KR", "MX", "ES"].map((x) => r.of(x)).join("|"), "#", ["USD", "EUR", "JPY", "GBP", "CNY", "INR", "xyz"].map((x) => c.of(x)).join("|"), "#", ["Latn", "Cyrl", "Arab", "Grek"].map((x) => s.of(x)).join("|")) }
for (const l of ["en", "fr", "ja", "es"]) { const g = new Intl.DisplayNames(l, { type: "language" }); console.log(l, ["en", "fr", "de", "ja", "zh", "es", "en-US", "en-GB", "zh-Hans", "zh-Hant", "pt-BR", "fr-CA", "ar", "hi", "ko", "sr-Latn", "de-AT", "zh-TW", "EN-us", "xx"].map((x) => g.of(x)).join("|")) }
console.log(["Deutsch", "Französisch", "Japanisch", "Chinesisch (vereinfacht)", "Österreichisches Deutsch", "Chinesisch (Taiwan)"].join("|") === ["de", "fr", "ja", "zh-Hans", "de-AT", "zh-TW"].map((x) => new Intl.DisplayNames("de", { type: "language" }).of(x)).join("|"), new Intl.DisplayNames("en", { type: "language", languageDisplay: "standard" }).of("en-US"), new Intl.DisplayNames("en", { type: "language" }).of("en-Latn-US"))
for (const l of ["en", "fr", "de", "ja", "es"]) for (const style of ["long", "short", "narrow"]) { const f = new Intl.DisplayNames(l, { type: "dateTimeField", style }), c = new Intl.DisplayNames(l, { type: "calendar", style }), r = new Intl.DisplayNames(l, { type: "region", style }); console.log(l, style, ["year", "month", "weekOfYear", "dayPeriod", "timeZoneName"].map((x) => f.of(x)).join("|"), c.of("gregory"), c.of("japanese"), r.of("US"), r.of("GB"), r.of("HK")) }
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }; console.log(t(() => new Intl.DisplayNames("en")), t(() => new Intl.DisplayNames("en", { type: "x" })), t(() => Intl.DisplayNames("en", { type: "region" })), t(() => new Intl.DisplayNames("en", { type: "region" }).of("USA")), t(() => new Intl.DisplayNames("en", { type: "language" }).of("en_US")), t(() => new Intl.DisplayNames("en", { type: "calendar" }).of("gregorian")))
const r = new Intl.DisplayNames("en", { type: "region" }), n = new Intl.DisplayNames("en", { type: "region", fallback: "none" }); console.log(r.of("999"), r.of("ZZ"), r.of("us"), r.of(840), n.of("QO"), n.of("QQ"), new Intl.DisplayNames("en", { type: "script", fallback: "none" }).of("Qaaa"), new Intl.DisplayNames("en", { type: "currency", fallback: "none" }).of("XYZ"), new Intl.DisplayNames("en", { type: "script" }).of("latn"))
console.log(new Intl.DisplayNames("en", { type: "region" }).resolvedOptions(), new Intl.DisplayNames("de-DE", { type: "language", style: "short" }).resolvedOptions(), new Intl.DisplayNames(["xx", "fr"], { type: "currency" }).resolvedOptions().locale, Intl.DisplayNames.supportedLocalesOf(["fr"]), Object.prototype.toString.call(new Intl.DisplayNames("en", { type: "script" })), Intl.DisplayNames.length, new Intl.DisplayNames("en", { type: "region" }))
// differs: x/text's CLDR 32 names the Hans and Hant scripts "Simplified Han" and "Traditional Han" (node: "Simplified", "Traditional")
console.log(new Intl.DisplayNames("en", { type: "script" }).of("Hans"), new Intl.DisplayNames("en", { type: "script" }).of("Hant"))
// differs: x/text's CLDR 32 has German dialect names newer CLDR dropped ("Amerikanisches Englisch"; node: "Englisch (Vereinigte Staaten)")
console.log(new Intl.DisplayNames("de", { type: "language" }).of("en-US"))

// Intl.Segmenter: graphemes, words (isWordLike), sentences, containing
const s = new Intl.Segmenter("en", { granularity: "word" }); const words = [...s.segment("Hello, world! It's 3.5 km — don't stop.")]; console.log(words.filter((w) => w.isWordLike).map((w) => w.segment), words.length)
console.log([...new Intl.Segmenter("en", { granularity: "word" }).segment("Hi there")])
console.log([...new Intl.Segmenter().segment("e\u0301👍🏽👨‍👩‍👧🇫🇷a")].map((g) => g.segment), [...new Intl.Segmenter().segment("e\u0301👍🏽👨‍👩‍👧🇫🇷a")].length, "👨‍👩‍👧".length)
console.log([...new Intl.Segmenter("en", { granularity: "grapheme" }).segment("ab")])
console.log([...new Intl.Segmenter("en", { granularity: "sentence" }).segment("Hello there. How are you? Fine! Mr. Smith left.")].map((s) => s.segment))
const seg = new Intl.Segmenter("en", { granularity: "word" }).segment("The quick brown fox"); console.log(seg.containing(5), seg.containing(3), seg.containing(-1), seg.containing(99), seg.containing())
console.log(new Intl.Segmenter("fr", { granularity: "word" }).resolvedOptions(), new Intl.Segmenter().resolvedOptions(), new Intl.Segmenter("de-DE").resolvedOptions().locale)
const count = (t) => [...new Intl.Segmenter("de", { granularity: "word" }).segment(t)].filter((w) => w.isWordLike).length; console.log(count("Größe und Straße, über 10 Äpfel."), count(""), count("   "))
console.log([...new Intl.Segmenter("en", { granularity: "word" }).segment("email me at a.b@example.com or call 555-1234_x")].map((w) => w.segment + (w.isWordLike ? "*" : "")).join("|"))
try { new Intl.Segmenter("en", { granularity: "line" }) } catch (e) { console.log(e.name, e.message) }
console.log(Object.prototype.toString.call(new Intl.Segmenter()), typeof Intl.Segmenter)
// differs: node's ICU splits Japanese and Chinese words with a dictionary; UAX #29 (uniseg) splits each ideograph
console.log([...new Intl.Segmenter("ja", { granularity: "word" }).segment("今日は良い天気です")].map((w) => w.segment).join("|"))
console.log([...new Intl.Segmenter("zh", { granularity: "grapheme" }).segment("你好世界")].length, [...new Intl.Segmenter("en", { granularity: "word" }).segment("naïve café")].map((w) => w.segment))
console.log([...new Intl.Segmenter("en", { granularity: "word" }).segment("I ❤️ JS 🚀!")].map((w) => [w.segment, w.isWordLike]))
