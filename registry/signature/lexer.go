package signature

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/jsglobals"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tokEOF      tokKind = iota
	tokIdent            // identifier or keyword
	tokNumber           // numeric literal
	tokString           // '...' or "..." literal
	tokTemplate         // `...` literal
	tokPunct            // punctuation: one ASCII byte, or "..." / "=>"
	tokIllegal          // lexical error; text holds the message
)

// token is one lexical token. The token list of a source always ends with
// exactly one tokEOF or tokIllegal token.
type token struct {
	kind  tokKind
	text  string // source text; for tokIllegal the error message
	value string // tokString: the decoded value
	off   int    // byte offset of the token in the source
	nl    bool   // a line break precedes the token
	subst bool   // tokTemplate: contains ${...} substitutions
}

// lex splits src into tokens, skipping whitespace and comments. It stops at
// the first lexical error, which becomes the final tokIllegal token.
func lex(src string) []token {
	// Under one token in two bytes of a typical signature: room for them
	// up front spares the slice its growing copies.
	toks := make([]token, 0, len(src)/2+2)
	i, nl := 0, false
	illegal := func(off int, format string, args ...any) []token {
		return append(toks, token{kind: tokIllegal, text: fmt.Sprintf(format, args...), off: off, nl: nl})
	}
	for {
		// Whitespace and comments.
	skip:
		for i < len(src) {
			c := src[i]
			switch {
			case c == '\n' || c == '\r':
				nl = true
				i++
			case c == ' ' || c == '\t' || c == '\v' || c == '\f':
				i++
			case c == '/' && i+1 < len(src) && src[i+1] == '/':
				for i < len(src) && src[i] != '\n' && src[i] != '\r' {
					i++
				}
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				end := strings.Index(src[i+2:], "*/")
				if end < 0 {
					return illegal(i, "unterminated comment")
				}
				if strings.ContainsAny(src[i+2:i+2+end], "\n\r\u2028\u2029") {
					nl = true
				}
				i += end + 4
			case c >= utf8.RuneSelf:
				r, size := utf8.DecodeRuneInString(src[i:])
				switch r {
				case 0xA0, 0xFEFF:
					i += size
				case 0x2028, 0x2029:
					nl = true
					i += size
				default:
					break skip
				}
			default:
				break skip
			}
		}
		if i >= len(src) {
			return append(toks, token{kind: tokEOF, off: len(src), nl: nl})
		}
		start := i
		c := src[i]
		var t token
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			t = token{kind: tokIdent}
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			hex := c == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X')
			for i < len(src) {
				b := src[i]
				if isIdentPart(b) || b == '.' {
					i++
				} else if (b == '+' || b == '-') && !hex && (src[i-1] == 'e' || src[i-1] == 'E') {
					i++
				} else {
					break
				}
			}
			if !validNumber(src[start:i]) {
				return illegal(start, "invalid number %s", describeText(src[start:i]))
			}
			t = token{kind: tokNumber}
		case c == '"' || c == '\'':
			end, value, errOff, msg := scanString(src, i)
			if msg != "" {
				return illegal(errOff, "%s", msg)
			}
			i = end
			t = token{kind: tokString, value: value}
		case c == '`':
			end, subst, errOff, msg := scanTemplate(src, i)
			if msg != "" {
				return illegal(errOff, "%s", msg)
			}
			i = end
			t = token{kind: tokTemplate, subst: subst}
		case c == '.' && strings.HasPrefix(src[i:], "..."):
			i += 3
			t = token{kind: tokPunct}
		case c == '=' && strings.HasPrefix(src[i:], "=>"):
			i += 2
			t = token{kind: tokPunct}
		case c < 0x20 || c == 0x7f:
			return illegal(i, "unexpected control character U+%04X", c)
		case c < utf8.RuneSelf:
			i++
			t = token{kind: tokPunct}
		default:
			r, _ := utf8.DecodeRuneInString(src[i:])
			return illegal(i, "unexpected character %q (U+%04X)", r, r)
		}
		t.text, t.off, t.nl = src[start:i], start, nl
		toks = append(toks, t)
		nl = false
	}
}

// scanString scans the quoted string literal starting at src[i]. It returns
// the offset just past the closing quote and the decoded value, or the
// offset and text of an error.
func scanString(src string, i int) (end int, value string, errOff int, msg string) {
	q := src[i]
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(src) || src[j] == '\n' || src[j] == '\r' {
			return 0, "", i, "unterminated string literal"
		}
		c := src[j]
		if c == q {
			return j + 1, b.String(), 0, ""
		}
		if c != '\\' {
			b.WriteByte(c)
			j++
			continue
		}
		if j+1 >= len(src) {
			return 0, "", i, "unterminated string literal"
		}
		esc := src[j+1]
		switch esc {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			if j+2 < len(src) && isDigit(src[j+2]) {
				return 0, "", j, "octal escape sequences are not allowed"
			}
			b.WriteByte(0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return 0, "", j, "octal escape sequences are not allowed"
		case '\r':
			j += 2
			if j < len(src) && src[j] == '\n' {
				j++
			}
			continue
		case '\n':
			j += 2
			continue
		case 'x':
			if j+3 >= len(src) || !isHex(src[j+2]) || !isHex(src[j+3]) {
				return 0, "", j, "invalid hexadecimal escape sequence"
			}
			b.WriteRune(rune(hexVal(src[j+2])<<4 | hexVal(src[j+3])))
			j += 4
			continue
		case 'u':
			r, n, ok := scanUnicodeEscape(src, j)
			if !ok {
				return 0, "", j, "invalid Unicode escape sequence"
			}
			j += n
			if r >= 0xD800 && r <= 0xDBFF {
				lo, m, ok := scanUnicodeEscape(src, j)
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return 0, "", j - n, "lone surrogate in Unicode escape sequence"
				}
				r = (r-0xD800)<<10 | (lo - 0xDC00) + 0x10000
				j += m
			} else if r >= 0xDC00 && r <= 0xDFFF {
				return 0, "", j - n, "lone surrogate in Unicode escape sequence"
			}
			b.WriteRune(r)
			continue
		default:
			if esc >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(src[j+1:])
				if r != 0x2028 && r != 0x2029 { // line continuations
					b.WriteRune(r)
				}
				j += 1 + size
				continue
			}
			b.WriteByte(esc)
		}
		j += 2
	}
}

// scanUnicodeEscape decodes \uXXXX or \u{X...} at src[j] and returns the
// code point and the length of the escape.
func scanUnicodeEscape(src string, j int) (rune, int, bool) {
	if !strings.HasPrefix(src[j:], `\u`) {
		return 0, 0, false
	}
	k := j + 2
	if k < len(src) && src[k] == '{' {
		k++
		var r rune
		digits := 0
		for k < len(src) && isHex(src[k]) {
			r = r<<4 | hexVal(src[k])
			if r > utf8.MaxRune {
				return 0, 0, false
			}
			digits++
			k++
		}
		if digits == 0 || k >= len(src) || src[k] != '}' {
			return 0, 0, false
		}
		return r, k + 1 - j, true
	}
	if k+4 > len(src) {
		return 0, 0, false
	}
	var r rune
	for _, c := range []byte(src[k : k+4]) {
		if !isHex(c) {
			return 0, 0, false
		}
		r = r<<4 | hexVal(c)
	}
	return r, 6, true
}

// scanTemplate scans the template literal starting at src[i] and reports
// whether it has ${...} substitutions. Substitutions may hold braces and
// quoted strings but not nested template literals.
func scanTemplate(src string, i int) (end int, subst bool, errOff int, msg string) {
	j := i + 1
	for {
		if j >= len(src) {
			return 0, false, i, "unterminated template literal"
		}
		switch src[j] {
		case '`':
			return j + 1, subst, 0, ""
		case '\\':
			j += 2
			continue
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				subst = true
				depth := 1
				j += 2
				for depth > 0 {
					if j >= len(src) {
						return 0, false, i, "unterminated template literal"
					}
					switch c := src[j]; c {
					case '{':
						depth++
					case '}':
						depth--
					case '`':
						return 0, false, j, "nested template literals are not supported"
					case '"', '\'':
						e, _, off, m := scanString(src, j)
						if m != "" {
							return 0, false, off, m
						}
						j = e
						continue
					}
					j++
				}
				continue
			}
		}
		j++
	}
}

// validNumber reports whether s is a valid JavaScript numeric literal
// (decimal, hex, octal or binary, with _ separators and an optional bigint n).
func validNumber(s string) bool {
	bigint := strings.HasSuffix(s, "n")
	if bigint {
		s = s[:len(s)-1]
	}
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			return digitRun(s[2:], isHex) == len(s)-2
		case 'o', 'O':
			return digitRun(s[2:], func(c byte) bool { return c >= '0' && c <= '7' }) == len(s)-2
		case 'b', 'B':
			return digitRun(s[2:], func(c byte) bool { return c == '0' || c == '1' }) == len(s)-2
		}
	}
	i := digitRun(s, isDigit)
	if i < 0 {
		return false
	}
	if i > 1 && s[0] == '0' {
		return false // legacy octal or leading zero
	}
	intDigits := i
	if i < len(s) && s[i] == '.' {
		if bigint {
			return false
		}
		i++
		n := digitRun(s[i:], isDigit)
		if n < 0 || n == 0 && intDigits == 0 {
			return false
		}
		i += n
	} else if intDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if bigint {
			return false
		}
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digitRun(s[i:], isDigit)
		if n <= 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

// digitRun returns the length of the run of digits (with single _ separators
// between digits) at the start of s, or -1 when a separator is misplaced.
func digitRun(s string, digit func(byte) bool) int {
	i := 0
	for i < len(s) {
		if digit(s[i]) {
			i++
			continue
		}
		if s[i] == '_' {
			if i == 0 || i+1 >= len(s) || !digit(s[i+1]) {
				return -1
			}
			i++
			continue
		}
		break
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) rune {
	switch {
	case isDigit(c):
		return rune(c - '0')
	case c >= 'a':
		return rune(c-'a') + 10
	default:
		return rune(c-'A') + 10
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

// isIdentName reports whether s is an ASCII JavaScript identifier name,
// reserved words included (they are valid property names).
func isIdentName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}

// reservedWords are the words that cannot name a binding in strict-mode
// module code: keywords, future reserved words, literals and await.
var reservedWords = map[string]bool{
	"await": true, "break": true, "case": true, "catch": true, "class": true,
	"const": true, "continue": true, "debugger": true, "default": true,
	"delete": true, "do": true, "else": true, "enum": true, "export": true,
	"extends": true, "false": true, "finally": true, "for": true,
	"function": true, "if": true, "implements": true, "import": true,
	"in": true, "instanceof": true, "interface": true, "let": true,
	"new": true, "null": true, "package": true, "private": true,
	"protected": true, "public": true, "return": true, "static": true,
	"super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true,
	"with": true, "yield": true,
}

// IsIdentifier reports whether name is a valid JavaScript identifier that can
// name a binding: ASCII letters, digits, _ and $, not starting with a digit,
// and not a reserved word of strict-mode module code (keywords such as
// "class", future reserved words such as "interface", the literals "null",
// "true" and "false", and "await"). It does not consult Reserved.
func IsIdentifier(name string) bool { return isIdentifier(name) }

// isIdentifier is IsIdentifier.
func isIdentifier(name string) bool {
	return isIdentName(name) && !reservedWords[name]
}

// Reserved reports whether a global function called name would shadow a
// JavaScript built-in global (Object, Promise, JSON, parseInt, the Error and
// typed-array constructors, ...), a property the global object inherits from
// Object.prototype (toString, constructor, __proto__, ...), or a global the
// sandbox provides (console, setTimeout, URL, DOMException, callTool, ...) or
// leaves out on purpose (fetch, process, Buffer, ...). The list is
// the engine's own (package jsglobals). The comparison is case-sensitive.
// Reserved words are covered by IsIdentifier, not here.
func Reserved(name string) bool { return jsglobals.Reserved(name) }

// ReservedNames returns every name for which Reserved is true, sorted. The
// caller owns the returned slice.
func ReservedNames() []string { return jsglobals.ReservedNames() }

// quoteString returns s as a double-quoted JavaScript string literal.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// describeText quotes source text for an error message, shortening it.
func describeText(s string) string {
	const max = 32
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q...", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
