// Package transform turns a snippet into a program for goja: it strips
// TypeScript types with esbuild (skipping esbuild when the snippet is
// plain JavaScript that cannot mean something else in TypeScript), wraps
// the snippet in an async function so that top-level await and return
// work, refuses module syntax with a message saying why, and maps
// positions in the code goja runs back to the snippet through esbuild's
// source map. It also bounds how deeply a snippet's brackets nest, which
// the parsers would otherwise overflow on, and finds, once per compile,
// the Features of the program: which of the additions the runtime
// installs on demand its code may use. Positions are 1-based, columns
// in UTF-16 code units as in Node and editors.
//
// Its functions are safe for concurrent use; a Program is not (it makes
// its source map on first use).
package transform

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"
)

// wrapPrefix and wrapSuffix turn a snippet into the body of an async arrow
// function, which gives it top-level await and top-level return. The prefix
// sits on the snippet's first line, so only line-1 columns shift.
const (
	wrapPrefix = "(async () => {"
	wrapSuffix = "\n})()"
)

// ModulesHint ends every message about import, export and require.
const ModulesHint = "modules are not available in a snippet; tools are global async functions (call them directly, for example `await read(\"go.mod\")`)"

// Diagnostic is a problem found in the snippet's source, positioned in the
// original file: 1-based line, and 1-based column counted in UTF-16 code
// units as Node and editors count them.
type Diagnostic struct {
	File     string
	Line     int
	Column   int
	Message  string
	LineText string
}

// String renders d in esbuild's "file:line:col: error: message" form.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: error: %s", d.File, d.Line, d.Column, d.Message)
}

// transformed is the JavaScript that goja runs.
type transformed struct {
	code string
	// input is what esbuild was given (the snippet with type-only imports
	// and export keywords blanked), to make the source map from on demand.
	input string
}

// Program is a snippet compiled for goja, with what it takes to map
// positions in the code goja runs back to the snippet.
type Program struct {
	code     *goja.Program
	filename string
	// name is the code's name in goja's stacks: filename, unless
	// CompileSessionNamed gave another.
	name   string
	source string
	// mu guards the parts made on first use (lines, smap): a compiled
	// Program is shared by the runs of the same snippet.
	mu    sync.Mutex
	lines []string // source's lines, split on first use
	// transformed is set when the snippet went through esbuild, whose
	// output has other positions than the snippet; smap maps them back,
	// made on first use.
	transformed *transformed
	smap        *sourcemap.Consumer
	// globals and insertions are set by CompileSession's rewrite: the
	// names the snippet declares at top level, and the text inserted into
	// the code goja runs, whose columns Position takes out again.
	globals    []Global
	insertions []insertion
	// readsStack is set when the code calls StackReader (see stack.go).
	readsStack bool
	// features are what the code may use of the on-demand additions
	// (see features.go).
	features Features
}

// needsTransform reports whether source must go through esbuild even when
// goja parses it as it is: a "<" in it may start TypeScript type arguments
// (see mayHaveTypeArguments), or it may hold a regular expression literal
// with \p{...}, which goja misreads.
func needsTransform(source string) bool {
	return strings.Contains(source, `\p{`) || strings.Contains(source, `\P{`) || mayHaveTypeArguments(source)
}

// Compile turns source into a program for goja. filename names it in
// stacks and diagnostics, and its extension picks the loader (.js, .mjs,
// .cjs: JavaScript; anything else: TypeScript, which accepts JavaScript
// too). Source that goja parses as JavaScript as it is, and that cannot
// mean something else in TypeScript, skips esbuild: stripping types is
// then a no-op and esbuild's fixed cost is most of a small run's. A
// snippet that does not compile gives a Diagnostic instead. Programs are
// cached by filename and source (see cache.go): compiling the same snippet
// again returns the same Program, which is safe to run in many runtimes at
// once.
func Compile(source, filename string) (*Program, *Diagnostic) {
	if p := programs.get(plainCompile, source, filename); p != nil {
		return p, nil
	}
	p, d := compile(source, filename, false)
	if d == nil {
		programs.put(plainCompile, source, filename, p)
	}
	return p, d
}

// compile is Compile, and CompileSession when session is set.
func compile(source, filename string, session bool) (*Program, *Diagnostic) {
	return compileNamed(source, filename, filename, session, false)
}

// compileNamed is compile with name as the code's name in goja's stacks.
func compileNamed(source, filename, name string, session, echo bool) (*Program, *Diagnostic) {
	p := &Program{filename: filename, name: name, source: source}
	// goja misreads a regular expression literal's \p{...}: such a
	// snippet goes through esbuild, which turns it into new RegExp(...).
	if !needsTransform(source) {
		wrapped := wrapPrefix + source + wrapSuffix
		// A snippet the fast path cannot compile goes through esbuild,
		// whose diagnostics name the snippet's own positions.
		if p.finish(wrapped, session, echo) == nil {
			return p, nil
		}
		p.globals, p.insertions = nil, nil
	}
	tr := transforms.get(plainCompile, source, filename)
	if tr == nil {
		var diags []Diagnostic
		if tr, diags = transform(source, filename); len(diags) > 0 {
			return nil, &diags[0]
		}
		if session {
			transforms.put(plainCompile, source, filename, tr)
		}
	}
	// Making and applying a source map costs more than the rest of
	// compiling, so positions are mapped only when an error needs them:
	// esbuild's output is deterministic, so transforming the same input
	// again with a source map describes this very code (see Position).
	p.transformed = tr
	if err := p.finish(tr.code, session, echo); err != nil {
		return nil, p.gojaDiagnostic(err)
	}
	return p, nil
}

// finish parses and compiles code into p.code; for a session, after
// hoisting its top-level declarations (see hoist); its stack reads are
// wrapped and its features found on the way (see instrument).
func (p *Program) finish(code string, session, echo bool) error {
	ast, err := parse(p.name, code)
	if err != nil {
		return err
	}
	if session {
		if hoisted := p.hoist(code, ast, echo); hoisted != code {
			if ast, err = parse(p.name, hoisted); err != nil {
				return err
			}
		}
	}
	p.readsStack, p.features = instrument(ast)
	prg, err := goja.CompileAST(ast, false)
	if err != nil {
		return err
	}
	p.code = prg
	return nil
}

// parse parses code with goja, source maps off (goja would read the file a
// sourceMappingURL comment names from the host's disk). goja's parser
// panics on some valid input (the string "\u{10FFFF}" in the goja this
// module pins): the panic is returned as a parse error, so that the host
// lives on and the snippet gets a compile error.
func parse(filename, code string) (prog *ast.Program, err error) {
	defer func() {
		if p := recover(); p != nil {
			// Point at the literal the panic names, when it names one.
			line, col := 1, 1
			msg := fmt.Sprint(p)
			if _, lit, ok := strings.Cut(msg, "while parsing '"); ok {
				lit = strings.TrimSuffix(lit, "'")
				if i := strings.Index(code, lit); lit != "" && i >= 0 {
					line = strings.Count(code[:i], "\n") + 1
					col = i - strings.LastIndex(code[:i], "\n")
				}
			}
			prog, err = nil, fmt.Errorf("%s: Line %d:%d the engine cannot parse this code (%s)", filename, line, col, msg)
		}
	}()
	return goja.Parse(filename, code, parser.WithDisableSourceMaps)
}

// Name returns the code's name in goja's stacks (see CompileSessionNamed).
func (p *Program) Name() string { return p.name }

// Code returns the program for goja to run. Its completion value is the
// promise of the wrapper's async function.
func (p *Program) Code() *goja.Program { return p.code }

// ReadsStack reports whether the program reads a stack through
// StackReader, which the runtime must then define.
func (p *Program) ReadsStack() bool { return p.readsStack }

// line returns line n (1-based) of the snippet, or "".
func (p *Program) line(n int) string {
	return lineAt(p.sourceLines(), n)
}

// Lines returns how many lines the snippet has (see SplitLines).
func (p *Program) Lines() int { return len(p.sourceLines()) }

// SourceLines returns the snippet's lines (split as SplitLines does), split
// once per program, on first use. The slice is shared by every run of the
// program: read only. Safe for concurrent use.
func (p *Program) SourceLines() []string { return p.sourceLines() }

// sourceLines returns the snippet's lines, split on first use.
func (p *Program) sourceLines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lines == nil {
		p.lines = SplitLines(p.source)
	}
	return p.lines
}

// gojaPosRE finds the position in goja's parser messages, which read
// "file: Line 2:19 Unexpected reserved word (and 3 more errors)" or end in
// "at file:2:19".
var gojaPosRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:Line |at [^\s:]+:)(\d+):(\d+)`) })

// gojaDiagnostic converts a goja parse error of the code to run. It
// happens for syntax esbuild passes and goja lacks: import() and
// import.meta, which get the modules message.
func (p *Program) gojaDiagnostic(err error) *Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "SyntaxError: ")
	d := Diagnostic{File: p.filename, Line: 1, Column: 1, Message: msg}
	if m := gojaPosRE().FindStringSubmatchIndex(msg); m != nil {
		line, _ := strconv.Atoi(msg[m[2]:m[3]])
		col, _ := strconv.Atoi(msg[m[4]:m[5]])
		d.Line, d.Column = p.Position(line, col)
		d.Message = strings.TrimSpace(strings.TrimPrefix(msg[m[1]:], ":"))
		if d.Message == "" || m[0] > len(p.name)+2 {
			d.Message = strings.TrimSpace(msg[:m[0]] + msg[m[1]:])
		}
	}
	d.LineText = p.line(d.Line)
	if i := strings.Index(d.LineText, "import"); i >= 0 {
		rest := strings.TrimLeft(d.LineText[i+len("import"):], " \t")
		if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, ".meta") {
			d.Message = "import() and import.meta are not supported: " + ModulesHint
			d.Column = i + 1
		}
	}
	return &d
}

// sourceMap returns the source map of the esbuild output, made on first
// use; nil when it cannot be made.
func (p *Program) sourceMap() *sourcemap.Consumer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.smap == nil {
		b, err := p.transformed.sourceMap(p.filename)
		if err != nil {
			return nil
		}
		if p.smap, err = sourcemap.Parse(p.filename+".map", b); err != nil {
			p.smap = nil
			return nil
		}
	}
	return p.smap
}

// Position maps a 1-based position in the code goja runs (as its stacks
// and parse errors give it) to the snippet, with the column in UTF-16
// units: through esbuild's source map (which counts UTF-16 units) when the
// snippet went through esbuild, and undoing the wrapper's shift of line-1
// columns. A line past the snippet's last is in the wrapper's closing
// call. A position the source map does not cover is returned unchanged.
func (p *Program) Position(line, col int) (int, int) {
	if len(p.insertions) > 0 {
		line, col = p.unedit(line, col)
	}
	if p.transformed == nil {
		// goja counts the columns of code it runs as written in bytes.
		if line == 1 {
			col = max(1, col-len(wrapPrefix))
		}
		return line, utf16Column(p.line(line), col)
	}
	smap := p.sourceMap()
	if smap == nil {
		return line, col
	}
	// The consumer takes and returns 0-based columns.
	_, _, l, c, ok := smap.Source(line, col-1)
	if !ok {
		return line, col
	}
	line, col = l, c+1
	if line == 1 {
		col = max(1, col-len(wrapPrefix))
	}
	return line, col
}

// loaderFor picks the esbuild loader from the file name; anything that is
// not plain JavaScript is treated as TypeScript, which accepts JavaScript too.
func loaderFor(filename string) api.Loader {
	switch path.Ext(filename) {
	case ".js", ".mjs", ".cjs":
		return api.LoaderJS
	}
	return api.LoaderTS
}

// esbuildOptions are the transform options for a snippet called filename.
func esbuildOptions(filename string, sourceMap bool) api.TransformOptions {
	opts := api.TransformOptions{
		Loader:     loaderFor(filename),
		Sourcefile: filename,
		Supported: map[string]bool{
			// goja has none of these; esbuild lowers them to code it runs.
			"async-generator": false,
			"for-await":       false,
			"using":           false,
			// goja misreads \p{...} and lacks the d flag: esbuild turns
			// literals with the u, y or d flag (or \p) into new RegExp(...)
			// calls, which package webapi's RegExp handles (or rejects
			// with a clear error).
			"regexp-unicode-property-escapes": false,
			"regexp-match-indices":            false,
			"regexp-sticky-and-unicode-flags": false,
		},
	}
	if sourceMap {
		opts.Sourcemap = api.SourceMapExternal
		opts.SourcesContent = api.SourcesContentExclude
	}
	return opts
}

// sourceMap transforms tr's input again, with a source map of the output.
func (tr *transformed) sourceMap(filename string) ([]byte, error) {
	res := api.Transform(wrapPrefix+tr.input+wrapSuffix, esbuildOptions(filename, true))
	if len(res.Errors) > 0 || string(res.Code) != tr.code {
		return nil, fmt.Errorf("source map for %s: the transform did not repeat itself", filename)
	}
	return res.Map, nil
}

// transform strips types from source and wraps it so that top-level await
// and return work. Type-only imports and `export` keywords are dropped; a
// value import or re-export is a Diagnostic saying that modules are
// unavailable. Diagnostics point into source and carry its own line text.
func transform(source, filename string) (*transformed, []Diagnostic) {
	lines := SplitLines(source)
	original := source
	// Each retry removes one import or export that esbuild rejected inside
	// the wrapper; a snippet rarely has more than a few.
	for range 32 {
		res := api.Transform(wrapPrefix+source+wrapSuffix, esbuildOptions(filename, false))
		if len(res.Errors) == 0 {
			return &transformed{code: string(res.Code), input: source}, nil
		}
		d := toDiagnostic(res.Errors[0], filename)
		if d.Line > len(lines) {
			d = beyondSource(original, filename, lines, d)
		}
		if fixed, ok := compileNamespace(source, d, filename); ok {
			source = fixed
			continue
		}
		fixed, diag, ok := dropModuleSyntax(source, lines, d)
		switch {
		case !ok:
			d.LineText = lineAt(lines, d.Line)
			return nil, []Diagnostic{d.inUTF16()}
		case diag != nil:
			return nil, []Diagnostic{diag.inUTF16()}
		}
		source = fixed
	}
	return nil, []Diagnostic{{File: filename, Line: 1, Column: 1, LineText: lineAt(lines, 1), Message: "too many import or export statements; " + ModulesHint}}
}

// beyondSource handles an error that esbuild found in the wrapper's closing
// line: the snippet ended early (an unclosed brace, call or string) or
// closed the wrapper itself (a stray "}"). Transforming the snippet without
// the wrapper finds the position in the snippet; failing that, the error
// is put at the end of the snippet.
func beyondSource(source, filename string, lines []string, d Diagnostic) Diagnostic {
	res := api.Transform(source, esbuildOptions(filename, false))
	for _, m := range res.Errors {
		u := toDiagnostic(m, filename)
		if m.Location == nil || strings.Contains(m.Text, "Top-level") || u.Line > len(lines) {
			continue
		}
		u.Column = m.Location.Column + 1 // no wrapper here: no line-1 shift
		return u
	}
	last := len(lines)
	d.Line, d.Column = last, len(lines[last-1])+1
	if !strings.Contains(d.Message, "end of file") {
		d.Message = "unexpected end of file: " + d.Message
	}
	return d
}

// toDiagnostic converts an esbuild message, undoing the wrapper's shift of
// line-1 columns.
func toDiagnostic(m api.Message, filename string) Diagnostic {
	d := Diagnostic{File: filename, Line: 1, Column: 1, Message: m.Text}
	if loc := m.Location; loc != nil {
		d.Line, d.Column = loc.Line, loc.Column+1
		if d.Line == 1 {
			d.Column = max(1, d.Column-len(wrapPrefix))
		}
	}
	return d
}

var (
	// typeImportRE matches a type-only import statement from its start.
	typeImportRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^import\s+type\b[^;'"]*?\bfrom\s*("[^"\n]*"|'[^'\n]*')\s*;?`)
	})
	// typeSpecifiersRE matches an import whose named specifiers are all
	// type-only: import { type A, type B as C } from "x".
	typeSpecifiersRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^import\s*\{\s*(type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,\s*)*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?\s*\}\s*from\s*("[^"\n]*"|'[^'\n]*')\s*;?`)
	})
	// reExportRE matches the start of `export * from` and `export {…} from`.
	reExportRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^export\s*(\*|\{[^}]*\}\s*from\b)`) })
	// exportKeywordRE matches the keywords to blank: export [default].
	exportKeywordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^export(\s+default\b)?`) })
	// moduleKeywordRE finds the last import/export keyword before an error.
	moduleKeywordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(import|export)\b`) })
)

// dropModuleSyntax looks at the syntax error d. When it points at or just
// after an import or export keyword, it returns the source with a
// type-only import or an `export [default]` keyword blanked out (keeping
// every position), or a Diagnostic for a value import or a re-export. ok is
// false when d is about something else.
func dropModuleSyntax(source string, lines []string, d Diagnostic) (fixed string, diag *Diagnostic, ok bool) {
	if d.Line < 1 || d.Line > len(lines) {
		return "", nil, false
	}
	// Work on the current text of the line (earlier fixes blanked parts).
	offset := lineOffset(source, d.Line)
	line := source[offset:]
	if i := strings.IndexAny(line, "\n\r\u2028\u2029"); i >= 0 {
		line = line[:i]
	}
	col := min(d.Column-1, len(line))
	start := -1
	if kw := moduleKeywordRE().FindStringIndex(line[col:]); kw != nil && kw[0] == 0 {
		start = col // the error is on the keyword itself
	} else if locs := moduleKeywordRE().FindAllStringIndex(line[:col], -1); len(locs) > 0 {
		// The error is on the token after the keyword.
		last := locs[len(locs)-1]
		if strings.TrimSpace(line[last[1]:col]) == "" {
			start = last[0]
		}
	}
	if start < 0 {
		return "", nil, false
	}
	offset += start
	rest := source[offset:]
	refuse := func(what string) (string, *Diagnostic, bool) {
		return "", &Diagnostic{
			File: d.File, Line: d.Line, Column: start + 1, LineText: lineAt(lines, d.Line),
			Message: what + " is not supported: " + ModulesHint,
		}, true
	}
	switch {
	case reExportRE().MatchString(rest):
		return refuse("export … from")
	case strings.HasPrefix(rest, "export"):
		return blank(source, offset, len(exportKeywordRE().FindString(rest))), nil, true
	case typeImportRE().MatchString(rest):
		return blank(source, offset, len(typeImportRE().FindString(rest))), nil, true
	case typeSpecifiersRE().MatchString(rest):
		return blank(source, offset, len(typeSpecifiersRE().FindString(rest))), nil, true
	}
	return refuse("import")
}

// blank replaces n bytes of s at offset with spaces, keeping line breaks, so
// that every other position in s stays where it was.
func blank(s string, offset, n int) string {
	b := []byte(s)
	for i := offset; i < offset+n; i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// inUTF16 converts d's column from bytes of its line to UTF-16 units.
func (d Diagnostic) inUTF16() Diagnostic {
	d.Column = utf16Column(d.LineText, d.Column)
	return d
}

// utf16Column converts a 1-based byte column in line into a 1-based column
// in UTF-16 code units, the unit of JavaScript positions.
func utf16Column(line string, byteCol int) int {
	n := min(max(byteCol-1, 0), len(line))
	col := 1
	for _, r := range line[:n] {
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return col + (byteCol - 1 - n)
}

// lineBreak returns the length of the JavaScript line terminator at s[i]
// (\r\n, \n, \r, U+2028 or U+2029, which is how goja and esbuild count
// lines), or 0.
func lineBreak(s string, i int) int {
	switch c := s[i]; {
	case c == '\n':
		return 1
	case c == '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
		return 3
	}
	return 0
}

// SplitLines splits s into lines at every JavaScript line terminator
// (\r\n, \n, \r, U+2028, U+2029), as goja and esbuild count lines.
func SplitLines(s string) []string {
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	start := 0
	for i := 0; i < len(s); {
		if n := lineBreak(s, i); n > 0 {
			lines = append(lines, s[start:i])
			i += n
			start = i
			continue
		}
		i++
	}
	return append(lines, s[start:])
}

// lineOffset returns the byte offset at which line n (1-based) of s starts.
func lineOffset(s string, n int) int {
	line := 1
	for i := 0; i < len(s) && line < n; {
		if k := lineBreak(s, i); k > 0 {
			i += k
			line++
			if line == n {
				return i
			}
			continue
		}
		i++
	}
	if n <= 1 {
		return 0
	}
	return len(s)
}

// lineAt returns line n (1-based) of lines, or "".
func lineAt(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// CheckNesting returns a Diagnostic at the position where brackets in src
// first nest deeper than limit, or nil. It counts (, [ and { without
// lexing, so brackets inside strings and comments count too; that errs on
// the side of refusing pathological input, on which goja's and esbuild's
// recursive parsers would overflow the Go stack and kill the process.
func CheckNesting(filename, src string, limit int) *Diagnostic {
	depth, line, lineStart := 0, 1, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			depth++
			if depth > limit {
				lines := SplitLines(src)
				return &Diagnostic{
					File: filename, Line: line, Column: utf16Column(src[lineStart:i], i-lineStart+1), LineText: lineAt(lines, line),
					Message: fmt.Sprintf("brackets nest more than %d levels deep here, the limit; flatten the code", limit),
				}
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\n':
			line, lineStart = line+1, i+1
		}
	}
	return nil
}
