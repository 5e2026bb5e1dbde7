package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/proctest"
	"github.com/codeexec/codeexec/registry"
)

// execEnv is a tools directory with discovered tools and a directory for
// the pid files the tools write.
type execEnv struct {
	dir   string
	pids  string
	tools []registry.Tool
}

// pidLine is a shell line that writes the script's pid (its process group,
// as calls run in a group of their own) to the pid file for name.
func (e *execEnv) pidLine(name string) string {
	return "echo $$ > " + filepath.Join(e.pids, name+".pid")
}

// newExecEnv writes the test tools and discovers them with opts.
func newExecEnv(t *testing.T, opts Options) *execEnv {
	t.Helper()
	e := &execEnv{dir: t.TempDir(), pids: t.TempDir()}
	scripts := map[string]string{
		"word_count":  wordCountBody,
		"echo":        "exec cat",
		"crash":       "echo 'partial output'\necho 'boom: the input was bad' >&2\nexit 3",
		"crash_quiet": "exit 4",
		"segv":        "kill -SEGV $$",
		"not_json":    "echo 'hello world'",
		"two_values":  "echo '{} {}'",
		"empty":       "true",
		"null":        "echo null",
		"multiline":   "printf '{\\n  \"a\": [1,\\n 2]\\n}\\n'",
		"sleeper":     e.pidLine("sleeper") + "\necho 'starting' >&2\nsleep 300 &\nsleep 300",
		"background":  e.pidLine("background") + "\nsleep 300 &\necho '{\"ok\": true}'",
		"flood":       e.pidLine("flood") + "\nexec yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"big_stderr":  "head -c 1000000 /dev/zero | tr '\\0' 'e' >&2\necho 'the end' >&2\nexit 3",
		"no_stdin":    "echo '{\"ignored\": true}'",
	}
	for name, body := range scripts {
		writeExec(t, e.dir, name, toolScript(schemaFor(name), body))
	}
	var warnings []Warning
	var err error
	e.tools, warnings, err = Discover(context.Background(), []string{e.dir}, opts)
	if err != nil || len(warnings) != 0 || len(e.tools) != len(scripts) {
		t.Fatalf("Discover = %v, %v, %v", toolNames(e.tools), warnings, err)
	}
	return e
}

func (e *execEnv) tool(t *testing.T, name string) registry.Tool {
	t.Helper()
	return findTool(t, e.tools, name)
}

func (e *execEnv) pid(t *testing.T, name string) int {
	t.Helper()
	return readPID(t, filepath.Join(e.pids, name+".pid"))
}

// failure asserts that err is a *ToolFailure with the given code and
// message, and that its details are the failure envelope.
func failure(t *testing.T, err error, code, message string) *ToolFailure {
	t.Helper()
	var f *ToolFailure
	if !errors.As(err, &f) {
		t.Fatalf("error %v (%T) is not a *ToolFailure", err, err)
	}
	if f.Code != code || f.Message != message {
		t.Errorf("failure = %s: %s\n want %s: %s", f.Code, f.Message, code, message)
	}
	if err.Error() != code+": "+message {
		t.Errorf("Error() = %q", err.Error())
	}
	var d interface{ ErrorDetails() any }
	if !errors.As(err, &d) {
		t.Fatal("error has no ErrorDetails")
	}
	want := map[string]any{
		"tool_success": false, "error": message, "error_code": code,
		"exit_code": f.ExitCode, "stdout": f.Stdout, "stderr": f.Stderr,
	}
	if got := d.ErrorDetails(); !reflect.DeepEqual(got, want) {
		t.Errorf("ErrorDetails = %#v\nwant %#v", got, want)
	}
	if _, err := json.Marshal(d.ErrorDetails()); err != nil {
		t.Errorf("details are not JSON: %v", err)
	}
	return f
}

func call(t *testing.T, tool registry.Tool, params map[string]any) (registry.Result, error) {
	t.Helper()
	return tool.Execute(context.Background(), registry.Call{ID: "call_1", Params: params})
}

func TestExecuteSuccess(t *testing.T) {
	e := newExecEnv(t, Options{})
	tests := []struct {
		tool     string
		params   map[string]any
		envelope string
		details  any
	}{
		{"word_count", map[string]any{"text": "one two  three"}, `{"tool_success":true,"result":{"words":3}}`, map[string]any{"words": 3.0}},
		{"echo", map[string]any{"s": "x\ny", "n": 1.5, "list": []any{true, nil}}, `{"tool_success":true,"result":{"list":[true,null],"n":1.5,"s":"x\ny"}}`,
			map[string]any{"s": "x\ny", "n": 1.5, "list": []any{true, nil}}},
		{"echo", nil, `{"tool_success":true,"result":{}}`, map[string]any{}},
		{"null", nil, `{"tool_success":true,"result":null}`, json.RawMessage("null")},
		{"multiline", nil, `{"tool_success":true,"result":{"a":[1,2]}}`, map[string]any{"a": []any{1.0, 2.0}}},
		{"no_stdin", map[string]any{"big": strings.Repeat("x", 1<<20)}, `{"tool_success":true,"result":{"ignored":true}}`, map[string]any{"ignored": true}},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := call(t, e.tool(t, tc.tool), tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != 1 || res.Content[0].Type != "text" || res.Content[0].Text != tc.envelope {
				t.Errorf("content = %+v, want the envelope %s", res.Content, tc.envelope)
			}
			if !reflect.DeepEqual(res.Details, tc.details) {
				t.Errorf("details = %#v, want %#v", res.Details, tc.details)
			}
		})
	}
	t.Run("background child does not hold the call", func(t *testing.T) {
		start := time.Now()
		res, err := call(t, e.tool(t, "background"), nil)
		if err != nil || res.Text() != `{"tool_success":true,"result":{"ok":true}}` {
			t.Fatalf("background = %+v, %v", res, err)
		}
		// The background sleep lasts 300 s: a call it held would not
		// return within a bound this loose, which a loaded machine does
		// not reach either.
		if elapsed := time.Since(start); elapsed > 30*time.Second {
			t.Errorf("call took %v", elapsed)
		}
		assertGroupGone(t, e.pid(t, "background"))
	})
}

func TestExecuteFailures(t *testing.T) {
	e := newExecEnv(t, Options{MaxOutputBytes: 64 << 10, MaxStderrBytes: 4 << 10})

	t.Run("crash", func(t *testing.T) {
		_, err := call(t, e.tool(t, "crash"), nil)
		f := failure(t, err, CodeCrashed, "crash exited with status 3: boom: the input was bad")
		if f.ExitCode != 3 || f.Stdout != "partial output\n" || f.Stderr != "boom: the input was bad\n" || f.Tool != "crash" {
			t.Errorf("failure = %+v", f)
		}
	})
	t.Run("crash without stderr", func(t *testing.T) {
		_, err := call(t, e.tool(t, "crash_quiet"), nil)
		if f := failure(t, err, CodeCrashed, "crash_quiet exited with status 4 and printed nothing on stderr"); f.ExitCode != 4 {
			t.Errorf("exit code %d", f.ExitCode)
		}
	})
	t.Run("killed by a signal", func(t *testing.T) {
		_, err := call(t, e.tool(t, "segv"), nil)
		if f := failure(t, err, CodeCrashed, "segv was killed by signal 11 (segmentation fault) and printed nothing on stderr"); f.ExitCode != 139 {
			t.Errorf("exit code %d", f.ExitCode)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		_, err := call(t, e.tool(t, "not_json"), nil)
		f := failure(t, err, CodeInvalidOutput, `not_json printed output that is not JSON: "hello world" (invalid character 'h' looking for beginning of value)`)
		if f.ExitCode != 0 || f.Stdout != "hello world\n" {
			t.Errorf("failure = %+v", f)
		}
	})
	t.Run("two JSON values", func(t *testing.T) {
		_, err := call(t, e.tool(t, "two_values"), nil)
		failure(t, err, CodeInvalidOutput, `two_values printed output that is not JSON: "{} {}" (invalid character '{' after top-level value)`)
	})
	t.Run("no output", func(t *testing.T) {
		_, err := call(t, e.tool(t, "empty"), nil)
		failure(t, err, CodeInvalidOutput, "empty printed nothing on stdout; a tool must print one JSON value")
	})
	t.Run("timeout", func(t *testing.T) {
		// The other calls have the default timeout, so that none of them
		// times out on a loaded machine; the sleeper never finishes, and
		// has 2 s to print on stderr before it is killed.
		e := newExecEnv(t, Options{CallTimeout: 2 * time.Second, MaxStderrBytes: 4 << 10})
		start := time.Now()
		_, err := call(t, e.tool(t, "sleeper"), nil)
		elapsed := time.Since(start)
		f := failure(t, err, CodeTimeout, "sleeper did not finish within 2s; it was killed with its process group; stderr: starting")
		if f.ExitCode != -1 || f.Stderr != "starting\n" {
			t.Errorf("failure = %+v", f)
		}
		if elapsed > 30*time.Second { // the sleeps last 300 s
			t.Errorf("timed-out call returned after %v", elapsed)
		}
		assertGroupGone(t, e.pid(t, "sleeper"))
	})
	t.Run("stdout over the cap", func(t *testing.T) {
		// A long timeout, so that only the cap can stop it in time.
		e := newExecEnv(t, Options{CallTimeout: time.Minute, MaxOutputBytes: 64 << 10})
		start := time.Now()
		_, err := call(t, e.tool(t, "flood"), nil)
		f := failure(t, err, CodeInvalidOutput, "flood printed more than 64 KiB on stdout and was stopped; a tool must print one JSON value of at most that size")
		if time.Since(start) > 30*time.Second { // half the call's timeout
			t.Errorf("flood was stopped after %v, not as soon as it went over the cap", time.Since(start))
		}
		if len(f.Stdout) != 64<<10 || f.ExitCode != -1 {
			t.Errorf("stdout kept %d bytes, exit code %d", len(f.Stdout), f.ExitCode)
		}
		assertGroupGone(t, e.pid(t, "flood"))
	})
	t.Run("stderr keeps its tail", func(t *testing.T) {
		_, err := call(t, e.tool(t, "big_stderr"), nil)
		var f *ToolFailure
		if !errors.As(err, &f) {
			t.Fatal(err)
		}
		if len(f.Stderr) != 4<<10 || !strings.HasSuffix(f.Stderr, "eeethe end\n") {
			t.Errorf("stderr kept %d bytes ending %q", len(f.Stderr), f.Stderr[max(0, len(f.Stderr)-20):])
		}
		if !strings.HasPrefix(f.Message, "big_stderr exited with status 3: …eee") || !strings.HasSuffix(f.Message, "eeethe end") || len(f.Message) > 2200 {
			t.Errorf("message = %.80q… (%d bytes)", f.Message, len(f.Message))
		}
	})
	t.Run("executable vanished", func(t *testing.T) {
		tool := e.tool(t, "echo")
		if err := os.Remove(tool.Source); err != nil {
			t.Fatal(err)
		}
		_, err := call(t, tool, nil)
		if f := failure(t, err, CodeNotFound, "echo: its executable "+tool.Source+" no longer exists"); f.ExitCode != -1 {
			t.Errorf("exit code %d", f.ExitCode)
		}
	})
}

func TestExecuteCancel(t *testing.T) {
	e := newExecEnv(t, Options{})
	t.Run("cancel kills the process group", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		start := time.Now()
		go func() {
			_, err := e.tool(t, "sleeper").Execute(ctx, registry.Call{})
			done <- err
		}()
		pgid := e.pid(t, "sleeper")
		cancel()
		err := <-done
		if !errors.Is(err, context.Canceled) || errors.As(err, new(*ToolFailure)) {
			t.Errorf("err = %v, want a cancellation", err)
		}
		if err != nil && err.Error() != "sleeper: cancelled (context canceled); it was killed with its process group" {
			t.Errorf("message = %q", err)
		}
		if elapsed := time.Since(start); elapsed > 30*time.Second { // the sleeps last 300 s
			t.Errorf("cancelled call returned after %v", elapsed)
		}
		assertGroupGone(t, pgid)
	})
	t.Run("done context is refused", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.tool(t, "word_count").Execute(ctx, registry.Call{Params: map[string]any{"text": "a"}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("parent deadline is a cancellation, not a tool timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := e.tool(t, "sleeper").Execute(ctx, registry.Call{})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v", err)
		}
	})
}

// TestConcurrentCallTool registers the discovered tools and calls them from
// many goroutines at once (run with -race).
func TestConcurrentCallTool(t *testing.T) {
	e := newExecEnv(t, Options{})
	reg := registry.New()
	for _, tool := range e.tools {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 48 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%4 == 3 {
				res, err := reg.CallTool(context.Background(), "crash", nil, registry.CallOptions{})
				if err != nil || !res.IsError || !strings.HasPrefix(res.Text(), "TOOL_CRASHED: crash exited with status 3") {
					errs <- fmt.Errorf("crash call %d = %+v, %v", i, res, err)
				}
				return
			}
			text := strings.TrimSpace(strings.Repeat("w ", i))
			res, err := reg.CallTool(context.Background(), "word_count", map[string]any{"text": text}, registry.CallOptions{})
			want := fmt.Sprintf(`{"tool_success":true,"result":{"words":%d}}`, i)
			if err != nil || res.IsError || res.Text() != want || !reflect.DeepEqual(res.Details, map[string]any{"words": float64(i)}) {
				errs <- fmt.Errorf("word_count call %d = %+v, %v", i, res, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The tools' definitions are unchanged by the calls.
	for _, info := range reg.Tools() {
		if info.Source != filepath.Join(e.dir, info.Name) {
			t.Errorf("%s source = %s", info.Name, info.Source)
		}
	}
}

func TestDurationString(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second: "1s", 30 * time.Second: "30s", 90 * time.Second: "90s",
		1500 * time.Millisecond: "1.5s", 250 * time.Millisecond: "250ms",
	} {
		if got := durationString(d); got != want {
			t.Errorf("durationString(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestExecuteKillsEscapes checks that a process the tool started that left
// its process group and cleared its environment is killed and reaped when
// the call returns, whether it holds the tool's stdout or nothing at all.
func TestExecuteKillsEscapes(t *testing.T) {
	if runtime.GOOS != "linux" || !proctest.Supported() {
		t.Skip("needs Linux's child subreaper")
	}
	for _, name := range []string{"setsid", "env", "sleep", "grep"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Skip("no " + name)
		}
	}
	dir := t.TempDir()
	tokens := map[string]string{}
	for name, redirect := range map[string]string{"escape_holding_stdout": "", "escape_holding_nothing": " >/dev/null 2>&1 </dev/null"} {
		// The unique duration shows in the command line of sleep, which
		// env -i cannot take off; the tool answers once sleep runs.
		n := time.Now().UnixNano()
		tokens[name] = fmt.Sprintf("300.%d", n)
		body := fmt.Sprintf(`setsid env -i sleep 300.%d%s &
until grep -qs "300\.%d" /proc/[0-9]*/cmdline; do sleep 0.01; done
echo '{"ok": true}'`, n, redirect, n)
		writeExec(t, dir, name, toolScript(schemaFor(name), body))
	}
	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{})
	if err != nil || len(warnings) != 0 || len(tools) != len(tokens) {
		t.Fatalf("Discover = %v, %v, %v", toolNames(tools), warnings, err)
	}
	for name, token := range tokens {
		t.Run(name, func(t *testing.T) {
			res, err := call(t, findTool(t, tools, name), nil)
			if err != nil || res.Text() != `{"tool_success":true,"result":{"ok":true}}` {
				t.Fatalf("%s = %+v, %v", name, res, err)
			}
			// Killed and reaped: not even a zombie child of this process.
			for deadline := time.Now().Add(liveness); ; time.Sleep(20 * time.Millisecond) {
				left := proctest.Where(func(p proctest.Proc) bool {
					return strings.Contains(p.Cmdline, token) || (p.PPID == os.Getpid() && !p.Live())
				})
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("left after the call returned: %+v", left)
				}
			}
		})
	}
}
