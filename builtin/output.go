package builtin

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/tail"
)

// This file holds the one way every tool reports a capped output: the head
// (read windows, and listings kept by a tail.Lines) or the tail (bash, kept
// by a tail.Buffer) within a byte budget, and one notice line in square
// brackets saying what was cut and how to get the rest.

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

// tailText returns the output kept by b, aligned to a line or rune boundary
// when bytes were dropped, and a notice saying how much was dropped ("" if
// none).
func tailText(b *tail.Buffer) (string, string) {
	s, cut := b.Text(tail.AtLine)
	if !cut {
		return s, ""
	}
	return s, fmt.Sprintf("output capped: showing the last %s of %s; redirect the output to a file (cmd > out.txt 2>&1) and use read or grep on it to see the rest",
		tail.Size(int64(len(s))), tail.Size(b.Total()))
}

// plural formats n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listName returns a path or name as the listings of ls, find and grep
// print it (see the package documentation): as is, unless it contains a
// control character (U+0000 to U+001F, U+007F to U+009F) or invalid UTF-8,
// or starts with a double quote; then as a JSON string literal, with
// control characters escaped ("\n", "\t", "\u001b"), '"' and '\' escaped,
// and each invalid UTF-8 byte as "\ufffd". So no name makes a line of its
// own or passes for another name, and a printed line starts with '"' only
// when it is quoted.
func listName(name string) string {
	if !needsQuote(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 2)
	b.WriteByte('"')
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsQuote reports whether listName quotes name.
func needsQuote(name string) bool {
	if strings.HasPrefix(name, `"`) || !utf8.ValidString(name) {
		return true
	}
	return strings.IndexFunc(name, isControl) >= 0
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }
