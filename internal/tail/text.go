package tail

import (
	"strings"
	"unicode/utf8"
)

// Boundary is where a cut may fall in a text.
type Boundary int

const (
	// AtRune cuts between UTF-8 sequences, never inside one.
	AtRune Boundary = iota
	// AtLine cuts at a line boundary (just after a "\n") when that keeps
	// something, and otherwise between UTF-8 sequences.
	AtLine
)

// Prefix returns the longest prefix of s of at most limit bytes that ends
// at the boundary, and whether anything was cut. With AtLine, a first line
// longer than limit is cut between UTF-8 sequences.
func Prefix(s string, limit int, at Boundary) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	return alignEnd(s[:max(limit, 0)], at), true
}

// Suffix returns a suffix of s of at most limit bytes that starts at the
// boundary, and whether anything was cut. With AtLine, the cut drops the
// first, possibly partial, line of the last limit bytes when a line
// follows it, and otherwise cuts between UTF-8 sequences.
func Suffix(s string, limit int, at Boundary) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	return alignStart(s[len(s)-max(limit, 0):], at), true
}

// alignEnd cuts the end of h, the head of a longer text, back to the
// boundary.
func alignEnd(h string, at Boundary) string {
	if at == AtLine {
		if i := strings.LastIndexByte(h, '\n'); i >= 0 {
			return h[:i+1]
		}
	}
	// Drop an incomplete UTF-8 sequence at the end.
	for i := len(h) - 1; i >= 0 && i >= len(h)-utf8.UTFMax; i-- {
		if utf8.RuneStart(h[i]) {
			if !utf8.FullRuneInString(h[i:]) {
				return h[:i]
			}
			break
		}
	}
	return h
}

// alignStart cuts the start of t, the tail of a longer text, forward to the
// boundary.
func alignStart(t string, at Boundary) string {
	if at == AtLine {
		if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
			return t[i+1:]
		}
	}
	// Drop the continuation bytes of a sequence cut at the start.
	for i := 0; i < len(t) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(t[i]) {
			return t[i:]
		}
	}
	return t
}
