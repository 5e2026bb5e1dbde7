package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// stackCases are snippets that return the stack they read, with the text
// it must be: Node's form, at the snippet's own lines and columns. Their
// type-only lines make the lines of the code goja runs differ from the
// snippet's.
var stackCases = []struct{ name, src, want string }{
	{"nested functions after a type-only line", `type Point = { x: number };
interface Named { name: string }
function inner(p: Point): number {
  throw new Error("at " + p.x);
}
function outer(): number {
  return inner({ x: 1 });
}
try { outer() } catch (e: any) { return e.stack }`,
		"Error: at 1\n    at inner (snippet.ts:4:9)\n    at outer (snippet.ts:7:10)\n    at snippet.ts:9:7"},
	{"after await", `interface Opts { n: number }
async function load(o: Opts): Promise<number> {
  await null;
  throw new TypeError("bad " + o.n);
}
try { await load({ n: 2 }) } catch (e: any) { return e.stack }`,
		"TypeError: bad 2\n    at load (snippet.ts:4:9)\n    at snippet.ts:6:13"},
	{"in a promise's catch", `type T = string;
const fail = async (): Promise<T> => { throw new RangeError("r") };
return await fail().catch((e) => e.stack);`,
		"RangeError: r\n    at fail (snippet.ts:2:46)\n    at snippet.ts:3:14"},
	{"never thrown, string key", `type T = string;
const e = new Error("made");
return e["stack"];`,
		"Error: made\n    at snippet.ts:2:11"},
	{"made by the engine", `type T = { x: number };
const o: any = undefined;
try { o.x } catch (e: any) { return e?.stack }`,
		"TypeError: Cannot read property 'x' of undefined\n    at snippet.ts:3:9"},
	{"plain JavaScript, UTF-16 columns", `const s = "é😀"; const e = new Error(s);
return e.stack;`,
		"Error: é😀\n    at snippet.ts:1:28"},
	{"read twice, then printed", `type T = string;
const e = new Error("twice");
const a = e.stack, b = e.stack;
console.log(e);
return a === b && a;`,
		"Error: twice\n    at snippet.ts:2:11"},
	{"set by the snippet", `const e = new Error("x"); e.stack = "mine"; return e.stack;`, "mine"},
	{"recursion keeps every frame, as Node's", `type T = number;
function f(n: T): T { if (n === 0) throw new Error("deep"); return f(n - 1) }
try { f(12) } catch (e: any) { return e.stack.split("\n").slice(0, 3).join("\n") + "\n" + e.stack.split("\n").length }`,
		"Error: deep\n    at f (snippet.ts:2:42)\n    at f (snippet.ts:2:68)\n11"},
}

// TestSnippetReadsStack checks the stack a snippet reads itself (e.stack):
// in Node's form at the snippet's positions, in a run of its own and in a
// session's run after one that declared the same names.
func TestSnippetReadsStack(t *testing.T) {
	t.Parallel()
	for _, tt := range stackCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, _ := json.Marshal(tt.want)
			if res := mustRun(t, tt.src, Options{}); string(res.Value) != string(want) {
				t.Errorf("run: value %s, want %s", res.Value, want)
			}
			s := NewSession()
			defer s.Close()
			for i := range 2 {
				res := s.Run(context.Background(), tt.src, Options{Limits: Limits{Timeout: testTimeout}})
				if res.Error != nil {
					t.Fatalf("session run %d: %s", i+1, res.Error.Report())
				}
				if string(res.Value) != string(want) {
					t.Errorf("session run %d: value %s, want %s", i+1, res.Value, want)
				}
			}
		})
	}
}

// TestReadStackKeepsReport checks that an error whose stack the snippet
// read (which rewrites it in place) is printed and reported as one whose
// stack it did not read, also under a file name with a slash (which the
// frames of Go host functions have, and lose).
func TestReadStackKeepsReport(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src string }{
		{"thrown", "type T = string;\nfunction f(): never {\n  const e = new Error(\"x\");\n  READ;\n  throw e;\n}\nf();"},
		{"printed and thrown", "type T = string;\nfunction f(): never {\n  const e = new Error(\"x\");\n  READ;\n  console.log(e);\n  throw e;\n}\nf();"},
		{"rejected", "type T = string;\nasync function f(): Promise<never> {\n  const e = new TypeError(\"x\");\n  READ;\n  await null;\n  throw e;\n}\nawait f();"},
		// READ on a line of its own: the report shows the line of the
		// call that overflowed.
		{"stack limit", "type T = number;\nfunction f(n: T): T {\n  try { return f(n + 1) } catch (e: any) {\n    READ;\n    throw e;\n  }\n}\nf(0);"},
	}
	for _, tt := range tests {
		for _, file := range []string{DefaultFilename, "work/t.ts"} {
			t.Run(tt.name+" in "+file, func(t *testing.T) {
				t.Parallel()
				opts := Options{Filename: file}
				read := runSnippet(t, strings.Replace(tt.src, "READ", "void e.stack", 1), opts)
				unread := runSnippet(t, strings.Replace(tt.src, "READ", "void e.name", 1), opts)
				if read.Error == nil || unread.Error == nil {
					t.Fatalf("errors %v and %v, want both", read.Error, unread.Error)
				}
				if read.Error.Stack != unread.Error.Stack || read.Error.Report() != unread.Error.Report() || read.Stdout != unread.Stdout {
					t.Errorf("after reading the stack:\n%s\n%s\nwithout:\n%s\n%s", read.Error.Report(), read.Stdout, unread.Error.Report(), unread.Stdout)
				}
				if !strings.Contains(read.Error.Stack, "    at f ("+file+":") {
					t.Errorf("stack %q has no frame of f", read.Error.Stack)
				}
			})
		}
	}
}

// TestSessionStackAcrossRuns checks a stack through a function an earlier
// run of the session defined: its frames are at that run's snippet's
// positions and name it (snippet.ts#1), the run's own frames name the
// snippet alone, and the report points at the run's own call, in both the
// stack the snippet reads and the report of an uncaught error.
func TestSessionStackAcrossRuns(t *testing.T) {
	t.Parallel()
	s := NewSession()
	defer s.Close()
	run := func(src string) *Result {
		t.Helper()
		return s.Run(context.Background(), src, Options{Limits: Limits{Timeout: testTimeout}})
	}
	if res := run("type A = number;\ninterface B { b: string }\n\nfunction helper(x: A): A {\n  if (x > 1) {\n    throw new Error('bad ' + x);\n  }\n  return x;\n}"); res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	res := run("type C = string;\ntry { helper(5) } catch (e: any) { return e.stack }")
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	want, _ := json.Marshal("Error: bad 5\n    at helper (snippet.ts#1:6:11)\n    at snippet.ts:2:7")
	if string(res.Value) != string(want) {
		t.Errorf("stack read %s, want %s", res.Value, want)
	}
	res = run("type C = string;\n\nhelper(7);")
	if res.Error == nil {
		t.Fatal("the uncaught error did not fail the run")
	}
	if got := res.Error.Stack; got != "Error: bad 7\n    at helper (snippet.ts#1:6:11)\n    at snippet.ts:3:1" {
		t.Errorf("stack %q", got)
	}
	if res.Error.File != DefaultFilename || res.Error.Line != 3 || res.Error.Column != 1 || res.Error.SourceLine != "helper(7);" {
		t.Errorf("report at %s:%d:%d %q, want the run's call at snippet.ts:3:1", res.Error.File, res.Error.Line, res.Error.Column, res.Error.SourceLine)
	}
}

// TestSessionStackSharedPrograms checks the names of frames when runs
// share a compiled snippet (a session's programs are cached by source):
// the same snippet run by two sessions at different run numbers, and
// twice in one session. A frame of a function an earlier run defined
// names the run that compiled it in this session, the latest when two
// did, and the run's own filename when the latest is the run itself.
func TestSessionStackSharedPrograms(t *testing.T) {
	t.Parallel()
	const helper = "function shared(x: number) {\n  throw new Error('bad ' + x);\n}"
	const call = "try { shared(1) } catch (e: any) { return e.stack }"
	const own = helper + "\n" + call
	tests := []struct {
		name string
		runs []string // the last returns the stack
		want string
	}{
		{"first run", []string{helper, call}, "Error: bad 1\n    at shared (snippet.ts#1:2:9)\n    at snippet.ts:1:7"},
		{"third run", []string{"1", "2", helper, call}, "Error: bad 1\n    at shared (snippet.ts#3:2:9)\n    at snippet.ts:1:7"},
		{"twice", []string{helper, "3", helper, call}, "Error: bad 1\n    at shared (snippet.ts#3:2:9)\n    at snippet.ts:1:7"},
		{"the run's own snippet again", []string{own, own}, "Error: bad 1\n    at shared (snippet.ts:2:9)\n    at snippet.ts:4:7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession()
			defer s.Close()
			var res *Result
			for _, src := range tt.runs {
				res = s.Run(context.Background(), src, Options{Limits: Limits{Timeout: testTimeout}})
				if res.Error != nil {
					t.Fatalf("%q: %s", src, res.Error.Report())
				}
			}
			want, _ := json.Marshal(tt.want)
			if string(res.Value) != string(want) {
				t.Errorf("stack %s, want %s", res.Value, want)
			}
		})
	}
}
