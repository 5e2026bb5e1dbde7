package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// nodeHarness is the Node side of the warm comparisons: given a config in
// the JSON file its command line names, it runs a snippet (an async function of its tools, as
// codeexec's wrapper makes one) warm runs unmeasured and then n measured,
// and prints the median in milliseconds. Modes:
//
//   - fresh: each run compiles the snippet in a new vm context (what a Node
//     host that keeps snippets apart does);
//   - unique: as fresh, with a distinct comment before each run's source,
//     so that V8's compile cache cannot serve it;
//   - ivm: each run in a new isolated-vm Isolate and context (needs the
//     isolated-vm package on NODE_PATH), the tools called through
//     References.
//
// The tools: read(p) answers a string at once, sleep(ms) after ms, and
// console.log is captured as codeexec captures output.
const nodeHarness = `const vm = require("vm");
const cfg = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const out = [];
const capture = { log: (...a) => { out.push(a.join(" ")); if (out.length > 20000) out.length = 0; } };
const read = async (p) => "some words in a file named " + p;
const sleep = (ms) => new Promise((res) => setTimeout(() => res(ms), ms));
const tools = { read, sleep };
let once;
if (cfg.mode === "ivm") {
  const ivm = require("isolated-vm");
  const readRef = new ivm.Reference(read), sleepRef = new ivm.Reference(sleep);
  const logCb = new ivm.Callback((...a) => capture.log(...a));
  once = async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 128 });
    try {
      const context = await isolate.createContext();
      const g = context.global;
      await g.set("$read", readRef);
      await g.set("$sleep", sleepRef);
      await g.set("$log", logCb);
      const script = await isolate.compileScript("globalThis.console = { log: $log };" +
        "(" + cfg.source + ")((p) => $read.apply(undefined, [p], { result: { promise: true } }), (ms) => $sleep.apply(undefined, [ms], { result: { promise: true } }))" +
        ".then((v) => JSON.stringify(v))");
      return await script.run(context, { promise: true });
    } finally {
      isolate.dispose();
    }
  };
} else {
  let i = 0;
  once = () => {
    const src = cfg.mode === "unique" ? "// run " + (i++) + "\n" + cfg.source : cfg.source;
    return new vm.Script(src).runInContext(vm.createContext({ console: capture, setTimeout }))(read, sleep);
  };
}
(async () => {
  for (let i = 0; i < cfg.warm; i++) await once();
  const d = new Float64Array(cfg.n);
  for (let i = 0; i < d.length; i++) { const t = performance.now(); await once(); d[i] = performance.now() - t; }
  d.sort();
  process.stdout.write(String(d[(d.length - 1) >> 1]));
})().catch((e) => { console.error(e); process.exit(1); });
`

// nodeRun is one configuration of nodeHarness.
type nodeRun struct {
	// Source is the snippet as JavaScript: an async function of read and
	// sleep.
	Source string `json:"source"`
	Mode   string `json:"mode"`
	Warm   int    `json:"warm"`
	N      int    `json:"n"`
}

// node runs nodeHarness with r and returns its median; b.nodePath, when
// set, is its NODE_PATH (for isolated-vm).
func (b *bench) node(r nodeRun) (time.Duration, error) {
	cfg, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	path := filepath.Join(b.dir, "config.json")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		return 0, err
	}
	cmd := exec.Command("node", b.harness, path)
	cmd.Env = os.Environ()
	if b.nodePath != "" {
		cmd.Env = append(cmd.Env, "NODE_PATH="+b.nodePath)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("node (%s mode): %w\n%s", r.Mode, err, stderr.String())
	}
	var ms float64
	if _, err := fmt.Sscan(string(out), &ms); err != nil {
		return 0, fmt.Errorf("node printed %q: %w", out, err)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// hasIsolatedVM reports whether node finds the isolated-vm package on
// b.nodePath, and why not.
func (b *bench) hasIsolatedVM() (bool, string) {
	if b.nodePath == "" {
		return false, "no -node-path given (make bench-node installs isolated-vm into bench/node/node_modules)"
	}
	if _, err := os.Stat(filepath.Join(b.nodePath, "isolated-vm")); err != nil {
		return false, "isolated-vm is not installed in " + b.nodePath + " (it builds a native module: npm needs python3 and a C++ compiler)"
	}
	cmd := exec.Command("node", "-e", `require("isolated-vm")`)
	cmd.Env = append(os.Environ(), "NODE_PATH="+b.nodePath)
	if out, err := cmd.CombinedOutput(); err != nil {
		return false, "isolated-vm does not load: " + strings.TrimSpace(firstLine(string(out)))
	}
	return true, ""
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// commandMedian runs a command twice unmeasured, then n times, and returns
// the median wall time in seconds.
func commandMedian(n int, name string, args ...string) (float64, error) {
	return medianRun(2, n, func() error {
		_, err := runCommand(name, args...)
		return err
	})
}

// commandFaults runs a command twice unmeasured, then n times, and returns
// the median of its minor page faults: its own and those of the children
// it waited for (a worker process of codeexec's, a child of startfloor's).
func commandFaults(n int, name string, args ...string) (float64, error) {
	var counts []float64
	for i := range 2 + n {
		ps, err := runCommand(name, args...)
		if err != nil {
			return 0, err
		}
		if i < 2 {
			continue
		}
		faults, ok := minorFaults(ps)
		if !ok {
			return 0, fmt.Errorf("%s: this system reports no page faults of a process", name)
		}
		counts = append(counts, faults)
	}
	return medianOf(counts), nil
}

// runCommand runs a command to its end and returns its process state; a
// command that fails is an error that quotes its output.
func runCommand(name string, args ...string) (*os.ProcessState, error) {
	cmd := exec.Command(name, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return cmd.ProcessState, nil
}
