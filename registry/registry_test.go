package registry_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// ---------------------------------------------------------------------------
// helpers

const pathSchema = `{
	"type": "object",
	"properties": {"path": {"type": "string"}},
	"required": ["path"]
}`

// readSchema fits the signature of read(path, options?: {offset, limit}).
const readSchema = `{
	"type": "object",
	"properties": {"path": {"type": "string"}, "offset": {"type": "integer"}, "limit": {"type": "integer"}},
	"required": ["path"]
}`

// xySchema fits the signatures of b in TestOverride: bFn(x?: string),
// bFn(x: string, y?: number), bNew(y: number).
const xySchema = `{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"number"}}}`

// newB is newTool("b") with xySchema.
func newB() registry.Tool {
	b := newTool("b")
	b.Parameters = registry.MustParseSchema(xySchema)
	return b
}

// echoExec returns a text result naming the tool and its params.
func echoExec(label string) registry.ExecuteFunc {
	return func(ctx context.Context, call registry.Call) (registry.Result, error) {
		return registry.TextResult(label), nil
	}
}

func newTool(name string) registry.Tool {
	return registry.Tool{
		Name:        name,
		Label:       "Label " + name,
		Description: "Description of " + name,
		Parameters:  registry.MustParseSchema(`{"type":"object","properties":{}}`),
		Execute:     echoExec(name),
	}
}

func mustRegister(t *testing.T, r *registry.Registry, tools ...registry.Tool) {
	t.Helper()
	for _, tool := range tools {
		if err := r.Register(tool); err != nil {
			t.Fatalf("Register(%q): %v", tool.Name, err)
		}
	}
}

func names(infos []registry.Info) []string {
	out := make([]string, len(infos))
	for i, in := range infos {
		out[i] = in.Name
	}
	return out
}

// counter counts calls to a tool's Execute.
type counter struct{ n atomic.Int64 }

func (c *counter) exec(res registry.Result, err error) registry.ExecuteFunc {
	return func(ctx context.Context, call registry.Call) (registry.Result, error) {
		c.n.Add(1)
		return res, err
	}
}

// wantErrorResult checks that res is exactly the error result CallTool builds
// for msg: one text block, empty (non-nil) details map, IsError.
func wantErrorResult(t *testing.T, res registry.Result, msg string) {
	t.Helper()
	want := registry.Result{
		Content: []registry.Content{registry.TextContent(msg)},
		Details: map[string]any{},
		IsError: true,
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("result = %#v\nwant     %#v", res, want)
	}
}

// wantIsError checks the shape of an error result whose text is not known
// exactly and returns its text.
func wantIsError(t *testing.T, res registry.Result) string {
	t.Helper()
	if !res.IsError {
		t.Errorf("IsError = false, want true (result %#v)", res)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Errorf("Content = %#v, want one text block", res.Content)
	}
	if d, ok := res.Details.(map[string]any); !ok || d == nil || len(d) != 0 {
		t.Errorf("Details = %#v, want empty map[string]any{}", res.Details)
	}
	return res.Text()
}

func containsAll(t *testing.T, what, got string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(got, s) {
			t.Errorf("%s = %q, want it to contain %q", what, got, s)
		}
	}
}

// ---------------------------------------------------------------------------
// Register

func TestRegisterRejects(t *testing.T) {
	existing := newTool("existing")
	existing.CallSignature = "async function existingFn(): Promise<void>"

	tests := []struct {
		name   string
		modify func(*registry.Tool)
		want   []string // substrings of the error
		// sigErr: the error must wrap a *signature.SyntaxError
		sigErr bool
	}{
		{name: "uppercase name", modify: func(t *registry.Tool) { t.Name = "Read" }, want: []string{`"Read"`, "invalid name", "[a-z0-9_-]"}},
		{name: "space in name", modify: func(t *registry.Tool) { t.Name = "my tool" }, want: []string{`"my tool"`, "invalid name"}},
		{name: "empty name", modify: func(t *registry.Tool) { t.Name = "" }, want: []string{"invalid name"}},
		{name: "65 char name", modify: func(t *registry.Tool) { t.Name = strings.Repeat("a", 65) }, want: []string{"invalid name", "{1,64}"}},
		{name: "dot in name", modify: func(t *registry.Tool) { t.Name = "fs.read" }, want: []string{`"fs.read"`, "invalid name"}},
		{name: "slash in name", modify: func(t *registry.Tool) { t.Name = "fs/read" }, want: []string{"invalid name"}},
		{name: "trailing newline in name", modify: func(t *registry.Tool) { t.Name = "read\n" }, want: []string{"invalid name"}},
		{name: "non-ascii name", modify: func(t *registry.Tool) { t.Name = "réad" }, want: []string{"invalid name"}},
		{name: "empty description", modify: func(t *registry.Tool) { t.Description = "" }, want: []string{`"newtool"`, "description must not be empty"}},
		{name: "nil execute", modify: func(t *registry.Tool) { t.Execute = nil }, want: []string{`"newtool"`, "execute"}},
		{name: "nil parameters", modify: func(t *registry.Tool) { t.Parameters = nil }, want: []string{"parameters schema is missing", `"type": "object"`}},
		{name: "string schema", modify: func(t *registry.Tool) {
			t.Parameters = registry.MustParseSchema(`{"type":"string"}`)
		}, want: []string{`"type": "object"`, `got "string"`}},
		{name: "schema without type", modify: func(t *registry.Tool) {
			t.Parameters = registry.MustParseSchema(`{"properties":{"a":{"type":"string"}}}`)
		}, want: []string{`"type": "object"`, "got null"}},
		{name: "misspelled property type", modify: func(t *registry.Tool) {
			t.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"a":{"type":"strnig"}}}`)
		}, want: []string{"parameters schema is invalid", "/properties/a/type"}},
		{name: "minLength not a number", modify: func(t *registry.Tool) {
			t.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"a":{"type":"string","minLength":"x"}}}`)
		}, want: []string{"parameters schema is invalid", "minLength"}},
		{name: "required not an array", modify: func(t *registry.Tool) {
			t.Parameters = registry.MustParseSchema(`{"type":"object","required":"a"}`)
		}, want: []string{"parameters schema is invalid", "required"}},
		{name: "schema not JSON-able", modify: func(t *registry.Tool) {
			t.Parameters = map[string]any{"type": "object", "default": func() {}}
		}, want: []string{"parameters schema is not JSON"}},
		{name: "malformed signature", modify: func(t *registry.Tool) {
			t.CallSignature = "async function newtool(path: string"
		}, want: []string{`"newtool"`, "call signature"}, sigErr: true},
		{name: "signature with body", modify: func(t *registry.Tool) {
			t.CallSignature = "function f() {}"
		}, want: []string{"call signature", "without a body"}, sigErr: true},
		{name: "signature not a function", modify: func(t *registry.Tool) {
			t.CallSignature = "const f = 1"
		}, want: []string{"call signature", `"function"`}, sigErr: true},
		{name: "signature named with reserved word", modify: func(t *registry.Tool) {
			t.CallSignature = "function delete(): void"
		}, want: []string{"call signature", "reserved word"}, sigErr: true},
		{name: "signature shadows console", modify: func(t *registry.Tool) {
			t.CallSignature = "async function console(): Promise<void>"
		}, want: []string{`"console"`, "shadow"}},
		{name: "signature shadows setTimeout", modify: func(t *registry.Tool) {
			t.CallSignature = "async function setTimeout(ms: number): Promise<void>"
		}, want: []string{`"setTimeout"`, "shadow"}},
		{name: "signature shadows callTool", modify: func(t *registry.Tool) {
			t.CallSignature = "async function callTool(name: string): Promise<unknown>"
		}, want: []string{`"callTool"`, "shadow"}},
		{name: "signature shadows DOMException", modify: func(t *registry.Tool) {
			t.CallSignature = "async function DOMException(): Promise<void>"
		}, want: []string{`"DOMException"`, "shadow"}},
		{name: "signature shadows Promise", modify: func(t *registry.Tool) {
			t.CallSignature = "async function Promise(): Promise<void>"
		}, want: []string{`"Promise"`, "shadow"}},
		{name: "signature shadows toString", modify: func(t *registry.Tool) {
			t.CallSignature = "async function toString(): Promise<string>"
		}, want: []string{`"toString"`, "shadow"}},
		{name: "signature function name used by another tool", modify: func(t *registry.Tool) {
			t.CallSignature = "async function existingFn(x: string): Promise<string>"
		}, want: []string{`"existingFn"`, `already used by tool "existing"`}},
		{name: "duplicate tool name", modify: func(t *registry.Tool) {
			t.Name = "existing"
			t.Description = "a second one"
		}, want: []string{`"existing"`, "already registered", "Override"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			mustRegister(t, r, existing)
			tool := newTool("newtool")
			tc.modify(&tool)
			err := r.Register(tool)
			if err == nil {
				t.Fatalf("Register(%+v) = nil, want an error", tool)
			}
			containsAll(t, "error", err.Error(), tc.want...)
			if tc.sigErr {
				var se *signature.SyntaxError
				if !errors.As(err, &se) {
					t.Errorf("error %v does not wrap *signature.SyntaxError", err)
				}
			}
			// Nothing changed.
			infos := r.Tools()
			if len(infos) != 1 || !reflect.DeepEqual(infos[0], infoOf(existing)) {
				t.Errorf("Tools() after failed Register = %+v, want only %q unchanged", infos, "existing")
			}
			if tool.Name != "existing" {
				if _, ok := r.Lookup(tool.Name); ok {
					t.Errorf("Lookup(%q) found a tool whose registration failed", tool.Name)
				}
			}
			// A rejected signature does not claim its function name: a valid
			// tool can still use the name "newtool" and function "newtool".
			ok := newTool("newtool")
			ok.CallSignature = "async function newtool(): Promise<void>"
			if err := r.Register(ok); err != nil {
				t.Errorf("Register of a valid tool after the failure: %v", err)
			}
		})
	}
}

func infoOf(t registry.Tool) registry.Info {
	return registry.Info{
		Name: t.Name, Label: t.Label, Description: t.Description,
		Parameters: t.Parameters, CallSignature: t.CallSignature, Source: t.Source,
	}
}

func TestRegisterValid(t *testing.T) {
	tests := []struct {
		name string
		tool registry.Tool
		// sig is the generated signature when the tool has none.
		sig string
	}{
		{"single letter", newTool("a"), "async function a(): Promise<any>"},
		{"single digit", newTool("0"), "async function _0(): Promise<any>"},
		{"64 chars", newTool(strings.Repeat("x", 64)), "async function " + strings.Repeat("x", 64) + "(): Promise<any>"},
		{"snake_case and dash", newTool("read_file-v2"), "async function read_file_v2(): Promise<any>"},
		{"with signature and source", func() registry.Tool {
			tl := newTool("read")
			tl.Parameters = registry.MustParseSchema(readSchema)
			tl.CallSignature = "async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>"
			tl.Source = "builtin"
			return tl
		}(), ""},
		{"draft-07 schema", func() registry.Tool {
			tl := newTool("draft7")
			tl.Parameters = registry.MustParseSchema(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`)
			return tl
		}(), "async function draft7(params?: { n?: number }): Promise<any>"},
		{"draft-04 schema, whose bounds the validator reads as draft 07's", func() registry.Tool {
			tl := newTool("draft4")
			tl.Parameters = registry.MustParseSchema(`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":1,"exclusiveMinimum":true}}}`)
			return tl
		}(), "async function draft4(params?: { n?: number }): Promise<any>"},
		{"typebox-style schema", func() registry.Tool {
			tl := newTool("typebox")
			tl.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"path":{"description":"file","type":"string"},"limit":{"type":"number"}},"required":["path"]}`)
			return tl
		}(), "async function typebox(params: { path: string; limit?: number }): Promise<any>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := maps.Clone(tc.tool.Parameters)
			r := registry.New()
			if err := r.Register(tc.tool); err != nil {
				t.Fatalf("Register: %v", err)
			}
			got, ok := r.Lookup(tc.tool.Name)
			if !ok {
				t.Fatalf("Lookup(%q) = false after Register", tc.tool.Name)
			}
			want := infoOf(tc.tool)
			if tc.sig != "" {
				want.CallSignature = tc.sig
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Lookup = %+v\nwant     %+v", got, want)
			}
			// Register must not edit the caller's schema (for example by
			// adding additionalProperties: false).
			if !reflect.DeepEqual(tc.tool.Parameters, before) {
				t.Errorf("Register changed the caller's schema: %v, was %v", tc.tool.Parameters, before)
			}
			if _, has := got.Parameters["additionalProperties"]; has {
				t.Errorf("Info.Parameters gained additionalProperties: %v", got.Parameters)
			}
		})
	}
}

func TestToolsOrderAndLookup(t *testing.T) {
	r := registry.New()
	if got := r.Tools(); len(got) != 0 {
		t.Fatalf("Tools() of an empty registry = %v", got)
	}
	order := []string{"zeta", "alpha", "mid", "beta"}
	for _, n := range order {
		mustRegister(t, r, newTool(n))
	}
	if got := names(r.Tools()); !slices.Equal(got, order) {
		t.Errorf("Tools() names = %v, want registration order %v", got, order)
	}
	// The returned slice is the caller's: editing it does not change the registry.
	infos := r.Tools()
	infos[0].Name = "mutated"
	infos[1] = registry.Info{}
	if got := names(r.Tools()); !slices.Equal(got, order) {
		t.Errorf("Tools() after editing a returned slice = %v, want %v", got, order)
	}
	for _, n := range order {
		in, ok := r.Lookup(n)
		if !ok || in.Name != n || in.Description != "Description of "+n || in.Label != "Label "+n {
			t.Errorf("Lookup(%q) = %+v, %v", n, in, ok)
		}
	}
	for _, n := range []string{"", "missing", "Zeta", "zeta "} {
		if in, ok := r.Lookup(n); ok || !reflect.DeepEqual(in, registry.Info{}) {
			t.Errorf("Lookup(%q) = %+v, %v; want zero Info, false", n, in, ok)
		}
	}
}

// TestVersionAndSummaries checks that Version changes with each successful
// Register and Override and with nothing else, and that Summaries gives
// each tool's text as Tools does.
func TestVersionAndSummaries(t *testing.T) {
	r := registry.New()
	v := r.Version()
	steps := []struct {
		name    string
		change  func() error
		changes bool
	}{
		{"register", func() error { return r.Register(newTool("a")) }, true},
		{"register a duplicate", func() error { return r.Register(newTool("a")) }, false},
		{"register an invalid tool", func() error { return r.Register(newTool("A")) }, false},
		{"override", func() error { return r.Override(newTool("a")) }, true},
		{"override a missing tool", func() error { return r.Override(newTool("b")) }, false},
		{"add a hook", func() error {
			r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { return "" })
			return nil
		}, false},
		{"call", func() error { _, err := r.CallTool(context.Background(), "a", nil, registry.CallOptions{}); return err }, false},
		{"register in a namespace", func() error { b := newTool("b.c"); b.Namespace = "ns"; return r.Register(b) }, true},
	}
	for _, step := range steps {
		err := step.change()
		if step.changes && err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got := r.Version(); (got != v) != step.changes {
			t.Errorf("%s: Version %d -> %d, want a change: %v", step.name, v, got, step.changes)
		}
		v = r.Version()
	}
	infos := r.Tools()
	want := make([]registry.Summary, len(infos))
	for i, in := range infos {
		want[i] = in.Summary()
	}
	if got := r.Summaries(); !reflect.DeepEqual(got, want) || got[1].Name != "ns.b.c" || got[1].Namespace != "ns" || got[0].CallSignature == "" {
		t.Errorf("Summaries() = %+v, want %+v", got, want)
	}
}

// BenchmarkTools compares Tools, which deep-copies every schema and
// example, with Summaries, which copies none, on a registry of 20 tools.
func BenchmarkTools(b *testing.B) {
	r := registry.New()
	for i := range 20 {
		tool := newTool(fmt.Sprintf("t%d", i))
		tool.Parameters = registry.MustParseSchema(pathSchema)
		tool.Examples = []registry.Example{{Description: "Read a file", Input: map[string]any{"path": "a.txt"}, Output: map[string]any{"lines": []any{"x", "y"}}}}
		tool.CallSignature = fmt.Sprintf("async function t%d(path: string): Promise<any>", i)
		if err := r.Register(tool); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("Tools", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = r.Tools()
		}
	})
	b.Run("Summaries", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = r.Summaries()
		}
	})
}

// ---------------------------------------------------------------------------
// Override

func TestOverride(t *testing.T) {
	setup := func(t *testing.T) *registry.Registry {
		r := registry.New()
		a, b, c := newTool("a"), newB(), newTool("c")
		a.CallSignature = "async function aFn(): Promise<string>"
		b.CallSignature = "async function bFn(x?: string): Promise<string>"
		mustRegister(t, r, a, b, c)
		return r
	}
	call := func(t *testing.T, r *registry.Registry, name string) string {
		t.Helper()
		res, err := r.CallTool(context.Background(), name, nil, registry.CallOptions{})
		if err != nil {
			t.Fatalf("CallTool(%q): %v", name, err)
		}
		return res.Text()
	}

	t.Run("replaces in place", func(t *testing.T) {
		r := setup(t)
		nb := newB()
		nb.Description = "new b"
		nb.Label = "New B"
		nb.Source = "override"
		nb.Execute = echoExec("new b ran")
		if err := r.Override(nb); err != nil {
			t.Fatalf("Override: %v", err)
		}
		if got := names(r.Tools()); !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Errorf("order after Override = %v, want [a b c]", got)
		}
		in, _ := r.Lookup("b")
		if in.Description != "new b" || in.Label != "New B" || in.Source != "override" {
			t.Errorf("Lookup(b) = %+v, want the new description, label and source", in)
		}
		if got := r.Tools()[1]; got.Description != "new b" {
			t.Errorf("Tools()[1] = %+v, want the override", got)
		}
		if got := call(t, r, "b"); got != "new b ran" {
			t.Errorf("CallTool(b) text = %q, want the new Execute's", got)
		}
	})

	t.Run("keeps old signature when none given", func(t *testing.T) {
		r := setup(t)
		nb := newB()
		if err := r.Override(nb); err != nil {
			t.Fatalf("Override: %v", err)
		}
		in, _ := r.Lookup("b")
		if want := "async function bFn(x?: string): Promise<string>"; in.CallSignature != want {
			t.Errorf("CallSignature = %q, want the old %q", in.CallSignature, want)
		}
		// The function name is still claimed by b.
		d := newTool("d")
		d.CallSignature = "async function bFn(): Promise<void>"
		if err := r.Register(d); err == nil || !strings.Contains(err.Error(), `already used by tool "b"`) {
			t.Errorf("Register of a tool reusing b's kept function name: err = %v", err)
		}
	})

	t.Run("uses new signature and frees the old function name", func(t *testing.T) {
		r := setup(t)
		nb := newB()
		nb.CallSignature = "async function bNew(y: number): Promise<void>"
		if err := r.Override(nb); err != nil {
			t.Fatalf("Override: %v", err)
		}
		in, _ := r.Lookup("b")
		if in.CallSignature != nb.CallSignature {
			t.Errorf("CallSignature = %q, want %q", in.CallSignature, nb.CallSignature)
		}
		d := newTool("d")
		d.CallSignature = "async function bFn(): Promise<void>"
		if err := r.Register(d); err != nil {
			t.Errorf("Register reusing b's old, released function name: %v", err)
		}
		e := newTool("e")
		e.CallSignature = "async function bNew(): Promise<void>"
		if err := r.Register(e); err == nil || !strings.Contains(err.Error(), `"bNew"`) {
			t.Errorf("Register reusing b's new function name: err = %v, want an error naming bNew", err)
		}
	})

	t.Run("reuses its own function name", func(t *testing.T) {
		r := setup(t)
		nb := newB()
		nb.CallSignature = "async function bFn(x: string, y?: number): Promise<unknown>"
		if err := r.Override(nb); err != nil {
			t.Fatalf("Override with the tool's own function name: %v", err)
		}
		in, _ := r.Lookup("b")
		if in.CallSignature != nb.CallSignature {
			t.Errorf("CallSignature = %q, want %q", in.CallSignature, nb.CallSignature)
		}
		// And the name is still claimed afterwards.
		d := newTool("d")
		d.CallSignature = "async function bFn(): Promise<void>"
		if err := r.Register(d); err == nil {
			t.Errorf("Register reusing bFn after b kept it: err = nil")
		}
	})

	t.Run("can add a signature to a tool that had none", func(t *testing.T) {
		r := setup(t)
		nc := newTool("c")
		nc.CallSignature = "async function cFn(): Promise<void>"
		if err := r.Override(nc); err != nil {
			t.Fatalf("Override: %v", err)
		}
		if in, _ := r.Lookup("c"); in.CallSignature != nc.CallSignature {
			t.Errorf("CallSignature = %q", in.CallSignature)
		}
	})

	t.Run("uses the new schema", func(t *testing.T) {
		r := setup(t)
		nb := newB()
		nb.Parameters = registry.MustParseSchema(pathSchema)
		nb.CallSignature = "async function bFn(path: string): Promise<string>"
		if err := r.Override(nb); err != nil {
			t.Fatalf("Override: %v", err)
		}
		res, err := r.CallTool(context.Background(), "b", nil, registry.CallOptions{})
		if err != nil || !res.IsError || !strings.Contains(res.Text(), "path") {
			t.Errorf("CallTool(b, {}) under the new schema = %+v, %v; want a validation error naming path", res, err)
		}
	})

	rejects := []struct {
		name   string
		modify func(*registry.Tool)
		want   []string
	}{
		{"unknown name", func(t *registry.Tool) { t.Name = "nope" }, []string{`"nope"`, "no tool"}},
		{"empty description", func(t *registry.Tool) { t.Description = "" }, []string{`"b"`, "description"}},
		{"nil execute", func(t *registry.Tool) { t.Execute = nil }, []string{"execute"}},
		{"non-object schema", func(t *registry.Tool) { t.Parameters = map[string]any{"type": "array"} }, []string{`"type": "object"`}},
		{"malformed signature", func(t *registry.Tool) { t.CallSignature = "async function bFn(" }, []string{"call signature"}},
		{"reserved signature", func(t *registry.Tool) { t.CallSignature = "async function fetch(): Promise<void>" }, []string{`"fetch"`, "shadow"}},
		{"another tool's function name", func(t *registry.Tool) { t.CallSignature = "async function aFn(): Promise<void>" }, []string{`"aFn"`, `already used by tool "a"`}},
	}
	for _, tc := range rejects {
		t.Run("rejects "+tc.name, func(t *testing.T) {
			r := setup(t)
			before := r.Tools()
			nb := newB()
			nb.Description = "replacement"
			nb.Execute = echoExec("replacement ran")
			tc.modify(&nb)
			err := r.Override(nb)
			if err == nil {
				t.Fatalf("Override(%+v) = nil, want an error", nb)
			}
			containsAll(t, "error", err.Error(), append([]string{"override"}, tc.want...)...)
			if after := r.Tools(); !reflect.DeepEqual(after, before) {
				t.Errorf("Tools() changed by a failed Override:\n got %+v\nwant %+v", after, before)
			}
			if got := call(t, r, "b"); got != "b" {
				t.Errorf("CallTool(b) after failed Override ran %q, want the original", got)
			}
			// b still owns bFn.
			d := newTool("d")
			d.CallSignature = "async function bFn(): Promise<void>"
			if err := r.Register(d); err == nil {
				t.Errorf("bFn was released by a failed Override")
			}
		})
	}
}

// ---------------------------------------------------------------------------
// CallTool

func TestCallToolNotFound(t *testing.T) {
	for _, name := range []string{"nope", "", "Read", "with space"} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			r := registry.New()
			mustRegister(t, r, newTool("read"))
			hookRan := false
			r.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string { hookRan = true; return "" })
			res, err := r.CallTool(context.Background(), name, map[string]any{"x": 1.0}, registry.CallOptions{EmitEvents: true})
			if err == nil {
				t.Fatalf("CallTool(%q) err = nil, result %+v", name, res)
			}
			if got, want := err.Error(), "Tool not found: "+name; got != want {
				t.Errorf("error text = %q, want exactly %q", got, want)
			}
			if !errors.Is(err, registry.ErrToolNotFound) {
				t.Errorf("errors.Is(err, ErrToolNotFound) = false")
			}
			var nf *registry.NotFoundError
			if !errors.As(err, &nf) || nf.Name != name {
				t.Errorf("errors.As NotFoundError = %+v", nf)
			}
			if res.IsError || len(res.Content) != 0 {
				t.Errorf("result alongside the error = %+v, want zero", res)
			}
			if hookRan {
				t.Errorf("tool_call hook ran for an unknown tool")
			}
		})
	}
	if errors.Is(errors.New("Tool not found: x"), registry.ErrToolNotFound) {
		t.Errorf("an unrelated error matched ErrToolNotFound")
	}
}

type ctxKey struct{}

func TestCallToolContextDone(t *testing.T) {
	cause := errors.New("user pressed escape")
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
		{"deadline in the past", func() (context.Context, context.CancelFunc) {
			return context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		}},
		{"timeout elapsed", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
			<-ctx.Done()
			return ctx, cancel
		}},
		{"cancelled with cause", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(cause)
			return ctx, func() {}
		}},
		{"deadline with cause", func() (context.Context, context.CancelFunc) {
			return context.WithDeadlineCause(context.Background(), time.Now().Add(-time.Second), cause)
		}},
	}
	for _, tc := range tests {
		for _, emit := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/emit=%v", tc.name, emit), func(t *testing.T) {
				ctx, cancel := tc.ctx()
				defer cancel()
				r := registry.New()
				var c counter
				tool := newTool("slow")
				tool.Execute = c.exec(registry.TextResult("ran"), nil)
				mustRegister(t, r, tool)
				var hooks atomic.Int64
				r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { hooks.Add(1); return "" })
				r.OnToolResult(func(context.Context, registry.ToolResultEvent) *registry.Result { hooks.Add(1); return nil })

				res, err := r.CallTool(ctx, "slow", nil, registry.CallOptions{EmitEvents: emit})
				if err == nil {
					t.Fatalf("CallTool with a done context: err = nil, result %+v", res)
				}
				if n := c.n.Load(); n != 0 {
					t.Errorf("Execute ran %d times, want 0", n)
				}
				if n := hooks.Load(); n != 0 {
					t.Errorf("hooks ran %d times, want 0", n)
				}
				if !errors.Is(err, ctx.Err()) {
					t.Errorf("err = %v, want it to wrap ctx.Err() = %v", err, ctx.Err())
				}
				if c := context.Cause(ctx); !errors.Is(err, c) {
					t.Errorf("err = %v, want it to wrap context.Cause = %v", err, c)
				}
				if !strings.Contains(err.Error(), "slow") {
					t.Errorf("err = %q, want it to name the tool", err)
				}
				if errors.Is(err, registry.ErrToolNotFound) {
					t.Errorf("a done context reported as ErrToolNotFound")
				}
				if res.IsError || len(res.Content) != 0 {
					t.Errorf("result alongside the error = %+v, want zero", res)
				}
			})
		}
	}
}

func TestCallToolValidation(t *testing.T) {
	schema := registry.MustParseSchema(`{
		"type": "object",
		"properties": {
			"path":  {"type": "string"},
			"limit": {"type": "integer", "minimum": 1},
			"ratio": {"type": "number"},
			"opts":  {
				"type": "object",
				"properties": {"deep": {"type": "boolean"}, "depth": {"type": "integer"}},
				"required": ["deep"]
			},
			"tags":  {"type": "array", "items": {"type": "string"}},
			"mode":  {"enum": ["fast", "slow"]}
		},
		"required": ["path"]
	}`)
	const shape = `expected {path: string, limit?: integer, mode?: "fast" | "slow", ` +
		`opts?: {deep: boolean, depth?: integer}, ratio?: number, tags?: array of string}`

	tests := []struct {
		name   string
		params map[string]any
		// want: substrings of the error text; nil means params are valid.
		want []string
	}{
		{"minimal", map[string]any{"path": "a.txt"}, nil},
		{"all properties", map[string]any{
			"path": "a", "limit": 3.0, "ratio": 0.5, "opts": map[string]any{"deep": true, "depth": 2.0},
			"tags": []any{"x", "y"}, "mode": "slow",
		}, nil},
		{"integer as integral float64", map[string]any{"path": "a", "limit": 5.0}, nil},
		{"integer as large integral float64", map[string]any{"path": "a", "limit": 1e15}, nil},
		{"integer as Go int", map[string]any{"path": "a", "limit": 7}, nil},
		{"integer as Go int64", map[string]any{"path": "a", "limit": int64(7)}, nil},
		{"number as Go int", map[string]any{"path": "a", "ratio": 2}, nil},
		{"empty tags", map[string]any{"path": "a", "tags": []any{}}, nil},

		{"nil params miss required", nil, []string{"params: missing property 'path'"}},
		{"empty params miss required", map[string]any{}, []string{"params: missing property 'path'"}},
		{"wrong type", map[string]any{"path": 42.0}, []string{"params.path: got number, want string"}},
		{"null value", map[string]any{"path": nil}, []string{"params.path: got null, want string"}},
		{"fractional integer", map[string]any{"path": "a", "limit": 2.5}, []string{"params.limit: got number, want integer"}},
		{"integer below minimum", map[string]any{"path": "a", "limit": 0.0}, []string{"params.limit: minimum: got 0, want 1"}},
		{"integer as string", map[string]any{"path": "a", "limit": "5"}, []string{"params.limit: got string, want integer"}},
		{"unknown top-level property", map[string]any{"path": "a", "pth": "b"}, []string{"params: additional properties 'pth' not allowed"}},
		{"nested wrong type", map[string]any{"path": "a", "opts": map[string]any{"deep": "yes"}}, []string{"params.opts.deep: got string, want boolean"}},
		{"nested missing required", map[string]any{"path": "a", "opts": map[string]any{}}, []string{"params.opts: missing property 'deep'"}},
		{"nested not an object", map[string]any{"path": "a", "opts": "deep"}, []string{"params.opts: got string, want object"}},
		{"array item wrong type", map[string]any{"path": "a", "tags": []any{"x", 1.0}}, []string{"params.tags.1: got number, want string"}},
		{"enum mismatch", map[string]any{"path": "a", "mode": "medium"}, []string{"params.mode: value must be one of 'fast', 'slow'"}},
		{"several problems", map[string]any{"path": 1.0, "limit": "x", "extra": true}, []string{"params.limit: got string, want integer; params.path: got number, want string; params: additional properties 'extra' not allowed; expected"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			var got map[string]any
			var c counter
			tool := newTool("vtool")
			tool.Parameters = schema
			tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
				c.n.Add(1)
				got = call.Params
				return registry.TextResult("ok"), nil
			}
			mustRegister(t, r, tool)
			res, err := r.CallTool(context.Background(), "vtool", tc.params, registry.CallOptions{})
			if err != nil {
				t.Fatalf("CallTool err = %v; validation failures must be results", err)
			}
			if tc.want == nil {
				if res.IsError {
					t.Fatalf("valid params %v refused: %q", tc.params, res.Text())
				}
				if c.n.Load() != 1 || !reflect.DeepEqual(got, tc.params) {
					t.Errorf("Execute got params %v (%d calls), want %v", got, c.n.Load(), tc.params)
				}
				return
			}
			text := wantIsError(t, res)
			t.Logf("error text: %s", text)
			if c.n.Load() != 0 {
				t.Errorf("Execute ran for invalid params")
			}
			containsAll(t, "error text", text, tc.want...)
			containsAll(t, "error text", text, "Invalid parameters for tool vtool: ", "; "+shape)
		})
	}
}

// TestCallToolValidationSimpleSchema repeats the main cases with a schema of
// plainly typed properties, which the registry may check by a faster route.
func TestCallToolValidationSimpleSchema(t *testing.T) {
	schema := registry.MustParseSchema(`{
		"type": "object",
		"properties": {
			"path":  {"type": "string", "description": "file"},
			"limit": {"type": "integer"},
			"ratio": {"type": "number"},
			"all":   {"type": "boolean"},
			"mode":  {"type": "string", "enum": ["fast", "slow"]}
		},
		"required": ["path"]
	}`)
	const shape = `expected {path: string, all?: boolean, limit?: integer, mode?: "fast" | "slow", ratio?: number}`
	tests := []struct {
		name   string
		params map[string]any
		want   string // "" valid, else a substring of the error text
	}{
		{"minimal", map[string]any{"path": "a"}, ""},
		{"all set", map[string]any{"path": "a", "limit": 3.0, "ratio": 0.25, "all": false, "mode": "fast"}, ""},
		{"integer as Go int", map[string]any{"path": "a", "limit": 3}, ""},
		{"integer as int64", map[string]any{"path": "a", "limit": int64(3)}, ""},
		{"integer as int32", map[string]any{"path": "a", "limit": int32(3)}, ""},
		{"nil params", nil, "params: missing property 'path'"},
		{"fractional integer", map[string]any{"path": "a", "limit": 2.5}, "params.limit: got number, want integer"},
		{"boolean as number", map[string]any{"path": "a", "ratio": true}, "params.ratio: got boolean, want number"},
		{"string as boolean", map[string]any{"path": "a", "all": "yes"}, "params.all: got string, want boolean"},
		{"null path", map[string]any{"path": nil}, "params.path: got null, want string"},
		{"enum mismatch", map[string]any{"path": "a", "mode": "medium"}, "params.mode: value must be one of 'fast', 'slow'"},
		{"undeclared", map[string]any{"path": "a", "pth": "b"}, "params: additional properties 'pth' not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			var c counter
			tool := newTool("simple")
			tool.Parameters = schema
			tool.Execute = c.exec(registry.TextResult("ok"), nil)
			mustRegister(t, r, tool)
			res, err := r.CallTool(context.Background(), "simple", tc.params, registry.CallOptions{})
			if err != nil {
				t.Fatalf("CallTool err = %v", err)
			}
			if tc.want == "" {
				if res.IsError || c.n.Load() != 1 {
					t.Errorf("valid params %v: result %q, Execute ran %d times", tc.params, res.Text(), c.n.Load())
				}
				return
			}
			text := wantIsError(t, res)
			containsAll(t, "error text", text, "Invalid parameters for tool simple: ", tc.want, "; "+shape)
			if c.n.Load() != 0 {
				t.Errorf("Execute ran for invalid params")
			}
		})
	}
}

func TestCallToolAdditionalProperties(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		params map[string]any
		want   []string // nil: accepted
	}{
		{"undeclared refused by default", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			map[string]any{"a": "x", "b": "y"}, []string{"'b'", "not allowed"}},
		{"no properties at all refuses any", `{"type":"object"}`,
			map[string]any{"a": 1.0}, []string{"'a'", "not allowed"}},
		{"no properties at all accepts empty", `{"type":"object"}`, map[string]any{}, nil},
		{"explicit false refuses", `{"type":"object","properties":{"a":{}},"additionalProperties":false}`,
			map[string]any{"b": 1.0}, []string{"'b'"}},
		{"explicit true allows", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`,
			map[string]any{"a": "x", "b": "y", "c": []any{1.0}}, nil},
		{"schema allows matching", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"number"}}`,
			map[string]any{"a": "x", "b": 2.0}, nil},
		{"schema refuses mismatching", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"number"}}`,
			map[string]any{"a": "x", "b": "two"}, []string{"params.b", "number"}},
		{"declared types still checked when additional allowed", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`,
			map[string]any{"a": 1.0}, []string{"params.a", "string"}},
		{"patternProperties declare names", `{"type":"object","patternProperties":{"^x_":{"type":"string"}}}`,
			map[string]any{"x_a": "v"}, nil},
		{"patternProperties do not declare others", `{"type":"object","patternProperties":{"^x_":{"type":"string"}}}`,
			map[string]any{"y": "v"}, []string{"'y'"}},
		{"nested objects may carry extra properties", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
			map[string]any{"o": map[string]any{"a": "x", "b": 1.0}}, nil},
		{"properties declared through allOf", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}}]}`,
			map[string]any{"a": "x"}, nil},
		{"properties declared through $ref", `{"type":"object","$ref":"#/$defs/p","$defs":{"p":{"properties":{"a":{"type":"string"}}}}}`,
			map[string]any{"a": "x"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			tool := newTool("ap")
			tool.Parameters = registry.MustParseSchema(tc.schema)
			mustRegister(t, r, tool)
			res, err := r.CallTool(context.Background(), "ap", tc.params, registry.CallOptions{})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if tc.want == nil {
				if res.IsError {
					t.Errorf("params %v refused: %q", tc.params, res.Text())
				}
				return
			}
			containsAll(t, "error text", wantIsError(t, res), tc.want...)
		})
	}
}

func TestCallToolNilParams(t *testing.T) {
	r := registry.New()
	var got map[string]any
	tool := newTool("noargs")
	tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		got = call.Params
		return registry.TextResult("ok"), nil
	}
	mustRegister(t, r, tool)
	var tel []registry.Telemetry
	r.Observe(func(tm registry.Telemetry) { tel = append(tel, tm) })
	res, err := r.CallTool(context.Background(), "noargs", nil, registry.CallOptions{})
	if err != nil || res.IsError {
		t.Fatalf("CallTool(nil params) = %+v, %v", res, err)
	}
	if got == nil || len(got) != 0 {
		t.Errorf("Execute params = %#v, want a non-nil empty map", got)
	}
	if len(tel) != 1 || tel[0].Params == nil || len(tel[0].Params) != 0 {
		t.Errorf("telemetry params = %+v, want a non-nil empty map", tel)
	}
}

var errBoom = errors.New("boom: file is locked")

func TestCallToolExecuteOutcomes(t *testing.T) {
	img := registry.ImageContent("aGk=", "image/png")
	tests := []struct {
		name string
		exec registry.ExecuteFunc
		// exact: the exact result wanted; nil to use check instead.
		exact *registry.Result
		check func(t *testing.T, res registry.Result)
	}{
		{
			name: "error",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, errBoom },
			exact: &registry.Result{Content: []registry.Content{registry.TextContent(errBoom.Error())},
				Details: map[string]any{}, IsError: true},
		},
		{
			name: "wrapped error with a partial result",
			exec: func(context.Context, registry.Call) (registry.Result, error) {
				return registry.Result{Content: []registry.Content{registry.TextContent("partial"), img}, Details: map[string]any{"n": 1}},
					fmt.Errorf("read a.txt: %w", errBoom)
			},
			exact: &registry.Result{Content: []registry.Content{registry.TextContent("read a.txt: " + errBoom.Error())},
				Details: map[string]any{}, IsError: true},
		},
		{
			name: "panic with a string",
			exec: func(context.Context, registry.Call) (registry.Result, error) { panic("index out of range [3]") },
			check: func(t *testing.T, res registry.Result) {
				containsAll(t, "text", wantIsError(t, res), "panic", "index out of range [3]", "outcome")
			},
		},
		{
			name: "panic with an error",
			exec: func(context.Context, registry.Call) (registry.Result, error) { panic(errBoom) },
			check: func(t *testing.T, res registry.Result) {
				containsAll(t, "text", wantIsError(t, res), "panic", errBoom.Error())
			},
		},
		{
			name: "runtime panic",
			exec: func(context.Context, registry.Call) (registry.Result, error) {
				var m map[string]int
				//lint:ignore SA5000 the test needs a real runtime panic
				m["x"] = 1
				return registry.Result{}, nil
			},
			check: func(t *testing.T, res registry.Result) {
				containsAll(t, "text", wantIsError(t, res), "panic", "nil map")
			},
		},
		{
			name: "panic(nil)",
			exec: func(context.Context, registry.Call) (registry.Result, error) { panic(nil) },
			check: func(t *testing.T, res registry.Result) {
				containsAll(t, "text", wantIsError(t, res), "panic")
			},
		},
		{
			name: "success sets IsError itself",
			exec: func(context.Context, registry.Call) (registry.Result, error) {
				return registry.Result{Content: []registry.Content{registry.TextContent("fine")}, Details: 42, IsError: true}, nil
			},
			exact: &registry.Result{Content: []registry.Content{registry.TextContent("fine")}, Details: 42},
		},
		{
			name: "success with text, image and details",
			exec: func(context.Context, registry.Call) (registry.Result, error) {
				return registry.Result{Content: []registry.Content{registry.TextContent("a"), img, registry.TextContent("b")},
					Details: map[string]any{"lines": 2}}, nil
			},
			exact: &registry.Result{Content: []registry.Content{registry.TextContent("a"), img, registry.TextContent("b")},
				Details: map[string]any{"lines": 2}},
		},
		{
			name: "success with no content",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, nil },
			check: func(t *testing.T, res registry.Result) {
				if res.IsError || res.Content == nil || len(res.Content) != 0 {
					t.Errorf("result = %#v, want non-error with empty non-nil Content", res)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			tool := newTool("outcome")
			tool.Execute = tc.exec
			mustRegister(t, r, tool)
			res, err := r.CallTool(context.Background(), "outcome", nil, registry.CallOptions{})
			if err != nil {
				t.Fatalf("CallTool err = %v, want nil (failures are results)", err)
			}
			if tc.exact != nil && !reflect.DeepEqual(res, *tc.exact) {
				t.Errorf("result = %#v\nwant     %#v", res, *tc.exact)
			}
			if tc.check != nil {
				tc.check(t, res)
			}
			// The registry keeps working after a panic.
			ok := newTool("after")
			mustRegister(t, r, ok)
			if res, err := r.CallTool(context.Background(), "after", nil, registry.CallOptions{}); err != nil || res.Text() != "after" {
				t.Errorf("call after %s = %+v, %v", tc.name, res, err)
			}
		})
	}
}

func TestCallToolCancellationReachesTool(t *testing.T) {
	r := registry.New()
	started := make(chan registry.Call, 1)
	tool := newTool("block")
	tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		started <- call
		select {
		case <-ctx.Done():
			return registry.Result{}, fmt.Errorf("aborted: %w", ctx.Err())
		case <-time.After(10 * time.Second):
			return registry.TextResult("not cancelled"), nil
		}
	}
	mustRegister(t, r, tool)

	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	defer cancel()
	type out struct {
		res registry.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := r.CallTool(ctx, "block", nil, registry.CallOptions{})
		done <- out{res, err}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("tool did not start")
	}
	cancel()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatalf("CallTool err = %v; a tool that returns after cancellation gives a result", o.err)
		}
		wantErrorResult(t, o.res, "aborted: context canceled")
	case <-time.After(5 * time.Second):
		t.Fatal("CallTool did not return after the caller cancelled")
	}

	// Values and deadlines of the caller's context reach the tool too.
	tool2 := newTool("inspect")
	var sawValue any
	var sawDeadline bool
	tool2.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		sawValue = ctx.Value(ctxKey{})
		_, sawDeadline = ctx.Deadline()
		return registry.Result{}, nil
	}
	mustRegister(t, r, tool2)
	dctx, dcancel := context.WithTimeout(context.WithValue(context.Background(), ctxKey{}, "v2"), time.Minute)
	defer dcancel()
	if _, err := r.CallTool(dctx, "inspect", nil, registry.CallOptions{}); err != nil {
		t.Fatal(err)
	}
	if sawValue != "v2" || !sawDeadline {
		t.Errorf("tool saw value %v and deadline %v, want v2 and true", sawValue, sawDeadline)
	}
}

func TestCallToolOnUpdate(t *testing.T) {
	partials := []registry.Result{
		registry.TextResult("10%"),
		registry.TextResult("50%"),
		{Content: []registry.Content{registry.TextContent("90%")}, Details: map[string]any{"pct": 90}},
	}
	tool := newTool("progress")
	tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		for _, p := range partials {
			call.Update(p)
		}
		return registry.TextResult("done"), nil
	}

	t.Run("updates reach the caller in order", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, tool)
		var got []registry.Result
		res, err := r.CallTool(context.Background(), "progress", nil, registry.CallOptions{
			OnUpdate: func(p registry.Result) { got = append(got, p) },
		})
		if err != nil || res.IsError || res.Text() != "done" {
			t.Fatalf("CallTool = %+v, %v", res, err)
		}
		if !reflect.DeepEqual(got, partials) {
			t.Errorf("updates = %+v\nwant      %+v", got, partials)
		}
	})

	t.Run("nil OnUpdate is safe", func(t *testing.T) {
		r := registry.New()
		mustRegister(t, r, tool)
		res, err := r.CallTool(context.Background(), "progress", nil, registry.CallOptions{})
		if err != nil || res.IsError || res.Text() != "done" {
			t.Errorf("CallTool with no OnUpdate = %+v, %v", res, err)
		}
	})

	t.Run("Call.Update on a zero Call", func(t *testing.T) {
		var c registry.Call
		c.Update(registry.TextResult("x")) // must not panic
		n := 0
		c.OnUpdate = func(registry.Result) { n++ }
		c.Update(registry.TextResult("x"))
		if n != 1 {
			t.Errorf("OnUpdate called %d times, want 1", n)
		}
	})
}

func TestCallToolIDs(t *testing.T) {
	r := registry.New()
	var ids []string
	tool := newTool("ids")
	tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		ids = append(ids, call.ID)
		return registry.Result{}, nil
	}
	mustRegister(t, r, tool)
	var hookIDs, resultIDs, telIDs []string
	r.OnToolCall(func(_ context.Context, ev registry.ToolCallEvent) string { hookIDs = append(hookIDs, ev.ID); return "" })
	r.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		resultIDs = append(resultIDs, ev.ID)
		return nil
	})
	r.Observe(func(tm registry.Telemetry) { telIDs = append(telIDs, tm.ID) })

	ctx := context.Background()
	for range 3 {
		if _, err := r.CallTool(ctx, "ids", nil, registry.CallOptions{EmitEvents: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.CallTool(ctx, "ids", nil, registry.CallOptions{ID: "toolu_01ABC", EmitEvents: true}); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^call_[0-9]+$`)
	for _, id := range ids[:3] {
		if !re.MatchString(id) {
			t.Errorf("generated ID %q does not match %s", id, re)
		}
	}
	if ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2] {
		t.Errorf("generated IDs repeat: %v", ids[:3])
	}
	if ids[3] != "toolu_01ABC" {
		t.Errorf("given ID became %q", ids[3])
	}
	for what, got := range map[string][]string{"tool_call hook": hookIDs, "tool_result hook": resultIDs, "telemetry": telIDs} {
		if !slices.Equal(got, ids) {
			t.Errorf("%s IDs = %v, want %v (same as Execute)", what, got, ids)
		}
	}
	// Calls that never reach the tool still get an ID in telemetry.
	telIDs = nil
	_, _ = r.CallTool(ctx, "missing", nil, registry.CallOptions{})
	_, _ = r.CallTool(ctx, "missing", nil, registry.CallOptions{ID: "given"})
	if len(telIDs) != 2 || !re.MatchString(telIDs[0]) || telIDs[1] != "given" {
		t.Errorf("telemetry IDs for unknown tools = %v", telIDs)
	}
}

// ---------------------------------------------------------------------------
// Hooks

func TestHooksDoNotRunWithoutEmitEvents(t *testing.T) {
	r := registry.New()
	var c counter
	tool := newTool("t")
	tool.Execute = c.exec(registry.TextResult("ran"), nil)
	failing := newTool("f")
	failing.Execute = func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, errBoom }
	mustRegister(t, r, tool, failing)
	var calls, results atomic.Int64
	r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { calls.Add(1); return "blocked" })
	r.OnToolResult(func(context.Context, registry.ToolResultEvent) *registry.Result {
		results.Add(1)
		rr := registry.TextResult("replaced")
		return &rr
	})
	var tel atomic.Int64
	r.Observe(func(registry.Telemetry) { tel.Add(1) })

	res, err := r.CallTool(context.Background(), "t", nil, registry.CallOptions{})
	if err != nil || res.IsError || res.Text() != "ran" {
		t.Errorf("CallTool without events = %+v, %v; want the tool's own result", res, err)
	}
	if _, err := r.CallTool(context.Background(), "f", nil, registry.CallOptions{}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 || results.Load() != 0 {
		t.Errorf("hooks ran without EmitEvents: %d call, %d result", calls.Load(), results.Load())
	}
	if c.n.Load() != 1 {
		t.Errorf("Execute ran %d times, want 1", c.n.Load())
	}
	if tel.Load() != 2 {
		t.Errorf("observer got %d events, want 2 (observers run either way)", tel.Load())
	}
}

func TestToolCallHook(t *testing.T) {
	params := map[string]any{"path": "/etc/passwd"}

	t.Run("sees name, id and params, and lets the call through", func(t *testing.T) {
		r := registry.New()
		var c counter
		tool := newTool("read")
		tool.Parameters = registry.MustParseSchema(pathSchema)
		tool.Execute = c.exec(registry.TextResult("contents"), nil)
		mustRegister(t, r, tool)
		var seen []registry.ToolCallEvent
		r.OnToolCall(func(ctx context.Context, ev registry.ToolCallEvent) string {
			if ctx.Value(ctxKey{}) != "v" {
				t.Errorf("hook ctx lacks the caller's value")
			}
			if c.n.Load() != 0 {
				t.Errorf("tool_call hook ran after Execute")
			}
			seen = append(seen, ev)
			return ""
		})
		ctx := context.WithValue(context.Background(), ctxKey{}, "v")
		res, err := r.CallTool(ctx, "read", params, registry.CallOptions{ID: "id1", EmitEvents: true})
		if err != nil || res.IsError || res.Text() != "contents" {
			t.Fatalf("CallTool = %+v, %v", res, err)
		}
		want := []registry.ToolCallEvent{{ID: "id1", Name: "read", Params: params}}
		if !reflect.DeepEqual(seen, want) {
			t.Errorf("hook saw %+v, want %+v", seen, want)
		}
		if c.n.Load() != 1 {
			t.Errorf("Execute ran %d times", c.n.Load())
		}
	})

	t.Run("blocks with a reason", func(t *testing.T) {
		r := registry.New()
		var c counter
		tool := newTool("read")
		tool.Parameters = registry.MustParseSchema(pathSchema)
		tool.Execute = c.exec(registry.TextResult("contents"), nil)
		mustRegister(t, r, tool)
		var order []string
		r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { order = append(order, "first"); return "" })
		r.OnToolCall(func(_ context.Context, ev registry.ToolCallEvent) string {
			order = append(order, "gate")
			if ev.Params["path"] == "/etc/passwd" {
				return "reading /etc/passwd is not permitted"
			}
			return ""
		})
		r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { order = append(order, "after"); return "" })
		var resultHook atomic.Int64
		r.OnToolResult(func(context.Context, registry.ToolResultEvent) *registry.Result { resultHook.Add(1); return nil })

		res, err := r.CallTool(context.Background(), "read", params, registry.CallOptions{EmitEvents: true})
		if err != nil {
			t.Fatalf("blocked call err = %v, want an error result", err)
		}
		containsAll(t, "blocked text", wantIsError(t, res), "reading /etc/passwd is not permitted", "read")
		if c.n.Load() != 0 {
			t.Errorf("Execute ran for a blocked call")
		}
		if !slices.Equal(order, []string{"first", "gate"}) {
			t.Errorf("hooks ran %v, want [first gate]: hooks after a block must not run", order)
		}
		// The same gate lets other params through.
		order = nil
		res, err = r.CallTool(context.Background(), "read", map[string]any{"path": "ok.txt"}, registry.CallOptions{EmitEvents: true})
		if err != nil || res.IsError || c.n.Load() != 1 {
			t.Errorf("permitted call = %+v, %v (Execute ran %d times)", res, err, c.n.Load())
		}
		if !slices.Equal(order, []string{"first", "gate", "after"}) {
			t.Errorf("hooks ran %v, want all three in registration order", order)
		}
	})

	t.Run("does not see invalid params", func(t *testing.T) {
		r := registry.New()
		tool := newTool("read")
		tool.Parameters = registry.MustParseSchema(pathSchema)
		mustRegister(t, r, tool)
		ran := false
		r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { ran = true; return "" })
		res, err := r.CallTool(context.Background(), "read", map[string]any{"path": 1.0}, registry.CallOptions{EmitEvents: true})
		if err != nil || !res.IsError {
			t.Fatalf("CallTool = %+v, %v; want a validation error result", res, err)
		}
		if ran {
			t.Errorf("tool_call hook ran for params that fail the schema")
		}
	})
}

func TestToolResultHook(t *testing.T) {
	orig := registry.Result{Content: []registry.Content{registry.TextContent("secret=hunter2")}, Details: map[string]any{"k": "v"}}

	tests := []struct {
		name  string
		exec  registry.ExecuteFunc
		hooks []func(t *testing.T, ev registry.ToolResultEvent) *registry.Result
		want  registry.Result
	}{
		{
			name: "nil keeps the result",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return orig, nil },
			hooks: []func(*testing.T, registry.ToolResultEvent) *registry.Result{
				func(t *testing.T, ev registry.ToolResultEvent) *registry.Result {
					if !reflect.DeepEqual(ev.Result, orig) {
						t.Errorf("hook saw %+v, want %+v", ev.Result, orig)
					}
					return nil
				},
			},
			want: orig,
		},
		{
			name: "replacement reaches the caller",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return orig, nil },
			hooks: []func(*testing.T, registry.ToolResultEvent) *registry.Result{
				func(t *testing.T, ev registry.ToolResultEvent) *registry.Result {
					r := registry.TextResult(strings.ReplaceAll(ev.Result.Text(), "hunter2", "***"))
					return &r
				},
			},
			want: registry.TextResult("secret=***"),
		},
		{
			name: "hooks chain in order",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return orig, nil },
			hooks: []func(*testing.T, registry.ToolResultEvent) *registry.Result{
				func(t *testing.T, ev registry.ToolResultEvent) *registry.Result {
					r := registry.TextResult("first")
					return &r
				},
				func(t *testing.T, ev registry.ToolResultEvent) *registry.Result {
					if ev.Result.Text() != "first" {
						t.Errorf("second hook saw %q, want the first hook's replacement", ev.Result.Text())
					}
					return nil
				},
			},
			want: registry.TextResult("first"),
		},
		{
			name: "sees tool errors as error results",
			exec: func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, errBoom },
			hooks: []func(*testing.T, registry.ToolResultEvent) *registry.Result{
				func(t *testing.T, ev registry.ToolResultEvent) *registry.Result {
					if !ev.Result.IsError || ev.Result.Text() != errBoom.Error() {
						t.Errorf("hook saw %+v, want the error result", ev.Result)
					}
					return nil
				},
			},
			want: registry.Result{Content: []registry.Content{registry.TextContent(errBoom.Error())}, Details: map[string]any{}, IsError: true},
		},
	}
	params := map[string]any{"q": "x"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			tool := newTool("res")
			tool.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"q":{"type":"string"}}}`)
			tool.Execute = tc.exec
			mustRegister(t, r, tool)
			ran := 0
			for _, h := range tc.hooks {
				r.OnToolResult(func(ctx context.Context, ev registry.ToolResultEvent) *registry.Result {
					ran++
					if ev.ID != "rid" || ev.Name != "res" || !reflect.DeepEqual(ev.Params, params) {
						t.Errorf("event = %+v, want ID rid, name res, params %v", ev, params)
					}
					return h(t, ev)
				})
			}
			var tel []registry.Telemetry
			r.Observe(func(tm registry.Telemetry) { tel = append(tel, tm) })
			res, err := r.CallTool(context.Background(), "res", params, registry.CallOptions{ID: "rid", EmitEvents: true})
			if err != nil {
				t.Fatal(err)
			}
			if ran != len(tc.hooks) {
				t.Errorf("%d hooks ran, want %d", ran, len(tc.hooks))
			}
			if !reflect.DeepEqual(res, tc.want) {
				t.Errorf("result = %#v\nwant     %#v", res, tc.want)
			}
			if len(tel) != 1 || !reflect.DeepEqual(tel[0].Result, tc.want) {
				t.Errorf("telemetry = %+v, want the final result", tel)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Telemetry

func TestTelemetry(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	okParams := map[string]any{"path": "a.txt"}

	tests := []struct {
		name    string
		ctx     context.Context
		tool    string
		params  map[string]any
		emit    bool
		block   bool
		wantErr bool // a Go error (Telemetry.Err set)
		isError bool // an error result
	}{
		{name: "success", tool: "ok", params: okParams},
		{name: "success with events", tool: "ok", params: okParams, emit: true},
		{name: "tool error", tool: "fails", params: okParams, isError: true},
		{name: "tool panic", tool: "panics", params: okParams, isError: true},
		{name: "invalid params", tool: "ok", params: map[string]any{"path": 3.0}, isError: true},
		{name: "not found", tool: "missing", params: okParams, wantErr: true},
		{name: "cancelled context", ctx: cancelled, tool: "ok", params: okParams, wantErr: true},
		{name: "cancelled context with events", ctx: cancelled, tool: "ok", params: okParams, emit: true, wantErr: true},
		{name: "blocked by hook", tool: "ok", params: okParams, emit: true, block: true, isError: true},
		{name: "nil params", tool: "ok", params: nil, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			ok := newTool("ok")
			ok.Parameters = registry.MustParseSchema(pathSchema)
			ok.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
				time.Sleep(2 * time.Millisecond)
				return registry.Result{Content: []registry.Content{registry.TextContent("fine")}, Details: 1}, nil
			}
			fails := newTool("fails")
			fails.Parameters = ok.Parameters
			fails.Execute = func(context.Context, registry.Call) (registry.Result, error) { return registry.Result{}, errBoom }
			panics := newTool("panics")
			panics.Parameters = ok.Parameters
			panics.Execute = func(context.Context, registry.Call) (registry.Result, error) { panic("kaboom") }
			mustRegister(t, r, ok, fails, panics)
			if tc.block {
				r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { return "no" })
			}
			var mu sync.Mutex
			var got1, got2 []registry.Telemetry
			r.Observe(func(tm registry.Telemetry) { mu.Lock(); got1 = append(got1, tm); mu.Unlock() })
			r.Observe(func(tm registry.Telemetry) { mu.Lock(); got2 = append(got2, tm); mu.Unlock() })

			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			start := time.Now()
			res, err := r.CallTool(ctx, tc.tool, tc.params, registry.CallOptions{ID: "tid", EmitEvents: tc.emit})
			elapsed := time.Since(start)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v (%q)", res.IsError, tc.isError, res.Text())
			}
			if len(got1) != 1 || len(got2) != 1 {
				t.Fatalf("observers got %d and %d events, want exactly 1 each", len(got1), len(got2))
			}
			tm := got1[0]
			if !reflect.DeepEqual(tm, got2[0]) {
				t.Errorf("observers saw different telemetry: %+v vs %+v", tm, got2[0])
			}
			if tm.ID != "tid" || tm.Name != tc.tool {
				t.Errorf("telemetry ID/Name = %q/%q, want tid/%q", tm.ID, tm.Name, tc.tool)
			}
			wantParams := tc.params
			if wantParams == nil {
				wantParams = map[string]any{}
			}
			if !reflect.DeepEqual(tm.Params, wantParams) {
				t.Errorf("telemetry Params = %#v, want %#v", tm.Params, wantParams)
			}
			if !reflect.DeepEqual(tm.Result, res) {
				t.Errorf("telemetry Result = %#v, want the returned %#v", tm.Result, res)
			}
			if tm.Err != err {
				t.Errorf("telemetry Err = %v, want the returned error %v", tm.Err, err)
			}
			if tm.Duration < 0 || tm.Duration > elapsed {
				t.Errorf("telemetry Duration = %v, want within [0, %v]", tm.Duration, elapsed)
			}
			if tc.tool == "ok" && !tc.wantErr && !tc.isError && tm.Duration < 2*time.Millisecond {
				t.Errorf("telemetry Duration = %v, want at least the tool's 2ms", tm.Duration)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Concurrency

// TestConcurrentCallsAndMutation runs many callers while the registry is
// changed underneath them. Run with -race.
func TestConcurrentCallsAndMutation(t *testing.T) {
	r := registry.New()
	stable := newTool("stable")
	stable.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	stable.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		call.Update(registry.TextResult("partial"))
		return registry.Result{Content: []registry.Content{registry.TextContent(fmt.Sprint(call.Params["n"]))}, Details: call.Params["n"]}, nil
	}
	flip := newTool("flip")
	flip.CallSignature = "async function flip(): Promise<string>"
	flip.Execute = echoExec("v0")
	mustRegister(t, r, stable, flip)

	const callers, perCaller, mutations = 16, 150, 200
	var wg sync.WaitGroup
	stop := make(chan struct{})

	// Mutator: registers new tools and overrides flip back and forth.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range mutations {
			nt := newTool(fmt.Sprintf("dyn_%d", i))
			nt.CallSignature = fmt.Sprintf("async function dyn%d(): Promise<void>", i)
			if err := r.Register(nt); err != nil {
				t.Errorf("Register dyn_%d: %v", i, err)
			}
			of := newTool("flip")
			of.Execute = echoExec(fmt.Sprintf("v%d", i%2))
			if i%3 == 0 {
				of.CallSignature = fmt.Sprintf("async function flip%d(): Promise<string>", i%2)
			}
			if err := r.Override(of); err != nil {
				t.Errorf("Override flip: %v", err)
			}
			if i%50 == 0 {
				r.Observe(func(registry.Telemetry) {})
				r.OnToolCall(func(context.Context, registry.ToolCallEvent) string { return "" })
				r.OnToolResult(func(context.Context, registry.ToolResultEvent) *registry.Result { return nil })
			}
		}
	}()
	// Readers of the tool list.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			infos := r.Tools()
			if len(infos) < 2 || infos[0].Name != "stable" || infos[1].Name != "flip" {
				t.Errorf("Tools() prefix = %v", names(infos))
				return
			}
			if _, ok := r.Lookup("flip"); !ok {
				t.Errorf("Lookup(flip) failed during Override")
				return
			}
		}
	}()
	var callerWG sync.WaitGroup
	for g := range callers {
		callerWG.Add(1)
		go func() {
			defer callerWG.Done()
			for i := range perCaller {
				n := g*perCaller + i
				var updates int
				res, err := r.CallTool(context.Background(), "stable", map[string]any{"n": n}, registry.CallOptions{
					EmitEvents: i%2 == 0,
					OnUpdate:   func(registry.Result) { updates++ },
				})
				if err != nil || res.IsError || res.Text() != fmt.Sprint(n) || res.Details != n || updates != 1 {
					t.Errorf("stable call %d = %+v, %v (updates %d)", n, res, err, updates)
					return
				}
				res, err = r.CallTool(context.Background(), "flip", nil, registry.CallOptions{})
				if err != nil || (res.Text() != "v0" && res.Text() != "v1") {
					t.Errorf("flip call = %+v, %v", res, err)
					return
				}
				dyn := fmt.Sprintf("dyn_%d", n%mutations)
				res, err = r.CallTool(context.Background(), dyn, nil, registry.CallOptions{})
				if err != nil && !errors.Is(err, registry.ErrToolNotFound) || err == nil && res.Text() != dyn {
					t.Errorf("%s call = %+v, %v", dyn, res, err)
					return
				}
			}
		}()
	}
	callerWG.Wait()
	close(stop)
	wg.Wait()
	if got := len(r.Tools()); got != 2+mutations {
		t.Errorf("len(Tools()) = %d, want %d", got, 2+mutations)
	}
}

func TestConcurrentIDsAreUnique(t *testing.T) {
	r := registry.New()
	mustRegister(t, r, newTool("t"))
	var mu sync.Mutex
	seen := map[string]int{}
	r.Observe(func(tm registry.Telemetry) { mu.Lock(); seen[tm.ID]++; mu.Unlock() })
	const G, N = 32, 100
	var wg sync.WaitGroup
	for range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range N {
				_, _ = r.CallTool(context.Background(), "t", nil, registry.CallOptions{})
			}
		}()
	}
	wg.Wait()
	if len(seen) != G*N {
		t.Errorf("%d distinct IDs for %d calls", len(seen), G*N)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("ID %q used %d times", id, n)
		}
	}
}

// TestConcurrentHookEventsAreIsolated checks that concurrent calls with hooks
// never see each other's IDs, params or results, and that hooks whose state
// is guarded by their own lock are race-free under the registry.
func TestConcurrentHookEventsAreIsolated(t *testing.T) {
	r := registry.New()
	tool := newTool("echo")
	tool.Parameters = registry.MustParseSchema(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	tool.Execute = func(ctx context.Context, call registry.Call) (registry.Result, error) {
		return registry.TextResult(fmt.Sprint(call.Params["n"])), nil
	}
	mustRegister(t, r, tool)

	type rec struct {
		callN   any
		resultN string
	}
	var mu sync.Mutex
	byID := map[string]*rec{}
	r.OnToolCall(func(_ context.Context, ev registry.ToolCallEvent) string {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := byID[ev.ID]; dup {
			t.Errorf("tool_call hook saw ID %q twice", ev.ID)
		}
		byID[ev.ID] = &rec{callN: ev.Params["n"]}
		return ""
	})
	r.OnToolResult(func(_ context.Context, ev registry.ToolResultEvent) *registry.Result {
		mu.Lock()
		defer mu.Unlock()
		rc := byID[ev.ID]
		if rc == nil {
			t.Errorf("tool_result hook for ID %q without a tool_call", ev.ID)
			return nil
		}
		if ev.Params["n"] != rc.callN {
			t.Errorf("ID %q: result hook params n=%v, call hook saw %v", ev.ID, ev.Params["n"], rc.callN)
		}
		rc.resultN = ev.Result.Text()
		// Tag the result so the caller can check it got its own.
		out := registry.TextResult(ev.ID + ":" + ev.Result.Text())
		return &out
	})

	const G, N = 24, 60
	var wg sync.WaitGroup
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range N {
				n := g*N + i
				id := fmt.Sprintf("g%d_%d", g, i)
				res, err := r.CallTool(context.Background(), "echo", map[string]any{"n": n}, registry.CallOptions{ID: id, EmitEvents: true})
				if want := fmt.Sprintf("%s:%d", id, n); err != nil || res.Text() != want {
					t.Errorf("call %s = %q, %v; want %q", id, res.Text(), err, want)
				}
			}
		}()
	}
	wg.Wait()
	if len(byID) != G*N {
		t.Fatalf("hooks saw %d calls, want %d", len(byID), G*N)
	}
	for id, rc := range byID {
		if fmt.Sprint(rc.callN) != rc.resultN {
			t.Errorf("ID %s: call hook n=%v but result %q", id, rc.callN, rc.resultN)
		}
	}
}

// ---------------------------------------------------------------------------
// tool.go helpers

func TestResultHelpers(t *testing.T) {
	img := registry.ImageContent("AAAA", "image/png")
	if img != (registry.Content{Type: "image", Data: "AAAA", MimeType: "image/png"}) {
		t.Errorf("ImageContent = %+v", img)
	}
	tests := []struct {
		res  registry.Result
		want string
	}{
		{registry.Result{}, ""},
		{registry.TextResult("one"), "one"},
		{registry.Result{Content: []registry.Content{registry.TextContent("a"), img, registry.TextContent("b")}}, "a\nb"},
		{registry.Result{Content: []registry.Content{img}}, ""},
		{registry.Result{Content: []registry.Content{registry.TextContent(""), registry.TextContent("")}}, "\n"},
	}
	for _, tc := range tests {
		if got := tc.res.Text(); got != tc.want {
			t.Errorf("Text(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
	if tr := registry.TextResult("x"); tr.IsError || tr.Details != nil || len(tr.Content) != 1 || tr.Content[0] != registry.TextContent("x") {
		t.Errorf("TextResult = %+v", tr)
	}
}

func TestParseSchema(t *testing.T) {
	m, err := registry.ParseSchema(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	if err != nil || m["type"] != "object" {
		t.Errorf("ParseSchema = %v, %v", m, err)
	}
	for _, bad := range []string{``, `{`, `[]`, `"object"`, `{"type":}`} {
		if m, err := registry.ParseSchema(bad); err == nil || !strings.Contains(err.Error(), "parse schema") {
			t.Errorf("ParseSchema(%q) = %v, %v; want a parse error", bad, m, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustParseSchema of bad JSON did not panic")
		}
	}()
	registry.MustParseSchema(`{`)
}

// TestValidNameMatchesPattern checks validName against the pattern it
// stands for.
func TestValidNameMatchesPattern(t *testing.T) {
	names := []string{"", "a", "read", "fs_read-2", "Read", "read\n", "réad", "a b", "fs/read", "a.b", "get.Item-2",
		strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("A", 128), strings.Repeat("A", 129), "_", "-", ".", "9"}
	for _, tt := range []struct {
		pattern    string
		namespaced bool
	}{{registry.NamePatternForTest, false}, {registry.NamespacedPatternForTest, true}} {
		re := regexp.MustCompile(tt.pattern)
		for _, n := range names {
			if got, want := registry.ValidNameForTest(n, tt.namespaced), re.MatchString(n); got != want {
				t.Errorf("validName(%q, %v) = %v, the pattern %s says %v", n, tt.namespaced, got, tt.pattern, want)
			}
		}
	}
}
