package codeexec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
)

// TestPromptHeaderFacts checks what the prompt's header says of failed
// calls and callTool against what a snippet gets, with the built-in tools:
// a ToolError's message, tool and details, and callTool's content blocks.
func TestPromptHeaderFacts(t *testing.T) {
	t.Parallel()
	reg := builtinRegistry(t, false)
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	header := promptgen.Render(nil, promptgen.Options{})
	tests := []struct {
		says, src, value string
	}{
		{`Error named "ToolError" whose message is the tool's error text (a built-in tool's starts with its name, "read: …"), with ` + "`e.tool`" + ` (the name) and ` + "`e.details`" + ` (the tool's data)`,
			`try { await read("nope") } catch (e: any) { return [e.name, e.message.startsWith("read: "), e.tool, typeof e.details] }`, `["ToolError",true,"read","object"]`},
		{"content is a list of blocks such as `{type: \"text\", text}` (no text key when the text is empty)",
			`const a = await callTool("bash", { command: "true" }), b = await callTool("bash", { command: "echo hi" }); return [a.content, b.content]`, `[[{"type":"text"}],[{"type":"text","text":"hi\n"}]]`},
		{"Intl (Collator, DateTimeFormat, DisplayNames, ListFormat, NumberFormat, PluralRules, RelativeTimeFormat, Segmenter)",
			`return ["Collator", "DateTimeFormat", "DisplayNames", "ListFormat", "NumberFormat", "PluralRules", "RelativeTimeFormat", "Segmenter"].filter((c) => typeof (Intl as any)[c] !== "function")`, `[]`},
		{promptgen.NewerBuiltins + "; `Array.fromAsync` does not",
			`const a: any = [], s: any = new Set(); return [a.toSorted, a.toReversed, a.toSpliced, a.with, a.findLast, a.findLastIndex, (Object as any).groupBy, (Map as any).groupBy, (Promise as any).withResolvers, ("" as any).isWellFormed, s.union, s.intersection, s.difference].map((f) => typeof f).concat(typeof (Array as any).fromAsync)`,
			`["function","function","function","function","function","function","function","function","function","function","function","function","function","undefined"]`},
		{"even when the tool fails", `const r = await callTool("read", { path: "nope" }); return [r.isError, r.content[0].text.startsWith("read: ")]`, `[true,true]`},
	}
	for _, tt := range tests {
		if !strings.Contains(header, tt.says) {
			t.Errorf("the header does not say %q", tt.says)
		}
		res := r.Run(context.Background(), tt.src, codeexec.RunOptions{})
		if res.Error != nil || string(res.Value) != tt.value {
			t.Errorf("%s: %s %v, want %s", tt.src, res.Value, res.Error, tt.value)
		}
	}
}

// TestPromptSize checks that the prompt block of the built-in tools, with
// the limits stated, stays within 2,500 tokens (promptgen counts a token
// as four characters), as the CLI's default prompt is.
func TestPromptSize(t *testing.T) {
	t.Parallel()
	reg := builtinRegistry(t, true)
	block := promptgen.Render(reg.Tools(), promptgen.Options{Limits: &promptgen.Limits{Timeout: codeexec.DefaultTimeout, MaxCalls: codeexec.DefaultMaxCalls, MaxOutputBytes: codeexec.DefaultMaxOutputBytes}})
	if tokens := len(block) / 4; tokens > 2500 {
		t.Errorf("the built-in tools' prompt block is %d tokens, over 2,500", tokens)
	}
}

// builtinRegistry returns a registry of the built-in tools over a new
// root, with the planning tools when planning is set, closed when t ends.
func builtinRegistry(t *testing.T, planning bool) *registry.Registry {
	t.Helper()
	ts, err := builtin.Open(builtin.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	tools := ts.Tools()
	if planning {
		tools = append(tools, builtin.PlanningTools(&builtin.Session{})...)
	}
	reg := registry.New()
	for _, tool := range tools {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}
