package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/nodetest"
	"github.com/codeexec/codeexec/runtime"
)

// consoleCorpus is the file of console cases compared with node.
const consoleCorpus = "testdata/corpus.js"

// minNodeMatchRate is the share of corpus cases whose output must be
// byte-identical to node's.
const minNodeMatchRate = 0.97

// readConsoleCorpus returns the cases of the corpus: one per line, skipping
// blank lines and // comments.
func readConsoleCorpus(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(consoleCorpus)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		cases = append(cases, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// nodeConsoleScript runs every case as the body of an async function given
// a fresh Console whose streams are captured, and prints the outputs as
// JSON: one node process for the whole corpus.
const nodeConsoleScript = `
const { Console } = require('console');
const { Writable } = require('stream');
const AsyncFunction = (async () => {}).constructor;
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
(async () => {
  const results = [];
  for (const src of cases) {
    let out = '', err = '';
    const sink = (add) => new Writable({ write(chunk, enc, cb) { add(String(chunk)); cb(); } });
    const con = new Console({ stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }) });
    try {
      await new AsyncFunction('console', src)(con);
    } catch (e) {
      err += 'THREW: ' + (e && e.name) + ': ' + (e && e.message) + '\n';
    }
    await new Promise((r) => setImmediate(r));
    results.push({ out, err });
  }
  process.stdout.write(JSON.stringify(results));
})();
`

type consoleOutput struct {
	Out string `json:"out"`
	Err string `json:"err"`
}

var (
	// frameLinesRE matches a run of stack frame lines; they differ between
	// node and codeexec (file names, internal frames) and are compared as
	// one line.
	frameLinesRE = regexp.MustCompile(`(?m)^([ \t]*)at .*(\n[ \t]*at .*)*`)
	durationRE   = regexp.MustCompile(`\d+(\.\d+)?(ms|s)\b`)
)

func normalizeConsole(s string) string {
	s = frameLinesRE.ReplaceAllString(s, "${1}at <frames>")
	return durationRE.ReplaceAllString(s, "<duration>")
}

// TestConsoleMatchesNode runs the corpus through codeexec and through node
// (under make test-node: see package nodetest) and requires minNodeMatchRate of the cases to
// print byte-identical output. Mismatches are logged.
func TestConsoleMatchesNode(t *testing.T) {
	t.Parallel()
	node := nodetest.Path(t)
	cases := readConsoleCorpus(t)
	input, _ := json.Marshal(cases)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", nodeConsoleScript)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var want []consoleOutput
	if err := json.Unmarshal(raw, &want); err != nil || len(want) != len(cases) {
		t.Fatalf("node printed %d results for %d cases (%v)", len(want), len(cases), err)
	}
	matched := 0
	for i, src := range cases {
		res := runtime.Run(context.Background(), src, runtime.Options{Limits: runtime.Limits{Timeout: 10 * time.Second}, Filename: "case.js"})
		got := consoleOutput{Out: res.Stdout, Err: res.Stderr}
		if res.Error != nil {
			got.Err += "THREW: " + res.Error.Name + ": " + res.Error.Message + "\n"
		}
		if normalizeConsole(got.Out) == normalizeConsole(want[i].Out) && normalizeConsole(got.Err) == normalizeConsole(want[i].Err) {
			matched++
			continue
		}
		t.Logf("MISMATCH %s\n--- codeexec stdout:\n%s--- node stdout:\n%s--- codeexec stderr:\n%s--- node stderr:\n%s",
			src, got.Out, want[i].Out, got.Err, want[i].Err)
	}
	rate := float64(matched) / float64(len(cases))
	t.Logf("console output matches node for %d of %d cases (%.1f%%)", matched, len(cases), 100*rate)
	if rate < minNodeMatchRate {
		t.Errorf("match rate %.1f%% is below %.0f%%", 100*rate, 100*minNodeMatchRate)
	}
}
