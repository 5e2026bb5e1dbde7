package external

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/registry"
)

// toolNames returns the names of tools in order.
func toolNames(tools []registry.Tool) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

// findTool returns the tool called name.
func findTool(t *testing.T, tools []registry.Tool, name string) registry.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q among %v", name, toolNames(tools))
	return registry.Tool{}
}

// warningFor returns the warnings about path.
func warningsFor(ws []Warning, path string) []Warning {
	var out []Warning
	for _, w := range ws {
		if w.Path == path {
			out = append(out, w)
		}
	}
	return out
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()

	good := writeExec(t, dir, "wc", toolScript(wordCountSchema, wordCountBody))
	hyphen := writeExec(t, dir, "file-read", toolScript(
		`{"name": "file_read", "label": "Read a file", "description": "Read a file.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}, "callSignature": "async function fileRead(path: string): Promise<any>"}`,
		`cat`))
	linkTarget := writeExec(t, outside, "target", toolScript(schemaFor("linked_tool"), `cat`))
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(linkTarget, link); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken")
	if err := os.Symlink(filepath.Join(outside, "missing"), broken); err != nil {
		t.Fatal(err)
	}
	// Not tools, ignored without a warning.
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeExec(t, dir, ".hidden", toolScript(schemaFor("hidden"), `cat`))
	writeExec(t, dir, "subdir/nested", toolScript(schemaFor("nested"), `cat`))

	skipped := map[string]string{ // file -> reason (substring)
		"badjson":    `--schema printed invalid JSON: "{\"name\": \"x\",`,
		"crash":      "--schema exited with status 3: something went wrong",
		"killed":     "--schema was killed by signal 9 (killed)",
		"empty":      "--schema printed nothing",
		"array":      "--schema printed a JSON array; it must print an object with name, description and parameters",
		"noname":     `invalid definition: "name" is missing`,
		"numname":    `invalid definition: "name" must be a string, got a JSON number`,
		"badname":    `invalid definition: register tool "Bad Name": invalid name: must match ^[a-z0-9_-]{1,64}$`,
		"nodesc":     `invalid definition: "description" must not be empty`,
		"noparams":   `invalid definition: "parameters" is missing`,
		"strparams":  `invalid definition: "parameters" must be a JSON Schema object, got a JSON string`,
		"typeparams": `invalid definition: register tool "typeparams": parameters schema must have "type": "object", got "string"`,
		"badsig":     `invalid definition: register tool "badsig": call signature: column 10: expected function name but found "("`,
		"evalsig":    `invalid definition: register tool "evalsig": call signature: function name "eval" would shadow a JavaScript or sandbox global`,
		"badreturns": `invalid definition: "returns" must be a JSON Schema object, got a JSON array`,
		"mismatch": `invalid definition: register tool "mismatch": call signature does not match the parameters schema: ` +
			`parameter "q" of mismatch() is neither a property of the parameters schema (its properties: "query") nor typed as an object whose members are properties (its type is string)`,
		"noshebang": "cannot be run: exec format error (a script needs a #! line)",
		"badinterp": "cannot be run: no such file or directory (is the interpreter in its #! line installed?)",
	}
	writeExec(t, dir, "badjson", "#!/bin/sh\necho '{\"name\": \"x\",'\n")
	writeExec(t, dir, "crash", "#!/bin/sh\necho 'something went wrong' >&2\nexit 3\n")
	writeExec(t, dir, "killed", "#!/bin/sh\nkill -9 $$\n")
	writeExec(t, dir, "empty", "#!/bin/sh\nexit 0\n")
	writeExec(t, dir, "array", "#!/bin/sh\necho '[1, 2]'\n")
	writeExec(t, dir, "noname", toolScript(`{"description": "d", "parameters": {"type": "object"}}`, ""))
	writeExec(t, dir, "numname", toolScript(`{"name": 5, "description": "d", "parameters": {"type": "object"}}`, ""))
	writeExec(t, dir, "badname", toolScript(`{"name": "Bad Name", "description": "d", "parameters": {"type": "object"}}`, ""))
	writeExec(t, dir, "nodesc", toolScript(`{"name": "nodesc", "description": "  ", "parameters": {"type": "object"}}`, ""))
	writeExec(t, dir, "noparams", toolScript(`{"name": "noparams", "description": "d"}`, ""))
	writeExec(t, dir, "strparams", toolScript(`{"name": "strparams", "description": "d", "parameters": "object"}`, ""))
	writeExec(t, dir, "typeparams", toolScript(`{"name": "typeparams", "description": "d", "parameters": {"type": "string"}}`, ""))
	writeExec(t, dir, "badsig", toolScript(`{"name": "badsig", "description": "d", "parameters": {"type": "object"}, "callSignature": "function ("}`, ""))
	writeExec(t, dir, "evalsig", toolScript(`{"name": "evalsig", "description": "d", "parameters": {"type": "object"}, "callSignature": "async function eval(): Promise<any>"}`, ""))
	writeExec(t, dir, "mismatch", toolScript(`{"name": "mismatch", "description": "d", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}, "callSignature": "async function mismatch(q: string): Promise<any>"}`, ""))
	writeExec(t, dir, "badreturns", toolScript(`{"name": "badreturns", "description": "d", "parameters": {"type": "object"}, "returns": []}`, ""))
	writeExec(t, dir, "noshebang", "echo hi\n")
	writeExec(t, dir, "badinterp", "#!/nonexistent/interpreter\n")

	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}

	if got, want := toolNames(tools), []string{"file_read", "linked_tool", "word_count"}; !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	wc := findTool(t, tools, "word_count")
	if wc.Source != good || wc.Description != "Count the words in a text." {
		t.Errorf("word_count = %+v", wc)
	}
	if want := `async function word_count(params: { text: string }): Promise<{ words: number }>`; wc.CallSignature != want {
		t.Errorf("generated signature = %s, want %s", wc.CallSignature, want)
	}
	fr := findTool(t, tools, "file_read")
	if fr.Source != hyphen || fr.Label != "Read a file" || fr.CallSignature != "async function fileRead(path: string): Promise<any>" {
		t.Errorf("file_read = %+v", fr)
	}
	if lt := findTool(t, tools, "linked_tool"); lt.Source != link {
		t.Errorf("linked_tool source = %s, want the link %s", lt.Source, link)
	}

	if ws := warningsFor(warnings, broken); len(ws) != 1 || ws[0].Kind != KindSkipped || ws[0].Reason != "broken symbolic link" {
		t.Errorf("broken link warnings = %+v", ws)
	}
	for file, reason := range skipped {
		path := filepath.Join(dir, file)
		ws := warningsFor(warnings, path)
		if len(ws) != 1 || ws[0].Kind != KindSkipped || !strings.Contains(ws[0].Reason, reason) {
			t.Errorf("warnings for %s = %+v, want one skipped warning containing %q", file, ws, reason)
		}
	}
	if want := len(skipped) + 1; len(warnings) != want {
		for _, w := range warnings {
			t.Logf("warning: %s (%v)", w, w.Kind)
		}
		t.Errorf("got %d warnings, want %d", len(warnings), want)
	}
	// Every returned tool registers.
	reg := registry.New()
	for _, tool := range tools {
		if err := reg.Register(tool); err != nil {
			t.Errorf("register %s: %v", tool.Name, err)
		}
	}
}

// TestDiscoverSchemaTimeout checks that a tool whose --schema run does not
// finish within SchemaTimeout is skipped with a warning that says so, and
// that its process group is killed. The directory holds nothing else, so
// that nothing has to finish within the short limit on a loaded machine.
func TestDiscoverSchemaTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hangPID := filepath.Join(t.TempDir(), "hang.pid")
	hang := writeExec(t, dir, "hang", "#!/bin/sh\necho $$ > "+hangPID+"\nsleep 300 &\nsleep 300\n")
	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{SchemaTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{Kind: KindSkipped, Path: hang, Reason: "--schema did not finish within 100ms", TimedOut: true}}
	if len(tools) != 0 || !slices.Equal(warnings, want) {
		t.Errorf("Discover = %v, %+v; want no tool and %+v", tools, warnings, want)
	}
	assertGroupGone(t, readPID(t, hangPID))
}

// TestDiscoverParallel checks that Parallelism probes run at once: each of
// 8 probes waits until all 8 have started before it answers, which only
// probes that run in parallel can do within the (liveness) schema timeout.
func TestDiscoverParallel(t *testing.T) {
	t.Parallel()
	dir, started := t.TempDir(), t.TempDir()
	barrier := fmt.Sprintf("touch %s/$$\nwhile [ $(ls %s | wc -l) -lt 8 ]; do sleep 0.01; done\n", started, started)
	for i := range 8 {
		name := fmt.Sprintf("slow_%d", i)
		writeExec(t, dir, name, "#!/bin/sh\n"+barrier+strings.TrimPrefix(toolScript(schemaFor(name), "cat"), "#!/bin/sh\n"))
	}
	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{Parallelism: 8, SchemaTimeout: liveness})
	if err != nil || len(warnings) != 0 || len(tools) != 8 {
		t.Fatalf("Discover = %d tools, %v, %v", len(tools), warnings, err)
	}
}

func TestDiscoverDirectories(t *testing.T) {
	system, user, project := t.TempDir(), t.TempDir(), t.TempDir()
	sysWC := writeExec(t, system, "wc", toolScript(strings.Replace(wordCountSchema, "Count the words", "System: count the words", 1), wordCountBody))
	projWC := writeExec(t, project, "word-count-v2", toolScript(strings.Replace(wordCountSchema, "Count the words", "Project: count the words", 1), wordCountBody))
	writeExec(t, system, "only", toolScript(schemaFor("system_only"), "cat"))
	userTool := writeExec(t, user, "other", toolScript(schemaFor("user_tool"), "cat"))
	sysKeep := writeExec(t, system, "keep", toolScript(schemaFor("keep_tool"), "cat"))
	projKeep := writeExec(t, project, "keep", toolScript(`{"name": "keep_tool", "description": "", "parameters": {"type": "object"}}`, "cat"))
	dupA := writeExec(t, user, "dup-a", toolScript(strings.Replace(schemaFor("dup_tool"), "Test tool", "First", 1), "cat"))
	dupB := writeExec(t, user, "dup-b", toolScript(strings.Replace(schemaFor("dup_tool"), "Test tool", "Second", 1), "cat"))
	missing := filepath.Join(t.TempDir(), "does-not-exist")

	tools, warnings, err := Discover(context.Background(), []string{system, missing, user, project}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(tools), []string{"dup_tool", "keep_tool", "system_only", "user_tool", "word_count"}; !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	if wc := findTool(t, tools, "word_count"); wc.Source != projWC || !strings.HasPrefix(wc.Description, "Project:") {
		t.Errorf("word_count comes from %s (%q), want the project's %s", wc.Source, wc.Description, projWC)
	}
	if keep := findTool(t, tools, "keep_tool"); keep.Source != sysKeep {
		t.Errorf("keep_tool comes from %s; the project's invalid override must not replace the system tool", keep.Source)
	}
	if dup := findTool(t, tools, "dup_tool"); dup.Source != dupA || !strings.HasPrefix(dup.Description, "First") {
		t.Errorf("dup_tool comes from %s, want the first in sorted order %s", dup.Source, dupA)
	}
	if ut := findTool(t, tools, "user_tool"); ut.Source != userTool {
		t.Errorf("user_tool source %s", ut.Source)
	}

	want := []Warning{
		{Kind: KindMissingDir, Path: missing, Reason: "tools directory does not exist"},
		{Kind: KindDuplicate, Path: dupB, Tool: "dup_tool", Reason: "tool dup_tool is already defined by " + dupA + " in the same directory; this file is ignored"},
		{Kind: KindSkipped, Path: projKeep, Reason: `invalid definition: "description" must not be empty`},
		{Kind: KindOverridden, Path: sysWC, Tool: "word_count", Reason: "tool word_count is overridden by " + projWC},
	}
	if !slices.Equal(warnings, want) {
		t.Errorf("warnings:\n%+v\nwant\n%+v", warnings, want)
	}

	t.Run("not a directory", func(t *testing.T) {
		_, _, err := Discover(context.Background(), []string{system, sysWC}, Options{})
		if err == nil || err.Error() != "tools directory "+sysWC+" is not a directory" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("no directories", func(t *testing.T) {
		tools, warnings, err := Discover(context.Background(), nil, Options{})
		if err != nil || len(tools) != 0 || len(warnings) != 0 {
			t.Errorf("Discover(nil) = %v, %v, %v", tools, warnings, err)
		}
	})
	t.Run("negative option", func(t *testing.T) {
		if _, _, err := Discover(context.Background(), nil, Options{CallTimeout: -1}); err == nil {
			t.Error("negative CallTimeout accepted")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := Discover(ctx, []string{system}, Options{}); err == nil || !strings.Contains(err.Error(), "context canceled") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled while probing", func(t *testing.T) {
		dir := t.TempDir()
		pidFile := filepath.Join(t.TempDir(), "pid")
		writeExec(t, dir, "hang", "#!/bin/sh\necho $$ > "+pidFile+"\nsleep 300\n")
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			defer cancel()
			for deadline := time.Now().Add(liveness); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
					return
				}
			}
		}()
		start := time.Now()
		_, _, err := Discover(ctx, []string{dir}, Options{SchemaTimeout: time.Minute})
		// The schema timeout is a minute and the sleep 300 s: only the
		// cancellation ends the discovery within half a minute.
		if err == nil || !strings.Contains(err.Error(), "context canceled") || time.Since(start) > 30*time.Second {
			t.Errorf("err = %v after %v", err, time.Since(start))
		}
		assertGroupGone(t, readPID(t, pidFile))
	})
}

func TestDiscoverSignatures(t *testing.T) {
	dir := t.TempDir()
	// Both are called word_count; the tool named so keeps the function.
	clash := writeExec(t, dir, "a", toolScript(schemaFor("word-count"), "cat"))
	owner := writeExec(t, dir, "b", toolScript(schemaFor("word_count"), "cat"))
	writeExec(t, dir, "c", toolScript(`{"name": "shout", "description": "d", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}, "returns": {"type": "string"}}`, "cat"))
	strSig := writeExec(t, dir, "d", toolScript(`{"name": "stringy", "description": "d", "parameters": {"type": "object"}, "callSignature": "async function stringy(): Promise<string>"}`, "cat"))
	writeExec(t, dir, "e", toolScript(`{"name": "delete", "description": "d", "parameters": {"type": "object", "properties": {"params": {"type": "string"}}}}`, "cat"))
	// Both are called x_y_z and neither is named so: the first in name order keeps it.
	firstXYZ := writeExec(t, dir, "f", toolScript(schemaFor("x-y_z"), "cat"))
	secondXYZ := writeExec(t, dir, "g", toolScript(schemaFor("x_y-z"), "cat"))
	// A shipped signature that takes another tool's function name.
	taker := writeExec(t, dir, "h", toolScript(`{"name": "loud", "description": "d", "parameters": {"type": "object"}, "callSignature": "async function shout(): Promise<any>"}`, "cat"))

	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sigs := map[string]string{}
	for _, tool := range tools {
		sigs[tool.Name] = tool.CallSignature
	}
	want := map[string]string{
		"word_count": "async function word_count(params?: Record<string, unknown>): Promise<any>",
		"shout":      "async function shout(params?: { text?: string }): Promise<any>",
		"stringy":    "async function stringy(): Promise<string>",
		"delete":     "async function delete_(args?: { params?: string }): Promise<any>",
		"x-y_z":      "async function x_y_z(params?: Record<string, unknown>): Promise<any>",
	}
	if !maps.Equal(sigs, want) {
		t.Errorf("signatures = %v\nwant %v", sigs, want)
	}
	leftOut := []struct{ path, reason string }{
		{clash, "tool word-count is left out: its function name word_count is already used by tool word_count (" + owner +
			"); rename it, or give it a callSignature with another function name"},
		{taker, "tool loud is left out: its function name shout is already used by tool shout"},
		{secondXYZ, "tool x_y-z is left out: its function name x_y_z is already used by tool x-y_z (" + firstXYZ + ")"},
	}
	for _, lo := range leftOut {
		if ws := warningsFor(warnings, lo.path); len(ws) != 1 || ws[0].Kind != KindSkipped || !strings.HasPrefix(ws[0].Reason, lo.reason) {
			t.Errorf("warnings for %s = %+v, want one skipped: %s", lo.path, ws, lo.reason)
		}
	}
	if ws := warningsFor(warnings, strSig); len(ws) != 1 || ws[0].Kind != KindSignature || !strings.Contains(ws[0].Reason, "returns Promise<string>") {
		t.Errorf("Promise<string> warnings = %+v", ws)
	}
	if len(warnings) != 4 {
		t.Errorf("warnings = %+v", warnings)
	}
	reg := registry.New()
	for _, tool := range tools {
		if err := reg.Register(tool); err != nil {
			t.Errorf("register %s: %v", tool.Name, err)
		}
	}
}

func TestWarningString(t *testing.T) {
	w := Warning{Kind: KindSkipped, Path: "/t/x", Reason: "--schema printed nothing"}
	if got := w.String(); got != "/t/x: --schema printed nothing" {
		t.Errorf("String = %q", got)
	}
	for k, want := range map[WarningKind]string{KindSkipped: "skipped", KindOverridden: "overridden", KindMissingDir: "missing directory", 99: "WarningKind(99)"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(k), got, want)
		}
	}
}

// TestDiscoverExamples checks the "examples" of a --schema definition: kept
// when they fit the schema and the return type, the tool skipped with the
// registry's reason otherwise.
func TestDiscoverExamples(t *testing.T) {
	dir := t.TempDir()
	const params = `"parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}, "returns": {"type": "object", "properties": {"words": {"type": "number"}}, "required": ["words"]}`
	writeExec(t, dir, "good", toolScript(`{"name": "count", "description": "d", `+params+`, "examples": [{"description": "Three words", "input": {"text": "a b c"}, "output": {"words": 3}}]}`, "cat"))
	bad := writeExec(t, dir, "bad", toolScript(`{"name": "count2", "description": "d", `+params+`, "examples": [{"description": "Wrong output", "input": {"text": "a"}, "output": {"words": "one"}}]}`, "cat"))
	odd := writeExec(t, dir, "odd", toolScript(`{"name": "count3", "description": "d", `+params+`, "examples": {"description": "not a list"}}`, "cat"))
	tools, warnings, err := Discover(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "count" || len(tools[0].Examples) != 1 || tools[0].Examples[0].Description != "Three words" {
		t.Fatalf("tools = %+v", tools)
	}
	for path, want := range map[string]string{
		bad: `example 1 ("Wrong output"): the output does not fit the return type { words: number }: output.words is string, want number`,
		odd: `"examples" must be an array of {"description", "input", "output"} objects, got a JSON object`,
	} {
		if ws := warningsFor(warnings, path); len(ws) != 1 || ws[0].Kind != KindSkipped || !strings.Contains(ws[0].Reason, want) {
			t.Errorf("warnings for %s = %+v, want one skipped containing %q", path, ws, want)
		}
	}
}

// TestDiscoverSkipsDeepSchema: a tool whose parameters schema nests
// deeper than the registry allows is skipped with a warning saying so, and
// the other tools are kept.
func TestDiscoverSkipsDeepSchema(t *testing.T) {
	tests := []struct {
		name   string
		levels int
		want   string // the warning's reason, "" when the tool is kept
	}{
		{"at the bound", registry.MaxSchemaDepth, ""},
		{"past the bound", 101, `invalid definition: register tool "deep_tool": parameters schema is nested 101 levels deep, more than the 64 allowed (each object or array is a level)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			// levels-1 objects nest inside the parameters through "a" (1, 3, 5, ...
			// levels), and an empty properties map makes an even count.
			schema, depth := `{"type": "object"}`, 1
			if tt.levels%2 == 0 {
				schema, depth = `{"type": "object", "properties": {}}`, 2
			}
			for ; depth < tt.levels; depth += 2 {
				schema = `{"type": "object", "properties": {"a": ` + schema + `}}`
			}
			deep := writeExec(t, dir, "deep", toolScript(`{"name": "deep_tool", "description": "Deep.", "parameters": `+schema+`}`, `cat`))
			writeExec(t, dir, "ok", toolScript(schemaFor("ok_tool"), `cat`))
			tools, warnings, err := Discover(context.Background(), []string{dir}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantTools := []string{"deep_tool", "ok_tool"}
			var wantWarnings []Warning
			if tt.want != "" {
				wantTools = []string{"ok_tool"}
				wantWarnings = []Warning{{Kind: KindSkipped, Path: deep, Reason: tt.want}}
			}
			if got := toolNames(tools); !slices.Equal(got, wantTools) {
				t.Errorf("tools = %v, want %v", got, wantTools)
			}
			if !slices.Equal(warnings, wantWarnings) {
				t.Errorf("warnings:\n%+v\nwant\n%+v", warnings, wantWarnings)
			}
		})
	}
}
