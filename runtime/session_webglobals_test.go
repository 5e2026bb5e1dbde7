package runtime

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

// TestSessionWebGlobalsPerRun checks that the lazily built web globals
// (process, performance, AbortSignal, URL...) act for the run that uses
// them, as console and the timers do, rather than for the earlier run of
// the session that built them: its output, exit code, timers, clock and
// console.
func TestSessionWebGlobalsPerRun(t *testing.T) {
	t.Parallel()
	tests := []sessionCase{
		{"process writes, exit code and nextTick", []step{
			{src: `const v = process.version`, value: ""},
			{src: `process.stdout.write("out\n"); process.nextTick(() => console.log("tick")); process.exitCode = 2`,
				stdout: "out\ntick\n", errorHas: "ExitError: the snippet exited with code 2 (process.exitCode)"},
			{src: `process.stdout.write("again\n"); return process.exitCode ?? 0`, value: "0", stdout: "again\n"},
		}},
		{"process.exit", []step{
			{src: `const p = typeof process`, value: ""},
			{src: `console.log("a"); process.exit(3); console.log("b")`, stdout: "a\n", errorHas: "ExitError: the snippet exited with code 3 (process.exit)"},
		}},
		{"AbortSignal.timeout uses the run's timers", []step{
			{src: `const c = new AbortController()`, value: ""},
			{src: `await new Promise(r => AbortSignal.timeout(1).addEventListener("abort", r)); return "aborted"`, value: `"aborted"`},
		}},
		{"URL prints through the run's console", []step{
			{src: `const first = new URL("http://a.example/")`, value: ""},
			{src: `console.log(new URL("http://b.example/x"))`, value: "", stdout: "URL {\n  href: 'http://b.example/x',\n  origin: 'http://b.example',\n  protocol: 'http:',\n  username: '',\n  password: '',\n  host: 'b.example',\n  hostname: 'b.example',\n  port: '',\n  pathname: '/x',\n  search: '',\n  searchParams: URLSearchParams {},\n  hash: ''\n}\n"},
		}},
		{"an Event's timeStamp is the run's performance.now()", []step{
			{src: `const t0 = performance.now(); while (performance.now() - t0 < 20) {} const first = new Event("a")`, value: ""},
			{src: `const t = new Event("b").timeStamp; return t >= 0 && t <= performance.now()`, value: "true"},
		}},
		{"a global the snippet replaced keeps its value", []step{
			{src: `const v = process.version; globalThis.process = {mine: true}`, value: ""},
			{src: `return process.mine`, value: "true"},
		}},
	}
	runSessionCases(t, tests)
}

// TestSessionPerformancePerRun checks that performance.now() counts from
// the start of the run that calls it, in a session as in a run of its
// own, after an earlier run built the global.
func TestSessionPerformancePerRun(t *testing.T) {
	t.Parallel()
	s := NewSession()
	defer s.Close()
	if res := s.Run(context.Background(), `const t0 = performance.now()`, Options{Limits: Limits{Timeout: testTimeout}}); res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	// The second run's clock starts between before and the run's return:
	// its time origin is not before before, and performance.now() is no
	// more than the time since before. The first run's clock, which
	// started earlier, fails both. No duration is compared with a bound.
	before := time.Now()
	res := s.Run(context.Background(), `return [performance.now(), performance.timeOrigin, Date.now() - performance.timeOrigin]`, Options{Limits: Limits{Timeout: testTimeout}})
	elapsed := float64(time.Since(before).Microseconds()) / 1000
	if res.Error != nil {
		t.Fatal(res.Error.Report())
	}
	var v []float64
	if err := json.Unmarshal(res.Value, &v); err != nil || len(v) != 3 {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	now, origin, sinceOrigin := v[0], v[1], v[2]
	if beforeMs := float64(before.UnixMicro()) / 1000; origin < beforeMs || now < 0 || now > elapsed || sinceOrigin < -1 || sinceOrigin > elapsed+1 {
		t.Fatalf("performance.now() %v ms, timeOrigin %v (the run started after %v, and took %v ms), Date.now() - timeOrigin %v ms: the clock of an earlier run", now, origin, beforeMs, elapsed, sinceOrigin)
	}
}

// TestSessionWebClassesKept checks that the classes of the web globals
// are built once per session: an object that an earlier run made is still
// an instance of its class in a later run, and prints there as in a run of
// its own (through its class's custom inspect function, given to each
// run's console).
func TestSessionWebClassesKept(t *testing.T) {
	t.Parallel()
	tests := []struct {
		class, make string
		// print reports that the object's printed form is compared
		// (an error's includes its stack, which differs).
		print bool
	}{
		{"URL", `new URL("https://a.example/b?c=d#e")`, true},
		{"URLSearchParams", `new URLSearchParams("a=1&b=2")`, true},
		{"TextEncoder", `new TextEncoder()`, true},
		{"TextDecoder", `new TextDecoder("utf-8", {fatal: true})`, true},
		{"DOMException", `new DOMException("gone", "NotFoundError")`, false},
		{"Buffer", `Buffer.from("hi")`, true},
		{"Event", `new Event("ping")`, true},
		{"CustomEvent", `new CustomEvent("ping", {detail: 1})`, true},
		{"EventTarget", `new EventTarget()`, true},
		{"AbortController", `new AbortController()`, true},
		{"AbortSignal", `AbortSignal.abort("why")`, true},
		{"Intl.NumberFormat", `new Intl.NumberFormat("en-US")`, true},
		{"Intl.DateTimeFormat", `new Intl.DateTimeFormat("en-US")`, true},
		{"Intl.Collator", `new Intl.Collator("en")`, true},
		{"Intl.PluralRules", `new Intl.PluralRules("en")`, true},
		{"Intl.ListFormat", `new Intl.ListFormat("en")`, true},
		{"Intl.RelativeTimeFormat", `new Intl.RelativeTimeFormat("en")`, true},
	}
	// timeStamp is an event's creation time, which differs between runs.
	timeStamp := regexp.MustCompile(`timeStamp: [0-9.e-]+`)
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			t.Parallel()
			fresh := Run(context.Background(), `console.log(`+tt.make+`)`, Options{Limits: Limits{Timeout: testTimeout}})
			if fresh.Error != nil {
				t.Fatal(fresh.Error.Report())
			}
			s := NewSession()
			defer s.Close()
			runSteps(t, s, []step{
				{src: `const kept = ` + tt.make + `, Kept = ` + tt.class, value: ""},
				{src: `new URL("https://other.example/"); new Event("x"); new Intl.NumberFormat()`, value: ""},
			})
			res := s.Run(context.Background(), `console.log(kept); return [kept instanceof `+tt.class+`, Kept === `+tt.class+`]`, Options{Limits: Limits{Timeout: testTimeout}})
			if res.Error != nil {
				t.Fatal(res.Error.Report())
			}
			if string(res.Value) != `[true,true]` {
				t.Errorf("[instanceof, same class] in a later run: %s, want [true,true]", res.Value)
			}
			got, want := timeStamp.ReplaceAllString(res.Stdout, "timeStamp: T"), timeStamp.ReplaceAllString(fresh.Stdout, "timeStamp: T")
			if tt.print && got != want {
				t.Errorf("printed in a later run:\n%s\nin a run of its own:\n%s", got, want)
			}
		})
	}
}
