package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja"
)

// TestIsolation checks that nothing one run does to globals, prototypes or
// installed bindings is visible in the next run.
func TestIsolation(t *testing.T) {
	checkLeaks(t)
	h := newHost()
	opts := Options{Setup: h.setup}
	mustRun(t, `Array.prototype.x = 1;
(Object.prototype as any).polluted = 1;
(globalThis as any).leak = 1;
var declared = 1;
(String.prototype as any).trim = () => "hacked";
JSON.parse = null as any;
Math.random = () => 4;
(globalThis as any).sleep = () => "replaced";
(globalThis as any).setTimeout = null;
(console as any).log = null;
Object.freeze(Array.prototype);`, opts)

	res := mustRun(t, `return [
  typeof ([] as any).x,
  typeof ({} as any).polluted,
  typeof (globalThis as any).leak,
  typeof (globalThis as any).declared,
  " a ".trim(),
  typeof JSON.parse,
  Math.random() < 1,
  await sleep(1, "real"),
  typeof setTimeout,
  typeof console.log,
  Object.isFrozen(Array.prototype),
];`, opts)
	want := `["undefined","undefined","undefined","undefined","a","function",true,"real","function","function",false]`
	if string(res.Value) != want {
		t.Errorf("second run saw\n%s\nwant\n%s", res.Value, want)
	}
}

// TestNoHostLeaks checks that the script sees no host environment: no
// process environment, no file system through require.
func TestNoHostLeaks(t *testing.T) {
	t.Setenv("CODEEXEC_TEST_SECRET", "hunter2")
	res := mustRun(t, `const seen: string[] = [];
const g = globalThis as any;
if (typeof g.process !== "undefined") seen.push(JSON.stringify(g.process.env ?? {}));
for (const k of Object.getOwnPropertyNames(g)) { try { seen.push(String(g[k])) } catch { } }
try { require("/etc/passwd") } catch (e) { seen.push(String(e)) }
return seen.join("\n");`, Options{})
	if strings.Contains(string(res.Value), "hunter2") || strings.Contains(string(res.Value), "root:") {
		t.Errorf("the script saw host data: %s", res.Value)
	}
	if os.Getenv("CODEEXEC_TEST_SECRET") != "hunter2" {
		t.Errorf("the environment changed")
	}
}

// TestConcurrentRuns runs many snippets at once (meaningful under -race):
// each run has its own VM, loop, output and trace.
func TestConcurrentRuns(t *testing.T) {
	checkLeaks(t)
	const n = 16
	var wg sync.WaitGroup
	results := make([]*Result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := newHost()
			src := fmt.Sprintf(`(globalThis as any).mine = %d;
console.log("run", %d);
setTimeout(() => console.error("timer", %d), %d);
const v = await Promise.all([sleep(%d, %d), sleep(1, "x")]);
return [v[0], (globalThis as any).mine];`, i, i, i, i%5, 5+i%7, i)
			results[i] = Run(context.Background(), src, Options{Limits: Limits{Timeout: testTimeout}, Setup: h.setup})
		}()
	}
	wg.Wait()
	for i, res := range results {
		if res.Error != nil {
			t.Errorf("run %d: %s", i, res.Error)
			continue
		}
		if want := fmt.Sprintf("[%d,%d]", i, i); string(res.Value) != want {
			t.Errorf("run %d: Value %s, want %s", i, res.Value, want)
		}
		if res.Stdout != fmt.Sprintf("run %d\n", i) || res.Stderr != fmt.Sprintf("timer %d\n", i) {
			t.Errorf("run %d: Stdout %q Stderr %q", i, res.Stdout, res.Stderr)
		}
	}
}

// TestRunNeverNil checks Run's contract over odd inputs: it always returns a
// Result, and Duration is set.
func TestRunNeverNil(t *testing.T) {
	for _, src := range []string{"", "\x00", "\uFEFFreturn 1", "return '\u2028'", "}", "(async () => {", "`${", strings.Repeat("(", 1000) + strings.Repeat(")", 1000)} {
		res := Run(context.Background(), src, Options{Limits: Limits{Timeout: testTimeout}})
		if res == nil {
			t.Fatalf("Run(%q) returned nil", src)
		}
		if res.Duration <= 0 {
			t.Errorf("Run(%q): Duration %s", src, res.Duration)
		}
		if res.Error != nil && res.Error.Kind == KindInternal {
			t.Errorf("Run(%q): internal error %s", src, res.Error)
		}
	}
}

// TestSourceMapCommentIgnored checks that a sourceMappingURL comment in the
// snippet (or in code it evals) does not make goja read a file from the
// host disk: positions stay the snippet's own.
func TestSourceMapCommentIgnored(t *testing.T) {
	dir := t.TempDir()
	mapFile := filepath.Join(dir, "evil.map")
	evil := `{"version":3,"sources":["evil.js"],"names":[],"mappings":"AAAA;AAAA;AAAA;AAAA;AAAA;AAAA"}`
	if err := os.WriteFile(mapFile, []byte(evil), 0o600); err != nil {
		t.Fatal(err)
	}
	// Check that goja would read the file when not told otherwise, so that
	// this test can fail.
	vm := goja.New()
	_, err := vm.RunScript("probe.js", "throw new Error('x')\n//# sourceMappingURL=file://"+mapFile)
	if err == nil || !strings.Contains(err.Error(), "evil.js") {
		t.Logf("goja did not read the map by default (%v); the checks below may be vacuous", err)
	}

	for _, url := range []string{mapFile, "file://" + mapFile} {
		for _, src := range []string{
			"throw new Error('plain')\n//# sourceMappingURL=" + url,
			"const x: number = 1;\nthrow new Error('typed')\n//# sourceMappingURL=" + url,
			"eval(\"throw new Error('in eval')\\n//# sourceMappingURL=" + url + "\")",
			"new Function(\"throw new Error('in function')\\n//# sourceMappingURL=" + url + "\")()",
		} {
			res := runSnippet(t, src, Options{})
			if res.Error == nil {
				t.Fatalf("%q succeeded", src)
			}
			if strings.Contains(res.Error.Stack, "evil.js") || strings.Contains(res.Error.Report(), "evil.js") {
				t.Errorf("%q: goja read the host file %s:\n%s", src, mapFile, res.Error.Report())
			}
		}
	}
}
