package runtime

import (
	"testing"
)

// TestProcessExit checks that process.exit ends the run at once, keeping
// the output so far, uncatchable, and that the exit code decides success.
func TestProcessExit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src, stdout, err string
	}{
		{"exit 0 succeeds", `console.log("a"); process.exit(0); console.log("b")`, "a\n", ""},
		{"no code is 0", `console.log("a"); process.exit()`, "a\n", ""},
		{"non-zero fails", `console.log("a"); process.exit(3); console.log("b")`, "a\n", "ExitError: the snippet exited with code 3 (process.exit)"},
		{"uncatchable", `try { process.exit(2) } catch { console.log("caught") } finally { console.log("finally") }`, "", "ExitError: the snippet exited with code 2 (process.exit)"},
		{"pending work is dropped", `setTimeout(() => console.log("late"), 5); await null; process.exit(0)`, "", ""},
		{"from a timer", `setTimeout(() => { console.log("t"); process.exit(4) }, 1); await new Promise(() => setTimeout(() => {}, 1000))`, "t\n", "ExitError: the snippet exited with code 4 (process.exit)"},
		{"exitCode at the end", `process.exitCode = 5; console.log("done")`, "done\n", "ExitError: the snippet exited with code 5 (process.exitCode)"},
		{"exitCode used by exit()", `process.exitCode = 6; process.exit()`, "", "ExitError: the snippet exited with code 6 (process.exit)"},
		{"exitCode reset", `process.exitCode = 5; process.exitCode = 0`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := runSnippet(t, c.src, Options{})
			got := ""
			if res.Error != nil {
				got = res.Error.Name + ": " + res.Error.Message
			}
			if got != c.err || res.Stdout != c.stdout {
				t.Errorf("error %q, stdout %q; want %q, %q", got, res.Stdout, c.err, c.stdout)
			}
		})
	}
}

// TestProcessOptions checks that process.env holds only what
// Options.Process gives, and argv, cwd and the captured streams.
func TestProcessOptions(t *testing.T) {
	t.Parallel()
	src := `process.stdout.write("out "); process.stderr.write("err\n");
return [JSON.stringify(process.env), process.env.MODE ?? "dev", process.argv, process.cwd(), "PATH" in process.env]`
	res := mustRun(t, src, Options{Filename: "s.ts", Process: ProcessOptions{Env: map[string]string{"MODE": "test"}, Cwd: "/work/root"}})
	if want := `["{\"MODE\":\"test\"}","test",["codeexec","s.ts"],"/work/root",false]`; string(res.Value) != want {
		t.Errorf("value %s, want %s", string(res.Value), want)
	}
	if res.Stdout != "out " || res.Stderr != "err\n" {
		t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	res = mustRun(t, `return [JSON.stringify(process.env), process.cwd(), process.argv]`, Options{})
	if want := `["{}","/",["codeexec","snippet.ts"]]`; string(res.Value) != want {
		t.Errorf("defaults: value %s, want %s", string(res.Value), want)
	}
}

// TestImmediateOrder checks setImmediate against promise jobs, nextTick and
// timers, as node orders them.
func TestImmediateOrder(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{`setTimeout(() => console.log("timeout"), 0); setImmediate(() => console.log("immediate")); Promise.resolve().then(() => console.log("promise")); process.nextTick(() => console.log("tick")); console.log("sync")`,
			"sync\ntick\npromise\ntimeout\nimmediate\n"},
		// Node runs a macrotask's ticks before its promise jobs, and ticks
		// queued by a promise job once the jobs have drained.
		{`setTimeout(() => { Promise.resolve().then(() => console.log("p")); queueMicrotask(() => console.log("m")); process.nextTick(() => console.log("t")) }, 1)`, "t\np\nm\n"},
		{`setImmediate(() => { Promise.resolve().then(() => console.log("p")); process.nextTick(() => console.log("t")) })`, "t\np\n"},
		{`Promise.resolve().then(() => { process.nextTick(() => console.log("t")); Promise.resolve().then(() => console.log("p2")) }); console.log("sync")`, "sync\np2\nt\n"},
		{`process.nextTick(() => { console.log("t1"); process.nextTick(() => console.log("t2")); Promise.resolve().then(() => console.log("p")) })`, "t1\nt2\np\n"},
		// A timer a callback sets waits for the next turn, after this
		// turn's immediates, however long the callback ran.
		{`await new Promise<void>((resolve) => { setTimeout(() => { setImmediate(() => console.log("immediate")); setTimeout(() => { console.log("timeout0"); resolve() }, 0); const end = performance.now() + 5; while (performance.now() < end) {} }, 5) })`, "immediate\ntimeout0\n"},
		{`setTimeout(() => { setTimeout(() => console.log("T"), 0); setImmediate(() => console.log("I")); }, 0)`, "I\nT\n"},
		{`setImmediate(() => { console.log("i1"); setImmediate(() => console.log("i3")); Promise.resolve().then(() => console.log("p")); }); setImmediate(() => console.log("i2"))`, "i1\np\ni2\ni3\n"},
		{`const im = setImmediate(() => console.log("cleared")); clearImmediate(im); setImmediate((x) => console.log("arg", x), 42)`, "arg 42\n"},
	}
	for _, c := range cases {
		res := mustRun(t, c.src, Options{})
		if res.Stdout != c.want {
			t.Errorf("%s\ngot  %q\nwant %q", c.src, res.Stdout, c.want)
		}
	}
}
