package hostile

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/internal/procfs"
	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// ignoreRegexpClock ignores regexp2's clock goroutine, which the runtime's
// match timeout starts and which stops by itself.
var ignoreRegexpClock = goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock")

// TestMain makes the test binary a process-isolation worker when started as
// one, and checks that the tests, once all have ended, leave no goroutine
// and no process behind (each case checks the processes it started, but
// cases run in parallel: only here does nothing else run).
func TestMain(m *testing.M) {
	isolation.Main()
	goleak.VerifyTestMain(checkProcesses{m}, ignoreRegexpClock)
}

// checkProcesses runs the tests, then fails the run if a process is left.
type checkProcesses struct{ m *testing.M }

func (c checkProcesses) Run() int {
	code := c.m.Run()
	left := isLeftover
	if inRSSChild {
		// The parent's other cases still run: their bash commands are not
		// this child's leftovers. The child's own case checked the
		// processes it started, by its marker.
		left = isLiveChild
	}
	if left := leftovers(5*time.Second, left); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes left behind after the tests: %+v\n", left)
		return 1
	}
	if inRSSChild {
		if err := writePeakRSS(); err != nil {
			fmt.Fprintf(os.Stderr, "report the peak resident memory: %v\n", err)
			return 1
		}
	}
	return code
}

// want is what a case must end with.
type want struct {
	ok    bool              // the run succeeds
	kind  runtime.ErrorKind // else the error's kind
	msg   string            // a substring of the error report, or of Text() when ok
	value string            // the exact JSON value, when set
	check func(t *testing.T, res *codeexec.Result)
	// clean: the next run must see pristine globals (nextRunProbe).
	clean bool
}

// hostileCase is one snippet of the suite.
type hostileCase struct {
	category, name, src string
	// timeout, set on the cases that assert that the run's timeout fires,
	// is their timeout, short so that they end fast. The other cases run
	// with limitWait, so that only the limit they assert can end them, and
	// must end within slowRun.
	timeout time.Duration
	// grows marks a case that grows until the memory limit stops it: it
	// runs with its mode's growthLimit, small so that the limit fires fast,
	// and must end with that limit's error (want.msg is set from it). The
	// others run with memoryLimit.
	grows bool
	// depth, when set, is the case's call-stack limit: the cases whose
	// recursion goes through native code unwind in time quadratic in the
	// depth (seconds at the default 10,000), and test the limit, not the
	// depth.
	depth int
	// memory, when set, is the case's memory limit instead of memoryLimit:
	// dataMemory for a case about something else that moves a lot of data.
	memory int64
	// maxOutput, when set, is the case's limit on captured output instead
	// of the default.
	maxOutput int
	want      want
	// rss marks a case whose point is the host's memory: it runs alone in
	// a child process, whose peak resident memory must stay below the
	// case's memory limit plus rssMargin (runInChild). Marked: every
	// "memory" case; the output floods (stdout, stderr, one huge line,
	// the last line after a flood), whose output must be capped as it
	// comes, not after; the tool data past a limit (the planning result
	// too large, the edit past the file size limit, the bash output
	// flood, the big params cut in the trace); the huge return value and
	// error message; and the memory limit firing while a tool call waits.
	// Not marked: the cases whose inputs are a few MB at most and whose
	// point is a message or a bound on a report (a huge argument, source
	// or source line, a grep of a long line).
	rss bool
	// only, when set, is the name of the one mode the case runs in: its
	// outcome is decided by code that runs alike in process and in a
	// worker (the engine's interrupt, hardening and memory watchdog, the
	// transform and the parser, console formatting, the file tools, which
	// run in the host in both modes), so a second mode would run that
	// code again and test nothing more. The other mode keeps cases of the
	// category (each category has cases in each mode:
	// TestCategoriesInEveryMode).
	only string
	// long marks a case that takes half a second or more by itself (go
	// test -run 'TestHostile' -parallel 1 -v): go test -short, which make
	// test runs, skips it; make hostile and CI run it. Each category keeps
	// a case in each mode that -short runs (TestCategoriesInEveryMode).
	long bool
	// then, when set, is a snippet run after the case with the case's
	// tools and state (its planning session, its files), which must
	// succeed with the JSON value thenValue: what the case left behind.
	then, thenValue string
}

const (
	// memoryLimit is the memory limit the suite runs with.
	memoryLimit = 256 << 20
	// shortTimeout is the timeout of the cases that assert that it fires
	// and need some time before it does: to build what they spin on, to
	// flood the output past its limit, to start a tool call.
	shortTimeout = 500 * time.Millisecond
	// spinTimeout is the timeout of the cases that assert that it fires
	// and spin (or wait) from their first statement: its length is not
	// what they test, and each millisecond of it is a CPU spinning.
	spinTimeout = 100 * time.Millisecond
	// limitWait is the timeout of the cases that assert another limit (or
	// success): far longer than any of them needs, so that the timeout
	// cannot fire first, even under load or the race detector.
	limitWait = 2 * slowRun
	// slowRun is how long a case that does not assert the timeout may take:
	// a liveness bound, 30 s, and three times that under the race detector
	// (the planning case's 35 MB of params took 34 s so beside two CPU
	// hogs).
	slowRun = 30 * time.Second * raceSlowdown
)

// cases are the suite's snippets. Their big strings are repeats of a
// repeat, and the strings that grow concatenate a chunk made once: goja's
// repeat appends its copies one at a time, which cost more than what the
// cases test.
var cases = []hostileCase{
	// CPU.
	{category: "cpu", name: "tight loop", src: `for (;;) {}`, timeout: spinTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 100ms"}},
	{category: "cpu", name: "microtask flood", only: inProcessOnly, src: `for (;;) await null;`, timeout: spinTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 100ms"}},
	{category: "cpu", name: "interval flood", only: inProcessOnly, src: `setInterval(() => {}, 0); await new Promise(() => {});`, timeout: spinTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 100ms"}},
	{category: "cpu", name: "catastrophic regex", long: true, only: inProcessOnly, src: `return /^(\w+\s?)*\1$/.test("a".repeat(30) + "!");`, want: want{kind: runtime.KindException, msg: "was stopped after 1s without finishing"}},
	{category: "cpu", name: "catastrophic regex in a loop", long: true, only: inProcessOnly, src: `for (;;) { try { /^(a+)+\1$/.test("a".repeat(40) + "!") } catch {} }`, timeout: shortTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 500ms"}},
	{category: "cpu", name: "huge native sort", long: true, only: inProcessOnly, src: `const a = Array.from({ length: 3e5 }, (_, i) => String(3e5 - i)); for (;;) a.slice().sort();`, timeout: shortTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 500ms"}},

	// Memory. Each growth case prints a line before it grows, which its
	// check requires: the limit fired on the snippet's growth. (Arrays
	// grow by copies of one: goja fills an array forty times slower than
	// Array.from copies one.)
	{category: "memory", name: "array growth", long: true, rss: true, src: `console.log("growing"); const row = new Array(10000).fill(0), keep = []; for (;;) keep.push(Array.from(row));`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	{category: "memory", name: "string growth", rss: true, src: `console.log("growing"); let s = "x"; const keep = []; for (;;) { s = s + s.slice(0, 4096) + keep.length; keep.push(s); }`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	{category: "memory", name: "map growth", only: inProcessOnly, rss: true, src: `console.log("growing"); const m = new Map(); for (let i = 0; ; i++) m.set(i, { i, s: "v" + i });`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	// Each turn of the chain keeps the promises before it alive.
	{category: "memory", name: "promise chain flood", only: inProcessOnly, rss: true, src: `console.log("growing"); const f = () => Promise.resolve().then(f); f(); await new Promise(() => {});`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	// A 4 MB document, built without keeping its parts, parsed again and
	// again, every copy kept.
	{category: "memory", name: "giant JSON", long: true, rss: true, src: `const big = "[" + new Array(2e4).fill(JSON.stringify({ s: "x".repeat(200) })).join(",") + "]"; console.log("growing"); const keep = []; for (;;) keep.push(JSON.parse(big));`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	// Single huge native allocations: the engine asks the run's remaining
	// memory first (in process they killed the host, or succeeded past the
	// limit), and the snippet cannot catch the refusal.
	{category: "memory", name: "string repeat 2**40", rss: true, src: `return 'ab'.repeat(2 ** 40).length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "giant typed array", rss: true, src: `return new Float64Array(2 ** 31).length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "giant filled array", rss: true, src: `return new Array(1e9).fill(0).length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "3 GB Uint8Array, caught", rss: true, src: `try { return new Uint8Array(3e9).length } catch { return "caught" }`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "giant Buffer.alloc", rss: true, src: `return Buffer.alloc(3e9).length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "giant padEnd", rss: true, src: `return "x".padEnd(2 ** 31).length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "giant join", rss: true, src: `return Array(1e9).join("ab").length;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	{category: "memory", name: "doubling concatenation", long: true, rss: true, src: `let s = "x".repeat(1 << 20); for (;;) s = s + s;`, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its memory limit of 256 MiB"}},
	// Stack.
	{category: "stack", name: "deep recursion", src: `function f(n: number): number { return f(n + 1) + 1 } f(0);`, want: want{kind: runtime.KindLimit, msg: "Maximum call stack size exceeded"}},
	{category: "stack", name: "recursive getter", src: `const o = { get x(): any { return this.x } }; o.x;`, depth: 1000, want: want{kind: runtime.KindLimit, msg: "Maximum call stack size exceeded"}},
	{category: "stack", name: "recursive toString", src: `const o = { toString(): string { return String(this) } }; String(o);`, depth: 1000, want: want{kind: runtime.KindLimit, msg: "Maximum call stack size exceeded"}},
	{category: "stack", name: "recursive toJSON on return", src: `const o: any = { toJSON() { return JSON.stringify(o) } }; return o;`, depth: 1000, want: want{kind: runtime.KindLimit, msg: "Maximum call stack size exceeded"}},
	// Repro 5 of issue 11: the limit is a RangeError the snippet catches,
	// after an await too, in async functions and promise executors, and
	// ordinary deep recursion fits under it.
	{category: "stack", name: "caught after an await", src: `await null; try { (function f(): any { f() })() } catch { console.log("caught") } return "after";`, want: want{ok: true, value: `"after"`, check: printed("caught\n")}},
	{category: "stack", name: "caught in an async function", src: `async function g() { try { (function f(): any { f() })() } catch (e: any) { return e.name + ": " + e.message } } return await g();`, want: want{ok: true, value: `"RangeError: Maximum call stack size exceeded (the call-stack limit is 10000 frames)"`}},
	{category: "stack", name: "caught from a promise executor", src: `try { await new Promise(() => { (function f(): any { f() })() }) } catch (e: any) { return e.name }`, want: want{ok: true, value: `"RangeError"`}},
	{category: "stack", name: "recursion 9,000 deep", src: `function d(n: number): number { return n === 0 ? 0 : 1 + d(n - 1) } return d(9000);`, want: want{ok: true, value: `9000`}},
	// goja recursed proxy -> target -> prototype in Go with no snippet
	// frame: the goroutine's stack overflowed, killing an in-process host.
	{category: "stack", name: "proxy in a prototype cycle", src: `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); console.log(a.missing);`, want: want{kind: runtime.KindLimit, msg: "RangeError: Maximum call stack size exceeded (the call-stack limit is 10000 frames)"}},
	{category: "stack", name: "proxy in a prototype cycle, caught", src: `const a: any = {}; const p = new Proxy(a, {}); Object.setPrototypeOf(a, p); try { "x" in a } catch (e: any) { return e.name + ": " + e.message }`, want: want{ok: true, value: `"RangeError: Maximum call stack size exceeded"`}},
	{category: "stack", name: "JSON.stringify of endless getters", long: true, src: `const mk = (): any => ({ get a() { return mk() } }); return JSON.stringify(mk());`, want: want{kind: runtime.KindLimit, msg: "RangeError: Maximum call stack size exceeded (the call-stack limit is 10000 frames)"}},
	{category: "stack", name: "deeply nested literal", only: inProcessOnly, src: "return " + strings.Repeat("[", 300000) + strings.Repeat("]", 300000) + ";", want: want{kind: runtime.KindCompile, msg: "brackets nest more than 1000 levels deep"}},
	{category: "stack", name: "deeply nested eval", only: inProcessOnly, src: `eval("[".repeat(3e5) + "]".repeat(3e5));`, want: want{kind: runtime.KindException, msg: "EvalError: eval is disabled"}},
	// goja's JSON parser recurses on the Go stack: 30 million levels overflowed it, killing the host;
	// past 10,000 levels JSON.parse refuses the text before goja sees it.
	{category: "stack", name: "deeply nested JSON text", src: `const deep = "[".repeat(1e6) + "]".repeat(1e6); try { JSON.parse(deep) } catch (e: any) { console.log(e.name) } return JSON.parse("[".repeat(1e4) + "]".repeat(1e4)).length;`, want: want{ok: true, value: `1`, check: printed("RangeError\n")}},
	{category: "stack", name: "deeply nested JSON text, parse reached by name", src: `const p = (JSON as any)["pa" + "rse"]; p("[".repeat(1e6));`, want: want{kind: runtime.KindException, msg: "RangeError: JSON.parse: the text nests arrays and objects more than 10000 levels deep"}},

	// Output floods.
	// The endless flood must pass its output limit before the timeout
	// stops it: 64 KiB, which a worker under the race detector beside two
	// CPU hogs did not fail to reach, where 1 MiB it did.
	{category: "output", name: "stdout flood", long: true, rss: true, src: `for (;;) console.log("x".repeat(1000));`, timeout: shortTimeout, maxOutput: 64 << 10, want: want{kind: runtime.KindLimit, msg: "timeout of 500ms", check: truncated}},
	{category: "output", name: "one huge line", rss: true, src: `console.log("y".repeat(1e3).repeat(5e3)); return "done";`, want: want{ok: true, value: `"done"`, check: truncated}},
	{category: "output", name: "stderr flood", rss: true, src: `for (let i = 0; i < 1e5; i++) console.error("e".repeat(100));`, want: want{ok: true, check: truncated}},

	// Tool abuse.
	{category: "tools", name: "call flood", src: `for (;;) read("a.txt");`, memory: dataMemory, want: want{kind: runtime.KindLimit, msg: "more than 1000 tool calls"}},
	{category: "tools", name: "huge argument", src: `try { await read("x".repeat(1e3).repeat(1e3)) } catch (e) { return e.name }`, want: want{ok: true, value: `"ToolError"`}},
	{category: "tools", name: "unknown tool", src: `await callTool("format_disk", {});`, want: want{kind: runtime.KindException, msg: "Tool not found: format_disk"}},
	{category: "tools", name: "wrong types", src: `await read(42 as any);`, want: want{kind: runtime.KindException, msg: "params.path: got number, want string"}},
	{category: "tools", name: "inherited params", src: `await callTool("read", Object.create({ path: "a.txt" })).then((r) => { if (r.isError) throw new Error(r.content[0].text) });`, want: want{kind: runtime.KindException, msg: "missing property 'path'"}},
	{category: "tools", name: "params with a getter", src: `let n = 0; const p = { get path() { return ++n > 1 ? "../secret.txt" : "a.txt" } }; return await read(p);`, want: want{ok: true, value: `"inside\n"`}},
	{category: "tools", name: "call after the deadline", src: `setTimeout(() => read("a.txt"), 5000); await new Promise(() => {});`, timeout: spinTimeout, want: want{kind: runtime.KindLimit, msg: "timeout of 100ms", check: noCalls}},
	{category: "tools", name: "never settles", src: `await new Promise(() => {});`, want: want{kind: runtime.KindException, msg: "still waiting"}},
	// Repro: in a worker, a planning call whose result was too large to
	// pass back failed, yet its steps stayed in the session.
	{category: "tools", name: "planning result too large", long: true, rss: true, src: `await planning_setup_plan("o"); try { await planning_add_step(Array(70000).fill("x".repeat(500))); return "added" } catch (e) { return [e.message, (await planning_read_plan()).steps.length] }`,
		memory: dataMemory, want: want{ok: true, value: `["planning_add_step: the updated plan is too large to return (the result is at least 70000002 bytes as JSON, over the limit of 67043328 bytes on a tool result), so the call changed nothing; add fewer steps at a time or use shorter titles",0]`}},
	// A planning change is committed only when the snippet got its result:
	// a call whose result never reached it changes nothing (a retry makes
	// no duplicate), and its step id is not used up.
	{category: "tools", name: "planning call in flight at the timeout", long: true, src: `await planning_setup_plan("o", ["a"]); planning_add_step(["b"]); for (;;) {}`, timeout: shortTimeout,
		want: want{kind: runtime.KindLimit, msg: "timeout of 500ms"}, then: planningAfter, thenValue: `["1 a","2 c"]`},
	{category: "tools", name: "planning call in flight at process.exit", src: `await planning_setup_plan("o", ["a"]); planning_add_step(["b"]); process.exit(0)`,
		want: want{ok: true}, then: planningAfter, thenValue: `["1 a","2 c"]`},
	{category: "tools", name: "planning call in flight at the memory limit", src: `await planning_setup_plan("o", ["a"]); planning_add_step(["b"]); console.log("growing"); const chunk = "x".repeat(1 << 16), keep = []; for (;;) keep.push(chunk + keep.length);`, grows: true,
		want: want{kind: runtime.KindLimit, check: printed("growing\n")}, then: planningAfter, thenValue: `["1 a","2 c"]`},
	{category: "tools", name: "planning result refused by a result hook", src: `await planning_setup_plan("o", ["a"]); try { await planning_add_step(["` + vetoedStep + `"]); return "added" } catch (e) { return [e.message, (await planning_read_plan()).steps.length] }`,
		want: want{ok: true, value: `["planning_add_step: the host refused this step",1]`}, then: planningAfter, thenValue: `["1 a","2 c"]`},
	// bash's timeout is lowered to what is left of the run: the call
	// fails first, with a ToolError the snippet could still catch, and its
	// process is killed. The run has 5 s, so that the tenth of it left
	// for the error to reach the snippet is enough on a loaded machine.
	{category: "tools", name: "bash past the deadline", src: `await bash("sleep 100");`, timeout: 5 * time.Second, want: want{kind: runtime.KindException, msg: "all that was left of the snippet's own time limit (bash's default is 120s), and was killed with its whole process group; split the work over several snippets; it printed nothing"}},

	// Escape attempts.
	{category: "escape", name: "Function constructor", only: inProcessOnly, src: `return new Function("return this")();`, want: want{kind: runtime.KindException, msg: "EvalError: new Function() is disabled"}},
	{category: "escape", name: "constructor of a constructor", only: inProcessOnly, src: `return (read as any).constructor.constructor("return process")();`, want: want{kind: runtime.KindException, msg: "EvalError: new Function() is disabled"}},
	{category: "escape", name: "eval", only: inProcessOnly, src: `return eval("globalThis");`, want: want{kind: runtime.KindException, msg: "EvalError: eval is disabled"}},
	{category: "escape", name: "Go objects through errors", src: `try { await read(42 as any) } catch (e) { return JSON.stringify([Object.getOwnPropertyNames(e), typeof (e as any).value, Object.getPrototypeOf((e as any).details) === Object.prototype]) }`, want: want{ok: true, value: `"[[\"stack\",\"message\",\"name\",\"tool\",\"details\"],\"undefined\",true]"`}},
	{category: "escape", name: "Go objects through bindings", src: `return [typeof (read as any).value, Object.getOwnPropertyNames(read).sort().join(","), typeof process, typeof require("x")];`, want: want{kind: runtime.KindException, msg: "modules are not available"}},
	{category: "escape", name: "host environment", src: `return [typeof process, JSON.stringify(process.env), typeof (globalThis as any).Deno, typeof (globalThis as any).os, Object.keys(globalThis).filter((k) => /env|go|host/i.test(k))];`, want: want{ok: true, value: `["object","{}","undefined","undefined",[]]`}},
	{category: "escape", name: "tamper with globals", src: `(Object.prototype as any).polluted = 1; (Array.prototype as any).map = null; (globalThis as any).read = null; JSON.parse = null as any; console.log = null as any; return 1;`, want: want{ok: true, value: `1`, clean: true}},
	{category: "escape", name: "dynamic import", only: inProcessOnly, src: `await import("fs");`, want: want{kind: runtime.KindCompile, msg: "import() and import.meta are not supported"}},

	// File-tool escapes.
	{category: "files", name: "dot dot", src: `return await read("../secret.txt");`, want: want{kind: runtime.KindException, msg: "outside the root"}},
	{category: "files", name: "absolute path", only: inProcessOnly, src: `return await read("/etc/passwd");`, want: want{kind: runtime.KindException, msg: "outside the root"}},
	{category: "files", name: "symlink to /etc", only: inProcessOnly, src: `return await read("etclink/passwd");`, want: want{kind: runtime.KindException, msg: "outside the root"}},
	{category: "files", name: "write through a symlink to the parent", only: inProcessOnly, src: `return await write("uplink/evil.txt", "pwned");`, want: want{kind: runtime.KindException, msg: "outside the root"}},
	{category: "files", name: "proc", only: inProcessOnly, src: `return await read("/proc/self/environ");`, want: want{kind: runtime.KindException, msg: "outside the root"}},
	{category: "files", name: "fifo", only: inProcessOnly, src: `return await read("fifo");`, want: want{kind: runtime.KindException, msg: `read: "fifo" is not a regular file but a named pipe (FIFO)`}},
	// Repro: write to a FIFO blocked until the run's timeout.
	{category: "files", name: "write to a fifo", only: inProcessOnly, src: `return await write("fifo", "x");`, want: want{kind: runtime.KindException, msg: `write: "fifo" is not a regular file but a named pipe (FIFO); the file tools refuse named pipes, sockets and devices`}},
	{category: "files", name: "every tool refuses a fifo", src: `const out: string[] = []; for (const f of [() => read("fifo"), () => write("fifo", "x"), () => edit("fifo", "a", "b"), () => grep("a", { path: "fifo" }), () => ls("fifo"), () => find("*", { path: "fifo" })]) { try { await f(); out.push("done") } catch (e) { out.push(e.message.slice(0, e.message.indexOf(";"))) } } return out;`,
		want: want{ok: true, value: `["read: \"fifo\" is not a regular file but a named pipe (FIFO)","write: \"fifo\" is not a regular file but a named pipe (FIFO)","edit: \"fifo\" is not a regular file but a named pipe (FIFO)","grep: \"fifo\" is not a regular file but a named pipe (FIFO)","ls: \"fifo\" is not a regular file but a named pipe (FIFO)","find: \"fifo\" is not a regular file but a named pipe (FIFO)"]`}},
	// Repro: edit grew a file without bound (1 GB, or the host's fatal
	// out-of-memory); it refuses before building the content.
	{category: "files", name: "edit past the file size limit", only: inProcessOnly, rss: true, src: `await write("f", "a".repeat(1e3).repeat(1e3)); try { await edit("f", "a", "b".repeat(500), { replaceAll: true }); return "edited" } catch (e) { return [e.message, (await read("f")).length] }`,
		want: want{ok: true, value: `["edit: \"f\" would be 476.8 MiB (500000000 bytes), over the limit of 64 MiB on files the tools write; the file was not changed; write it in smaller parts with bash if it really must be this large",1000000]`}},
	// Repro: grep searched only the first 1 MiB of a line, silently.
	{category: "files", name: "grep a line past 1 MiB", only: inProcessOnly, src: `await write("big.txt", "x".repeat(1e3).repeat(3e3) + "NEEDLE"); return await grep("NEEDLE", { path: "big.txt" });`,
		want: want{ok: true, value: `"big.txt:1:[... 2999506 bytes] ` + strings.Repeat("x", 494) + `NEEDLE"`}},
	// Repro: a name with a newline made ls, find and grep print a line
	// for a file that does not exist.
	{category: "files", name: "newline in a name", only: inProcessOnly, src: `await write("evil\nfake.txt", "needle\n"); return [await ls(), await find("*.txt"), await grep("needle")];`,
		want: want{ok: true, value: `["a.txt\netclink\n\"evil\\nfake.txt\"\nfifo\nuplink","a.txt\n\"evil\\nfake.txt\"","\"evil\\nfake.txt\":1:needle"]`}},
	{category: "files", name: "long path", only: inProcessOnly, src: `return await read("a/".repeat(3000) + "x");`, want: want{kind: runtime.KindException, msg: "ToolError"}},
	{category: "files", name: "NUL byte", src: `return await read("a.txt\u0000../../secret.txt");`, want: want{kind: runtime.KindException, msg: "NUL"}},

	// Bash abuse.
	{category: "bash", name: "background children", src: `return await bash("sh -c 'sleep 300' hostile-bg & echo started");`, want: want{ok: true, value: `"started\n"`}},
	{category: "bash", name: "setsid", src: `return await bash("setsid sh -c 'sleep 300' hostile-setsid >/dev/null 2>&1 < /dev/null & echo started");`, want: want{ok: true, value: `"started\n"`}},
	{category: "bash", name: "output flood", rss: true, src: `const out = await bash("yes | head -c 50000000"); return out.length < 100000 && out.startsWith("[");`, want: want{ok: true, value: `true`}},

	// Issue 11, round two: every output bounded, no limit disguised.
	{category: "bounds", name: "huge return value", rss: true, src: `return "a" + "x".repeat(1e3).repeat(5e3) + "b";`, want: want{ok: true, check: boundedValue}},
	{category: "bounds", name: "huge error message", rss: true, src: `throw new Error("a" + "x".repeat(1e3).repeat(5e3) + "b");`, want: want{kind: runtime.KindException, msg: "bytes cut here", check: boundedError}},
	{category: "bounds", name: "one huge source line that throws at its end", src: "const s = '" + strings.Repeat("q", 778<<10) + "'; (null as any).x;", want: want{kind: runtime.KindException, msg: "snippet.ts:1:", check: boundedError}},
	{category: "bounds", name: "the last line after a flood", rss: true, src: `console.log("x".repeat(1e3).repeat(2e3)); console.log("SUMMARY");`, want: want{ok: true, check: keepsSummary}},
	{category: "bounds", name: "big params are cut in the trace", long: true, rss: true, src: `const big = "x".repeat(1e3).repeat(2e3); for (let i = 0; i < 20; i++) await write("big.txt", big); return "written";`, want: want{ok: true, value: `"written"`, check: cutTrace}},
	{category: "bounds", name: "toJSON returning this", src: `await planning_setup_plan("o"); const p = await planning_add_step(Object.assign(["a"], { toJSON() { return this } }) as any); return p.steps.map((s: any) => s.title);`, want: want{ok: true, value: `["a"]`}},
	{category: "bounds", name: "revoked proxy argument", src: `const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); try { await read(proxy as any) } catch (e) { return (e as Error).message }`, want: want{ok: true, value: `"read(): argument 1 (path) cannot be passed to a tool: TypeError: Proxy already revoked"`}},
	{category: "bounds", name: "error stack getter loops", only: inProcessOnly, src: `const e = new Error("x"); Object.defineProperty(e, "stack", { get() { for (;;) {} } }); throw e;`, timeout: spinTimeout, want: want{kind: runtime.KindLimit, msg: "LimitError: the run exceeded its timeout of 100ms"}},
	{category: "bounds", name: "memory limit while a tool call waits", rss: true, src: `console.log("growing"); const chunk = "x".repeat(1 << 20), keep: any[] = []; (async () => { for (;;) { keep.push(chunk + keep.length); await null } })(); await bash("sleep 5");`, grows: true, want: want{kind: runtime.KindLimit, check: printed("growing\n")}},
	{category: "bounds", name: "top-level namespace", only: inProcessOnly, src: "namespace N { export const v = 2 }\nenum E { A, B }\nreturn [N.v, E.B, <number>(1 as any)];", want: want{ok: true, value: `[2,1,1]`}},
	{category: "bounds", name: "setTimeout Infinity", only: inProcessOnly, src: `setTimeout(() => console.log("fired"), Infinity);`, want: want{ok: true, check: printed("fired\n")}},
	{category: "bounds", name: "sparse array of the largest length", only: inProcessOnly, src: `const a: any[] = []; a.length = 2 ** 32 - 1; console.log(a);`, want: want{ok: true, check: printed("[ <4294967295 empty items> ]\n")}},
	{category: "bounds", name: "parser panic", only: inProcessOnly, src: `return "\u{10FFFF}".length;`, want: want{kind: runtime.KindCompile, msg: "snippet.ts:1:8: error: the engine cannot parse this code"}},

	// Malformed input.
	{category: "input", name: "syntax error", only: inProcessOnly, src: "const x = ;", want: want{kind: runtime.KindCompile, msg: "snippet.ts:1:11: error:"}},
	{category: "input", name: "invalid UTF-8", src: "return \"a\xff\xfeb\".length;", want: want{ok: true, value: `4`}},
	{category: "input", name: "byte order mark", only: inProcessOnly, src: "\uFEFFreturn 1;", want: want{ok: true, value: `1`}},
	{category: "input", name: "CRLF line endings", only: inProcessOnly, src: "const a = 1;\r\nconst b = 2;\r\nthrow new Error(String(a + b));", want: want{kind: runtime.KindException, msg: "snippet.ts:3:7"}},
	{category: "input", name: "empty file", only: inProcessOnly, src: "", want: want{ok: true, msg: "(no output)"}},
	{category: "input", name: "huge file", src: "// " + strings.Repeat("x", 2<<20), want: want{kind: runtime.KindLimit, msg: "over the source size limit"}},
}

// planningAfter is the then of the planning cases: it adds a step "c"
// and lists the plan's steps as "id title".
const planningAfter = `return (await planning_add_step(["c"])).steps.map((s) => s.step_id + " " + s.title)`

// vetoedStep is a step title whose planning_add_step the suite's
// tool_result hook replaces by an error, as a host's policy might.
const vetoedStep = "refused by the host"

// env is what one case runs against: a root for the tools inside a parent
// directory that holds a secret, and a marker in the environment of every
// process the case starts (its bash commands, its workers).
type env struct {
	parent, root string
	reg          *registry.Registry
	marker       string
}

// caseSeq numbers the cases' markers.
var caseSeq atomic.Int64

func newEnv(t *testing.T) *env {
	t.Helper()
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	must(t, os.Mkdir(root, 0o755))
	must(t, os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("secret\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("inside\n"), 0o644))
	must(t, os.Symlink("/etc", filepath.Join(root, "etclink")))
	must(t, os.Symlink("..", filepath.Join(root, "uplink")))
	if err := mkfifo(filepath.Join(root, "fifo")); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("the suite needs named pipes (Unix)")
	} else {
		must(t, err)
	}
	marker := fmt.Sprintf("HOSTILE_CASE=%d-%d", os.Getpid(), caseSeq.Add(1))
	ts, err := builtin.Open(builtin.Options{Root: root, Env: append(os.Environ(), marker)})
	must(t, err)
	t.Cleanup(func() { _ = ts.Close() })
	reg := registry.New()
	for _, tool := range append(ts.Tools(), builtin.PlanningTools(&builtin.Session{})...) {
		must(t, reg.Register(tool))
	}
	reg.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		if steps, _ := ev.Params["steps"].([]any); ev.Name == "planning_add_step" && len(steps) > 0 && steps[0] == vetoedStep {
			return &registry.Result{Content: []registry.Content{registry.TextContent("planning_add_step: the host refused this step")}, IsError: true}
		}
		return nil
	})
	return &env{parent: parent, root: root, reg: reg, marker: marker}
}

// caseRunner returns the Runner every run of the case e goes through, in
// isolation mode iso with pool options pool, closed when the test ends
// (closing it earlier is fine: Close is idempotent).
func caseRunner(t *testing.T, e *env, iso codeexec.Isolation, pool codeexec.PoolOptions, limits codeexec.Limits) *codeexec.Runner {
	t.Helper()
	r, err := codeexec.New(e.reg, codeexec.Options{Isolation: iso, Limits: limits, Pool: pool})
	must(t, err)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// mode runs snippets in one isolation mode.
type mode struct {
	name string
	// runner returns the Runner, with the case's limits, that runs every
	// snippet of the case e: the hostile one, then the probes after it
	// (the path every embedder, the CLI and the MCP face take).
	runner func(t *testing.T, e *env, limits codeexec.Limits) *codeexec.Runner
	// sharedHeap reports whether the runs share this process's heap, which
	// the memory limit measures: then a case that grows until its memory
	// limit fires runs alone, since its growth would count against the
	// limits of the cases beside it.
	sharedHeap bool
	// growthLimit is the memory limit of the cases that grow until it
	// fires.
	growthLimit int64
	// reuses reports whether the mode's workers serve several runs.
	reuses bool
}

// inProcessOnly is the name of the in-process mode, for the cases that
// run in it alone (hostileCase.only).
const inProcessOnly = "in-process"

// inProcess runs snippets in this process.
var inProcess = mode{
	name:       inProcessOnly,
	sharedHeap: true,
	// The limit counts the growth of the live heap, which the watchdog
	// checks with a collection of its own once the heap passes it: 32 MiB
	// fires in well under a second.
	growthLimit: 32 << 20,
	runner: func(t *testing.T, e *env, limits codeexec.Limits) *codeexec.Runner {
		return caseRunner(t, e, codeexec.InProcess, codeexec.PoolOptions{}, limits)
	},
}

// TestHostileInProcess runs the suite in this process.
func TestHostileInProcess(t *testing.T) {
	t.Parallel()
	runSuite(t, inProcess)
}

// isolated runs every snippet in a worker process, with the case's marker
// in the workers' environment. Workers are reused, as by default: a case's probes run in
// its worker when the case ended cleanly (runSuite checks which), so that
// they check what a reused worker carries. The pool starts workers on
// demand only (PoolSize 0), so that PoolStats counts exactly the workers
// the case's runs needed; MaxWorkerHeap is the memory limit, so that
// whether a worker is reused depends on how its run ended alone.
var isolated = mode{
	name: "process",
	// The worker's address-space cap also counts the Go runtime's
	// reservations, 64 MiB at a time for its heap: under a 64 MiB limit,
	// a worker with 8 MB of heap in use can die building a 1 MB string.
	growthLimit: 128 << 20,
	runner: func(t *testing.T, e *env, limits codeexec.Limits) *codeexec.Runner {
		return caseRunner(t, e, codeexec.Process, codeexec.PoolOptions{Env: []string{e.marker}, MaxWorkerHeap: limits.Memory}, limits)
	},
	reuses: true,
}

// TestHostileIsolated runs the suite in worker processes; it is skipped
// where process isolation is not supported.
func TestHostileIsolated(t *testing.T) {
	t.Parallel()
	if pool, err := isolation.NewPool(isolation.Options{}); err != nil {
		t.Skipf("no process isolation here: %v", err)
	} else {
		_ = pool.Close()
	}
	runSuite(t, isolated)
}

// runSuite runs every case in mode m, in parallel but for the memory
// growth cases of a mode whose runs share this process's heap, which run
// one at a time before the others of the mode start (the isolated mode's
// cases may run beside them: their snippets' memory is the workers'). A
// case marked rss runs instead in a child process of its own, which also
// measures its peak resident memory (runInChild). Each case checks its
// outcome, that the host lives on, that no process it started is left and
// that no file outside its root changed; TestMain checks goroutines and
// child processes once every case has ended.
func runSuite(t *testing.T, m mode) {
	if n := len(cases); n < 40 {
		t.Fatalf("the suite has %d cases; it needs at least 40", n)
	}
	for _, c := range cases {
		if c.only != "" && c.only != m.name {
			continue
		}
		t.Run(c.category+"/"+c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long case, which -short leaves out: make hostile runs it")
			}
			memory, want := c.limit(m), c.want
			if c.rss && !inRSSChild {
				// The case runs in a process of its own, whose heap no
				// other case shares.
				t.Parallel()
				runInChild(t, memory)
				return
			}
			if !c.grows || !m.sharedHeap {
				t.Parallel()
			} else {
				// The limit counts from the heap the last collection found
				// live: collect the garbage of the cases before, so that it
				// counts this case's growth.
				goruntime.GC()
			}
			e := newEnv(t)
			if c.grows {
				want.msg = "the run exceeded its memory limit of " + runtime.FormatBytes(memory)
			}
			before := snapshot(t, e.parent, e.root)
			timeout, within := c.timeout, c.timeout+15*time.Second
			if timeout == 0 {
				timeout, within = limitWait, slowRun
			}
			// Every run of the case, the probes too, has the case's limits:
			// the probes are trivial.
			r := m.runner(t, e, codeexec.Limits{
				Timeout:        timeout,
				Memory:         memory,
				CancelGrace:    5 * time.Second,
				MaxStackDepth:  c.depth,
				MaxOutputBytes: c.maxOutput,
			})
			run := func(src string) *codeexec.Result { return r.Run(context.Background(), src, codeexec.RunOptions{}) }
			start := time.Now()
			res := run(c.src)
			if d := time.Since(start); d > within {
				t.Errorf("the run took %s, want at most %s (its timeout is %s)", d, within, timeout)
			}
			want.verify(t, res)
			if want.check != nil {
				want.check(t, res)
			}
			// With reuse, the next run gets the case's worker exactly when
			// the case ended cleanly: a worker that hit a limit, or that
			// the case cancelled or crashed, serves no other run.
			clean := res.Error == nil || res.Error.Kind == runtime.KindException || res.Error.Kind == runtime.KindCompile
			after := 1 // the runs after the case: the normal run below
			if c.then != "" {
				after++
				res := run(c.then)
				if res.Error != nil || string(res.Value) != c.thenValue {
					t.Errorf("after the case, %s gave %s, %v; want %s", c.then, res.Value, res.Error, c.thenValue)
				}
			}
			if want.clean {
				after++
				res := run(nextRunProbe)
				if res.Error != nil || string(res.Value) != `[true,true,true,true,true]` {
					t.Errorf("the next run is not clean: %s %v", res.Value, res.Error)
				}
			}
			// The host lives on: a normal run works.
			if res := run(`return 6 * 7`); res.Error != nil || string(res.Value) != "42" {
				t.Errorf("the next run failed: %s %v", res.Value, res.Error)
			}
			if m.reuses {
				// One worker served every run, or the case's worker was
				// retired and one more served the others.
				stats := isolation.Stats{Started: 1, Runs: int64(1 + after), Reused: int64(after)}
				if !clean {
					stats.Started, stats.Reused, stats.Retired = 2, stats.Reused-1, 1
				}
				if got := r.PoolStats(); got != stats {
					t.Errorf("after a run that ended with %v: PoolStats %+v, want %+v", res.Error, got, stats)
				}
			}
			_ = r.Close()
			noProcessesLeft(t, func(p proctest.Proc) bool { return p.Live() && hasEnv(p.PID, e.marker) })
			if after := snapshot(t, e.parent, e.root); after != before {
				t.Errorf("files outside the root changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestCategoriesInEveryMode checks that the cases that run in one mode
// only (hostileCase.only) name a mode there is, and that each category of
// attack keeps at least one case in each mode, with and without -short.
func TestCategoriesInEveryMode(t *testing.T) {
	modes := []mode{inProcess, isolated}
	all := map[string]map[string]int{}   // category -> mode -> cases
	short := map[string]map[string]int{} // the same, of the cases -short runs
	for _, c := range cases {
		if all[c.category] == nil {
			all[c.category], short[c.category] = map[string]int{}, map[string]int{}
		}
		known := c.only == ""
		for _, m := range modes {
			if c.only == "" || c.only == m.name {
				all[c.category][m.name]++
				if !c.long {
					short[c.category][m.name]++
				}
				known = true
			}
		}
		if !known {
			t.Errorf("case %s/%s runs only in mode %q, which is not one of the suite's", c.category, c.name, c.only)
		}
	}
	for category := range all {
		for _, m := range modes {
			if all[category][m.name] == 0 {
				t.Errorf("category %s has no case in mode %s", category, m.name)
			} else if short[category][m.name] == 0 {
				t.Errorf("category %s has no case in mode %s that -short runs", category, m.name)
			}
		}
	}
}

// limit returns the memory limit case c runs with in mode m.
func (c hostileCase) limit(m mode) int64 {
	if c.grows {
		return m.growthLimit
	}
	return cmp.Or(c.memory, memoryLimit)
}

// verify checks the outcome against w.
func (w want) verify(t *testing.T, res *codeexec.Result) {
	t.Helper()
	if w.ok {
		if res.Error != nil {
			t.Fatalf("want success, got %s", res.Error.Report())
		}
		if w.value != "" && string(res.Value) != w.value {
			t.Fatalf("value %s, want %s", res.Value, w.value)
		}
		if w.msg != "" && !strings.Contains(res.Text(), w.msg) {
			t.Fatalf("Text() %q does not contain %q", res.Text(), w.msg)
		}
		return
	}
	if res.Error == nil {
		t.Fatalf("want a %s error containing %q, the run succeeded with %s", w.kind, w.msg, res.Value)
	}
	if res.Error.Kind != w.kind || !strings.Contains(res.Error.Report(), w.msg) {
		t.Fatalf("want a %s error containing %q, got %s:\n%s", w.kind, w.msg, res.Error.Kind, res.Error.Report())
	}
	if strings.Contains(res.Error.Report(), "goroutine ") || strings.Contains(res.Error.Report(), ".go:") {
		t.Fatalf("the error shows Go internals:\n%s", res.Error.Report())
	}
}

func truncated(t *testing.T, res *codeexec.Result) {
	if !res.Truncated || len(res.Stdout) > runtime.DefaultMaxOutputBytes+200 || len(res.Stderr) > runtime.DefaultMaxOutputBytes+200 {
		t.Errorf("output not capped: truncated=%v stdout %d bytes stderr %d bytes", res.Truncated, len(res.Stdout), len(res.Stderr))
	}
}

// boundedValue checks that a huge return value is printed, and kept as
// JSON, as its head and tail within the output limit.
func boundedValue(t *testing.T, res *codeexec.Result) {
	if !res.Truncated || len(res.ValueText) > runtime.DefaultMaxOutputBytes+200 || len(res.Value) > runtime.DefaultMaxOutputBytes+400 ||
		!strings.HasPrefix(res.ValueText, "a") || !strings.HasSuffix(res.ValueText, "b") || !strings.Contains(res.ValueText, "bytes cut here") {
		t.Errorf("value not bounded: truncated=%v, %d bytes printed, %d as JSON", res.Truncated, len(res.ValueText), len(res.Value))
	}
}

// boundedError checks that the error's report stays small: its message and
// stack within the output limit, its source excerpt a window.
func boundedError(t *testing.T, res *codeexec.Result) {
	if n := len(res.Error.Report()); n > 2*runtime.DefaultMaxOutputBytes+1000 || len(res.Error.SourceLine) > 0 && n > len(res.Error.Message)+len(res.Error.Stack)+1000 {
		t.Errorf("the error report is %d bytes (message %d, stack %d)", n, len(res.Error.Message), len(res.Error.Stack))
	}
}

// keepsSummary checks that the last line printed after a flood is kept.
func keepsSummary(t *testing.T, res *codeexec.Result) {
	if !res.Truncated || !strings.HasSuffix(res.Stdout, "\nSUMMARY\n") || !strings.Contains(res.Stdout, "bytes cut here") {
		t.Errorf("stdout (%d bytes) does not end with the summary after the notice: ...%q", len(res.Stdout), res.Stdout[max(0, len(res.Stdout)-120):])
	}
}

// cutTrace checks that the trace keeps a cut copy of big params.
func cutTrace(t *testing.T, res *codeexec.Result) {
	if len(res.ToolCalls) != 20 {
		t.Fatalf("%d calls traced, want 20", len(res.ToolCalls))
	}
	for _, c := range res.ToolCalls {
		content, _ := c.Params.(map[string]any)["content"].(string)
		if len(content) > 2048 || !strings.Contains(content, "more bytes not kept in the trace") {
			t.Fatalf("the trace kept %d bytes of a 2 MB param", len(content))
		}
	}
}

func noCalls(t *testing.T, res *codeexec.Result) {
	if len(res.ToolCalls) != 0 {
		t.Errorf("calls were made after the deadline: %+v", res.ToolCalls)
	}
}

// nextRunProbe checks, in the run after a case that tampered with them,
// that globals, prototypes and bindings are pristine.
const nextRunProbe = `return [({} as any).polluted === undefined, typeof [].map === "function", typeof read === "function", typeof JSON.parse === "function", typeof console.log === "function"]`

// snapshot lists the files under dir, except those under skip, with their
// sizes and modes, so that a change outside the root shows.
func snapshot(t *testing.T, dir, skip string) string {
	t.Helper()
	var entries []string
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if path == skip {
			return filepath.SkipDir
		}
		entries = append(entries, fmt.Sprintf("%s %d %s", path, info.Size(), info.Mode()))
		return nil
	})
	must(t, err)
	sort.Strings(entries)
	b, _ := json.Marshal(entries)
	return string(b)
}

// noProcessesLeft fails when a process that left reports is still there
// after five seconds.
func noProcessesLeft(t *testing.T, left func(proctest.Proc) bool) {
	t.Helper()
	if procs := leftovers(5*time.Second, left); len(procs) > 0 {
		t.Errorf("processes left behind: %+v", procs)
	}
}

// leftovers returns the other processes that left reports, polling until
// there are none or wait has passed.
func leftovers(wait time.Duration, left func(proctest.Proc) bool) []proctest.Proc {
	deadline := time.Now().Add(wait)
	for {
		procs := proctest.Where(func(p proctest.Proc) bool { return p.PID != os.Getpid() && left(p) })
		if len(procs) == 0 || time.Now().After(deadline) {
			return procs
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// isLeftover reports a live child of this process, or a process whose
// command line names one of the suite's bash markers: once every case has
// ended, there must be none.
func isLeftover(p proctest.Proc) bool {
	return isLiveChild(p) || strings.Contains(p.Cmdline, "hostile-")
}

// isLiveChild reports a live child of this process.
func isLiveChild(p proctest.Proc) bool {
	return p.PPID == os.Getpid() && p.Live()
}

// hasEnv reports whether the environment of process pid holds kv.
func hasEnv(pid int, kv string) bool {
	b, err := procfs.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && bytes.Contains(append(b, 0), []byte(kv+"\x00"))
}

// printed returns a check that the run printed out on stdout.
func printed(out string) func(t *testing.T, res *codeexec.Result) {
	return func(t *testing.T, res *codeexec.Result) {
		if res.Stdout != out {
			t.Errorf("stdout %q, want %q", res.Stdout, out)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
