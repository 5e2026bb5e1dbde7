package webapi_test

import (
	"testing"

	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

// TestUnicodeRegExp checks Unicode property escapes and the d flag without
// node (the corpus compares more with node when it is installed). Expected
// values were produced by node v20.
func TestUnicodeRegExp(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[/\p{Lu}/u.test("A"), /\p{Lu}/u.test("a"), /\P{Lu}/u.test("A")]`, Want: `[true,false,false]`},
		{Expr: `"Crème Brûlée".normalize("NFD").replace(/\p{M}/gu, "")`, Want: `"Creme Brulee"`},
		{Expr: `"αβγ abc Ωμέγα".match(/\p{Script=Greek}+/gu)`, Want: `["αβγ","Ωμέγα"]`},
		{Expr: `[/\p{sc=Cyrillic}/u.test("Ж"), /\p{gc=Nd}/u.test("٣"), /\p{General_Category=Letter}/u.test("ß")]`, Want: `[true,true,true]`},
		{Expr: `/[\p{L}\p{N}_]+/u.exec("!!héllo_42??")[0]`, Want: `"héllo_42"`},
		{Expr: `[/[\P{L}]+/u.exec("abc 123 def")[0], /\p{Cn}/u.test("\u0378"), /\p{Any}/u.test("x")]`, Want: `[" 123 ",true,true]`},
		{Expr: `[/\p{L}/.test("p{L}"), /\p{Lu}/u.source, String(/\p{Lu}/gu)]`, Want: `[true,"\\p{Lu}","/\\p{Lu}/gu"]`},
		{Expr: `[/b+/d.hasIndices, /b+/d.exec("abbc").indices[0], /x/dg.flags]`, Want: `[true,[1,3],"dg"]`},
		{Expr: `(() => { try { new RegExp("\\p{Nope}", "u"); return "no" } catch (e) { return e.name } })()`, Want: `"SyntaxError"`},
		{Expr: `[/(?<y>\d{4})/d.exec("in 2024").indices.groups.y, /a(b)|(c)/d.exec("xab").indices, Object.keys(/(?<a>x)/d.exec("x")), Object.keys(/x/.exec("x"))]`, Want: `[[3,7],[[1,3],[2,3],null],["0","1","index","input","groups","indices"],["0","index","input","groups"]]`},
		{Expr: `[new RegExp("(\\d)", "dg").flags, [..."a1b22".matchAll(new RegExp("(?<n>\\d+)", "dg"))].map((m) => m.indices.groups.n)]`, Want: `["dg",[[1,2],[3,5]]]`},
		{Expr: `(() => { try { const r = /\p{ID_Start}/u; return r.flags } catch (e) { return [e.name, e.message.includes("not supported")] } })()`, Want: `["SyntaxError",true]`},
	})
}

// TestEmojiRegExp checks the emoji properties, which Go's unicode package
// lacks and emoji_tables.go holds (expected values from node v20).
func TestEmojiRegExp(t *testing.T) {
	t.Parallel()
	const s = `"Hi 👋🏽 there ❤️ 2024 © #1 — ok 🇫🇷!"`
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: s + `.replace(/\p{Extended_Pictographic}/gu, "").replace(/\s+/g, " ")`, Want: `"Hi 🏽 there ️ 2024 #1 — ok 🇫🇷!"`},
		{Expr: s + `.match(/\p{Emoji_Presentation}/gu)`, Want: `["👋","🏽","🇫","🇷"]`},
		{Expr: `[` + s + `.match(/\p{Emoji}/gu).length, /\p{Emoji_Modifier}/u.test("🏽"), /\p{Emoji_Modifier_Base}/u.test("👋"), /\p{Emoji_Component}/u.test("#"), /\P{Emoji}/u.test("a"), /\p{Emoji}/u.test("a")]`, Want: `[12,true,true,true,true,false]`},
		{Expr: `"a😀b🫠c".replace(/[\p{Emoji_Presentation}\p{Extended_Pictographic}]/gu, "_")`, Want: `"a_b_c"`},
	})
}

// TestUnicodeRegExpUnions checks the properties made of several tables
// (expected values from node v20).
func TestUnicodeRegExpUnions(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[/\p{Alphabetic}/u.test("\u0345"), /\p{Alpha}/u.test("1"), /\p{Lower}/u.test("\u00aa"), /\p{Upper}/u.test("\u2160"), /\p{Math}/u.test("^")]`, Want: `[true,false,true,true,true]`},
		{Expr: `[/\p{LC}/u.test("ǅ"), /\p{LC}/u.test("ª"), /\p{C}/u.test("\u0378"), /\p{C}/u.test("\u200b"), /\p{Assigned}/u.test("\u0378"), /\p{Assigned}/u.test("\u{1F600}")]`, Want: `[true,false,true,true,false,true]`},
	})
}

// TestUnicodeRegExpBareScript checks that a script name without Script= is
// a SyntaxError, worded as node v20 words it.
func TestUnicodeRegExpBareScript(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `["\\p{Latin}", "\\p{Latn}", "\\p{Script=Latn}"].map((s) => { try { new RegExp(s, "u"); return "ok" } catch (e) { return e.name + ": " + e.message } })`, Want: `["SyntaxError: Invalid regular expression: /\\p{Latin}/u: Invalid property name","SyntaxError: Invalid regular expression: /\\p{Latn}/u: Invalid property name","ok"]`},
	})
}

// TestUnicodeRegExpStrides checks a property whose tables have ranges with
// a stride (every other code point), in both planes, in and out of a class
// (expected values from node v20).
func TestUnicodeRegExpStrides(t *testing.T) {
	t.Parallel()
	runtest.CheckValues(t, []runtest.ValueCase{
		{Expr: `[/\p{Lu}/u.test("\u0100"), /\p{Lu}/u.test("\u0101"), /\p{Lu}/u.test("\u0102"), /[\P{Lu}]/u.test("\u0101"), /\p{Lu}/u.test("\u{1D400}"), /\p{Lu}/u.test("\u{1D41A}")]`, Want: `[true,false,true,true,true,false]`},
	})
}
