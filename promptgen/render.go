// Package promptgen renders what a model needs to use code execution: the
// system-prompt block that documents the tools bound in snippets (Render), and
// the code_execution tool definition in each provider's format (Definition),
// with the provider schema rules available for any tool (ToolDefinition,
// ForOpenAI, ForGoogle). Every function is pure and deterministic: the same
// input gives the same bytes, and no input is modified.
//
// For a catalog too large to list (NeedsCatalog), Render writes an index and
// declares search_tools and tool_doc, whose answers SearchTools and ToolDoc
// render. The package builds no executable tool: the two tools themselves
// are made by package toolset (toolset.CatalogTools, registered by
// toolset.Open under the same NeedsCatalog test). promptgen imports
// registry, registry/signature and internal packages only.
package promptgen

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// DefaultHeader is the text Render puts before the function list unless
// Options.Header replaces it. Every global it names beyond ECMAScript
// (Globals) exists in a run.
const DefaultHeader = `The code_execution tool runs a TypeScript snippet (types are stripped, not checked) in a sandboxed JavaScript engine.
- The functions below are async globals: call them directly and ` + "`await`" + ` every call; ` + "`Promise.all([...])`" + ` runs calls in parallel. Top-level ` + "`await`" + ` and ` + "`return`" + ` work.
- You get back what the snippet prints, stdout (console.log, info, debug) and stderr (console.error, warn), formatted as Node's console.log, and its return value.
- A failed tool call rejects with an Error named "ToolError" whose message is the tool's error text (a built-in tool's starts with its name, "read: …"), with ` + "`e.tool`" + ` (the name) and ` + "`e.details`" + ` (the tool's data); catch it with try/catch. ` + "`callTool(name, params)`" + ` calls any tool by name and resolves to ` + "`{content, details, isError}`" + `, even when the tool fails: content is a list of blocks such as ` + "`{type: \"text\", text}`" + ` (no text key when the text is empty), details the tool's data; it rejects only for an unknown name.
- Globals beyond ECMAScript: ` + Globals + `. There is no network (fetch rejects), no modules (no import; require gives only path and util) and no host environment (process.env has no host variables): files and commands only through the functions below.
- ES2023+ built-ins work: ` + NewerBuiltins + `; ` + "`Array.fromAsync`" + ` does not.
- Loop, filter and aggregate in code, and print only what you need.`

// NewerBuiltins lists the ECMAScript 2023 and later built-ins that
// DefaultHeader says a run has, as it prints them.
const NewerBuiltins = "array `toSorted`, `toReversed`, `toSpliced`, `with`, `findLast`, `findLastIndex`; `Object.groupBy`, `Map.groupBy`, `Promise.withResolvers`, string `isWellFormed`, `Set` `union`, `intersection`, `difference`"

// SessionNote is the line Render adds after the header when
// Options.Session is set.
const SessionNote = "- State carries between snippets: top-level `const`, `let`, `function` and `class` declarations and whatever you put on `globalThis` stay defined in your next snippet (a repeated declaration replaces the value). Reuse them instead of reading and parsing again. If the session had to restart, the output says so, and nothing from before is defined."

// Globals is the list of globals beyond ECMAScript that DefaultHeader names,
// as the header prints it.
const Globals = "console, setTimeout/setInterval/setImmediate, queueMicrotask, structuredClone, Buffer, process (env, argv, cwd, exit, nextTick, hrtime, stdout.write), TextEncoder/TextDecoder, URL/URLSearchParams, atob/btoa, crypto (randomUUID, getRandomValues), performance.now, EventTarget/Event, AbortController/AbortSignal, Intl (Collator, DateTimeFormat, DisplayNames, ListFormat, NumberFormat, PluralRules, RelativeTimeFormat, Segmenter), path (POSIX), util (format, inspect, isDeepStrictEqual, types, promisify)"

// noFunctions is the fence body when no tool has a call signature.
const noFunctions = "// No tool functions are available."

// Options controls Render. The zero value renders the default header and the
// first paragraph of each description, without an example.
type Options struct {
	// FullDescriptions puts each tool's whole description above its
	// signature, one "//" comment line per description line, instead of its
	// first paragraph.
	FullDescriptions bool
	// Example appends a short example snippet after the function list. It
	// only calls functions from the list and is left out when the list is
	// empty.
	Example bool
	// Header, when it holds more than whitespace, replaces DefaultHeader.
	// Leading blank lines and trailing whitespace are trimmed.
	Header string
	// Budget is how many tokens (characters / 4) the function list may
	// take before Render lists the tools as a compact index instead (see
	// NeedsCatalog); 0 means DefaultBudget, a negative value no budget.
	Budget int
	// NoExamples leaves out the tools' examples, which are otherwise
	// written under each signature as calls with what they resolve to.
	NoExamples bool
	// Strategy adds, after the header, the mindset paragraph of a planning
	// strategy (see Strategies); the block is otherwise the same.
	Strategy Strategy
	// Session says that the snippets run in one session (a codeexec
	// Session), whose state carries from one snippet to the next: the
	// block then ends its header with SessionNote, after a custom Header
	// too, so that a model knows to rely on that state.
	Session bool
	// Limits, when set, are the runs' limits, which the header then states
	// (see LimitsNote), after a custom Header too: give the limits the
	// snippets will run with, so that a model plans within them.
	Limits *Limits
}

// Limits are the bounds of a run that Render states (Options.Limits);
// zero fields are left unsaid.
type Limits struct {
	// Timeout is the run's wall-clock limit, tool calls included.
	Timeout time.Duration
	// MaxCalls is the most tool calls a run may make.
	MaxCalls int
	// MaxOutputBytes is the most each of stdout and stderr keeps.
	MaxOutputBytes int
}

// LimitsNote is the header line that states l: "- Limits: a snippet runs
// for at most 30 s, tool calls included; ...", or "" when l says nothing.
func LimitsNote(l Limits) string {
	var parts []string
	if l.Timeout > 0 {
		parts = append(parts, "a snippet runs for at most "+durationText(l.Timeout)+", tool calls included, and is stopped then (what it printed is kept), so split longer work over several snippets")
	}
	if l.MaxCalls > 0 {
		parts = append(parts, fmt.Sprintf("at most %d tool calls per snippet", l.MaxCalls))
	}
	if l.MaxOutputBytes > 0 {
		parts = append(parts, "stdout and stderr keep at most "+tail.Size(int64(l.MaxOutputBytes))+" each (the middle of more is cut)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "- Limits: " + strings.Join(parts, "; ") + "."
}

// durationText says d as a person would: "30 s", "2 min", "1.5 s".
func durationText(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	case d > time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
	}
	return d.String()
}

// Render returns the system-prompt block for tools: the header, then one
// ```ts fence. The fence starts with the shared type declarations: each line
// of a description that is a TypeScript type alias ("type Plan = {...};"),
// declared once, in order of first appearance, however many tools carry it.
// Then it lists, in the given order, each tool that has a CallSignature as
// "//" comment lines with the first paragraph of its description (the text
// before its first blank line, type alias lines left out; the whole
// description with FullDescriptions) followed by its signature (trimmed,
// without a trailing ";"), tools separated by a blank line. When the
// function's name differs from the tool's, a further comment line gives the
// tool name that callTool takes. Tools without a CallSignature are left out
// (a registry gives every tool one). The tools of a namespace (MCP servers'
// tools) are written together, where the first of them comes, as one
// `declare namespace NS { ... }` block (see renderNamespace). When no tool
// has one, the fence still appears and holds the single comment "// No tool
// functions are available.", so a model reading the header is told plainly
// that there is nothing to call rather than left guessing. When the
// function list would be over opts.Budget, the fence instead holds
// search_tools and tool_doc and an index of the tools' function names
// follows (see NeedsCatalog). The result ends with a newline and depends
// only on its arguments.
func Render(tools []registry.Info, opts Options) string {
	var b strings.Builder
	header := strings.Trim(opts.Header, "\r\n")
	if strings.TrimSpace(header) == "" {
		header = DefaultHeader
	}
	header = strings.TrimRight(header, " \t\r\n")
	if opts.Limits != nil {
		if note := LimitsNote(*opts.Limits); note != "" {
			header += "\n" + note
		}
	}
	if opts.Session {
		header += "\n" + SessionNote
	}
	if p := opts.Strategy.paragraph(); p != "" {
		header += "\n\n" + p
	}
	summaries := make([]registry.Summary, len(tools))
	for i, t := range tools {
		summaries[i] = t.Summary()
	}
	if NeedsCatalog(summaries, opts) {
		return renderIndex(tools, opts, header)
	}
	b.WriteString(header)
	b.WriteString("\n\n```ts\n")

	if types := sharedTypes(tools); len(types) > 0 {
		b.WriteString(strings.Join(types, "\n") + "\n\n")
	}

	var funcs []function
	rendered := map[string]bool{} // namespaces already written
	for _, t := range tools {
		if t.Namespace != "" {
			if rendered[t.Namespace] {
				continue
			}
			rendered[t.Namespace] = true
			if fs := renderNamespace(&b, t.Namespace, tools, opts, len(funcs) > 0); len(fs) > 0 {
				funcs = append(funcs, fs...)
			}
			continue
		}
		sig := declaration(t)
		if sig == "" {
			continue
		}
		if len(funcs) > 0 {
			b.WriteString("\n")
		}
		funcs = append(funcs, writeTool(&b, t, sig, "", opts))
	}
	if len(funcs) == 0 {
		b.WriteString(noFunctions + "\n")
	}
	b.WriteString("```\n")

	if opts.Example {
		if ex := example(funcs); ex != "" {
			b.WriteString("\nExample:\n```ts\n" + ex + "```\n")
		}
	}
	return b.String()
}

// renderNamespace writes, where the namespace's first tool comes, a
// `declare namespace NS { ... }` block holding every tool of tools in
// namespace ns, in order: each a comment as for a global function, a
// comment with the tool's qualified name when the function's name differs
// from the tool's own, and its signature as an ambient declaration
// (`function f(...): T;`, without async). sep says whether a blank line
// must come first. It returns the functions written, named NS.f, for the
// example; none when no tool of ns has a signature.
func renderNamespace(b *strings.Builder, ns string, tools []registry.Info, opts Options, sep bool) []function {
	var body strings.Builder
	var funcs []function
	for _, t := range tools {
		sig := declaration(t)
		if t.Namespace != ns || sig == "" {
			continue
		}
		if len(funcs) > 0 {
			body.WriteString("\n")
		}
		funcs = append(funcs, writeTool(&body, t, sig, ns, opts))
	}
	if len(funcs) == 0 {
		return nil
	}
	if sep {
		b.WriteString("\n")
	}
	b.WriteString("declare namespace " + ns + " {\n" + body.String() + "}\n")
	return funcs
}

// declaration is t's CallSignature trimmed, without a final ";"; "" when
// it has none.
func declaration(t registry.Info) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t.CallSignature), ";"))
}

// writeTool writes tool t, whose declaration is sig, and returns its
// function for the example: the comment of its text, a comment with its
// tool name when the function's name differs from it, the signature and
// its examples. Outside a namespace (ns "") the signature is written as
// it is; in namespace ns every line is indented two spaces, the signature
// is an ambient declaration (`function f(...): T;`, without async), the
// tool name compared is the one within ns, and the function is named
// NS.f.
func writeTool(b *strings.Builder, t registry.Info, sig, ns string, opts Options) function {
	parsed, _ := signature.ParseShared(sig) // nil when it does not parse
	fn := functionOf(parsed)
	indent, own, decl, callee := "", t.Name, sig, ""
	if ns != "" {
		indent, own, decl, callee = "  ", strings.TrimPrefix(t.Name, ns+"."), strings.TrimSpace(strings.TrimPrefix(sig, "async "))+";", ns+"."
	}
	var comment strings.Builder
	writeCommentLines(&comment, toolText(t, opts))
	if fn.name != "" && fn.name != own {
		// callTool takes the tool's name, which the signature does not show.
		fmt.Fprintf(&comment, "// (tool name for callTool: %q)\n", t.Name)
	}
	for _, line := range strings.SplitAfter(comment.String(), "\n") {
		if line != "" {
			b.WriteString(indent + line)
		}
	}
	b.WriteString(indent + decl + "\n")
	if !opts.NoExamples && parsed != nil {
		for _, l := range exampleLines(t, parsed, callee+parsed.Name) {
			b.WriteString(indent + l + "\n")
		}
	}
	if ns != "" {
		if fn.name != "" {
			fn.name = ns + "." + fn.name
		}
		fn.read = false
	}
	return fn
}

// toolText is what the block says of a tool above its signature: its
// description without type alias lines (declared once at the top), cut to
// the first paragraph unless opts.FullDescriptions.
func toolText(t registry.Info, opts Options) string {
	desc := description(t.Description)
	if !opts.FullDescriptions {
		desc = firstParagraph(desc)
	}
	return desc
}

// description is a tool's description without its type alias lines (see
// splitTypes).
func description(desc string) string {
	_, rest := splitTypes(desc)
	return rest
}

// sharedTypes returns the type alias lines of the descriptions of the tools
// that have a CallSignature, each once, in order of first appearance.
func sharedTypes(tools []registry.Info) []string {
	var types []string
	seen := map[string]bool{}
	for _, t := range tools {
		if strings.TrimSpace(t.CallSignature) == "" {
			continue
		}
		ts, _ := splitTypes(t.Description)
		for _, line := range ts {
			if !seen[line] {
				seen[line] = true
				types = append(types, line)
			}
		}
	}
	return types
}

// splitTypes separates the lines of desc that declare a TypeScript type alias
// ("type Name = ...", trimmed) from the rest of the description.
func splitTypes(desc string) (types []string, rest string) {
	lines := strings.Split(strings.ReplaceAll(desc, "\r\n", "\n"), "\n")
	kept := lines[:0]
	for _, line := range lines {
		if l := strings.TrimSpace(line); isTypeAlias(l) {
			types = append(types, l)
			continue
		}
		kept = append(kept, line)
	}
	return types, strings.Join(kept, "\n")
}

// isTypeAlias reports whether line reads "type Name = ...".
func isTypeAlias(line string) bool {
	rest, ok := strings.CutPrefix(line, "type ")
	if !ok {
		return false
	}
	name, _, ok := strings.Cut(rest, " = ")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

// firstParagraph returns desc up to its first blank line, trimmed.
func firstParagraph(desc string) string {
	desc = strings.TrimSpace(strings.ReplaceAll(desc, "\r\n", "\n"))
	lines := strings.Split(desc, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return strings.Join(lines[:i], "\n")
		}
	}
	return desc
}

// FirstSentence returns the first sentence of a description: the text up to
// and including the first ".", "!" or "?" that is followed by whitespace or
// ends the text, or the first line, whichever is shorter; leading and
// trailing whitespace is trimmed and inner runs of whitespace become one
// space. It returns "" for a blank description.
func FirstSentence(desc string) string {
	desc = strings.TrimSpace(desc)
	if i := strings.IndexAny(desc, "\r\n"); i >= 0 {
		desc = desc[:i]
	}
	for i := 0; i < len(desc); i++ {
		switch desc[i] {
		case '.', '!', '?':
			if i+1 == len(desc) || isSpace(desc[i+1]) {
				desc = desc[:i+1]
				return strings.Join(strings.Fields(desc), " ")
			}
		}
	}
	return strings.Join(strings.Fields(desc), " ")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// writeCommentLines writes desc as "//" comment lines, keeping its line
// breaks; blank lines become a bare "//".
func writeCommentLines(b *strings.Builder, desc string) {
	desc = strings.TrimSpace(strings.ReplaceAll(desc, "\r\n", "\n"))
	if desc == "" {
		return
	}
	for _, line := range strings.Split(desc, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			b.WriteString("//\n")
			continue
		}
		b.WriteString("// " + line + "\n")
	}
}

// function is what the example needs to know about one signature.
type function struct {
	name  string // JS name, "" when the signature does not parse
	arity int    // number of parameters
	// read is a read(path: string, ...): Promise<string>, which gets a
	// concrete example.
	read bool
}

// functionOf is the function of a parsed signature; nil (a signature that
// did not parse) gives the zero function.
func functionOf(sig *signature.Signature) function {
	if sig == nil {
		return function{}
	}
	f := function{name: sig.Name, arity: len(sig.Params)}
	if len(sig.Params) > 0 {
		p := sig.Params[0]
		ret := sig.Returns
		f.read = sig.Name == "read" && p.Name == "path" && !p.Optional && !p.Rest && p.Type.IsString() &&
			ret != nil && ret.Kind == signature.KindGeneric && ret.Name == "Promise" && len(ret.Args) == 1 && ret.Args[0].IsString()
	}
	return f
}

// example returns a snippet that calls one of funcs, or "" when none can be
// called. A read(path: string): Promise<string> function gets a concrete
// example; otherwise the first named function is used as a template.
func example(funcs []function) string {
	for _, f := range funcs {
		if f.read {
			return readExample
		}
	}
	for _, f := range funcs {
		if f.name == "" {
			continue
		}
		if f.arity == 0 {
			return strings.ReplaceAll(noArgExample, "FN", f.name)
		}
		return strings.ReplaceAll(genericExample, "FN", f.name)
	}
	return ""
}

const readExample = `const paths = ["README.md", "go.mod"];
const lines = await Promise.all(paths.map(async (p) => {
  try {
    const text = await read(p);
    return ` + "`${p}: ${text.split(\"\\n\").length} lines`" + `;
  } catch (e) {
    return ` + "`${p}: ${e.name}: ${e.message}`" + `; // e.name is "ToolError"
  }
}));
console.log(lines.join("\n"));
`

const genericExample = `const inputs = [/* arguments for FN */];
const results = await Promise.all(inputs.map(async (x) => {
  try {
    return { ok: true, value: await FN(x) };
  } catch (e) {
    return { ok: false, error: ` + "`${e.name}: ${e.message}`" + ` }; // e.name is "ToolError"
  }
}));
console.log(` + "`${results.filter((r) => r.ok).length} of ${results.length} calls succeeded`" + `);
return results.filter((r) => !r.ok);
`

const noArgExample = `try {
  console.log(await FN());
} catch (e) {
  console.log(` + "`${e.name}: ${e.message}`" + `); // e.name is "ToolError"
}
`
