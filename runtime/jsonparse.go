package runtime

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// maxJSONNesting bounds how deeply arrays and objects may nest in the text
// JSON.parse is given. goja's parser recurses once per level on the Go
// stack: "[" repeated 30 million times overflowed it, which kills the
// process (a Go stack overflow cannot be recovered). V8's parser is
// iterative; Go's encoding/json refuses more than 10000 levels too.
const maxJSONNesting = 10000

// guardJSONParse replaces JSON.parse by a function that refuses text
// nested deeper than maxJSONNesting with a RangeError before goja's parser
// sees it, and gives the SyntaxError of text that is not JSON node v20's
// message, with the position (see jsonSyntaxMessage), instead of Go's
// encoding/json's. The replacement has the original's name, length and
// attributes, and keeps no run's state, so a session's VM keeps it.
func guardJSONParse(vm *goja.Runtime) error {
	j, ok := vm.Get("JSON").(*goja.Object)
	if !ok {
		return errors.New("guard JSON.parse: no JSON global")
	}
	orig, ok := goja.AssertFunction(j.Get("parse"))
	if !ok {
		return errors.New("guard JSON.parse: JSON.parse is not a function")
	}
	parse := js.NamedFunction(vm, "parse", func(call goja.FunctionCall) goja.Value {
		text := call.Argument(0).ToString() // a Symbol throws, as in the engine
		// Only a text longer than the limit can nest past it: a short one
		// is not copied out of the engine unless it fails.
		if str, ok := text.(goja.String); !ok || str.Length() > maxJSONNesting {
			if jsonNesting(text.String()) > maxJSONNesting {
				panic(NewError(vm, "RangeError", fmt.Sprintf("JSON.parse: the text nests arrays and objects more than %d levels deep", maxJSONNesting)))
			}
		}
		v, err := orig(call.This, text, call.Argument(1))
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				if e, ok := ex.Value().(*goja.Object); ok && e.ClassName() == "Error" && e.Get("name").String() == "SyntaxError" {
					if msg := jsonSyntaxMessage(text.String()); msg != "" {
						setErrorMessage(vm, e, msg)
					}
				}
			}
			panic(err)
		}
		return v
	})
	if err := parse.(*goja.Object).DefineDataProperty("length", vm.ToValue(2), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	return j.DefineDataProperty("parse", parse, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// setErrorMessage gives the engine's error e the message msg, and its
// stack the same first line.
func setErrorMessage(vm *goja.Runtime, e *goja.Object, msg string) {
	old := e.Get("message").String()
	_ = e.DefineDataProperty("message", vm.ToValue(msg), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if st := e.Get("stack"); st != nil && goja.IsString(st) {
		if head := "SyntaxError: " + old; strings.HasPrefix(st.String(), head) {
			_ = e.DefineDataProperty("stack", vm.ToValue("SyntaxError: "+msg+st.String()[len(head):]), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
}

// jsonNesting returns how deeply arrays and objects nest in s, brackets
// inside strings aside; it stops counting past maxJSONNesting.
func jsonNesting(s string) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > maxJSONNesting {
					return deepest
				}
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// jsonSyntaxMessage returns what node v20 (V8's JSON parser) says of src,
// the text JSON.parse was given, when it is not valid JSON ("Expected ','
// or '}' after property value in JSON at position 7"), and "" when it is
// valid. goja's own messages are Go's encoding/json's, with no position.
// Positions are in UTF-16 units, as in JavaScript.
func jsonSyntaxMessage(src string) string {
	p := &jsonScanner{s: utf16.Encode([]rune(src))}
	p.value()
	if p.err == errTooDeep {
		return ""
	}
	if p.err == "" {
		p.space()
		if p.i < len(p.s) {
			p.err = fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d", p.i)
		}
	}
	return p.err
}

// jsonContext is how many characters around the unexpected one a message
// quotes, once the text has jsonShort characters or more (V8's
// kMaxContextCharacters and kMinOriginalSourceLengthForContext).
const (
	jsonContext = 10
	jsonShort   = 2*jsonContext + 1
)

// jsonScanner checks JSON as V8's parser does, keeping its first error.
type jsonScanner struct {
	s     []uint16
	i     int
	err   string
	depth int // of arrays and objects open
}

// errTooDeep marks text nested deeper than maxJSONNesting, which the
// scanner does not follow (its recursion would be as deep as the text) and
// gives no message of its own; the guard refuses such text before.
const errTooDeep = "too deep"

// fail records msg at the current position, unless an error came first.
func (p *jsonScanner) fail(msg string) {
	if p.err == "" {
		p.err = fmt.Sprintf("%s in JSON at position %d", msg, p.i)
	}
}

// unexpected records V8's message for an unexpected character (or the end)
// where a value was expected.
func (p *jsonScanner) unexpected() {
	if p.err != "" {
		return
	}
	n := len(p.s)
	switch {
	case p.i >= n:
		p.err = "Unexpected end of JSON input"
		return
	case p.s[p.i] == '"':
		p.fail("Unexpected string")
		return
	case p.s[p.i] == '-' || p.s[p.i] >= '0' && p.s[p.i] <= '9':
		p.fail("Unexpected number")
		return
	}
	whole := string(utf16.Decode(p.s))
	switch whole {
	case "[object Object]", "undefined", "Infinity", "NaN":
		p.err = `"` + whole + `" is not valid JSON`
		return
	}
	token := string(utf16.Decode(p.s[p.i : p.i+1]))
	quote := func(from, to int) string { return string(utf16.Decode(p.s[from:to])) }
	switch {
	case n < jsonShort:
		p.err = fmt.Sprintf(`Unexpected token '%s', "%s" is not valid JSON`, token, whole)
	case p.i < jsonContext:
		p.err = fmt.Sprintf(`Unexpected token '%s', "%s"... is not valid JSON`, token, quote(0, p.i+jsonContext))
	case p.i < n-jsonContext:
		p.err = fmt.Sprintf(`Unexpected token '%s', ..."%s"... is not valid JSON`, token, quote(p.i-jsonContext, p.i+jsonContext))
	default:
		p.err = fmt.Sprintf(`Unexpected token '%s', ..."%s" is not valid JSON`, token, quote(p.i-jsonContext, n))
	}
}

// space skips JSON whitespace.
func (p *jsonScanner) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek returns the next character, or -1 at the end.
func (p *jsonScanner) peek() int {
	if p.i < len(p.s) {
		return int(p.s[p.i])
	}
	return -1
}

// value checks one value, after whitespace.
func (p *jsonScanner) value() {
	p.space()
	switch c := p.peek(); {
	case (c == '{' || c == '[') && p.depth >= maxJSONNesting:
		p.err = errTooDeep
	case c == '{':
		p.depth++
		p.object()
		p.depth--
	case c == '[':
		p.depth++
		p.array()
		p.depth--
	case c == '"':
		p.str()
	case c == '-' || c >= '0' && c <= '9':
		p.number()
	case c == 't':
		p.literal("true")
	case c == 'f':
		p.literal("false")
	case c == 'n':
		p.literal("null")
	default:
		p.unexpected()
	}
}

// literal checks the word lit, its first letter being next.
func (p *jsonScanner) literal(lit string) {
	for k := 0; k < len(lit); k++ {
		if p.peek() != int(lit[k]) {
			p.unexpected()
			return
		}
		p.i++
	}
}

func (p *jsonScanner) object() {
	p.i++ // {
	p.space()
	if p.peek() == '}' {
		p.i++
		return
	}
	if p.peek() != '"' {
		p.fail("Expected property name or '}'")
		return
	}
	for first := true; ; first = false {
		p.str()
		if p.err != "" {
			return
		}
		p.space()
		switch {
		case p.peek() == ':':
		case first:
			p.fail("Expected ':' after property name")
			return
		default:
			// V8 names the colon only after an object's first name.
			p.unexpected()
			return
		}
		p.i++
		p.value()
		if p.err != "" {
			return
		}
		p.space()
		switch p.peek() {
		case '}':
			p.i++
			return
		case ',':
			p.i++
			p.space()
			if p.peek() != '"' {
				p.fail("Expected double-quoted property name")
				return
			}
		default:
			p.fail("Expected ',' or '}' after property value")
			return
		}
	}
}

func (p *jsonScanner) array() {
	p.i++ // [
	p.space()
	if p.peek() == ']' {
		p.i++
		return
	}
	for {
		p.value()
		if p.err != "" {
			return
		}
		p.space()
		switch p.peek() {
		case ']':
			p.i++
			return
		case ',':
			p.i++
		default:
			p.fail("Expected ',' or ']' after array element")
			return
		}
	}
}

// str checks a string, its opening quote being next.
func (p *jsonScanner) str() {
	p.i++ // "
	for {
		c := p.peek()
		switch {
		case c < 0:
			p.fail("Unterminated string")
			return
		case c == '"':
			p.i++
			return
		case c < 0x20:
			p.fail("Bad control character in string literal")
			return
		case c == '\\':
			p.i++
			switch e := p.peek(); e {
			case -1:
				p.unexpected()
				return
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				p.i++
				for k := 0; k < 4; k++ {
					if !isHexDigit(p.peek()) {
						p.fail("Bad Unicode escape")
						return
					}
					p.i++
				}
			default:
				p.fail("Bad escaped character")
				return
			}
		default:
			p.i++
		}
	}
}

// number checks a number, its first character being next.
func (p *jsonScanner) number() {
	if p.peek() == '-' {
		p.i++
		if !isDigit(p.peek()) {
			p.fail("No number after minus sign")
			return
		}
	}
	if p.peek() == '0' {
		p.i++
		if isDigit(p.peek()) {
			p.unexpected()
			return
		}
	} else {
		for isDigit(p.peek()) {
			p.i++
		}
	}
	if p.peek() == '.' {
		p.i++
		if !isDigit(p.peek()) {
			p.fail("Unterminated fractional number")
			return
		}
		for isDigit(p.peek()) {
			p.i++
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if !isDigit(p.peek()) {
			p.fail("Exponent part is missing a number")
			return
		}
		for isDigit(p.peek()) {
			p.i++
		}
	}
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isHexDigit(c int) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
