// Command nodecompare runs the 30-line benchmark snippet under codeexec and
// under Node, side by side, and prints the ratios: the harness of SPEC
// section 9. It needs node on PATH and the codeexec binary (make
// bench-node builds it):
//
//	go run ./bench/nodecompare [-codeexec bin/codeexec] [-runs 20] [-warm 2000]
//
// Three comparisons, each the median of its runs:
//
//   - a process per snippet: `codeexec run --root DIR snippet.ts` (process
//     isolation, TypeScript stripped by codeexec, the built-in read tool)
//     against `node snippet.js` (given JavaScript already stripped, so
//     Node's side holds no TypeScript tooling, and read as
//     fs.promises.readFile): the start-up a harness pays when it forks a
//     runtime per snippet;
//   - a warm host: codeexec's runtime.Run of the TypeScript snippet (a fresh
//     VM, the transform and two tool calls each run) against the same
//     JavaScript compiled and run in a fresh vm context each time in one
//     warm Node process (what a Node host that keeps snippets apart
//     does), and against one function called again and again (V8 at its
//     best, sharing everything between runs);
//   - a warm pool: one isolated run on a pre-started worker (isolation.Pool),
//     against the fresh-context Node run.
//
// The tools answer at once in the warm comparisons (the in-memory read of
// internal/benchdata) and read two small files in the per-process one.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/internal/benchdata"
	"github.com/codeexec/codeexec/isolation"
	"github.com/codeexec/codeexec/runtime"
)

func main() {
	isolation.Main() // the warm-pool comparison re-executes this program
	bin := flag.String("codeexec", "bin/codeexec", "the codeexec binary")
	runs := flag.Int("runs", 20, "runs of each process-per-snippet command")
	warm := flag.Int("warm", 2000, "measured runs in each warm comparison")
	flag.Parse()
	if err := compare(*bin, *runs, *warm); err != nil {
		fmt.Fprintln(os.Stderr, "nodecompare:", err)
		os.Exit(1)
	}
}

func compare(bin string, runs, warm int) error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node is not on PATH: %w", err)
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("the codeexec binary: %w (make build)", err)
	}
	fn, err := asFunction(benchdata.Snippet30)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "nodecompare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"README.md":     "# A project\n\nSome words about it, and a few more.\n",
		"main.go":       "package main\n\nfunc main() { println(\"hi\") }\n",
		"snippet.ts":    benchdata.Snippet30,
		"per-run.js":    perRunScript(fn, dir),
		"warm-loop.js":  warmScript(fn, warm, false),
		"warm-fresh.js": warmScript(fn, warm, true),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}

	ceProc, err := timeCommand(runs, bin, "run", "--root", dir, filepath.Join(dir, "snippet.ts"))
	if err != nil {
		return err
	}
	nodeProc, err := timeCommand(runs, "node", filepath.Join(dir, "per-run.js"))
	if err != nil {
		return err
	}
	nodeWarm, err := nodeWarmMedian(filepath.Join(dir, "warm-loop.js"))
	if err != nil {
		return err
	}
	nodeFresh, err := nodeWarmMedian(filepath.Join(dir, "warm-fresh.js"))
	if err != nil {
		return err
	}
	ceWarm, err := inProcessMedian(warm)
	if err != nil {
		return err
	}
	cePool, err := poolMedian(min(warm, 200))
	if err != nil {
		return err
	}

	fmt.Printf("the 30-line snippet (two tool calls), medians; ratio = codeexec / node\n\n")
	fmt.Printf("%-22s %12s %12s %8s\n", "", "codeexec", "node", "ratio")
	row := func(what string, ce, node time.Duration) {
		fmt.Printf("%-22s %12s %12s %8.2f\n", what, round(ce), round(node), float64(ce)/float64(node))
	}
	row("process per snippet", ceProc, nodeProc)
	row("warm, fresh context", ceWarm, nodeFresh)
	row("warm, one function", ceWarm, nodeWarm)
	row("warm pool (isolated)", cePool, nodeFresh)
	return nil
}

// asFunction strips the snippet's types and makes it an async function of
// read, as codeexec's wrapper does, for Node to call.
func asFunction(ts string) (string, error) {
	res := api.Transform("(async (read) => {\n"+ts+"\n})", api.TransformOptions{Loader: api.LoaderTS})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("transform for node: %s", res.Errors[0].Text)
	}
	return strings.TrimSuffix(strings.TrimSpace(string(res.Code)), ";"), nil
}

// perRunScript runs the snippet once with read on the files in dir and
// prints its value, as `codeexec run` does.
func perRunScript(fn, dir string) string {
	root, _ := json.Marshal(dir)
	return `const fs = require("fs/promises");
const path = require("path");
const snippet = ` + fn + `;
const read = (p) => fs.readFile(path.join(` + string(root) + `, p), "utf8");
snippet(read).then((v) => { if (v !== undefined) console.log(v); });
`
}

// warmScript calls the snippet 200 times to warm V8 up, then n times
// timed, with console.log captured as codeexec captures output, and prints
// the median in milliseconds. With fresh, each run compiles the snippet in
// a new vm context, as a Node host that isolates snippets from each other
// would; without, it calls one function again and again.
func warmScript(fn string, n int, fresh bool) string {
	source, _ := json.Marshal("(" + fn + ")")
	return fmt.Sprintf(`const vm = require("vm");
const source = %s;
const read = async (p) => "some words in a file named " + p;
const out = [];
const capture = { log: (...a) => { out.push(a.join(" ")); if (out.length > 1000) out.length = 0; } };
const shared = vm.runInThisContext(source);
const once = %v
  ? () => new vm.Script(source).runInContext(vm.createContext({ console: capture }))(read)
  : () => shared(read);
console.log = capture.log;
(async () => {
  for (let i = 0; i < 200; i++) await once();
  const d = new Float64Array(%d);
  for (let i = 0; i < d.length; i++) { const t = performance.now(); await once(); d[i] = performance.now() - t; }
  d.sort();
  process.stdout.write(String(d[(d.length - 1) >> 1]));
})();
`, source, fresh, n)
}

func nodeWarmMedian(script string) (time.Duration, error) {
	out, err := exec.Command("node", script).Output()
	if err != nil {
		return 0, fmt.Errorf("node %s: %w", script, err)
	}
	var ms float64
	if _, err := fmt.Sscan(string(out), &ms); err != nil {
		return 0, fmt.Errorf("node printed %q: %w", out, err)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

func inProcessMedian(n int) (time.Duration, error) {
	opts := runtime.Options{Setup: bindings.New(benchdata.Tools()).Setup}
	var d []time.Duration
	for i := range n + 200 {
		start := time.Now()
		if res := runtime.Run(context.Background(), benchdata.Snippet30, opts); res.Error != nil {
			return 0, fmt.Errorf("in-process run: %s", res.Error.Report())
		}
		if i >= 200 {
			d = append(d, time.Since(start))
		}
	}
	return median(d), nil
}

func poolMedian(n int) (time.Duration, error) {
	p, err := isolation.NewPool(isolation.Options{PoolSize: 1})
	if err != nil {
		return 0, err
	}
	defer p.Close()
	reg := benchdata.Tools()
	var d []time.Duration
	for range n {
		if err := waitIdle(p); err != nil {
			return 0, err
		}
		res := p.Run(context.Background(), benchdata.Snippet30, reg, runtime.Options{})
		if res.Error != nil {
			return 0, fmt.Errorf("isolated run: %s", res.Error.Report())
		}
		d = append(d, res.Duration)
	}
	return median(d), nil
}

// waitIdle waits until the pool's refill has finished, so that each
// isolated run finds a warm worker and a quiet machine, as the benchmark
// does.
func waitIdle(p *isolation.Pool) error {
	deadline := time.Now().Add(30 * time.Second)
	for p.Idle() < 1 {
		if time.Now().After(deadline) {
			return fmt.Errorf("no worker was ready after 30 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}

// timeCommand runs a command 3 times unmeasured, then runs times, and
// returns the median wall time.
func timeCommand(runs int, name string, args ...string) (time.Duration, error) {
	var d []time.Duration
	for i := range runs + 3 {
		cmd := exec.Command(name, args...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
		}
		if i >= 3 {
			d = append(d, time.Since(start))
		}
	}
	return median(d), nil
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[(len(d)-1)/2]
}

func round(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1f µs", float64(d)/1e3)
	}
}
