package registry

import (
	"strconv"
	"unicode/utf8"
)

// decodeObject decodes text, a JSON object, into the map encoding/json's
// Unmarshal into a map[string]any gives, for the JSON it handles: objects,
// arrays, strings without \u escapes, control characters or invalid UTF-8,
// numbers and literals. It reports false for anything else, valid JSON or
// not, and the caller then decodes with encoding/json. It spares the tools'
// schemas, decoded at every start of a program, encoding/json's reflection
// and its second pass over the text.
func decodeObject(text string) (map[string]any, bool) {
	d := jsonDecoder{s: text}
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != '{' {
		return nil, false
	}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	if d.i != len(d.s) {
		return nil, false
	}
	return v.(map[string]any), true
}

// jsonMaxDepth bounds decodeObject's nesting; deeper text goes to
// encoding/json, whose own bound then applies.
const jsonMaxDepth = 100

// jsonDecoder is decodeObject's position in its text.
type jsonDecoder struct {
	s string
	i int
}

// space skips JSON whitespace.
func (d *jsonDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value decodes the value at d.i, whitespace before it already skipped.
func (d *jsonDecoder) value(depth int) (any, bool) {
	if d.i >= len(d.s) || depth > jsonMaxDepth {
		return nil, false
	}
	switch c := d.s[d.i]; {
	case c == '{':
		d.i++
		m := map[string]any{}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return m, true
		}
		for {
			d.space()
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.i >= len(d.s) || d.s[d.i] != ':' {
				return nil, false
			}
			d.i++
			d.space()
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			d.space()
			if d.i >= len(d.s) {
				return nil, false
			}
			d.i++
			switch d.s[d.i-1] {
			case ',':
			case '}':
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.i++
		list := []any{}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return list, true
		}
		for {
			d.space()
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			list = append(list, v)
			d.space()
			if d.i >= len(d.s) {
				return nil, false
			}
			d.i++
			switch d.s[d.i-1] {
			case ',':
			case ']':
				return list, true
			default:
				return nil, false
			}
		}
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	for _, lit := range [...]struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(d.s)-d.i >= len(lit.text) && d.s[d.i:d.i+len(lit.text)] == lit.text {
			d.i += len(lit.text)
			return lit.value, true
		}
	}
	return nil, false
}

// str decodes the string at d.i.
func (d *jsonDecoder) str() (string, bool) {
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return "", false
	}
	d.i++
	start := d.i
	var buf []byte // the string so far, once an escape was met
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			s := d.s[start:d.i]
			if buf != nil {
				s = string(append(buf, s...))
			}
			d.i++
			if !utf8.ValidString(s) {
				return "", false
			}
			return s, true
		case c < 0x20:
			return "", false
		case c == '\\':
			if d.i+1 >= len(d.s) {
				return "", false
			}
			var r byte
			switch d.s[d.i+1] {
			case '"', '\\', '/':
				r = d.s[d.i+1]
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default: // \u and invalid escapes
				return "", false
			}
			buf = append(append(buf, d.s[start:d.i]...), r)
			d.i += 2
			start = d.i
		default:
			d.i++
		}
	}
	return "", false
}

// number decodes the number at d.i, in JSON's grammar, as a float64.
func (d *jsonDecoder) number() (any, bool) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.s[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.s) && d.s[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return nil, false
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(d.s[start:d.i], 64)
	if err != nil {
		return nil, false
	}
	return f, true
}
