package webapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// TestPath checks the path global (POSIX), with values node v20 gives.
func TestPath(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `path.join("/a/b", "../c", "./d.txt")`, Want: `"/a/c/d.txt"`},
		{Expr: `[path.join(), path.join("", ""), path.join("a/b", "../../..")]`, Want: `[".",".",".."]`},
		{Expr: `[path.basename("/tmp/report.csv", ".csv"), path.basename("/tmp/dir/"), path.basename("a.txt", "a.txt")]`, Want: `["report","dir",""]`},
		{Expr: `["archive.tar.gz", ".gitignore", "a.", "README"].map((f) => path.extname(f))`, Want: `[".gz","",".",""]`},
		{Expr: `[path.dirname("/a/b/c.txt"), path.dirname("a"), path.dirname("//a"), path.dirname("/")]`, Want: `["/a/b",".","//","/"]`},
		{Expr: `[path.normalize("./a/../../b/"), path.normalize(""), path.normalize("//x")]`, Want: `["../b/",".","/x"]`},
		{Expr: `[path.resolve("/a", "b", "..", "c"), path.resolve("x"), path.resolve()]`, Want: `["/a/c","/x","/"]`},
		{Expr: `[path.relative("/data/orandea/test/aaa", "/data/orandea/impl/bbb"), path.relative("/a/b/c", "/a"), path.relative("/a", "/a")]`, Want: `["../../impl/bbb","../..",""]`},
		{Expr: `path.parse("/home/user/file.txt")`, Want: `{"root":"/","dir":"/home/user","base":"file.txt","ext":".txt","name":"file"}`},
		{Expr: `[path.format({ root: "/", name: "file", ext: "txt" }), path.format({ dir: "d", base: "b" })]`, Want: `["/file.txt","d/b"]`},
		{Expr: `[path.sep, path.delimiter, path.posix === path, path.isAbsolute("/x"), path.isAbsolute("x"), path.win32]`, Want: `["/",":",true,true,false,null]`},
		{Expr: `(() => { try { path.join("a", 5); return "no" } catch (e) { return [e.name, e.code, e.message] } })()`, Want: `["TypeError","ERR_INVALID_ARG_TYPE","The \"path\" argument must be of type string. Received type number (5)"]`},
	})
}

// TestPathResolvesAgainstCwd checks that path.resolve uses the sandbox's
// working directory, what process.cwd() returns.
func TestPathResolvesAgainstCwd(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `return [path.resolve("src", "../lib"), path.relative("/work/project/a", "b")]`, runtime.Options{Process: runtime.ProcessOptions{Cwd: "/work/project"}})
	if got, want := string(res.Value), `["/work/project/lib","../b"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestUtil checks the util global, with values node v20 gives.
func TestUtil(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `util.format("%s=%d %j", "n", 42, { a: 1 }, "rest")`, Want: `"n=42 {\"a\":1} rest"`},
		{Expr: `util.format({ a: [1, "x"] }, "s")`, Want: `"{ a: [ 1, 'x' ] } s"`},
		{Expr: `[util.inspect("s"), util.inspect({ a: { b: { c: { d: 1 } } } }), util.inspect({ a: { b: {} } }, { depth: 0 })]`, Want: `["'s'","{ a: { b: { c: [Object] } } }","{ a: [Object] }"]`},
		{Expr: `util.inspect(new Map([["k", [1, 2]]]), { depth: null, compact: false })`, Want: `"Map(1) {\n  'k' => [\n    1,\n    2\n  ]\n}"`},
		{Expr: `util.inspect({ a: { b: 1 } }, false, 0)`, Want: `"{ a: [Object] }"`},
		{Expr: `util.formatWithOptions({ depth: 0 }, "%O", { a: { b: 1 } })`, Want: `"{ a: [Object] }"`},
		{Expr: `[util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual({ a: 1 }, { a: "1" }), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual(NaN, NaN)]`, Want: `[true,false,false,true]`},
		{Expr: `[util.isDeepStrictEqual(new Set([1, { x: 1 }]), new Set([{ x: 1 }, 1])), util.isDeepStrictEqual(new Map([[1, 2]]), new Map([[1, 3]])), util.isDeepStrictEqual(new Date(1), new Date(1)), util.isDeepStrictEqual([1, , 3], [1, undefined, 3])]`, Want: `[true,false,true,false]`},
		{Expr: `(() => { const a = { n: 1 }; a.self = a; const b = { n: 1 }; b.self = b; return util.isDeepStrictEqual(a, b) })()`, Want: `true`},
		{Expr: `[util.types.isDate(new Date()), util.types.isDate({ [Symbol.toStringTag]: "Date" }), util.types.isRegExp(/x/), util.types.isPromise(Promise.resolve()), util.types.isPromise({ then() {} })]`, Want: `[true,false,true,true,false]`},
		{Expr: `[util.types.isMap(new Map()), util.types.isSet(new Set()), util.types.isMap(new Set()), util.types.isWeakMap(new WeakMap()), util.types.isWeakSet(new WeakMap()), util.types.isProxy(new Proxy(new Map(), {})), util.types.isMap(new Proxy(new Map(), {}))]`, Want: `[true,true,false,true,false,true,false]`},
		{Expr: `[util.types.isAsyncFunction(async () => {}), util.types.isGeneratorFunction(function* () {}), util.types.isGeneratorFunction(() => {}), util.types.isUint8Array(Buffer.alloc(1)), util.types.isTypedArray([]), util.types.isDataView(new DataView(new ArrayBuffer(1))), util.types.isNativeError(new RangeError())]`, Want: `[true,true,false,true,false,true,true]`},
		{Expr: `[util.types.isBoxedPrimitive(new String("s")), util.types.isBoxedPrimitive("s"), util.types.isSymbolObject(Object(Symbol())), util.types.isMapIterator(new Map().entries()), util.types.isSetIterator(new Map().keys())]`, Want: `[true,false,true,true,false]`},
		{Expr: `(() => { function C() {} function B() {} util.inherits(C, B); return [new C() instanceof B, C.super_ === B] })()`, Want: `[true,true]`},
		{Expr: `[util.TextEncoder === TextEncoder, util.TextDecoder === TextDecoder, util.stripVTControlCharacters("\u001b[1mx\u001b[0m"), util.toUSVString("a\ud800")]`, Want: `[true,true,"x","a�"]`},
		{Expr: `(() => { try { util.promisify(1); return "no" } catch (e) { return [e.name, e.code, e.message] } })()`, Want: `["TypeError","ERR_INVALID_ARG_TYPE","The \"original\" argument must be of type function. Received type number (1)"]`},
	})
}

// TestUtilPromisify checks promisify with a callback-last function, this,
// an error-first rejection, setTimeout and a custom promisified form.
func TestUtilPromisify(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `
function add(a, b, cb) { setTimeout(() => (a < 0 ? cb(new Error("negative")) : cb(null, a + b)), 1); }
const addP = util.promisify(add);
const out = [await addP(1, 2)];
try { await addP(-1, 0) } catch (e) { out.push(e.message) }
const o = { base: 10, get(x, cb) { cb(null, this.base + x) } };
o.getP = util.promisify(o.get);
out.push(await o.getP(5), await util.promisify(setTimeout)(1, "slept"), await util.promisify(setImmediate)("soon"));
function f(cb) { cb(null, 1) }
f[util.promisify.custom] = () => Promise.resolve("custom");
out.push(await util.promisify(f)());
return out`, runtime.Options{})
	if got, want := string(res.Value), `[3,"negative",15,"slept","soon","custom"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestUtilDeprecate checks that a deprecated function works and warns
// once on stderr, once per code.
func TestUtilDeprecate(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `
const old = util.deprecate((x) => x * 2, "old() is deprecated", "DEP_X");
const other = util.deprecate(() => 0, "other() too", "DEP_X");
const plain = util.deprecate(() => 0, "plain() is gone");
console.log(old(1), old(2), other(), plain(), plain())`, runtime.Options{})
	if res.Stdout != "2 4 0 0 0\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
	want := "(codeexec) [DEP_X] DeprecationWarning: old() is deprecated\n(codeexec) DeprecationWarning: plain() is gone\n"
	if res.Stderr != want {
		t.Errorf("stderr %q, want %q", res.Stderr, want)
	}
}

// TestRequireModules checks that require gives path and util (and their
// node: names) and refuses any other module as before.
func TestRequireModules(t *testing.T) {
	t.Parallel()
	res := runtest.MustRun(t, `
const p = require("path"), u = require("node:util");
return [p === path, require("node:path") === path, require("path/posix") === path, u === util, require("util") === util, p.join("a", "b"), u.format("%d", 7)]`, runtime.Options{})
	if got, want := string(res.Value), `[true,true,true,true,true,"a/b","7"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, name := range []string{"fs", "node:fs", "child_process", "./path", "path/win32", "utils"} {
		e := runtest.MustFail(t, `require(`+"`"+name+"`"+`)`, runtime.Options{})
		if !strings.Contains(e.Message, `require("`+name+`") is not supported: modules are not available`) {
			t.Errorf("require(%q): %s", name, e.Message)
		}
	}
	// The module is the original even when the snippet has its own
	// global of that name, which require does not replace.
	res = runtest.MustRun(t, `globalThis.path = "mine"; const p = require("path"); return [typeof p.join, path]`, runtime.Options{})
	if got, want := string(res.Value), `["function","mine"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestModulesInSession checks that path and util, like the other kept
// globals, are the same objects across a session's runs, and that a
// later run's util.format writes with that run's console.
func TestModulesInSession(t *testing.T) {
	t.Parallel()
	s := runtime.NewSession()
	ctx := context.Background()
	r1 := s.Run(ctx, `globalThis.keep = [path, util]; util.deprecate(() => 0, "first")(); console.log(util.format("%s", "one"))`, runtime.Options{})
	if r1.Error != nil || r1.Stdout != "one\n" {
		t.Fatalf("first run: %v %q", r1.Error, r1.Stdout)
	}
	r2 := s.Run(ctx, `console.log(util.format("%s", "two"), keep[0] === path, keep[1] === require("util")); process.stderr.write(util.inspect([1]) + "\n")`, runtime.Options{})
	if r2.Error != nil || r2.Stdout != "two true true\n" || r2.Stderr != "[ 1 ]\n" {
		t.Fatalf("second run: %v %q %q", r2.Error, r2.Stdout, r2.Stderr)
	}
}

// TestSegmenter checks Intl.Segmenter's UAX #29 boundaries, with values
// node v20 gives.
func TestSegmenter(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[...new Intl.Segmenter().segment("e\u0301👍🏽👨‍👩‍👧🇫🇷a")].map((g) => g.segment.length)`, Want: `[2,4,8,4,1]`},
		{Expr: `[...new Intl.Segmenter("en", { granularity: "word" }).segment("Hi, it's 3.5!")].filter((w) => w.isWordLike).map((w) => w.segment)`, Want: `["Hi","it's","3.5"]`},
		{Expr: `[...new Intl.Segmenter("en", { granularity: "word" }).segment("I ❤️ x")].map((w) => w.isWordLike)`, Want: `[true,false,false,false,true]`},
		{Expr: `[...new Intl.Segmenter("en", { granularity: "sentence" }).segment("One. Two? Three")].map((s) => s.segment)`, Want: `["One. ","Two? ","Three"]`},
		{Expr: `(() => { const s = new Intl.Segmenter("en", { granularity: "word" }).segment("ab cd"); return [s.containing(4), s.containing(5), s.containing(-1)] })()`, Want: `[{"segment":"cd","index":3,"input":"ab cd","isWordLike":true},null,null]`},
		{Expr: `[new Intl.Segmenter("fr", { granularity: "word" }).resolvedOptions(), [...new Intl.Segmenter().segment("")].length]`, Want: `[{"locale":"fr","granularity":"word"},0]`},
		{Expr: `(() => { try { new Intl.Segmenter("en", { granularity: "line" }); return "no" } catch (e) { return [e.name, e.message] } })()`, Want: `["RangeError","Value line out of range for Intl.Segmenter options property granularity"]`},
	})
}
