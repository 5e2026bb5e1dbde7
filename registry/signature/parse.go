package signature

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on what Parse accepts.
const (
	// maxSourceLen is the longest call signature, in bytes, that Parse accepts.
	maxSourceLen = 16 << 10
	// maxDepth is the deepest nesting of types (type arguments, object and
	// tuple members, function types, parentheses, array suffixes) that Parse
	// accepts.
	maxDepth = 64
)

// SyntaxError reports why a call signature could not be parsed and where.
type SyntaxError struct {
	Offset int    // byte offset of the problem in the source
	Line   int    // 1-based line of Offset
	Column int    // 1-based byte column of Offset within its line
	Msg    string // what was expected and what was found

	multiline bool // the source has more than one line
}

// Error returns "call signature: column N: MSG", or
// "call signature: line L, column N: MSG" when the source spans lines.
func (e *SyntaxError) Error() string {
	col := e.Column
	if col <= 0 {
		col = e.Offset + 1
	}
	if e.multiline || e.Line > 1 {
		return fmt.Sprintf("call signature: line %d, column %d: %s", e.Line, col, e.Msg)
	}
	return fmt.Sprintf("call signature: column %d: %s", col, e.Msg)
}

// newSyntaxError returns the error msg at byte offset off of src. Line breaks
// are "\n", "\r\n" and a lone "\r".
func newSyntaxError(src string, off int, msg string) *SyntaxError {
	line, lineStart := 1, 0
	for i := 0; i < off && i < len(src); i++ {
		switch src[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				line, lineStart = line+1, i+1
			}
		}
	}
	return &SyntaxError{
		Offset:    off,
		Line:      line,
		Column:    off - lineStart + 1,
		Msg:       msg,
		multiline: strings.ContainsAny(src, "\n\r"),
	}
}

// Parse parses a TypeScript function declaration of the form
//
//	[export] [declare] [async] function NAME[<T, ...>](PARAMS)[: RETURN][;]
//
// with any whitespace and // or /* */ comments between tokens. The name must
// be an ASCII identifier (letters, digits, "_" and "$", not starting with a
// digit) that is not a reserved word of strict-mode module code; Parse does
// not check Reserved. Parameter defaults (`limit = 10`) are checked for
// balanced brackets, dropped, and make the parameter optional; type parameter constraints and defaults are parsed and
// dropped. Destructured parameters, type operators and type queries (typeof,
// keyof, unique, infer), indexed access, conditional, mapped and template
// literal types with substitutions, constructor and generic function types,
// accessors and call signatures in object types are rejected, and so are
// duplicate parameters and properties (method overloads aside), a required
// parameter after an optional one, and a rest parameter that is not last.
// Object type members may be separated by ";", "," or a line break.
//
// Any failure is a *SyntaxError naming what was expected and what was found.
// Sources longer than 16 KiB (in the source or in the canonical String
// form), types nested more than 64 levels deep, and sources that are not
// valid UTF-8 are rejected. Parse never panics and is safe for concurrent use.
func Parse(src string) (sig *Signature, err error) {
	if len(src) > maxSourceLen {
		return nil, newSyntaxError(src, maxSourceLen,
			fmt.Sprintf("call signature is %d bytes long; the limit is %d", len(src), maxSourceLen))
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size == 1 {
			return nil, newSyntaxError(src, i, "invalid UTF-8")
		}
		i += size
	}
	p := &parser{src: src, toks: lex(src)}
	if p.toks[0].kind == tokEOF {
		return nil, newSyntaxError(src, 0, "empty call signature")
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			sig, err = nil, b.err
		}
	}()
	sig = p.parseSignature()
	// Canonical text adds spaces and escapes; keep it within the limit too so
	// that String always parses back.
	if n := len(sig.String()); n > maxSourceLen {
		return nil, newSyntaxError(src, 0,
			fmt.Sprintf("call signature is too long: its canonical form is %d bytes; the limit is %d", n, maxSourceLen))
	}
	return sig, nil
}

// bailout carries a syntax error up the parser's call stack to Parse.
type bailout struct{ err *SyntaxError }

// parser is a recursive-descent parser over a token slice.
type parser struct {
	src   string
	toks  []token
	pos   int
	depth int
}

// tok returns the current token.
func (p *parser) tok() token { return p.toks[p.pos] }

// peek returns the token k places after the current one (or the final token).
func (p *parser) peek(k int) token {
	if i := p.pos + k; i < len(p.toks) {
		return p.toks[i]
	}
	return p.toks[len(p.toks)-1]
}

// next consumes and returns the current token; the final token is never
// consumed.
func (p *parser) next() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

// is reports whether the current token is the punctuation s.
func (p *parser) is(s string) bool { return isPunct(p.tok(), s) }

// isIdent reports whether the current token is the identifier or keyword s.
func (p *parser) isIdent(s string) bool { return isWord(p.tok(), s) }

func isPunct(t token, s string) bool { return t.kind == tokPunct && t.text == s }

func isWord(t token, s string) bool { return t.kind == tokIdent && t.text == s }

// fail aborts parsing with an error at token t; a lexical error token
// reports its own message instead.
func (p *parser) fail(t token, format string, args ...any) {
	if t.kind == tokIllegal {
		panic(bailout{newSyntaxError(p.src, t.off, t.text)})
	}
	panic(bailout{newSyntaxError(p.src, t.off, fmt.Sprintf(format, args...))})
}

// failExpected aborts with `expected WHAT but found TOKEN` at the current token.
func (p *parser) failExpected(what string) {
	t := p.tok()
	p.fail(t, "expected %s but found %s", what, describe(t))
}

// expect consumes the punctuation s or fails.
func (p *parser) expect(s string) token {
	if !p.is(s) {
		p.failExpected(`"` + s + `"`)
	}
	return p.next()
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokString:
		return "string " + describeText(t.text)
	case tokTemplate:
		return "template literal"
	}
	return describeText(t.text)
}

// enter records one more level of nesting, failing beyond maxDepth.
func (p *parser) enter(extra int) {
	p.depth++
	if p.depth+extra > maxDepth {
		p.fail(p.tok(), "type is nested too deeply (the limit is %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parseSignature() *Signature {
	sig := &Signature{}
	if p.isIdent("export") {
		p.next()
	}
	if p.isIdent("declare") {
		p.next()
	}
	if p.isIdent("async") {
		p.next()
		if t := p.tok(); t.nl && t.kind != tokEOF {
			p.fail(t, `a line break is not allowed between "async" and "function"`)
		}
		sig.Async = true
	}
	if !p.isIdent("function") {
		p.failExpected(`"function"`)
	}
	p.next()
	if p.is("*") {
		p.fail(p.tok(), "generator functions are not supported")
	}
	name := p.tok()
	if name.kind != tokIdent {
		p.failExpected("function name")
	}
	if !isIdentifier(name.text) {
		p.fail(name, "%q is a reserved word and cannot be a function name", name.text)
	}
	sig.Name = name.text
	p.next()
	if p.is("<") {
		sig.TypeParams = p.parseTypeParams()
	}
	if !p.is("(") {
		p.failExpected(`"("`)
	}
	sig.Params = p.parseParams()
	if p.is(":") {
		p.next()
		sig.Returns = p.parseReturnType()
	}
	if p.is(";") {
		p.next()
	}
	switch t := p.tok(); {
	case t.kind == tokEOF:
	case isPunct(t, "{"):
		p.fail(t, `expected end of input but found "{": a call signature is a declaration without a body`)
	default:
		p.failExpected("end of input")
	}
	return sig
}

// predefinedTypes cannot name a type parameter.
var predefinedTypes = map[string]bool{
	"any": true, "unknown": true, "never": true, "string": true, "number": true,
	"boolean": true, "bigint": true, "symbol": true, "object": true,
	"undefined": true,
}

// parseTypeParams parses `<T, U extends X = Y>` and returns the names.
func (p *parser) parseTypeParams() []string {
	p.expect("<")
	var names []string
	seen := map[string]bool{}
	sawDefault := false
	for !p.is(">") {
		t := p.tok()
		if n := p.peek(1); (t.text == "const" || t.text == "in" || t.text == "out") &&
			n.kind == tokIdent && n.text != "extends" {
			p.fail(t, "type parameter modifiers are not supported")
		}
		if t.kind != tokIdent {
			p.failExpected("type parameter name")
		}
		if !isIdentifier(t.text) || predefinedTypes[t.text] {
			p.fail(t, "type parameter name cannot be %q", t.text)
		}
		if seen[t.text] {
			p.fail(t, "duplicate type parameter %q", t.text)
		}
		seen[t.text] = true
		names = append(names, t.text)
		p.next()
		if p.isIdent("extends") {
			p.next()
			p.parseType()
		}
		if p.is("=") {
			p.next()
			p.parseType()
			sawDefault = true
		} else if sawDefault {
			p.fail(t, "required type parameter %q cannot follow one with a default", t.text)
		}
		if p.is(",") {
			p.next()
			continue
		}
		if !p.is(">") {
			p.failExpected(`"," or ">"`)
		}
	}
	if len(names) == 0 {
		p.fail(p.tok(), "type parameter list cannot be empty")
	}
	p.next()
	return names
}

// parseParams parses a parenthesized parameter list.
func (p *parser) parseParams() []Param {
	p.expect("(")
	params := []Param{}
	seen := map[string]bool{}
	sawOptional := false
	for !p.is(")") {
		start := p.tok()
		var prm Param
		if p.is("...") {
			p.next()
			prm.Rest = true
		}
		t := p.tok()
		if isPunct(t, "{") || isPunct(t, "[") {
			p.fail(t, "destructured parameters are not supported; give the parameter a name")
		}
		if t.kind != tokIdent {
			if prm.Rest {
				p.failExpected("parameter name")
			}
			p.failExpected(`parameter name or ")"`)
		}
		if !isIdentifier(t.text) {
			p.fail(t, "%q is a reserved word and cannot be a parameter name", t.text)
		}
		if seen[t.text] {
			p.fail(t, "duplicate parameter name %q", t.text)
		}
		seen[t.text] = true
		prm.Name = t.text
		p.next()
		if p.is("?") {
			if prm.Rest {
				p.fail(p.tok(), "a rest parameter cannot be optional")
			}
			p.next()
			prm.Optional = true
		}
		if p.is(":") {
			p.next()
			prm.Type = p.parseType()
		}
		if p.is("=") {
			eq := p.next()
			if prm.Rest {
				p.fail(eq, "a rest parameter cannot have a default value")
			}
			if prm.Optional {
				p.fail(eq, "parameter %q cannot have both \"?\" and a default value", prm.Name)
			}
			p.skipDefault()
			prm.Optional = true
		}
		if !prm.Optional && !prm.Rest && sawOptional {
			p.fail(start, "required parameter %q cannot follow an optional parameter", prm.Name)
		}
		sawOptional = sawOptional || prm.Optional
		params = append(params, prm)
		if p.is(",") {
			if prm.Rest {
				p.fail(p.tok(), "a rest parameter must be the last parameter")
			}
			p.next()
			continue
		}
		if !p.is(")") {
			p.failExpected(`"," or ")"`)
		}
	}
	p.next()
	return params
}

// skipDefault skips a parameter's default value: the tokens up to the next
// "," or ")" outside brackets, which must balance.
func (p *parser) skipDefault() {
	var closers []string
	for n := 0; ; n++ {
		t := p.tok()
		switch t.kind {
		case tokEOF, tokIllegal:
			if len(closers) > 0 {
				p.failExpected(`"` + closers[len(closers)-1] + `"`)
			}
			p.failExpected(`"," or ")"`)
		case tokPunct:
			switch t.text {
			case "(", "[", "{":
				if len(closers) >= maxDepth {
					p.fail(t, "default value is nested too deeply (the limit is %d levels)", maxDepth)
				}
				closers = append(closers, map[string]string{"(": ")", "[": "]", "{": "}"}[t.text])
			case ")", "]", "}", ",":
				if len(closers) == 0 {
					if n == 0 {
						p.failExpected("default value")
					}
					if t.text == ")" || t.text == "," {
						return
					}
					p.fail(t, "unbalanced %q in default value", t.text)
				}
				if t.text != "," {
					if want := closers[len(closers)-1]; t.text != want {
						p.failExpected(`"` + want + `"`)
					}
					closers = closers[:len(closers)-1]
				}
			}
		}
		p.next()
	}
}

// parseReturnType parses a return type annotation, rejecting type predicates.
func (p *parser) parseReturnType() *Type {
	if t := p.tok(); isWord(t, "asserts") && p.peek(1).kind == tokIdent && !p.peek(1).nl {
		p.fail(t, "assertion signatures are not supported")
	}
	typ := p.parseType()
	if t := p.tok(); isWord(t, "is") && !t.nl {
		p.fail(t, "type predicates are not supported")
	}
	return typ
}

// parseType parses a full type, including function types.
func (p *parser) parseType() *Type {
	p.enter(0)
	defer p.leave()
	t := p.tok()
	switch {
	case p.isFunctionStart():
		return p.parseFunctionType()
	case isWord(t, "new") || isWord(t, "abstract") && isWord(p.peek(1), "new"):
		p.fail(t, "constructor types are not supported")
	case isPunct(t, "<"):
		p.fail(t, "generic function types are not supported")
	}
	typ := p.parseUnion()
	if t := p.tok(); isWord(t, "extends") && !t.nl {
		p.fail(t, "conditional types are not supported")
	}
	return typ
}

// isFunctionStart reports whether the current token opens a function type:
// a "(" whose matching ")" is followed by "=>", or a "(" followed by
// something only a parameter list can hold: ")", "...", or a name followed
// by ":", "?", "," or "=".
func (p *parser) isFunctionStart() bool {
	if !p.is("(") {
		return false
	}
	switch n, m := p.peek(1), p.peek(2); {
	case isPunct(n, ")") || isPunct(n, "..."):
		return true
	case n.kind == tokIdent && m.kind == tokPunct:
		switch m.text {
		case ":", "?", ",", "=":
			return true
		}
	}
	depth := 0
	for i := p.pos; i < len(p.toks)-1; i++ {
		t := p.toks[i]
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return isPunct(p.toks[i+1], "=>")
			}
		}
	}
	return false
}

func (p *parser) parseFunctionType() *Type {
	params := p.parseParams()
	p.expect("=>")
	return &Type{Kind: KindFunction, Params: params, Returns: p.parseType()}
}

// parseUnion parses `[|] A | B ...`; nested unions are flattened.
func (p *parser) parseUnion() *Type {
	if p.is("|") {
		p.next()
	}
	first := p.parseIntersection()
	if !p.is("|") {
		return first
	}
	members := flatten(nil, first, KindUnion)
	for p.is("|") {
		p.next()
		members = flatten(members, p.parseIntersection(), KindUnion)
	}
	return &Type{Kind: KindUnion, Args: members}
}

// parseIntersection parses `[&] A & B ...`; nested intersections are flattened.
func (p *parser) parseIntersection() *Type {
	if p.is("&") {
		p.next()
	}
	first := p.parseOperator()
	if !p.is("&") {
		return first
	}
	members := flatten(nil, first, KindIntersection)
	for p.is("&") {
		p.next()
		members = flatten(members, p.parseOperator(), KindIntersection)
	}
	return &Type{Kind: KindIntersection, Args: members}
}

// flatten appends t to list, or t's members when t is itself of kind k.
func flatten(list []*Type, t *Type, k Kind) []*Type {
	if t.Kind == k {
		return append(list, t.Args...)
	}
	return append(list, t)
}

// parseOperator parses a type with an optional prefix operator; only
// `readonly` on array and tuple types is supported.
func (p *parser) parseOperator() *Type {
	t := p.tok()
	if t.kind == tokIdent {
		switch t.text {
		case "readonly":
			p.next()
			p.enter(0)
			typ := p.parseOperator()
			p.leave()
			if typ.Kind != KindArray && typ.Kind != KindTuple || typ.Readonly {
				p.fail(t, `"readonly" is only allowed on array and tuple types`)
			}
			typ.Readonly = true
			return typ
		case "keyof", "unique", "infer":
			p.fail(t, "%q type operators are not supported", t.text)
		}
	}
	return p.parsePostfix()
}

// parsePostfix parses a primary type followed by `[]` suffixes, which must
// be on the same line.
func (p *parser) parsePostfix() *Type {
	typ := p.parsePrimary()
	n := 0
	for t := p.tok(); isPunct(t, "[") && !t.nl; t = p.tok() {
		if !isPunct(p.peek(1), "]") {
			p.fail(t, "indexed access types are not supported")
		}
		n++
		if p.depth+n > maxDepth {
			p.fail(t, "type is nested too deeply (the limit is %d levels)", maxDepth)
		}
		p.next()
		p.next()
		typ = &Type{Kind: KindArray, Elem: typ}
	}
	return typ
}

func (p *parser) parsePrimary() *Type {
	t := p.tok()
	switch t.kind {
	case tokNumber:
		p.next()
		return &Type{Kind: KindLiteral, Literal: t.text}
	case tokString:
		p.next()
		if strings.ContainsAny(t.text, "\n\r\u2028\u2029") { // line continuations
			return &Type{Kind: KindLiteral, Literal: quoteString(t.value)}
		}
		return &Type{Kind: KindLiteral, Literal: t.text}
	case tokTemplate:
		if t.subst {
			p.fail(t, "template literal types are not supported")
		}
		p.next()
		return &Type{Kind: KindLiteral, Literal: singleLineTemplate(t.text)}
	case tokPunct:
		switch t.text {
		case "-":
			p.next()
			if n := p.tok(); n.kind != tokNumber {
				p.failExpected(`number after "-"`)
			}
			return &Type{Kind: KindLiteral, Literal: "-" + p.next().text}
		case "(":
			if p.isFunctionStart() {
				p.fail(t, "a function type must be parenthesized when used in a union, intersection or array type")
			}
			p.next()
			typ := p.parseType()
			p.expect(")")
			return typ
		case "{":
			return p.parseObject()
		case "[":
			return p.parseTuple()
		case "<":
			p.fail(t, "generic function types are not supported")
		}
	case tokIdent:
		switch t.text {
		case "true", "false":
			p.next()
			return &Type{Kind: KindLiteral, Literal: t.text}
		case "void", "null", "this":
			p.next()
			return &Type{Kind: KindName, Name: t.text}
		case "typeof":
			p.fail(t, `"typeof" type queries are not supported`)
		case "new":
			p.fail(t, "constructor types are not supported")
		}
		if !reservedWords[t.text] {
			return p.parseTypeReference()
		}
	}
	p.failExpected("type")
	return nil
}

// parseTypeReference parses a dotted name with optional type arguments.
func (p *parser) parseTypeReference() *Type {
	name := p.next().text
	for p.is(".") {
		p.next()
		t := p.tok()
		if t.kind != tokIdent {
			p.failExpected(`name after "."`)
		}
		name += "." + t.text
		p.next()
	}
	if !p.is("<") {
		return &Type{Kind: KindName, Name: name}
	}
	p.next()
	var args []*Type
	for {
		args = append(args, p.parseType())
		if p.is(",") {
			p.next()
			continue
		}
		if p.is(">") {
			p.next()
			break
		}
		p.failExpected(`"," or ">"`)
	}
	return &Type{Kind: KindGeneric, Name: name, Args: args}
}

// parseObject parses an object literal type. Members are separated by ";",
// "," or a line break.
func (p *parser) parseObject() *Type {
	p.expect("{")
	fields := []Field{}
	// seen maps a member key to whether it was a method.
	seen := map[string]bool{}
	for !p.is("}") {
		start := p.tok()
		f := p.parseMember()
		key := "." + f.Name
		if f.Index {
			key = "[" + f.KeyType.String()
		}
		if method, dup := seen[key]; dup && !(method && f.Method) {
			if f.Index {
				p.fail(start, "duplicate index signature for key type %s", f.KeyType)
			}
			p.fail(start, "duplicate property %q", f.Name)
		}
		seen[key] = f.Method
		fields = append(fields, f)
		if p.is(";") || p.is(",") {
			p.next()
			continue
		}
		if t := p.tok(); p.is("}") || t.nl && t.kind != tokEOF {
			continue
		}
		p.failExpected(`";" or "}"`)
	}
	p.next()
	return &Type{Kind: KindObject, Fields: fields}
}

// isMemberNameStart reports whether t can start a member name, so that a
// preceding `readonly`, `get` or `set` is a modifier rather than the name.
func isMemberNameStart(t token) bool {
	return t.kind == tokIdent || t.kind == tokString || t.kind == tokNumber || isPunct(t, "[")
}

// parseMember parses one member of an object literal type.
func (p *parser) parseMember() Field {
	var f Field
	mod := p.tok()
	switch {
	case isWord(mod, "readonly") && isMemberNameStart(p.peek(1)):
		p.next()
		f.Readonly = true
	case (isWord(mod, "get") || isWord(mod, "set")) && isMemberNameStart(p.peek(1)):
		p.fail(mod, "accessors are not supported in object types")
	case isWord(mod, "new") && (isPunct(p.peek(1), "(") || isPunct(p.peek(1), "<")):
		p.fail(mod, "construct signatures are not supported in object types")
	case isPunct(mod, "-") || isPunct(mod, "+"):
		p.fail(mod, "mapped types are not supported")
	}
	t := p.tok()
	switch {
	case isPunct(t, "["):
		key, after := p.peek(1), p.peek(2)
		switch {
		case key.kind == tokIdent && isPunct(after, ":"):
		case key.kind == tokIdent && isWord(after, "in"):
			p.fail(t, "mapped types are not supported")
		default:
			p.fail(t, "computed property names are not supported")
		}
		p.next()
		p.next()
		p.next()
		f.Index, f.Name = true, key.text
		f.KeyType = p.parseType()
		p.expect("]")
		if p.is("?") {
			p.fail(p.tok(), "an index signature cannot be optional")
		}
		p.expect(":")
		f.Type = p.parseType()
		return f
	case isPunct(t, "(") || isPunct(t, "<"):
		p.fail(t, "call signatures are not supported in object types")
	case t.kind == tokIdent || t.kind == tokNumber:
		f.Name = t.text
	case t.kind == tokString:
		f.Name = t.value
	default:
		p.failExpected(`property name or "}"`)
	}
	p.next()
	if p.is("?") {
		p.next()
		f.Optional = true
	}
	switch {
	case p.is("("):
		if f.Readonly {
			p.fail(mod, `"readonly" cannot be used on a method`)
		}
		params := p.parseParams()
		if !p.is(":") {
			p.failExpected(`":" and a return type`)
		}
		p.next()
		f.Method = true
		f.Type = &Type{Kind: KindFunction, Params: params, Returns: p.parseType()}
	case p.is("<"):
		p.fail(p.tok(), "generic methods are not supported")
	case p.is(":"):
		p.next()
		f.Type = p.parseType()
	default:
		p.failExpected(`":"`)
	}
	return f
}

// parseTuple parses `[A, B?, ...C[]]` or `[a: A, b?: B, ...c: C[]]`.
func (p *parser) parseTuple() *Type {
	p.expect("[")
	typ := &Type{Kind: KindTuple, Args: []*Type{}, Params: []Param{}}
	sawOptional, sawRest := false, false
	for !p.is("]") {
		start := p.tok()
		var e Param
		if p.is("...") {
			p.next()
			e.Rest = true
		}
		named := p.tok().kind == tokIdent &&
			(isPunct(p.peek(1), ":") || isPunct(p.peek(1), "?") && isPunct(p.peek(2), ":"))
		if named {
			e.Name = p.next().text
			if p.is("?") {
				if e.Rest {
					p.fail(p.tok(), "a rest element cannot be optional")
				}
				p.next()
				e.Optional = true
			}
			p.expect(":")
		}
		e.Type = p.parseType()
		if !named && p.is("?") {
			if e.Rest {
				p.fail(p.tok(), "a rest element cannot be optional")
			}
			p.next()
			e.Optional = true
		}
		switch {
		case len(typ.Params) > 0 && named != (typ.Params[0].Name != ""):
			p.fail(start, "tuple elements must either all have names or all not have names")
		case e.Rest && sawRest:
			p.fail(start, "a tuple can have only one rest element")
		case e.Optional && sawRest:
			p.fail(start, "an optional element cannot follow a rest element")
		case !e.Optional && !e.Rest && sawOptional:
			p.fail(start, "a required element cannot follow an optional element")
		}
		sawOptional = sawOptional || e.Optional
		sawRest = sawRest || e.Rest
		typ.Params = append(typ.Params, e)
		typ.Args = append(typ.Args, e.Type)
		if p.is(",") {
			p.next()
			continue
		}
		if !p.is("]") {
			p.failExpected(`"," or "]"`)
		}
	}
	p.next()
	return typ
}

// singleLineTemplate rewrites a template literal's line breaks as \n escapes
// and drops its line continuations, keeping its value.
func singleLineTemplate(text string) string {
	if !strings.ContainsAny(text, "\n\r\u2028\u2029") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			switch {
			case text[i+1] == '\r':
				i++
				if i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
			case text[i+1] == '\n':
				i++
			case strings.HasPrefix(text[i+1:], "\u2028") || strings.HasPrefix(text[i+1:], "\u2029"):
				i += 3
			default:
				b.WriteString(text[i : i+2])
				i++
			}
		case c == '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			b.WriteString(`\n`)
		case c == '\n':
			b.WriteString(`\n`)
		case strings.HasPrefix(text[i:], "\u2028"):
			b.WriteString(`\u2028`)
			i += 2
		case strings.HasPrefix(text[i:], "\u2029"):
			b.WriteString(`\u2029`)
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
