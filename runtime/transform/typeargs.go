package transform

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Type arguments in plain JavaScript.
//
// A snippet that goja parses as JavaScript skips esbuild, unless it may
// mean something else in TypeScript. The one construct of valid JavaScript
// that TypeScript reads otherwise is a "<" that starts type arguments:
// `f<T>(x)` is a generic call in TypeScript and two comparisons in
// JavaScript, `a < b > c` across a line break an instantiation expression.
// TypeScript (and esbuild, which follows its parser) tries to read the
// tokens after a "<" as type arguments, closed by ">", and keeps that
// reading when the token after the ">" is a "(" or a template, a line
// break, a binary operator or what cannot start an expression, but not a
// "<", ">", "+" or "-" (esbuild's tsCanFollowTypeArgumentsInExpression).
//
// mayHaveTypeArguments lexes the source and asks that of every "<" (and
// "<<", whose first "<" may start type arguments whose first type has
// type parameters). It errs on one side only: a "<" is cleared only when
// the tokens after it meet one that no type argument list holds (";" or a
// closing bracket that it did not open, an assignment, "&&", a regular
// expression...), or its ">" is followed by what keeps the comparison;
// anything it cannot lex with certainty (an unterminated string, an HTML
// comment, a "/" that may start a regular expression holding quotes)
// counts as type arguments: that source takes esbuild, which decides.

// tokenKind is the kind of a token of the lexer.
type tokenKind uint8

const (
	tokNone tokenKind = iota // before the first token
	tokEOF
	tokName         // an identifier or keyword
	tokNumber       // a numeric literal
	tokString       // a string literal
	tokTemplate     // a template without substitutions
	tokTemplateHead // "`…${"
	tokTemplateMid  // "}…${"
	tokTemplateTail // "}…`"
	tokRegexp       // a regular expression literal
	tokPunct        // a punctuator
)

// jsToken is one token of a source; text is the token's text for names and
// punctuators; newline says whether a line break comes before it.
type jsToken struct {
	kind    tokenKind
	newline bool
	text    string
}

// maxTypeArgTokens bounds how far a "<" is followed: past it, the "<"
// counts as type arguments (esbuild decides), so that a source of many
// comparisons cannot make the check quadratic.
const maxTypeArgTokens = 1024

// mayHaveTypeArguments reports whether a "<" of source may start type
// arguments in TypeScript (see above).
func mayHaveTypeArguments(source string) bool {
	if !strings.Contains(source, "<") {
		return false
	}
	lx := &lexer{src: source}
	for {
		t := lx.token()
		switch {
		case lx.failed:
			return true
		case t.kind == tokEOF:
			return false
		case t.kind == tokPunct && (t.text == "<" || t.text == "<<"):
			ahead := *lx
			ahead.braces = slices.Clone(lx.braces)
			if typeArgumentsAfter(&ahead, t) {
				return true
			}
		}
	}
}

// typeArgumentsAfter reports whether first, a "<" or "<<" that lx has just
// lexed, may start type arguments that TypeScript keeps; it lexes on.
func typeArgumentsAfter(lx *lexer, first jsToken) bool {
	// open holds the brackets opened since first: '<', '(', '[', '{', and
	// '`' for a template's substitutions.
	open := make([]byte, len(first.text), 8)
	for i := range open {
		open[i] = '<'
	}
	for range maxTypeArgTokens {
		t := lx.token()
		if lx.failed {
			return true
		}
		top := open[len(open)-1]
		switch t.kind {
		case tokName, tokNumber, tokString, tokTemplate:
			continue
		case tokTemplateHead:
			open = append(open, '`')
			continue
		case tokTemplateMid, tokTemplateTail:
			if top != '`' {
				return false
			}
			if t.kind == tokTemplateTail {
				open = open[:len(open)-1]
			}
			continue
		case tokRegexp, tokEOF:
			return false
		}
		switch p := t.text; p {
		case "(", "[", "{", "<", "<<":
			for range len(p) {
				open = append(open, opening(p))
			}
		case ")", "]", "}":
			if top != opening(p) {
				return false
			}
			open = open[:len(open)-1]
		case ",", ".", "...", "?", ":", "|", "&", "=>", "-":
			// All of these appear in types: tuples, qualified names, rest
			// elements, conditional and optional members, unions,
			// intersections, function types, negative literal types.
		case ";", "+":
			// Members of an object type; a mapped type's +readonly.
			if top != '{' {
				return false
			}
		case ">", ">>", ">>>":
			for n := range len(p) {
				if open[len(open)-1] != '<' {
					return false
				}
				open = open[:len(open)-1]
				if len(open) == 0 {
					if n < len(p)-1 {
						// A ">" left of the token follows the list,
						// which keeps the comparison.
						return false
					}
					next := lx.token()
					return lx.failed || keepsTypeArguments(next)
				}
			}
		default:
			// "=", "==", "&&", "!", "*", "/", "#", ">=", "?."...: never in a
			// type argument list.
			return false
		}
	}
	return true // the bound was reached: esbuild decides
}

// opening returns the opening bracket of a bracket's kind: '(' for "(" and
// ")", and so on; '<' for the angle brackets.
func opening(p string) byte {
	switch p[0] {
	case '(', ')':
		return '('
	case '[', ']':
		return '['
	case '{', '}':
		return '{'
	}
	return '<'
}

// keepsTypeArguments reports whether TypeScript keeps a type argument
// list followed by t (esbuild's tsCanFollowTypeArgumentsInExpression).
func keepsTypeArguments(t jsToken) bool {
	switch t.kind {
	case tokTemplate, tokTemplateHead:
		return true
	case tokRegexp:
		// esbuild lexes a "/" after ">" as a division, a binary operator
		// (`a < b > /c/d` divides in TypeScript); a "/=" likewise starts
		// a regular expression here, which is conservative.
		return true
	case tokPunct:
		switch t.text {
		case "(":
			return true
		case "<", ">", "+", "-", ">=", ">>", ">>=", ">>>", ">>>=":
			return false
		}
	}
	return t.newline || binaryOperator(t) || !startsExpression(t)
}

// binaryOperator reports whether t is a binary operator after type
// arguments (esbuild's tsIsBinaryOperator).
func binaryOperator(t jsToken) bool {
	switch t.kind {
	case tokName:
		switch t.text {
		case "in", "instanceof", "as", "satisfies":
			return true
		}
	case tokPunct:
		switch t.text {
		case "??", "||", "&&", "|", "^", "&", "==", "!=", "===", "!==", "<", ">", "<=", ">=",
			"<<", ">>", ">>>", "+", "-", "*", "/", "%", "**":
			return true
		}
	}
	return false
}

// startsExpression reports whether t can start an expression (esbuild's
// tsIsStartOfExpression); a reserved word that cannot counts as not.
func startsExpression(t jsToken) bool {
	switch t.kind {
	case tokEOF, tokTemplateMid, tokTemplateTail:
		return false
	case tokName:
		return !reservedWords[t.text] || expressionKeywords[t.text]
	case tokPunct:
		switch t.text {
		case "(", "[", "{", "/", "/=", "+", "-", "~", "!", "++", "--", "<", "#", "@":
			return true
		}
		return false
	}
	return true
}

// reservedWords are the words that cannot name a variable;
// expressionKeywords those of them that start an expression.
var (
	// expressionValues are the reserved words that are values, after
	// which a "/" divides.
	expressionValues   = wordSet("false null super this true")
	reservedWords      = wordSet("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with")
	expressionKeywords = wordSet("class delete false function import new null super this true typeof void")
)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// punctuators are JavaScript's punctuators of more than one character,
// longest first, by their first character.
var punctuators = func() (m [128][]string) {
	for _, p := range []string{
		">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
		"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
		"&=", "|=", "^=", "**", "<<", ">>",
	} {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

// lexer splits a source into tokens, one at a time. Copied (with a copy
// of braces), it lexes on from where it is without changing the original.
type lexer struct {
	src string
	i   int
	// tok is the last token lexed, prev the one before it (a "/" is a
	// division or starts a regular expression by what comes before it).
	tok, prev jsToken
	// braces has an entry per open "{" ('{') and template substitution
	// ('`'), so that a "}" is known to close one or the other.
	braces  []byte
	newline bool
	// failed is set when the lexer cannot tell the tokens with certainty
	// (see mayHaveTypeArguments); token then returns tokEOF.
	failed bool
}

// token lexes and returns the next token, tokEOF at the end or once
// failed.
func (lx *lexer) token() jsToken {
	if lx.failed || !lx.space() {
		lx.failed = true
		return jsToken{kind: tokEOF}
	}
	if lx.i >= len(lx.src) {
		lx.emit(tokEOF, "")
	} else if !lx.next() {
		lx.failed = true
		return jsToken{kind: tokEOF}
	}
	return lx.tok
}

func (lx *lexer) emit(kind tokenKind, text string) {
	lx.prev, lx.tok = lx.tok, jsToken{kind: kind, newline: lx.newline, text: text}
	lx.newline = false
}

// space skips white space and comments, noting line breaks; false for an
// unterminated comment or an HTML-like one ("<!--", "-->"), which
// JavaScript and TypeScript may read apart.
func (lx *lexer) space() bool {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == '\n' || c == '\r':
			lx.newline = true
			lx.i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			lx.i++
		case c == '/' && strings.HasPrefix(src[lx.i:], "//"):
			end := strings.IndexAny(src[lx.i:], "\n\r\u2028\u2029")
			if end < 0 {
				lx.i = len(src)
			} else {
				lx.i += end
			}
		case c == '/' && strings.HasPrefix(src[lx.i:], "/*"):
			end := strings.Index(src[lx.i+2:], "*/")
			if end < 0 {
				return false
			}
			if strings.ContainsAny(src[lx.i:lx.i+2+end], "\n\r\u2028\u2029") {
				lx.newline = true
			}
			lx.i += end + 4
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[lx.i:])
			switch {
			case r == '\u2028' || r == '\u2029':
				lx.newline = true
			case unicodeSpace(r):
			default:
				return true // a letter of a name
			}
			lx.i += size
		default:
			return !strings.HasPrefix(src[lx.i:], "<!--") && !strings.HasPrefix(src[lx.i:], "-->")
		}
	}
	return true
}

// next lexes the token at lx.i, which is not white space.
func (lx *lexer) next() bool {
	src := lx.src
	c := src[lx.i]
	switch {
	case c == '"' || c == '\'':
		return lx.str(c)
	case c == '`':
		lx.i++
		return lx.template(tokTemplate, tokTemplateHead)
	case c == '}' && len(lx.braces) > 0 && lx.braces[len(lx.braces)-1] == '`':
		lx.braces = lx.braces[:len(lx.braces)-1]
		lx.i++
		return lx.template(tokTemplateTail, tokTemplateMid)
	case isDigit(c) || c == '.' && lx.i+1 < len(src) && isDigit(src[lx.i+1]):
		lx.number()
		return true
	case isNameByte(c):
		lx.name()
		return true
	case c == '/':
		return lx.slash()
	case c == '#' && lx.i == 0 && strings.HasPrefix(src, "#!"):
		return false // a hashbang line
	}
	for _, p := range punctuators[c&0x7f] {
		if strings.HasPrefix(src[lx.i:], p) {
			if p == "?." && lx.i+2 < len(src) && isDigit(src[lx.i+2]) {
				break // a ? b ?.5 : c
			}
			lx.i += len(p)
			lx.emit(tokPunct, p)
			return true
		}
	}
	switch c {
	case '{':
		lx.braces = append(lx.braces, '{')
	case '}':
		if len(lx.braces) > 0 {
			lx.braces = lx.braces[:len(lx.braces)-1]
		}
	}
	lx.i++
	lx.emit(tokPunct, src[lx.i-1:lx.i])
	return true
}

// name lexes an identifier or keyword, escapes (\u0061, \u{61}) and
// non-ASCII letters included.
func (lx *lexer) name() {
	src := lx.src
	start := lx.i
	for lx.i < len(src) {
		c := src[lx.i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(src[lx.i:])
			if r == '\u2028' || r == '\u2029' || unicodeSpace(r) {
				break
			}
			lx.i += size
			continue
		}
		if !isNameByte(c) {
			break
		}
		if c == '\\' && strings.HasPrefix(src[lx.i:], "\\u{") {
			if end := strings.IndexByte(src[lx.i:], '}'); end >= 0 {
				lx.i += end
			}
		}
		lx.i++
	}
	lx.emit(tokName, src[start:lx.i])
}

// str lexes a string literal quoted by q; false when unterminated.
func (lx *lexer) str(q byte) bool {
	src := lx.src
	for i := lx.i + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
			if i+1 < len(src) && src[i] == '\r' && src[i+1] == '\n' {
				i++
			}
		case '\n', '\r':
			return false
		case q:
			lx.i = i + 1
			lx.emit(tokString, "")
			return true
		}
	}
	return false
}

// template lexes template text from lx.i up to its closing backquote (a
// token of kind whole) or a substitution's "${" (a token of kind open,
// after which the substitution's tokens follow); false when unterminated.
func (lx *lexer) template(whole, open tokenKind) bool {
	src := lx.src
	for i := lx.i; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '`':
			lx.i = i + 1
			lx.emit(whole, "")
			return true
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				lx.i = i + 2
				lx.emit(open, "")
				lx.braces = append(lx.braces, '`')
				return true
			}
		}
	}
	return false
}

// number lexes a numeric literal: decimal (with a fraction, an exponent
// and its sign), hexadecimal, octal or binary, with separators, BigInt's n.
func (lx *lexer) number() {
	src := lx.src
	i := lx.i
	hex := src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x'
	for i < len(src) {
		c := src[i]
		switch {
		case isDigit(c) || c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			i++
			if (c == 'e' || c == 'E') && i < len(src) && (src[i] == '+' || src[i] == '-') && !hex {
				i++
			}
			continue
		}
		break
	}
	lx.i = i
	lx.emit(tokNumber, "")
}

// slash lexes a "/" or "/=" that is not a comment: a regular expression
// where an expression starts, a division after one. After ")" and "}" (or
// "++", "--", and await, yield or of, which may be names) it may be either
// ("if (x) /re/.test(s)"): it is lexed as a division, whose tokens do no
// harm unless the regular expression it may be holds what would start a
// string, template, comment or brace; then false.
func (lx *lexer) slash() bool {
	regexp, ambiguous := lx.regexpHere()
	if !regexp {
		if ambiguous {
			if end, ok := regexpEnd(lx.src, lx.i); ok {
				body := lx.src[lx.i+1 : end-1]
				if strings.ContainsAny(body, "'\"`/{}") || end < len(lx.src) && (lx.src[end] == '/' || lx.src[end] == '*') {
					return false
				}
			}
		}
		p := "/"
		if strings.HasPrefix(lx.src[lx.i:], "/=") {
			p = "/="
		}
		lx.i += len(p)
		lx.emit(tokPunct, p)
		return true
	}
	end, ok := regexpEnd(lx.src, lx.i)
	if !ok {
		return false
	}
	for end < len(lx.src) && isNameByte(lx.src[end]) {
		end++ // flags
	}
	lx.i = end
	lx.emit(tokRegexp, "")
	return true
}

// regexpHere reports whether a "/" at lx.i starts a regular expression,
// from the token before it, and whether that is ambiguous (see slash).
func (lx *lexer) regexpHere() (regexp, ambiguous bool) {
	prev := lx.tok
	switch prev.kind {
	case tokNone:
		return true, false
	case tokNumber, tokString, tokTemplate, tokTemplateTail, tokRegexp:
		return false, false
	case tokName:
		if lx.prev.kind == tokPunct && (lx.prev.text == "." || lx.prev.text == "?.") {
			return false, false // a property: a.return / 2
		}
		switch prev.text {
		case "await", "yield", "of":
			return false, true
		}
		return reservedWords[prev.text] && !expressionValues[prev.text], false
	case tokPunct:
		switch prev.text {
		case ")", "}", "++", "--":
			return false, true
		case "]":
			return false, false
		}
	}
	return true, false
}

// regexpEnd returns the offset just past the closing "/" of a regular
// expression starting at src[start]; false when none closes it on its
// line.
func regexpEnd(src string, start int) (int, bool) {
	class := false
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
			if i < len(src) && (src[i] == '\n' || src[i] == '\r') {
				return 0, false
			}
		case '\n', '\r':
			return 0, false
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				return i + 1, true
			}
		}
	}
	return 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isNameByte reports whether c may be part of a name: ASCII letters,
// digits, _, $, \ (of an escape), and any byte of a non-ASCII character
// (space and line breaks among them are told apart by the caller).
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$' || c == '\\' || c >= utf8.RuneSelf
}

// unicodeSpace reports whether r is white space that JavaScript allows
// between tokens, beyond ASCII's.
func unicodeSpace(r rune) bool {
	return r == '\u00a0' || r == '\ufeff' || r == '\u1680' || r >= '\u2000' && r <= '\u200a' || r == '\u202f' || r == '\u205f' || r == '\u3000'
}
