package promptgen

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// onlyNamed returns the tools of testTools with the given names, in order.
func onlyNamed(names ...string) []registry.Info {
	var out []registry.Info
	for _, t := range testTools() {
		for _, n := range names {
			if t.Name == n {
				out = append(out, t)
			}
		}
	}
	return out
}

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		golden string
		tools  []registry.Info
		opts   Options
	}{
		{"render_default.golden", testTools(), Options{}},
		{"render_full.golden", testTools(), Options{FullDescriptions: true}},
		{"render_example.golden", testTools(), Options{Example: true}},
		{"render_example_generic.golden", onlyNamed("grep", "deploy"), Options{Example: true}},
		{"render_example_noargs.golden", onlyNamed("deploy", "todo-list"), Options{Example: true}},
		{"render_empty.golden", onlyNamed("deploy"), Options{Example: true}},
		{"render_header.golden", onlyNamed("read"), Options{Header: "\n\nYou can run code.\nAwait everything.\n\n"}},
		{"render_session.golden", onlyNamed("read"), Options{Session: true}},
		{"render_session_header.golden", onlyNamed("read"), Options{Session: true, Header: "You can run code."}},
		{"render_strategy_react.golden", onlyNamed("read"), Options{Strategy: React}},
		{"render_strategy_plan_act_reflect.golden", onlyNamed("read"), Options{Strategy: PlanActReflect}},
		{"render_strategy_goal_decompose_route_synthesise.golden", onlyNamed("read"), Options{Strategy: GoalDecomposeRouteSynthesise}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			checkGolden(t, tt.golden, []byte(Render(tt.tools, tt.opts)))
		})
	}
}

func TestRenderNilTools(t *testing.T) {
	if got, want := Render(nil, Options{}), Render([]registry.Info{}, Options{Example: true}); got != want {
		t.Errorf("nil and empty tool lists render differently:\n%s\n---\n%s", got, want)
	}
	if got := Render(nil, Options{}); !strings.Contains(got, "```ts\n"+noFunctions+"\n```\n") {
		t.Errorf("empty list lacks the no-functions fence:\n%s", got)
	}
}

func TestRenderSkipsToolsWithoutSignature(t *testing.T) {
	for _, opts := range []Options{{}, {FullDescriptions: true}, {Example: true}} {
		got := Render(testTools(), opts)
		if strings.Contains(got, "Deploy the current build") || strings.Contains(got, "deploy") {
			t.Errorf("opts %+v: tool without a call signature is rendered:\n%s", opts, got)
		}
	}
}

func TestRenderSignatureCleanup(t *testing.T) {
	got := Render(testTools(), Options{})
	for _, want := range []string{
		"\nasync function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>\n",
		"\nasync function grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean }): Promise<string>\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing trimmed signature line %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, ">;") {
		t.Errorf("trailing semicolon kept:\n%s", got)
	}
}

func TestRenderDeterministic(t *testing.T) {
	for _, opts := range []Options{{}, {FullDescriptions: true}, {Example: true}} {
		a, b := Render(testTools(), opts), Render(testTools(), opts)
		if a != b {
			t.Errorf("opts %+v: two renders differ:\n%s\n---\n%s", opts, a, b)
		}
	}
}

func TestRenderDoesNotMutate(t *testing.T) {
	tools := testTools()
	for _, opts := range []Options{{}, {FullDescriptions: true}, {Example: true}} {
		Render(tools, opts)
	}
	if !reflect.DeepEqual(tools, testTools()) {
		t.Error("Render modified its input")
	}
}

// callee matches a call of a plain (not method) function.
var callee = regexp.MustCompile(`(^|[^.\w$])([A-Za-z_$][\w$]*)\s*\(`)

func TestRenderExampleCallsOnlyListedFunctions(t *testing.T) {
	keywords := map[string]bool{"async": true, "catch": true, "if": true, "for": true, "while": true}
	lists := [][]registry.Info{
		testTools(),
		onlyNamed("grep"),
		onlyNamed("todo-list"),
		onlyNamed("read"),
		{{Name: "odd", Description: "x", CallSignature: "not a signature"}},
		{{Name: "fetch_url", Description: "Fetch.", CallSignature: "function fetchUrl(url: string, opts?: { headers?: Record<string, string> }): Promise<any>"}},
	}
	for _, tools := range lists {
		out := Render(tools, Options{Example: true})
		_, ex, found := strings.Cut(out, "\nExample:\n")
		listed := map[string]bool{}
		for _, tl := range tools {
			if f := parseFunction(strings.TrimSpace(tl.CallSignature)); f.name != "" {
				listed[f.name] = true
			}
		}
		if len(listed) > 0 && !found {
			t.Errorf("no example for functions %v:\n%s", listed, out)
		}
		if len(listed) == 0 && found {
			t.Errorf("example printed with no callable functions:\n%s", out)
		}
		for _, m := range callee.FindAllStringSubmatch(ex, -1) {
			if name := m[2]; !listed[name] && !keywords[name] {
				t.Errorf("example calls %s, which is not listed (%v):\n%s", name, listed, ex)
			}
		}
	}
}

func TestFirstSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Read a file. Then more.", "Read a file."},
		{"v1.2 is out. x", "v1.2 is out."},
		{"Search files!  Respects .gitignore.", "Search files!"},
		{"Is it there? Maybe.", "Is it there?"},
		{"No period here", "No period here"},
		{"First line without end\nSecond line. More.", "First line without end"},
		{"Ends at line end.\nNext line", "Ends at line end."},
		{"  \n\n  Leading   blank\tlines. Rest", "Leading blank lines."},
		{"Windows line\r\nnext", "Windows line"},
		{"Tab\tafter.\tnext", "Tab after."},
		{"Path ./a.b.c is used.", "Path ./a.b.c is used."},
		{"Ellipsis... then", "Ellipsis..."},
		{"Dot at end.", "Dot at end."},
		{"", ""},
		{"   \n\t ", ""},
		{"Résumé ok. Next", "Résumé ok."},
	}
	for _, tt := range tests {
		if got := FirstSentence(tt.in); got != tt.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseFunction(t *testing.T) {
	tests := []struct {
		sig  string
		want function
	}{
		{"async function read(path: string, options?: { offset?: number }): Promise<string>", function{"read", 2, true}},
		{"async function read(path: string): Promise< string >;", function{"read", 1, true}},
		{"async function read(\n  path: string,\n): Promise<string>", function{"read", 1, true}},
		{"function f(cb: (a: number, b: string) => void, x: number): void", function{"f", 2, false}},
		{"declare async function todoList(): Promise<Item[]>", function{"todoList", 0, false}},
		{"export function g(m: Map<string, number>)", function{"g", 1, false}},
		{"async function $x_1(a)", function{"$x_1", 1, false}},
		{"not a signature", function{}},
		// Not read(path: string): Promise<string>.
		{"async function read(path?: string): Promise<string>", function{"read", 1, false}},
		{"async function read(file: string): Promise<string>", function{"read", 1, false}},
		{"async function read(path: number): Promise<string>", function{"read", 1, false}},
		{"async function read(path: string): Promise<string | null>", function{"read", 1, false}},
		{"async function read(path: string): string", function{"read", 1, false}},
		{"async function load(path: string): Promise<string>", function{"load", 1, false}},
		// Where the regular expressions this replaces were wrong: comments
		// and defaults are part of the syntax, and a malformed signature
		// names no function to call.
		{"async function read(/* the file */ path: string): Promise<string>", function{"read", 1, true}},
		{"async function read(path: string): Promise<string> // the text", function{"read", 1, true}},
		{"async function read(path: string, limit = 10): Promise<string>", function{"read", 2, true}},
		{"async function broken(a: string", function{}},
		{"async function f(a: string): Promise<{ x: (y) => void }>", function{"f", 1, false}},
	}
	for _, tt := range tests {
		if got := parseFunction(tt.sig); got != tt.want {
			t.Errorf("parseFunction(%q) = %+v, want %+v", tt.sig, got, tt.want)
		}
	}
}

func TestRenderExampleReadsSignatures(t *testing.T) {
	// Signatures the regular expressions that parseFunction replaced did
	// not recognize as read(path: string): Promise<string>.
	for _, sig := range []string{
		"async function read(/* the file */ path: string): Promise<string>",
		"async function read(path: string): Promise<string> // the text",
	} {
		out := Render([]registry.Info{{Name: "read", Description: "Read.", CallSignature: sig}}, Options{Example: true})
		if !strings.Contains(out, readExample) {
			t.Errorf("%s: not given the read example:\n%s", sig, out)
		}
	}
	// A malformed signature is listed as written but called by no example.
	out := Render([]registry.Info{{Name: "broken", Description: "Broken.", CallSignature: "async function broken(a: string"}}, Options{Example: true})
	if !strings.Contains(out, "\nasync function broken(a: string\n") || strings.Contains(out, "Example:") {
		t.Errorf("malformed signature rendered as:\n%s", out)
	}
}

func FuzzFirstSentence(f *testing.F) {
	for _, s := range []string{"Read a file. Then more.", "v1.2 is out. x", "a\nb", "?!.", " \t\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := FirstSentence(s)
		if strings.ContainsAny(got, "\r\n\t") || strings.Contains(got, "  ") || got != strings.TrimSpace(got) {
			t.Errorf("FirstSentence(%q) = %q: not collapsed", s, got)
		}
		if len(got) > len(s) {
			t.Errorf("FirstSentence(%q) = %q: longer than input", s, got)
		}
		if FirstSentence(got) != got {
			t.Errorf("FirstSentence(%q) = %q: not idempotent", s, got)
		}
	})
}

func FuzzParseFunction(f *testing.F) {
	for _, s := range []string{"async function read(path: string): Promise<string>", "function f(a: (x) => void, b)", "function g(<>)=>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fn := parseFunction(s)
		if fn.name == "" && (fn.arity != 0 || fn.read) {
			t.Errorf("parseFunction(%q) = %+v: fields without a name", s, fn)
		}
		_ = Render([]registry.Info{{Name: "x", Description: s, CallSignature: s}}, Options{Example: true, FullDescriptions: true})
	})
}

// parseFunction reads a signature with signature.Parse; a signature that
// does not parse gives the zero function, which no example calls.
func parseFunction(text string) function {
	sig, err := signature.Parse(text)
	if err != nil {
		return function{}
	}
	return functionOf(sig)
}
