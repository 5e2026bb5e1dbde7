package builtin

import (
	"bytes"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one pattern line of a .gitignore file, compiled to a
// doublestar pattern that is matched against paths relative to the directory
// holding the file.
type ignoreRule struct {
	pattern string
	negate  bool
	dirOnly bool
}

// ignoreFile holds the rules of one ignore file; they apply below dir (a
// root-relative path, "." for the root).
type ignoreFile struct {
	dir   string
	rules []ignoreRule
}

// parseIgnore compiles the text of a .gitignore (or .git/info/exclude) file
// found in dir, following gitignore(5): blank lines and "#" comments are
// skipped, "!" negates, a trailing "/" matches directories only, a pattern
// with a "/" at its start or middle is anchored to dir while one without
// matches at any depth, "**" matches any number of directories, and "\"
// escapes. Lines that are not valid patterns are skipped.
func parseIgnore(dir string, data []byte) *ignoreFile {
	f := &ignoreFile{dir: dir}
	for _, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSuffix(string(raw), "\r")
		line = trimTrailingSpaces(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = escapeBraces(strings.TrimPrefix(line, "/"))
		if !anchored {
			line = "**/" + line
		}
		if !doublestar.ValidatePattern(line) {
			continue
		}
		r.pattern = line
		f.rules = append(f.rules, r)
	}
	return f
}

// match reports whether some rule matches rel (a root-relative path below
// f.dir) and, if so, whether the last matching rule ignores it.
func (f *ignoreFile) match(rel string, isDir bool) (matched, ignored bool) {
	name := rel
	if f.dir != "." {
		name = strings.TrimPrefix(rel, f.dir+"/")
	}
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if doublestar.MatchUnvalidated(r.pattern, name) {
			return true, !r.negate
		}
	}
	return false, false
}

// trimTrailingSpaces removes trailing spaces that are not escaped with "\".
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// escapeBraces escapes "{" and "}", which gitignore treats literally but
// doublestar reads as alternatives.
func escapeBraces(s string) string {
	if !strings.ContainsAny(s, "{}") {
		return s
	}
	var b strings.Builder
	escaped := false
	for _, r := range s {
		if !escaped && (r == '{' || r == '}') {
			b.WriteByte('\\')
		}
		escaped = !escaped && r == '\\'
		b.WriteRune(r)
	}
	return b.String()
}
