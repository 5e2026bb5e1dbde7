package builtin

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/tail"
)

// This file holds the one way every tool caps its output: keep the head (read
// windows and listings) or the tail (bash) within a byte budget, and add one
// notice line in square brackets saying what was cut and how to get the rest.

// appendNotice returns body followed by the notice line, which starts on a
// line of its own. An empty notice returns body unchanged.
func appendNotice(body, notice string) string {
	if notice == "" {
		return body
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return body + "[" + notice + "]"
}

// prependNotice returns the notice line followed by body. An empty notice
// returns body unchanged.
func prependNotice(notice, body string) string {
	if notice == "" {
		return body
	}
	return "[" + notice + "]\n" + body
}

// capHead returns the longest prefix of s of at most max bytes that ends at a
// line boundary (just after a "\n"), or, if the first line alone is longer
// than max, at a rune boundary. It reports whether anything was cut.
func capHead(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	h := s[:max]
	if i := strings.LastIndexByte(h, '\n'); i >= 0 {
		return h[:i+1], true
	}
	return trimPartialRune(h), true
}

// capTail returns the longest suffix of s of at most max bytes that starts at
// a line boundary (just after a "\n") when that leaves something, or else at a
// rune boundary. It reports whether anything was cut.
func capTail(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	return alignTail(s[len(s)-max:]), true
}

// alignTail drops the partial first line of t, a tail cut from a longer text,
// when a later line remains; otherwise it drops a partial first rune.
func alignTail(t string) string {
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		return t[i+1:]
	}
	for i := 0; i < len(t) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(t[i]) {
			return t[i:]
		}
	}
	return t
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of s.
func trimPartialRune(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			break
		}
	}
	return s
}

// lineCollector gathers output lines while they fit in a byte budget. Once a
// line does not fit, it and every later line are refused, so what is kept is
// always a prefix of the output.
type lineCollector struct {
	max   int
	size  int
	lines []string
	full  bool
}

// add keeps all of lines if they fit, or none of them, and reports which.
func (c *lineCollector) add(lines ...string) bool {
	if c.full {
		return false
	}
	n := 0
	for i, line := range lines {
		n += len(line)
		if len(c.lines)+i > 0 {
			n++ // the "\n" before it
		}
	}
	if c.size+n > c.max {
		c.full = true
		return false
	}
	c.size += n
	c.lines = append(c.lines, lines...)
	return true
}

// text joins the kept lines with "\n" and appends the notice line if notice
// is not empty.
func (c *lineCollector) text(notice string) string {
	return appendNotice(strings.Join(c.lines, "\n"), notice)
}

// tailText returns the output kept by b, aligned to a line or rune boundary
// when bytes were dropped, and a notice saying how much was dropped ("" if
// none).
func tailText(b *tail.Buffer) (string, string) {
	s, total := string(b.Bytes()), b.Total()
	if total == int64(len(s)) {
		return s, ""
	}
	s = alignTail(s)
	return s, fmt.Sprintf("output capped: showing the last %s of %s; redirect the output to a file (cmd > out.txt 2>&1) and use read or grep on it to see the rest",
		sizeString(int64(len(s))), sizeString(total))
}

// sizeString formats a byte count for a person or a model: "812 bytes",
// "50 KiB", "3.2 MiB".
func sizeString(n int64) string {
	switch {
	case n < 1<<10:
		return plural(int(n), "byte", "bytes")
	case n < 1<<20:
		return trimZero(float64(n)/(1<<10)) + " KiB"
	case n < 1<<30:
		return trimZero(float64(n)/(1<<20)) + " MiB"
	}
	return trimZero(float64(n)/(1<<30)) + " GiB"
}

// trimZero formats f with one decimal, dropping a trailing ".0".
func trimZero(f float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0")
}

// plural formats n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
