package builtin

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// glob is a compiled glob in ripgrep's --glob style, matched with doublestar:
//
//   - "*" and "?" do not cross "/"; "**" as a whole path element matches any
//     number of directories; "[a-z]", "[!a]" and "{ts,tsx}" work as in a shell;
//   - a pattern without "/" matches an entry's base name at any depth
//     ("*.go" matches "a/b/c.go");
//   - a pattern with "/" matches the whole path relative to the search
//     directory ("src/**/*.ts"); a leading "/" is ignored;
//   - a trailing "/" matches directories only, and "dir/**" matches what
//     is inside dir but not dir itself;
//   - a leading "!" negates the pattern (grep only: it excludes what matches).
type glob struct {
	pattern  string
	baseOnly bool
	dirOnly  bool
	negate   bool
}

// compileGlob compiles s, given as parameter name of tool (both named in
// error messages). A leading "!" negates it only when allowNegate is set.
func compileGlob(tool, name, s string, allowNegate bool) (*glob, error) {
	g := &glob{}
	p := s
	if allowNegate && strings.HasPrefix(p, "!") {
		g.negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		g.dirOnly = true
		p = strings.TrimRight(p, "/")
	}
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil, fmt.Errorf("%s: %s %s matches nothing; use e.g. \"*.go\", \"**/*.ts\" or \"src/**\"", tool, name, strconv.Quote(s))
	}
	if !doublestar.ValidatePattern(p) {
		return nil, fmt.Errorf("%s: %s %s is not a valid glob (check its [ ] and { } pairs); use e.g. \"*.go\", \"src/**/*.ts\" or \"*.{ts,tsx}\"", tool, name, strconv.Quote(s))
	}
	g.pattern = p
	g.baseOnly = !strings.Contains(p, "/")
	return g, nil
}

// match reports whether the entry at rel (relative to the search directory)
// matches the pattern, ignoring negation.
func (g *glob) match(rel string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	name := rel
	if g.baseOnly {
		name = path.Base(rel)
	}
	if !doublestar.MatchUnvalidated(g.pattern, name) {
		return false
	}
	// "dir/**" means what is inside dir, not dir itself (doublestar matches
	// both).
	if parent, ok := strings.CutSuffix(g.pattern, "/**"); ok && doublestar.MatchUnvalidated(parent, name) {
		return false
	}
	return true
}
