package runtime

import (
	"strings"
	"testing"
	"time"
)

// TestEventLoop checks timers, microtasks and promises by the order of the
// output they produce (never by timing).
func TestEventLoop(t *testing.T) {
	checkLeaks(t)
	tests := []struct {
		name, src string
		stdout    string
		value     string
	}{
		{"timeouts by delay then creation", `setTimeout(() => console.log("c"), 20);
setTimeout(() => console.log("a"), 0);
setTimeout(() => console.log("b"), 0);
setTimeout(() => console.log("d"), 10);
setTimeout(() => console.log("a2"), 1);
console.log("sync");`, "sync\na\nb\na2\nd\nc\n", ""},
		{"many timeouts with equal delays keep creation order", `for (let i = 0; i < 20; i++) setTimeout(() => console.log(i), 5);`,
			"0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n", ""},
		{"timeout arguments", `setTimeout((x: string, y: number, z?: any) => console.log(x, y, z), 1, "p", 2);`, "p 2 undefined\n", ""},
		{"odd delays", `setTimeout(() => console.log("neg"), -5); setTimeout(() => console.log("nan"), NaN); setTimeout(() => console.log("str"), "0" as any); setTimeout(() => console.log("none"));`,
			"neg\nnan\nstr\nnone\n", ""},
		{"clearTimeout", `const t = setTimeout(() => console.log("never"), 5); clearTimeout(t); console.log("done");`, "done\n", ""},
		{"clearTimeout from another timer", `const t = setTimeout(() => console.log("never"), 20); setTimeout(() => clearTimeout(t), 1);`, "", ""},
		{"clearTimeout of odd ids", `clearTimeout(undefined); clearTimeout(null as any); clearTimeout(12345); clearInterval("x" as any); clearTimeout({} as any); return "ok";`, "", `"ok"`},
		{"clearTimeout inside its own callback", `const t = setTimeout(() => { clearTimeout(t); console.log("ran") }, 1);`, "ran\n", ""},
		{"setInterval and clearInterval", `let n = 0;
await new Promise<void>(resolve => {
  const id = setInterval(() => { n++; console.log("tick", n); if (n === 3) { clearInterval(id); resolve() } }, 2);
});
return n;`, "tick 1\ntick 2\ntick 3\n", "3"},
		{"clearTimeout clears an interval", `let n = 0; const id = setInterval(() => { n++; if (n === 2) clearTimeout(id) }, 1); await new Promise(r => setTimeout(r, 50)); return n;`, "", "2"},
		{"interval args", `await new Promise<void>(r => { const id = setInterval((a: string) => { console.log(a); clearInterval(id); r() }, 1, "arg") });`, "arg\n", ""},
		{"un-awaited async work finishes", `[1, 2].forEach(async n => { await null; console.log(n) });`, "1\n2\n", ""},
		{"un-awaited timeouts finish after return", `setTimeout(() => console.log("late"), 30); return 1;`, "late\n", "1"},
		{"nested timeouts", `setTimeout(() => { console.log("outer"); setTimeout(() => console.log("inner"), 5) }, 1); return "r";`, "outer\ninner\n", `"r"`},
		{"un-awaited async with timers", `async function work(n: number) { await new Promise(r => setTimeout(r, n)); console.log("done", n) }
work(20); work(5);
console.log("sync");`, "sync\ndone 5\ndone 20\n", ""},
		{"microtasks before timers", `setTimeout(() => console.log("timer"), 0);
queueMicrotask(() => console.log("micro"));
Promise.resolve().then(() => console.log("then"));
console.log("sync");`, "sync\nmicro\nthen\ntimer\n", ""},
		{"microtasks of a timer before the next timer", `setTimeout(() => { console.log("t1"); Promise.resolve().then(() => console.log("m1")); queueMicrotask(() => console.log("q1")) }, 0);
setTimeout(() => console.log("t2"), 0);`, "t1\nm1\nq1\nt2\n", ""},
		{"promise chain", `const v = await Promise.resolve(1)
  .then(x => x + 1)
  .then(x => { throw new Error("mid " + x) })
  .catch((e: Error) => e.message)
  .finally(() => console.log("fin"));
return v;`, "fin\n", `"mid 2"`},
		{"promise combinators", `const all = await Promise.all([1, Promise.resolve(2), new Promise(r => setTimeout(() => r(3), 3))]);
const race = await Promise.race([new Promise(r => setTimeout(() => r("slow"), 50)), new Promise(r => setTimeout(() => r("fast"), 1))]);
const any = await Promise.any([Promise.reject(new Error("x")), Promise.resolve("any")]);
const settled = await Promise.allSettled([Promise.reject(new Error("no")), 1]);
return [all, race, any, settled.map(s => s.status)];`, "", `[[1,2,3],"fast","any",["rejected","fulfilled"]]`},
		{"await ordering", `const log: string[] = [];
async function a() { log.push("a1"); await null; log.push("a2") }
const p = a(); log.push("main"); await p; log.push("end");
return log;`, "", `["a1","main","a2","end"]`},
		{"timer ids are distinct", `const a = setTimeout(() => {}, 1), b = setTimeout(() => {}, 1), c = setInterval(() => {}, 1); clearInterval(c); return [typeof a, +a !== +b, +b !== +c];`, "", `["object",true,true]`},
		{"a Timeout converts to its id", `const t = setTimeout(() => console.log("never"), 5); return [t.constructor.name, typeof +t, +t > 0, "" + t === String(+t), t.hasRef()];`, "never\n", `["Timeout","number",true,true,true]`},
		{"clearTimeout of a Timeout's id", `const a = setTimeout(() => console.log("a"), 5), b = setTimeout(() => console.log("b"), 5); clearTimeout(+a); clearTimeout(String(+b) as any); return "ok";`, "", `"ok"`},
		{"an unref'd timeout does not keep the run alive", `const t = setTimeout(() => console.log("never"), 50); return [t.unref() === t, t.hasRef()];`, "", `[true,false]`},
		{"ref again keeps it alive", `const t = setTimeout(() => console.log("ran"), 5); t.unref(); t.ref(); return t.hasRef();`, "ran\n", `true`},
		{"refresh and close return the Timeout", `const t = setTimeout(() => console.log("t"), 1); const u = setTimeout(() => console.log("never"), 1); return [t.refresh() === t, u.close() === u];`, "t\n", `[true,true]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRun(t, tt.src, Options{})
			if res.Stdout != tt.stdout {
				t.Errorf("Stdout = %q, want %q", res.Stdout, tt.stdout)
			}
			if string(res.Value) != tt.value {
				t.Errorf("Value = %s, want %s", res.Value, tt.value)
			}
		})
	}
}

// TestIntervalsDoNotKeepRunAlive checks that a run whose top-level code has
// finished ends even though an interval is still set (unlike Node, as the
// spec says), whatever its delay, while pending timeouts are still waited
// for.
func TestIntervalsDoNotKeepRunAlive(t *testing.T) {
	checkLeaks(t)
	// Kept alive, a run would end at its timeout, with an error. An
	// interval of 0 or 1 ms is due within the first timers phase, and may
	// tick once; it must not keep that phase going.
	for _, delay := range []string{"1000", "1", "0"} {
		res := mustRun(t, `setInterval(() => console.log("tick"), `+delay+`);
return "fin";`, Options{Limits: Limits{Timeout: 5 * time.Second}})
		if string(res.Value) != `"fin"` || delay == "1000" && res.Stdout != "" {
			t.Errorf("interval of %s ms: Value %s Stdout %q", delay, res.Value, res.Stdout)
		}
	}

	// An interval runs while a timeout is still pending, then stops with it.
	res := mustRun(t, `setInterval(() => console.log("i"), 5);
setTimeout(() => console.log("t"), 60);`, Options{})
	before, after, ok := strings.Cut(res.Stdout, "t\n")
	if !ok || !strings.HasPrefix(before, "i\n") || strings.Count(after, "i\n") > 1 {
		t.Errorf("Stdout = %q, want interval ticks, then the timeout, then at most one due tick", res.Stdout)
	}
}

// TestTimerErrors checks the argument checks of the timer globals.
func TestTimerErrors(t *testing.T) {
	for _, src := range []string{`setTimeout("code", 1);`, `setInterval(null as any, 1);`, `queueMicrotask(5 as any);`} {
		e := mustFail(t, src, Options{})
		if e.Name != "TypeError" || !strings.Contains(e.Message, `"callback" argument must be of type function`) || e.Line != 1 {
			t.Errorf("%q: %s at line %d", src, e, e.Line)
		}
	}
	// A throwing microtask fails the run, as an uncaught exception does in
	// Node.
	e := mustFail(t, `queueMicrotask(() => { throw new Error("mt") }); await new Promise(r => setTimeout(r, 5)); console.log("after");`, Options{})
	if !strings.Contains(e.Message, "mt") || e.Kind != KindException {
		t.Errorf("throwing microtask: %s", e)
	}
}

// TestTimerThrowStopsRun checks that an exception in a timer callback ends
// the run at once: later timers do not fire and earlier output is kept.
func TestTimerThrowStopsRun(t *testing.T) {
	checkLeaks(t)
	res := runSnippet(t, `setTimeout(() => console.log("first"), 1);
setTimeout(() => { throw new Error("in timer") }, 5);
setTimeout(() => console.log("never"), 30);
return "value";`, Options{})
	if res.Error == nil || res.Error.Message != "in timer" || res.Error.Line != 2 {
		t.Fatalf("Error %v", res.Error)
	}
	if res.Stdout != "first\n" {
		t.Errorf("Stdout %q", res.Stdout)
	}
	if res.Value != nil {
		t.Errorf("a failed run has Value %s", res.Value)
	}
}
