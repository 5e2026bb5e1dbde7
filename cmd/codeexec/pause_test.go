package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// TestPrintPause checks the lines on stderr of a paused run: one a
// request, each with its id, its tool, what it needs and the call as the
// tool renders it, then where the state is and how to go on.
func TestPrintPause(t *testing.T) {
	write := codeexec.InputRequest{ID: "call_1", Kind: codeexec.InputApproval, Tool: "write", Text: "Write file: a.txt"}
	write2 := codeexec.InputRequest{ID: "call_2", Kind: codeexec.InputApproval, Tool: "write", Text: "Write file: b.txt"}
	lookup := codeexec.InputRequest{ID: "call_3", Kind: codeexec.InputTool, Tool: "lookup", Text: "lookup: life"}
	tests := []struct {
		name     string
		requests []codeexec.InputRequest
		want     string
	}{
		{"one approval", []codeexec.InputRequest{write}, `codeexec: paused: call_1 write needs approval: Write file: a.txt
codeexec: the run's state is in st.bin; go on with: codeexec resume st.bin --approve call_1
`},
		{"two approvals", []codeexec.InputRequest{write, write2}, `codeexec: paused: call_1 write needs approval: Write file: a.txt
codeexec: paused: call_2 write needs approval: Write file: b.txt
codeexec: the run's state is in st.bin; go on with: codeexec resume st.bin --approve call_1 --approve call_2
`},
		{"an approval and a caller-served call", []codeexec.InputRequest{write, lookup}, `codeexec: paused: call_1 write needs approval: Write file: a.txt
codeexec: paused: call_3 lookup needs the caller's result: lookup: life
codeexec: the run's state is in st.bin; go on with: codeexec resume st.bin --approve call_1 --result call_3=JSON
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			a := &app{stderr: &out}
			a.printPause(&codeexec.Pause{Requests: tt.requests}, "st.bin")
			if out.String() != tt.want {
				t.Errorf("stderr:\n%s\nwant:\n%s", out.String(), tt.want)
			}
		})
	}
}

// TestResumeExpiredState checks that resume refuses a state that expired
// (the CLI keeps states for codeexec.DefaultStateTTL: this one is made by
// the library, with the CLI's key and a TTL of a nanosecond), with exit
// code 2, saying so, and that nothing of the run runs.
func TestResumeExpiredState(t *testing.T) {
	const key = "a-key-for-the-tests-that-is-long-enough"
	t.Setenv(stateKeyEnv, key)
	reg := registry.New()
	if err := reg.Register(registry.Tool{
		Name: "lookup", Description: "Look a word up; served by the caller.", CallerServed: true,
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`),
	}); err != nil {
		t.Fatal(err)
	}
	r, err := codeexec.New(reg, codeexec.Options{Isolation: codeexec.InProcess, StateKey: []byte(key), StateTTL: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := r.Run(context.Background(), `console.log("ran"); return await lookup({ word: "x" })`, codeexec.RunOptions{})
	if res.Pause == nil {
		t.Fatalf("the run did not pause: %v", res.Error)
	}
	path := filepath.Join(t.TempDir(), "st.bin")
	if err := os.WriteFile(path, res.Pause.State, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	a := &app{stdin: bytes.NewReader(nil), stdout: &stdout, stderr: &stderr}
	code := a.main(context.Background(), []string{"resume", path, "--result", `call_1="y"`, "--isolation", "none", "--no-builtins", "--caller-tools", writeTools(t)})
	want := regexp.MustCompile(`^codeexec: resume ` + regexp.QuoteMeta(path) + `: codeexec: the run's state was refused: it expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$`)
	if code != exitUsage || !want.MatchString(stderr.String()) {
		t.Errorf("exit code %d, stderr %q; want %d, %s", code, stderr.String(), exitUsage, want)
	}
	if strings.Contains(stdout.String(), "ran") {
		t.Errorf("the expired run ran: stdout %q", stdout.String())
	}
}

// writeTools writes a --caller-tools file with lookup, and returns its
// path.
func writeTools(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tools.json")
	def := `[{"name": "lookup", "description": "Look a word up; served by the caller.", "parameters": {"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}}]`
	if err := os.WriteFile(path, []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
