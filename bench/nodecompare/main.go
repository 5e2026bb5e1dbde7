// Command nodecompare measures each performance goal of codeexec beside its
// peer, in one run, and prints them as a table: the harness of SPEC section
// 9 and of the performance issue. It needs node on PATH and the codeexec
// binary (make bench-node builds it and installs the Node peers of
// bench/node: the MCP SDK and esbuild, and isolated-vm where it builds):
//
//	go run ./bench/nodecompare [-codeexec bin/codeexec] [-rounds 5] [-node-path DIR] [-write FILE] [-steps corpus,...]
//
// With -write (make bench-node passes docs/performance.md), the table, with
// the command line, the date and the machine, also replaces what lies
// between the lines <!-- bench-node:start --> and <!-- bench-node:end --> of
// FILE, and nothing else of it; without, it is only printed.
//
// Every figure is the median of rounds round medians, codeexec's and its
// peer's rounds alternating (which goes first alternates too), so that a
// noisy machine slows both alike. The peers:
//
//   - node: the snippet as JavaScript already stripped of types (Node's side
//     holds no TypeScript tooling), run in a fresh vm context per run in one
//     warm Node process, as a Node host that keeps snippets apart does; or
//     a whole `node script.js` process for the CLI's start;
//   - the Node MCP server (bench/node/mcp-server.mjs, the TypeScript MCP
//     SDK's server, esbuild's transform per call and node:vm): the peer of
//     a warm MCP call to `codeexec mcp`, in process and isolated, over
//     stdio, HTTP in a session and stateless HTTP (mcp.go);
//   - in process: codeexec's own in-process run, the peer of the isolated
//     figures;
//   - isolated-vm: a fresh Isolate and context per run, where the package
//     loads (-node-path), with a note saying why where it does not;
//   - plain goja: the CPU-bound corpus's JavaScript in goja itself (the
//     same patched copy), in a fresh goja.New() per run: codeexec's
//     overhead over its engine.
//
// -steps measures only some of the steps (-h lists them); the table then
// has only their rows.
//
// The tools answer at once (read) or after the time asked (sleep), in both
// runtimes; console output is captured, not printed.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/registry"
)

func main() {
	codeexec.Main() // the isolated figures re-execute this program
	b := &bench{}
	flag.StringVar(&b.bin, "codeexec", "bin/codeexec", "the codeexec binary, for the CLI's start")
	flag.IntVar(&b.rounds, "rounds", 5, "alternating rounds of each comparison")
	flag.StringVar(&b.nodePath, "node-path", "", "a node_modules directory holding isolated-vm")
	write := flag.String("write", "", "also write the table between the bench-node markers of this Markdown `file` (empty: only print it)")
	flag.StringVar(&b.steps, "steps", "", "measure only these `steps`, comma-separated ("+strings.Join(stepNames, ",")+"); empty: all")
	flag.Parse()
	if b.nodePath != "" {
		if abs, err := filepath.Abs(b.nodePath); err == nil {
			b.nodePath = abs
		}
	}
	if *write != "" {
		// Fail now, not after the measuring, on a file without the markers.
		if err := writeSection(*write, ""); err != nil && !errors.Is(err, errDryRun) {
			fmt.Fprintln(os.Stderr, "nodecompare:", err)
			os.Exit(1)
		}
	}
	start := machineNow()
	if err := b.run(); err != nil {
		fmt.Fprintln(os.Stderr, "nodecompare:", err)
		os.Exit(1)
	}
	table := b.table(start, commandLine(os.Args[1:]))
	fmt.Print(table)
	if *write != "" {
		if err := writeSection(*write, table); err != nil {
			fmt.Fprintln(os.Stderr, "nodecompare:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "nodecompare: wrote the table into %s\n", *write)
	}
}

// bench holds what the comparisons share.
type bench struct {
	bin      string
	rounds   int
	nodePath string
	harness  string            // the path of nodeHarness
	dir      string            // a scratch directory
	built    map[string]string // package -> binary, by build
	steps    string            // the steps to measure, comma-separated; "" for all
	inProc   *codeexec.Runner
	isolated *codeexec.Runner
	rows     []row
	notes    []string
}

// row is one goal: codeexec's figure, its peer's, their ratio and whether
// the goal holds.
type row struct {
	figure, peer string
	ce, other    string
	ratio        float64 // 0: an absolute goal, no ratio
	goal         string
	met          bool
}

// goal is what a figure must meet, as the table shows it and as a test of
// codeexec's figure and its ratio to the peer's.
type goal struct {
	text string
	met  func(ce, ratio float64) bool
}

// noGoal is a figure measured for comparison only.
var noGoal = goal{text: "(no goal)", met: func(float64, float64) bool { return false }}

// ratioAtMost and ratioAtLeast bound the ratio of codeexec's figure to its
// peer's; timeAtMost bounds codeexec's figure, in seconds.
func ratioAtMost(limit float64) goal {
	return goal{text: "≤ " + strconv.FormatFloat(limit, 'f', -1, 64), met: func(_, r float64) bool { return r <= limit }}
}

func ratioAtLeast(limit float64) goal {
	return goal{text: "≥ " + strconv.FormatFloat(limit, 'f', -1, 64), met: func(_, r float64) bool { return r >= limit }}
}

func timeAtMost(limit float64) goal {
	text := fmt.Sprintf("%.3g µs", limit*1e6)
	if limit >= 1e-3 {
		text = fmt.Sprintf("%.3g ms", limit*1e3)
	}
	// A figure equal to the limit meets it: the medians come from
	// millisecond readings (performance.now), so 3 µs can be a hair over
	// 3e-6 in floating point.
	return goal{text: "≤ " + text, met: func(ce, _ float64) bool { return ce <= limit*(1+1e-9) }}
}

// compare adds the row of figure: codeexec's figure ce against its peer's
// other, both shown with show, their ratio, and whether g is met.
func (b *bench) compare(figure, peer string, ce, other float64, show func(float64) string, g goal) {
	b.add(row{figure: figure, peer: peer, ce: show(ce), other: show(other), ratio: ce / other, goal: g.text, met: g.met(ce, ce/other)})
}

func (b *bench) run() error {
	if _, err := os.Stat(b.bin); err != nil {
		return fmt.Errorf("the codeexec binary: %w (make build)", err)
	}
	dir, err := os.MkdirTemp("", "nodecompare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b.dir = dir
	b.harness = filepath.Join(dir, "harness.js")
	if err := os.WriteFile(b.harness, []byte(nodeHarness), 0o644); err != nil {
		return err
	}
	reg := tools()
	if b.inProc, err = codeexec.New(reg, codeexec.Options{}); err != nil {
		return err
	}
	defer b.inProc.Close()
	if b.isolated, err = codeexec.New(reg, codeexec.Options{Isolation: codeexec.Process, Pool: codeexec.PoolOptions{Size: 2}}); err != nil {
		return err
	}
	defer b.isolated.Close()

	steps := map[string]func() error{
		"warm": b.warmSnippet, "mcp": b.mcp, "isolated": b.isolatedLatency, "throughput": b.throughput, "roundtrip": b.roundTrip,
		"parallel": b.parallelTools, "console": b.console, "cli": b.cliStart, "growth": b.growth, "corpus": b.corpus,
	}
	only := map[string]bool{}
	for _, name := range strings.Split(b.steps, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if steps[name] == nil {
			return fmt.Errorf("-steps: no step %q (the steps: %s)", name, strings.Join(stepNames, ", "))
		}
		only[name] = true
	}
	for _, name := range stepNames {
		if len(only) > 0 && !only[name] {
			continue
		}
		if err := steps[name](); err != nil {
			return err
		}
	}
	return nil
}

// stepNames are the steps of run, in the order they are measured.
var stepNames = []string{"warm", "mcp", "isolated", "throughput", "roundtrip", "parallel", "console", "cli", "growth", "corpus"}

// tools is the registry of the codeexec side: benchdata's read, and sleep.
func tools() *registry.Registry {
	reg := benchdata.Tools()
	err := reg.Register(registry.Tool{
		Name: "sleep", Description: "Wait ms milliseconds.",
		Parameters:    registry.MustParseSchema(`{"type":"object","properties":{"ms":{"type":"number"}},"required":["ms"]}`),
		CallSignature: "async function sleep(ms: number): Promise<number>",
		Execute: func(ctx context.Context, c registry.Call) (registry.Result, error) {
			ms := c.Params["ms"].(float64)
			select {
			case <-time.After(time.Duration(ms * float64(time.Millisecond))):
			case <-ctx.Done():
				return registry.Result{}, ctx.Err()
			}
			return registry.Result{Details: ms}, nil
		},
	})
	if err != nil {
		panic(err) // a fixed, valid definition
	}
	return reg
}

// asFunction strips the snippet's types and makes it an async function of
// read and sleep, as codeexec's wrapper makes it one, for Node to call.
func asFunction(ts string) (string, error) {
	res := api.Transform("(async (read, sleep) => {\n"+ts+"\n})", api.TransformOptions{Loader: api.LoaderTS})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("transform for node: %s", res.Errors[0].Text)
	}
	return strings.TrimSuffix(strings.TrimSpace(string(res.Code)), ";"), nil
}

// alternate measures codeexec's side (ce) and its peer's in b.rounds
// rounds, in turn first, and returns the median of each side's round
// figures.
func (b *bench) alternate(ce, peer func() (float64, error)) (float64, float64, error) {
	var c, p []float64
	for i := range b.rounds {
		order := []func() error{
			func() error { v, err := ce(); c = append(c, v); return err },
			func() error { v, err := peer(); p = append(p, v); return err },
		}
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, f := range order {
			if err := f(); err != nil {
				return 0, 0, err
			}
		}
	}
	return medianOf(c), medianOf(p), nil
}

// runSeq numbers the runs whose source must be new.
var runSeq atomic.Int64

// uniqueSource is src after a comment no other run's source has, so that no
// compile cache serves it.
func uniqueSource(src string) string { return fmt.Sprintf("// run %d\n%s", runSeq.Add(1), src) }

// runner runs snippets: a *codeexec.Runner, each run of its own, or a
// *codeexec.Session, each run in it.
type runner interface {
	Run(ctx context.Context, source string, opts codeexec.RunOptions) *codeexec.Result
}

// runMedian runs src n times on r, after warm unmeasured runs, and
// returns the median wall time in seconds. With unique, each run's source
// starts with a distinct comment, so that no compile cache serves it.
func runMedian(r runner, src string, warm, n int, unique bool) (float64, error) {
	return medianRun(warm, n, func() error {
		s := src
		if unique {
			s = uniqueSource(src)
		}
		if res := r.Run(context.Background(), s, codeexec.RunOptions{}); res.Error != nil {
			return fmt.Errorf("run: %s", res.Error.Report())
		}
		return nil
	})
}

// medianRun calls run warm times unmeasured, then n times, and returns the
// median wall time of the n in seconds, or run's first error.
func medianRun(warm, n int, run func() error) (float64, error) {
	for range warm {
		if err := run(); err != nil {
			return 0, err
		}
	}
	var err error
	var t benchdata.Timer
	for range n {
		if t.Time(func() { err = run() }); err != nil {
			return 0, err
		}
	}
	return t.Median().Seconds(), nil
}

// nodeMedian is node's side of a warm comparison, in seconds.
func (b *bench) nodeMedian(source, mode string, warm, n int) func() (float64, error) {
	return func() (float64, error) {
		d, err := b.node(nodeRun{Source: source, Mode: mode, Warm: warm, N: n})
		return d.Seconds(), err
	}
}

// nodeFigure is a figure that codeexec and node measure for the same
// snippet: codeexec runs src in r (in process when nil), with a distinct
// comment each run when unique; node runs it as JavaScript in the
// harness's mode (fresh, unique or ivm: see nodeHarness). Each side runs
// warm runs unmeasured, then n measured; node nodeWarm and nodeN when
// they are set.
type nodeFigure struct {
	figure, peer    string
	src, mode       string
	r               *codeexec.Runner
	unique          bool
	warm, n         int
	nodeWarm, nodeN int
	goal            goal
}

// againstNode measures f, alternating the two sides, and adds its row.
func (b *bench) againstNode(f nodeFigure) error {
	fn, err := asFunction(f.src)
	if err != nil {
		return err
	}
	r := cmp.Or(f.r, b.inProc)
	ce, peer, err := b.alternate(
		func() (float64, error) { return runMedian(r, f.src, f.warm, f.n, f.unique) },
		b.nodeMedian(fn, f.mode, cmp.Or(f.nodeWarm, f.warm), cmp.Or(f.nodeN, f.n)))
	if err != nil {
		return err
	}
	b.compare(f.figure, f.peer, ce, peer, dur, f.goal)
	return nil
}

// warmSnippet: the 30-line snippet in a warm host, against node's fresh
// vm context (and isolated-vm's fresh isolate).
func (b *bench) warmSnippet() error {
	src := benchdata.Snippet30
	for _, f := range []nodeFigure{
		{figure: "warm in-process run, 30-line TS snippet, 2 tool calls", peer: "node vm, fresh context", src: src, mode: "fresh", warm: 50, nodeWarm: 100, n: 300, goal: ratioAtMost(1.5)},
		{figure: "the same, compile cache defeated (a new comment each run)", peer: "node vm, fresh context, new source", src: src, mode: "unique", unique: true, warm: 20, n: 200, goal: noGoal},
	} {
		if err := b.againstNode(f); err != nil {
			return err
		}
	}
	ok, why := b.hasIsolatedVM()
	if !ok {
		b.notes = append(b.notes, "isolated-vm skipped: "+why)
		return nil
	}
	return b.againstNode(nodeFigure{figure: "warm in-process run, 30-line TS snippet", peer: "isolated-vm, fresh isolate", src: src, mode: "ivm", warm: 50, n: 300, nodeWarm: 20, nodeN: 200, goal: noGoal})
}

// cacheNote names the two ways the isolated figures are measured: the
// same snippet again (the compile cache serves it, in process and in the
// worker), and a new one each run (each run compiles, as a model's new
// code does).
var cacheNote = map[bool]string{false: "same snippet", true: "new snippet each run"}

// isolatedLatency: back-to-back isolated runs against in-process ones.
func (b *bench) isolatedLatency() error {
	for _, unique := range []bool{false, true} {
		iso, in, err := b.alternate(
			func() (float64, error) { return runMedian(b.isolated, benchdata.Snippet30, 20, 200, unique) },
			func() (float64, error) { return runMedian(b.inProc, benchdata.Snippet30, 20, 200, unique) })
		if err != nil {
			return err
		}
		b.compare("isolated run back to back (reused worker), 30-line snippet, "+cacheNote[unique], "in process", iso, in, dur, ratioAtMost(1.5))
	}
	// The floor of isolation's fixed cost: a run's request wakes its
	// worker, and its first call and its result wake the parent.
	var wakes []float64
	for range b.rounds {
		w, err := pipeRoundTrip(1000)
		if err != nil {
			return err
		}
		wakes = append(wakes, w)
	}
	b.add(row{figure: "a byte to a sleeping process and back (`cat`, two wake-ups; median): the floor of isolation's wake-ups", ce: dur(medianOf(wakes)), goal: noGoal.text})
	return nil
}

// pipeRoundTrip is the median time, in seconds, of n one-byte round trips
// through a cat process, each after a pause long enough for cat and this
// reader to sleep: two wake-ups of a sleeping process, which an isolated
// run pays for its request and its result.
func pipeRoundTrip(n int) (float64, error) {
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("pipe round trip: %w", err)
	}
	defer func() {
		_ = in.Close()
		_ = cmd.Wait()
	}()
	buf := []byte{1}
	d := make([]float64, n)
	for i := range d {
		time.Sleep(200 * time.Microsecond)
		t := time.Now()
		if _, err := in.Write(buf); err != nil {
			return 0, fmt.Errorf("pipe round trip: %w", err)
		}
		if _, err := io.ReadFull(out, buf); err != nil {
			return 0, fmt.Errorf("pipe round trip: %w", err)
		}
		d[i] = time.Since(t).Seconds()
	}
	return medianOf(d), nil
}

// throughput: runs per second with two callers at once, isolated and in
// process.
func (b *bench) throughput() error {
	for _, unique := range []bool{false, true} {
		rate := func(r *codeexec.Runner) func() (float64, error) {
			return func() (float64, error) { return runsPerSecond(r, benchdata.Snippet30, unique, 2, 2*time.Second) }
		}
		iso, in, err := b.alternate(rate(b.isolated), rate(b.inProc))
		if err != nil {
			return err
		}
		b.compare("throughput, 2 callers, isolated (runs/s), "+cacheNote[unique], "in process", iso, in, perSecond, ratioAtLeast(0.6))
	}
	return nil
}

// runsPerSecond runs src on r from callers goroutines for d and returns
// the runs completed per second; with unique, each run's source starts
// with a distinct comment (see runMedian).
func runsPerSecond(r *codeexec.Runner, src string, unique bool, callers int, d time.Duration) (float64, error) {
	var n atomic.Int64
	var firstErr atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				s := src
				if unique {
					s = uniqueSource(src)
				}
				if res := r.Run(context.Background(), s, codeexec.RunOptions{}); res.Error != nil {
					firstErr.CompareAndSwap(nil, res.Error.Report())
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		return 0, fmt.Errorf("run: %s", e)
	}
	return float64(n.Load()) / d.Seconds(), nil
}

// roundTrip: the median of one awaited tool call as the snippet times it.
func (b *bench) roundTrip() error {
	call := func(r *codeexec.Runner) func() (float64, error) {
		return func() (float64, error) {
			res := r.Run(context.Background(), benchdata.RoundTrip(1000), codeexec.RunOptions{})
			if res.Error != nil {
				return 0, fmt.Errorf("round trip: %s", res.Error.Report())
			}
			var p benchdata.Percentiles
			if err := json.Unmarshal(res.Value, &p); err != nil {
				return 0, fmt.Errorf("round trip: the snippet returned %s: %w", res.Value, err)
			}
			return p.Median / 1e3, nil
		}
	}
	iso, in, err := b.alternate(call(b.isolated), call(b.inProc))
	if err != nil {
		return err
	}
	b.compare("tool call round trip across the boundary (median)", "in process", iso, in, dur, timeAtMost(20e-6))
	// In process has no peer: an absolute goal only.
	g := timeAtMost(3e-6)
	b.add(row{figure: "tool call round trip in process (median)", ce: dur(in), goal: g.text, met: g.met(in, 0)})
	return nil
}

// parallelTools: Promise.all of ten tools that sleep 100 ms each.
func (b *bench) parallelTools() error {
	const src = `await Promise.all(Array.from({ length: 10 }, () => sleep(100)));`
	for _, m := range []struct {
		name string
		r    *codeexec.Runner
	}{{"in process", b.inProc}, {"isolated", b.isolated}} {
		if err := b.againstNode(nodeFigure{figure: "Promise.all of 10 tools sleeping 100 ms, " + m.name, peer: "node vm", src: src, r: m.r, mode: "fresh", warm: 1, n: 5, goal: timeAtMost(0.115)}); err != nil {
			return err
		}
	}
	return nil
}

// console: 10,000 console.log lines, isolated against in process.
func (b *bench) console() error {
	const src = `for (let i = 0; i < 10000; i++) console.log("line " + i);`
	iso, in, err := b.alternate(
		func() (float64, error) { return runMedian(b.isolated, src, 3, 20, false) },
		func() (float64, error) { return runMedian(b.inProc, src, 3, 20, false) })
	if err != nil {
		return err
	}
	b.compare("10,000 console.log lines, isolated", "in process", iso, in, dur, ratioAtMost(1.5))
	return b.againstNode(nodeFigure{figure: "10,000 console.log lines, in process", peer: "node vm", src: src, mode: "fresh", warm: 3, n: 20, goal: noGoal})
}

// cliStart: `codeexec run trivial.ts`, a process each, in both isolation
// modes, against `node trivial.js` and against a static Go hello world
// (issue 27's peer), the latter in wall time and in page faults; and the
// floor beneath it, bench/startfloor: goja and esbuild alone, without the
// rest of codeexec, against the same hello world.
func (b *bench) cliStart() error {
	ts, js := filepath.Join(b.dir, "trivial.ts"), filepath.Join(b.dir, "trivial.js")
	if err := os.WriteFile(ts, []byte("return 1\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(js, []byte("console.log(1)\n"), 0o644); err != nil {
		return err
	}
	hello, err := b.build("./bench/startfloor/hello")
	if err != nil {
		return err
	}
	floor, err := b.build("./bench/startfloor")
	if err != nil {
		return err
	}
	const helloName = "a static Go hello world (bench/startfloor/hello)"
	for _, m := range []struct {
		mode                  string
		nodeLimit, helloLimit float64
		floorFlags            []string
	}{{"process", 0.15, 3, []string{"-process"}}, {"none", 0.10, 2, nil}} {
		codeexecRun := []string{"run", "--isolation", m.mode, ts}
		figure := "CLI start, `codeexec run trivial.ts --isolation " + m.mode + "`"
		ce, peer, err := b.alternate(
			func() (float64, error) { return commandMedian(10, b.bin, codeexecRun...) },
			func() (float64, error) { return commandMedian(10, "node", js) })
		if err != nil {
			return err
		}
		g := ratioAtMost(m.nodeLimit)
		g.text = fmt.Sprintf("≤ %.2f", m.nodeLimit) // the table's "≤ 0.10"
		b.compare(figure, "`node trivial.js`", ce, peer, dur, g)
		ce, peer, err = b.alternate(
			func() (float64, error) { return commandMedian(10, b.bin, codeexecRun...) },
			func() (float64, error) { return commandMedian(10, hello) })
		if err != nil {
			return err
		}
		b.compare(figure, helloName, ce, peer, dur, ratioAtMost(m.helloLimit))
		fl, peer, err := b.alternate(
			func() (float64, error) { return commandMedian(10, floor, append(m.floorFlags, ts)...) },
			func() (float64, error) { return commandMedian(10, hello) })
		if err != nil {
			return err
		}
		floorCmd := "`startfloor " + strings.Join(append(m.floorFlags, "trivial.ts"), " ") + "`"
		b.compare("the floor of the row above: goja and esbuild alone ("+floorCmd+")", helloName, fl, peer, dur, noGoal)
		for _, side := range []struct {
			figure string
			args   []string
			bin    string
		}{{figure, codeexecRun, b.bin}, {"the floor, " + floorCmd, append(m.floorFlags, ts), floor}} {
			f, h, err := b.alternate(
				func() (float64, error) { return commandFaults(5, side.bin, side.args...) },
				func() (float64, error) { return commandFaults(5, hello) })
			if err != nil {
				return err
			}
			b.compare(side.figure+": page faults", helloName, f, h, count, noGoal)
		}
	}
	return nil
}

// build builds the program of package pkg (a path from the module's root,
// where make runs this) statically, as `make build` builds codeexec, into
// the scratch directory, once, and returns the binary's path.
func (b *bench) build(pkg string) (string, error) {
	if bin, ok := b.built[pkg]; ok {
		return bin, nil
	}
	bin := filepath.Join(b.dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	if b.built == nil {
		b.built = map[string]string{}
	}
	b.built[pkg] = bin
	return bin, nil
}

// growth: a 3,000-line snippet (cache defeated) and 1,000 sequential tool
// calls, against node vm.
func (b *bench) growth() error {
	for _, f := range []nodeFigure{
		{figure: "3,000-line snippet, compile cache defeated, in process", peer: "node vm, new source", src: bigSnippet(500), mode: "unique", unique: true, warm: 2, n: 10, goal: ratioAtMost(3)},
		{figure: "1,000 sequential tool calls, in process", peer: "node vm", src: `for (let i = 0; i < 1000; i++) await read("x");`, mode: "fresh", warm: 3, n: 20, goal: ratioAtMost(2)},
		// The engine's own floor for the row above: an await with no call.
		{figure: "1,000 sequential `await null`, in process: the engine's floor for the row above", peer: "node vm", src: `for (let i = 0; i < 1000; i++) await null;`, mode: "fresh", warm: 3, n: 20, goal: noGoal},
	} {
		if err := b.againstNode(f); err != nil {
			return err
		}
	}
	return nil
}

// bigSnippet is a TypeScript snippet of n six-line functions, each called
// once.
func bigSnippet(n int) string {
	var s strings.Builder
	for i := range n {
		fmt.Fprintf(&s, "function f%d(a: number, b: number): number {\n  const o = { k: a, m(): number { return b } };\n  const xs: number[] = [a, b].map((x) => x * 2).filter((x) => x > 1);\n  if (xs.length > 1) { return o.m() + xs[0] }\n  return o.k;\n}\n", i)
	}
	s.WriteString("let total = 0;\n")
	for i := range n {
		fmt.Fprintf(&s, "total += f%d(%d, 2);\n", i, i)
	}
	s.WriteString("return total;\n")
	return s.String()
}

func (b *bench) add(r row) {
	b.rows = append(b.rows, r)
	fmt.Fprintf(os.Stderr, "measured: %s\n", r.figure)
}

// machine is what the table says of where and when it was measured.
type machine struct {
	when    time.Time
	cpus    int
	goos    string
	goarch  string
	loadavg string // the 1-minute load average at the start, "" where unknown
	node    string // node --version
}

// machineNow describes this machine now, before the measuring starts.
func machineNow() machine {
	m := machine{when: time.Now().UTC(), cpus: goruntime.NumCPU(), goos: goruntime.GOOS, goarch: goruntime.GOARCH}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			m.loadavg = f[0]
		}
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m.node = strings.TrimSpace(string(out))
	}
	return m
}

// commandLine is the command that ran this program, as a shell would take
// it.
func commandLine(args []string) string {
	parts := []string{"go", "run", "./bench/nodecompare"}
	for _, a := range args {
		if a == "" || strings.ContainsFunc(a, func(r rune) bool { return !strings.ContainsRune(safeShellChars, r) }) {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

const safeShellChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+"

// table is the result in Markdown: a line saying when, how and where it
// was measured, the table, and the notes.
func (b *bench) table(m machine, cmd string) string {
	var s strings.Builder
	rounds := fmt.Sprintf("%d alternating rounds", b.rounds)
	if b.rounds == 1 {
		rounds = "1 round"
	}
	fmt.Fprintf(&s, "Measured %s by `%s` (%s a figure", m.when.Format("2006-01-02 15:04 MST"), cmd, rounds)
	if m.node != "" {
		fmt.Fprintf(&s, ", node %s", m.node)
	}
	fmt.Fprintf(&s, ") on %s/%s with %d CPUs", m.goos, m.goarch, m.cpus)
	if m.loadavg != "" {
		fmt.Fprintf(&s, ", load average %s at the start", m.loadavg)
	}
	s.WriteString(":\n\n")
	s.WriteString("| figure | codeexec | peer | peer's figure | ratio | goal | met |\n")
	s.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range b.rows {
		ratio, met := "", ""
		if r.ratio > 0 {
			ratio = fmt.Sprintf("%.2f", r.ratio)
		}
		switch {
		case r.goal == noGoal.text:
		case r.met:
			met = "yes"
		default:
			met = "no"
		}
		fmt.Fprintf(&s, "| %s | %s | %s | %s | %s | %s | %s |\n", r.figure, r.ce, r.peer, r.other, ratio, r.goal, met)
	}
	for _, n := range b.notes {
		s.WriteString("\n" + n + "\n")
	}
	return s.String()
}

// The markers around the table in docs/performance.md.
const (
	startMarker = "<!-- bench-node:start -->"
	endMarker   = "<!-- bench-node:end -->"
)

// errDryRun is writeSection's answer to an empty body: the file was
// checked, not written.
var errDryRun = errors.New("nothing to write")

// writeSection replaces the section between the markers of the Markdown
// file at path with body, leaving the rest of it alone. With an empty body
// it only checks that the file has the markers, and returns errDryRun.
func writeSection(path, body string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	updated, err := replaceSection(string(doc), body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if body == "" {
		return errDryRun
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".nodecompare-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is none
	if _, err := tmp.WriteString(updated); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		if err := os.Chmod(tmp.Name(), fi.Mode().Perm()); err != nil {
			return err
		}
	}
	return os.Rename(tmp.Name(), path)
}

// replaceSection returns doc with the lines between its start and end
// markers (each alone on its line, once, in that order) replaced by body.
func replaceSection(doc, body string) (string, error) {
	start, end := markerLine(doc, startMarker), markerLine(doc, endMarker)
	switch {
	case start == -1 || end == -1:
		return "", fmt.Errorf("no %s and %s lines to write the table between", startMarker, endMarker)
	case start == -2 || end == -2:
		return "", fmt.Errorf("%s or %s appears more than once", startMarker, endMarker)
	case end < start:
		return "", fmt.Errorf("%s comes before %s", endMarker, startMarker)
	}
	from := start + len(startMarker) + 1 // after the start marker's newline
	if from > end {
		return "", fmt.Errorf("%s and %s share a line", startMarker, endMarker)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return doc[:from] + body + doc[end:], nil
}

// markerLine returns the offset of the line of doc that is marker alone,
// -1 when there is none, -2 when there are several.
func markerLine(doc, marker string) int {
	at := -1
	offset := 0
	for _, line := range strings.SplitAfter(doc, "\n") {
		if strings.TrimRight(line, " \t\r\n") == marker {
			if at >= 0 {
				return -2
			}
			at = offset
		}
		offset += len(line)
	}
	return at
}

// medianOf is the median of v.
func medianOf(v []float64) float64 { return benchdata.Quantile(v, 0.5) }

// count formats a number of things.
func count(n float64) string { return fmt.Sprintf("%.0f", n) }

// perSecond formats a rate.
func perSecond(r float64) string { return fmt.Sprintf("%.0f/s", r) }

// dur formats seconds as µs or ms.
func dur(s float64) string {
	switch {
	case s >= 1e-3:
		return fmt.Sprintf("%.2f ms", s*1e3)
	default:
		return fmt.Sprintf("%.1f µs", s*1e6)
	}
}
