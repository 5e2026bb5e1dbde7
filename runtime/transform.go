package runtime

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// wrapPrefix and wrapSuffix turn a snippet into the body of an async arrow
// function, which gives it top-level await and top-level return. The prefix
// sits on the snippet's first line, so only line-1 columns shift.
const (
	wrapPrefix = "(async () => {"
	wrapSuffix = "\n})()"
)

// modulesHint ends every message about import, export and require.
const modulesHint = "modules are not available in a snippet; tools are global async functions (call them directly, for example `await read(\"go.mod\")`)"

// Diagnostic is a problem found in the snippet's source, positioned in the
// original file (1-based line and column, in bytes).
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

// transformed is the JavaScript that goja runs, with its source map.
type transformed struct {
	code      string
	sourceMap []byte
}

// program is a snippet compiled for goja.
type program struct {
	prg *goja.Program
	// sourceMap maps positions in the program back to the snippet when it
	// went through esbuild; nil when goja runs the snippet as it is.
	sourceMap []byte
}

// genericCallRE finds what could be a TypeScript generic call or
// instantiation (`f<T>(x)`, “tag<T>`…` “), which plain JavaScript would
// parse as comparisons.
var genericCallRE = regexp.MustCompile(`>\s*[(\x60]`)

// compile turns the snippet into a goja program. Source that goja parses as
// JavaScript as it is, and that cannot mean something else in TypeScript,
// skips esbuild: stripping types is then a no-op and esbuild's fixed cost
// is most of a small run's. Everything else goes through transform.
func (r *run) compile(source string) (*program, *Error) {
	name := r.opts.Filename
	if !strings.Contains(source, "<") || !genericCallRE.MatchString(source) {
		ast, err := goja.Parse(name, wrapPrefix+source+wrapSuffix, parser.WithDisableSourceMaps)
		if err == nil {
			prg, err := goja.CompileAST(ast, false)
			if err == nil {
				return &program{prg: prg}, nil
			}
		}
	}
	tr, diags := transform(source, name)
	if len(diags) > 0 {
		return nil, compileError(diags[0])
	}
	// goja could apply the source map itself, but parsing it costs more
	// than the rest of compiling; positions are mapped only when an error
	// needs them (see mapPosition).
	r.sourceMap = tr.sourceMap
	ast, err := goja.Parse(name, tr.code, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, r.compileErrorFromGoja(err)
	}
	prg, err := goja.CompileAST(ast, false)
	if err != nil {
		return nil, r.compileErrorFromGoja(err)
	}
	return &program{prg: prg, sourceMap: tr.sourceMap}, nil
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

// transform strips types from source and wraps it so that top-level await
// and return work. Type-only imports and `export` keywords are dropped; a
// value import is a Diagnostic saying that modules are unavailable.
func transform(source, filename string) (*transformed, []Diagnostic) {
	// Each retry removes one import or export that esbuild rejected inside
	// the wrapper; a snippet rarely has more than a few.
	for range 32 {
		res := api.Transform(wrapPrefix+source+wrapSuffix, api.TransformOptions{
			Loader:         loaderFor(filename),
			Sourcefile:     filename,
			Sourcemap:      api.SourceMapExternal,
			SourcesContent: api.SourcesContentExclude,
			Supported: map[string]bool{
				// goja has neither; esbuild lowers them to code it runs.
				"async-generator": false,
				"for-await":       false,
				"using":           false,
			},
		})
		if len(res.Errors) == 0 {
			return &transformed{code: string(res.Code), sourceMap: res.Map}, nil
		}
		diags := make([]Diagnostic, 0, len(res.Errors))
		for _, m := range res.Errors {
			diags = append(diags, toDiagnostic(m, filename))
		}
		fixed, diag, ok := dropModuleSyntax(source, diags[0])
		if !ok {
			return nil, diags
		}
		if diag != nil {
			return nil, []Diagnostic{*diag}
		}
		source = fixed
	}
	return nil, []Diagnostic{{File: filename, Line: 1, Column: 1, Message: "too many import or export statements; " + modulesHint}}
}

// toDiagnostic converts an esbuild message, undoing the wrapper's shift of
// line-1 columns.
func toDiagnostic(m api.Message, filename string) Diagnostic {
	d := Diagnostic{File: filename, Line: 1, Column: 1, Message: m.Text}
	if loc := m.Location; loc != nil {
		d.Line, d.Column, d.LineText = loc.Line, loc.Column+1, loc.LineText
		if d.Line == 1 {
			d.Column -= len(wrapPrefix)
			d.LineText = strings.TrimPrefix(d.LineText, wrapPrefix)
		}
		if d.Column < 1 {
			d.Column = 1
		}
		// The suffix's closing line is not the user's: point at the end.
		if strings.HasPrefix(d.LineText, "})()") && strings.HasSuffix(m.Text, "\"}\"") {
			d.Message = "unexpected end of file: " + m.Text
		}
	}
	return d
}

var (
	// typeImportRE matches a type-only import statement from its start.
	typeImportRE = regexp.MustCompile(`^import\s+type\b[^;'"]*?\bfrom\s*("[^"\n]*"|'[^'\n]*')\s*;?`)
	// moduleKeywordRE finds the last import/export keyword before an error.
	moduleKeywordRE = regexp.MustCompile(`\b(import|export)\b`)
)

// dropModuleSyntax looks at the syntax error d. When it points just after an
// import or export keyword, it returns the source with a type-only import or
// an `export` keyword blanked out (keeping every position), or a Diagnostic
// for a value import. ok is false when d is about something else.
func dropModuleSyntax(source string, d Diagnostic) (fixed string, diag *Diagnostic, ok bool) {
	lines := strings.SplitAfter(source, "\n")
	if d.Line < 1 || d.Line > len(lines) {
		return "", nil, false
	}
	line := lines[d.Line-1]
	col := min(d.Column-1, len(line))
	start := -1
	if kw := moduleKeywordRE.FindStringIndex(line[col:]); kw != nil && kw[0] == 0 {
		start = col // the error is on the keyword itself
	} else if locs := moduleKeywordRE.FindAllStringIndex(line[:col], -1); len(locs) > 0 {
		// The error is on the token after the keyword.
		last := locs[len(locs)-1]
		if strings.TrimSpace(line[last[1]:col]) == "" {
			start = last[0]
		}
	}
	if start < 0 {
		return "", nil, false
	}
	offset := start
	for _, l := range lines[:d.Line-1] {
		offset += len(l)
	}
	rest := source[offset:]
	if strings.HasPrefix(rest, "export") {
		return blank(source, offset, len("export")), nil, true
	}
	if m := typeImportRE.FindString(rest); m != "" {
		return blank(source, offset, len(m)), nil, true
	}
	return "", &Diagnostic{
		File: d.File, Line: d.Line, Column: start + 1, LineText: strings.TrimRight(line, "\r\n"),
		Message: "import is not supported: " + modulesHint,
	}, true
}

// blank replaces n bytes of s at offset with spaces, keeping newlines, so that
// every other position in s stays where it was.
func blank(s string, offset, n int) string {
	b := []byte(s)
	for i := offset; i < offset+n; i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}
