package benchdata

// CorpusCase is one CPU-bound snippet of the corpus that compares
// codeexec with plain goja (and Node): plain JavaScript that returns a
// number, so that every engine runs the very same code and the results
// can be compared.
type CorpusCase struct {
	// Name names the case in benchmark and table rows.
	Name string
	// JS is the snippet: a function body (it ends with a return).
	JS string
	// Want is the JSON of the value it returns.
	Want string
}

// Corpus is the CPU-bound corpus of the performance issue, each case
// sized to take some tens of milliseconds in goja: function calls, a sort
// with a comparator, a global regular-expression match, JSON both ways,
// and string building by += at the sizes (200,000 one-character
// appends, a report of 100,000 lines), which the issue measured at 26 s
// and 82 s in goja before codeexec's patch made appending linear.
var Corpus = []CorpusCase{
	{Name: "calls", Want: "100000", JS: `function inc(x) { return x + 1 }
let s = 0;
for (let i = 0; i < 100000; i++) s = inc(s);
return s;`},
	{Name: "sort", Want: `"k1000027019k999962017"`, JS: `const a = [];
let x = 1;
for (let i = 0; i < 10000; i++) { x = (x * 48271) % 2147483647; a.push("k" + x); }
a.sort((p, q) => p < q ? -1 : p > q ? 1 : 0);
return a[0] + a[a.length - 1];`},
	{Name: "regexp", Want: "65536", JS: `const s = "abcx".repeat(65536);
return s.match(/x/g).length;`},
	{Name: "json", Want: "275281", JS: `const o = [];
for (let i = 0; i < 5000; i++) o.push({ id: i, name: "n" + i, tags: ["a", "b"], ok: i % 2 === 0 });
const t = JSON.stringify(o);
return JSON.parse(t).length + t.length;`},
	{Name: "append", Want: "200000", JS: `let b = "";
for (let i = 0; i < 200000; i++) b += "a";
return b.length;`},
	{Name: "report", Want: "988890", JS: "let r = \"\";\nfor (let i = 0; i < 100000; i++) r += `row ${i}\\n`;\nreturn r.length;"},
}
