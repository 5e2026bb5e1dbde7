package transform

import (
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// namespaceRE matches a TypeScript namespace (or module, or declare global)
// declaration's head, where esbuild stops inside the wrapper: TypeScript
// allows namespaces only at the top level, and the snippet's top level is
// the body of the wrapper's function.
var namespaceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\b(?:export\s+)?(declare)\s+)?\b(?:namespace|module)\s+[A-Za-z_$][\w$.]*\s*\{$|\bdeclare\s+global\s*\{$`)
})

// compileNamespace handles esbuild's refusal of a top-level namespace in
// the wrapped snippet: the namespace block (from its keyword to its
// closing brace) is transformed on its own, as the top-level code it is,
// and its JavaScript (var N;(N=>{ ... })(N||(N={}))) replaces it, with
// esbuild's whitespace minified: its only line breaks are those in the
// block's template literals and after its line comments. Empty lines
// follow, as many as the block had line breaks more, so that the rest of
// the snippet keeps its line numbers (a position inside the block is
// reported on its first lines). An ambient block (declare namespace,
// declare global) becomes empty lines. ok is false when the error is not
// at a namespace's name.
func compileNamespace(source string, d Diagnostic, filename string) (fixed string, ok bool) {
	if d.Line < 1 {
		return "", false
	}
	offset := lineOffset(source, d.Line)
	line := source[offset:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	col := min(max(d.Column-1, 0), len(line))
	// The head runs from the keyword to the block's "{".
	brace := strings.IndexByte(line[col:], '{')
	if brace < 0 {
		return "", false
	}
	headEnd := col + brace + 1
	loc := namespaceRE().FindStringSubmatchIndex(line[:headEnd])
	if loc == nil || loc[1] != headEnd {
		return "", false
	}
	start, open := offset+loc[0], offset+headEnd-1
	end := matchBrace(source, open)
	if end < 0 {
		return "", false
	}
	block := source[start : end+1]
	if loc[2] >= 0 || strings.HasPrefix(strings.TrimSpace(block), "declare") {
		return source[:start] + strings.Repeat("\n", strings.Count(block, "\n")) + source[end+1:], true
	}
	lines := strings.Count(block, "\n")
	js, ok := transformBlock(block, filename, false)
	if ok && strings.Count(js, "\n") > lines {
		// esbuild writes the \n escapes of a template literal as line
		// breaks: with template literals lowered to strings, it keeps no
		// line break the block did not have.
		js, ok = transformBlock(block, filename, true)
	}
	if !ok {
		return "", false
	}
	pad := strings.Repeat("\n", max(lines-strings.Count(js, "\n"), 0))
	return source[:start] + js + pad + source[end+1:], true
}

// transformBlock transforms a namespace block with esbuild, whose output
// then has no line break but those in template literals and after line
// comments: its whitespace is minified, which leaves the text of literals
// as it is. lowerTemplates turns template literals into strings.
func transformBlock(block, filename string, lowerTemplates bool) (string, bool) {
	opts := esbuildOptions(filename, false)
	opts.MinifyWhitespace = true
	if lowerTemplates {
		opts.Supported["template-literal"] = false
	}
	res := api.Transform(block, opts)
	if len(res.Errors) > 0 {
		return "", false
	}
	return strings.TrimSuffix(string(res.Code), "\n"), true
}

// matchBrace returns the index of the "}" that closes the "{" at open,
// skipping strings, template literals and comments; -1 when there is none.
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		case '"', '\'', '`':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '/':
			switch {
			case i+1 < len(s) && s[i+1] == '/':
				for i < len(s) && s[i] != '\n' {
					i++
				}
			case i+1 < len(s) && s[i+1] == '*':
				if j := strings.Index(s[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return -1
				}
			}
		}
	}
	return -1
}
