package webapi_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/nodetest"
	"github.com/codeexec/codeexec/runtime"
)

// globalsCorpus is the file of Node-global cases compared with node.
const globalsCorpus = "testdata/nodeglobals.js"

// minGlobalsMatchRate is the share of corpus cases whose output must be
// byte-identical to node's.
const minGlobalsMatchRate = 0.95

// corpusCase is one snippet of the corpus, with the reason it is known to
// differ from node ("" when it must match).
type corpusCase struct {
	src     string
	differs string
	line    int
}

// readGlobalsCorpus returns the cases: one per line, skipping blank lines
// and comments; "// differs: REASON" marks the next case.
func readGlobalsCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open(globalsCorpus)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	differs, n := "", 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if reason, ok := strings.CutPrefix(line, "// differs: "); ok {
			differs = reason
			continue
		}
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		cases = append(cases, corpusCase{src: line, differs: differs, line: n})
		differs = ""
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// caseOutput is what one case printed and how it ended.
type caseOutput struct {
	out, err string
	status   int
}

// runNode runs src as an ES module (a snippet's top level, like a module's,
// may await) in its own node process, with TZ=UTC.
func runNode(ctx context.Context, node, src string) (caseOutput, error) {
	cmd := exec.CommandContext(ctx, node, "--input-type=module", "-e", src)
	cmd.Env = []string{"TZ=UTC", "LANG=C"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	status := 0
	if errors.As(err, &exit) {
		status, err = exit.ExitCode(), nil
	}
	return caseOutput{out: stdout.String(), err: stderr.String(), status: status}, err
}

var exitCodeRE = regexp.MustCompile(`exited with code (-?\d+)`)

// runCodeexec runs src as a snippet: status is 0 for success, the code
// for an ExitError, and 1 (with the error appended to stderr) otherwise.
func runCodeexec(src string) caseOutput {
	res := runtime.Run(context.Background(), src, runtime.Options{Limits: runtime.Limits{Timeout: 10 * time.Second}, Filename: "case.js"})
	got := caseOutput{out: res.Stdout, err: res.Stderr}
	if res.Error != nil {
		got.status = 1
		if m := exitCodeRE.FindStringSubmatch(res.Error.Message); res.Error.Name == "ExitError" && m != nil {
			got.status, _ = strconv.Atoi(m[1])
		} else {
			got.err += "THREW: " + res.Error.Name + ": " + res.Error.Message + "\n"
		}
	}
	return got
}

// TestGlobalsMatchNode runs the corpus through codeexec and through node
// (under make test-node: see package nodetest) and requires minGlobalsMatchRate of the cases to
// print byte-identical output and end the same way. Every case that
// differs must be marked "// differs: REASON", and every marked case must
// differ, so the list of differences stays true.
func TestGlobalsMatchNode(t *testing.T) {
	t.Parallel()
	node := nodetest.Path(t)
	cases := readGlobalsCorpus(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	want := make([]caseOutput, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			want[i], errs[i] = runNode(ctx, node, c.src)
		}()
	}
	wg.Wait()
	matched := 0
	for i, c := range cases {
		if errs[i] != nil {
			t.Fatalf("node on line %d: %v", c.line, errs[i])
		}
		got := runCodeexec(c.src)
		same := got == want[i]
		switch {
		case same && c.differs == "":
			matched++
		case same:
			t.Errorf("line %d is marked as differing (%s) but matches node: %s", c.line, c.differs, c.src)
		case c.differs == "":
			t.Errorf("line %d differs from node and is not marked: %s\n%s", c.line, c.src, diffText(got, want[i]))
		default:
			t.Logf("line %d differs as marked (%s)", c.line, c.differs)
		}
	}
	rate := float64(matched) / float64(len(cases))
	t.Logf("Node globals match node for %d of %d cases (%.1f%%)", matched, len(cases), 100*rate)
	if rate < minGlobalsMatchRate {
		t.Errorf("match rate %.1f%% is below %.0f%%", 100*rate, 100*minGlobalsMatchRate)
	}
}

func diffText(got, want caseOutput) string {
	return fmt.Sprintf("--- codeexec (status %d) stdout:\n%s--- node (status %d) stdout:\n%s--- codeexec stderr:\n%s--- node stderr:\n%s",
		got.status, got.out, want.status, want.out, got.err, want.err)
}
