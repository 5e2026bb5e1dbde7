package external

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/internal/proctest"
)

// TestMain fails the package if a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// toolScript returns a /bin/sh script that prints schema for --schema and
// otherwise runs body.
func toolScript(schema, body string) string {
	return "#!/bin/sh\nif [ \"$1\" = \"--schema\" ]; then\ncat <<'SCHEMA'\n" + schema + "\nSCHEMA\nexit 0\nfi\n" + body + "\n"
}

// schemaFor is a minimal valid definition named name that accepts any params.
func schemaFor(name string) string {
	return fmt.Sprintf(`{"name": %q, "description": "Test tool %s.", "parameters": {"type": "object", "additionalProperties": true}}`, name, name)
}

// writeExec writes an executable file that may be started at once, even
// while parallel tests fork (see proctest.WriteExecutable).
func writeExec(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := proctest.WriteExecutable(path, []byte(content)); err != nil {
		t.Fatal(err)
	}
	return path
}

// wordCountSchema is the definition of the word_count test tool.
const wordCountSchema = `{"name": "word_count", "description": "Count the words in a text.",
 "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
 "returns": {"type": "object", "properties": {"words": {"type": "integer"}}, "required": ["words"]}}`

// wordCountBody counts the words of params.text (with no quote or
// backslash in it) with sh's builtins alone: one process a call, started in
// a millisecond, where an interpreter such as python3 (a pyenv shim on some
// machines) takes a second, and sed, wc and tr in subshells took four more.
const wordCountBody = `IFS= read -r params || true
text=${params#*\"text\"}
text=${text#*\"}
text=${text%%\"*}
set -f
set -- $text
printf '{"words": %d}\n' "$#"`

// liveness bounds how long a test waits for something that happens at once
// on an idle machine (a killed process is gone, a started one wrote its
// pid): generous, so that only a hang fails it on a loaded one.
const liveness = 30 * time.Second

// readPID reads the process id a test tool wrote to path, waiting up to
// liveness for the file to appear.
func readPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for {
		b, err := os.ReadFile(path)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file %s: %v", path, err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid file %s was not written: %v", path, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupMembers lists the live (not zombie) processes in process group pgid.
func groupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	if !proctest.Supported() {
		t.Skip("no /proc")
	}
	var pids []int
	for _, p := range proctest.Where(func(p proctest.Proc) bool { return p.PGID == pgid && p.Live() }) {
		pids = append(pids, p.PID)
	}
	return pids
}

// assertGroupGone fails unless process group pgid has no live member within
// two seconds (killed processes take a moment to disappear).
func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for {
		left := groupMembers(t, pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live processes %v", pgid, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
