package builtin

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/codeexec/codeexec/internal/tail"
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
//
// The "{ }" groups are expanded once, when the glob is compiled, into at
// most maxGlobAlternatives patterns without braces, each of which doublestar
// matches in time bounded by the product of its length and the path's (left
// to itself, doublestar expands braces anew on every path, and a pattern
// such as "{a,aa}" repeated 40 times takes longer than any run).
type glob struct {
	patterns []string // the pattern with its { } groups expanded
	baseOnly bool
	dirOnly  bool
	negate   bool
}

// Bounds on a glob's "{ }" expansion: the number of patterns it expands to
// and their total length. 256 alternatives is far beyond what a pattern
// needs ("*.{ts,tsx,js,jsx}" is 4, "{src,test}/**/*.{go,md}" 4), and the
// bytes bound keeps the work per path at a few milliseconds even for a
// long pattern.
const (
	maxGlobAlternatives   = 256
	maxGlobExpandedLength = 64 << 10
)

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
	if n, size := braceCount(p); n > maxGlobAlternatives {
		return nil, fmt.Errorf("%s: %s %s expands to more than %d alternatives (its { } groups multiply); use fewer or smaller { } groups, or several calls",
			tool, name, quoteGlob(s), maxGlobAlternatives)
	} else if size > maxGlobExpandedLength {
		return nil, fmt.Errorf("%s: %s %s is longer than %s once its { } groups are expanded; use a shorter pattern, or several calls",
			tool, name, quoteGlob(s), tail.Size(maxGlobExpandedLength))
	}
	g.patterns = expandBraces(p)
	g.baseOnly = !strings.Contains(p, "/")
	return g, nil
}

// quoteGlob quotes a pattern for an error message, cut to its first 300
// bytes.
func quoteGlob(s string) string {
	const most = 300
	if len(s) <= most {
		return strconv.Quote(s)
	}
	cut := strings.ToValidUTF8(s[:most], "")
	return strconv.Quote(cut) + fmt.Sprintf("… (%d bytes)", len(s))
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
	for _, p := range g.patterns {
		if !doublestar.MatchUnvalidated(p, name) {
			continue
		}
		// "dir/**" means what is inside dir, not dir itself (doublestar
		// matches both).
		if parent, ok := strings.CutSuffix(p, "/**"); ok && doublestar.MatchUnvalidated(parent, name) {
			continue
		}
		return true
	}
	return false
}

// braceCount returns how many patterns the valid doublestar pattern p
// expands to and their total length in bytes, both saturated just above
// the bounds (so that neither can overflow).
func braceCount(p string) (n, size int) {
	b := braceParser{s: p}
	n, size = b.seq()
	return n, size
}

// expandBraces returns the patterns the valid doublestar pattern p expands
// to, in order: "a{b,c{d,e}}" gives "ab", "acd" and "ace". Escapes and
// character classes are kept as they are, and a "{" or "," inside them is
// not a group's.
func expandBraces(p string) []string {
	b := braceParser{s: p}
	return b.seqExpand()
}

// braceParser reads a doublestar pattern's "{ }" groups as doublestar does
// (escapes skip a byte, a character class runs to its first unescaped "]",
// a "," outside every group is a literal).
type braceParser struct {
	s     string
	i     int
	depth int // groups open at i
}

// end reports whether the sequence at b.i ends: at the pattern's end, or
// at a "," or "}" of an open group.
func (b *braceParser) end() bool {
	return b.i >= len(b.s) || b.depth > 0 && (b.s[b.i] == ',' || b.s[b.i] == '}')
}

// saturate keeps counts just above every bound they are compared with.
func saturate(n int) int { return min(n, maxGlobExpandedLength+1) }

// seq counts a sequence of items up to an unmatched "," or "}" or the end:
// the product of its groups' counts, and the total length of its
// expansions.
func (b *braceParser) seq() (n, size int) {
	n, size = 1, 0
	for !b.end() {
		switch b.s[b.i] {
		case '{':
			b.i++
			an, asize := b.alternatives()
			// Concatenating A (n patterns, size bytes) with B: n*an
			// patterns of size*an + asize*n bytes.
			size = saturate(saturate(size*an) + saturate(asize*n))
			n = saturate(n * an)
		default:
			l := b.literal()
			size = saturate(size + saturate(l*n))
		}
	}
	return n, size
}

// alternatives counts a group after its "{", and consumes its "}".
func (b *braceParser) alternatives() (n, size int) {
	b.depth++
	defer func() { b.depth-- }()
	for {
		an, asize := b.seq()
		n, size = saturate(n+an), saturate(size+asize)
		if b.i >= len(b.s) {
			return n, size
		}
		c := b.s[b.i]
		b.i++
		if c == '}' {
			return n, size
		}
	}
}

// literal consumes text without a group: one byte, an escape or a
// character class; it returns its length.
func (b *braceParser) literal() int {
	start := b.i
	switch b.s[b.i] {
	case '\\':
		b.i = min(b.i+2, len(b.s))
	case '[':
		b.i++
		for b.i < len(b.s) && b.s[b.i] != ']' {
			if b.s[b.i] == '\\' {
				b.i++
			}
			b.i++
		}
		b.i = min(b.i+1, len(b.s))
	default:
		b.i++
	}
	return b.i - start
}

// seqExpand expands a sequence of items up to an unmatched "," or "}" or
// the end.
func (b *braceParser) seqExpand() []string {
	out := []string{""}
	for !b.end() {
		switch b.s[b.i] {
		case '{':
			b.i++
			alts := b.alternativesExpand()
			next := make([]string, 0, len(out)*len(alts))
			for _, o := range out {
				for _, a := range alts {
					next = append(next, o+a)
				}
			}
			out = next
		default:
			start := b.i
			b.literal()
			for i := range out {
				out[i] += b.s[start:b.i]
			}
		}
	}
	return out
}

// alternativesExpand expands a group after its "{", and consumes its "}".
func (b *braceParser) alternativesExpand() []string {
	b.depth++
	defer func() { b.depth-- }()
	var out []string
	for {
		out = append(out, b.seqExpand()...)
		if b.i >= len(b.s) {
			return out
		}
		c := b.s[b.i]
		b.i++
		if c == '}' {
			return out
		}
	}
}
