// Package convert copies values between a goja VM and Go, so that no Go
// value is ever shared with a snippet: ExportJSON copies a JavaScript
// value out as JSON (the rules of a run's return value: JSON.stringify's,
// extended for Map, Set and BigInt), ExportData copies it out by the same
// rules, in the same walk, as decoded Go data (a tool call's arguments),
// ParseJSON and ImportJSON make plain JavaScript values from JSON and
// JSON-able Go data, and Clone deep-copies a value inside the VM as
// structuredClone does. None of them relies on
// globals a snippet can replace, such as JSON.
//
// A goja.Runtime is not safe for concurrent use: call these functions on
// the goroutine that runs the VM (a run's loop goroutine) only.
package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// jsonSink writes JSON text: the sink of ExportJSON.
type jsonSink struct {
	buf   bytes.Buffer
	comma bool // a value or member precedes the next one at this level
}

// sep writes the comma a value or key needs after a sibling.
func (s *jsonSink) sep() {
	if s.comma {
		s.buf.WriteByte(',')
	}
}

// scalar writes a number or literal as the next value.
func (s *jsonSink) scalar(text string) {
	s.sep()
	s.buf.WriteString(text)
	s.comma = true
}

func (s *jsonSink) null()              { s.scalar("null") }
func (s *jsonSink) boolean(b bool)     { s.scalar(strconv.FormatBool(b)) }
func (s *jsonSink) integer(i int64)    { s.scalar(strconv.FormatInt(i, 10)) }
func (s *jsonSink) number(f float64)   { s.scalar(js.NumberString(f)) }
func (s *jsonSink) bigint(text string) { s.scalar(text) }
func (s *jsonSink) str(v string)       { s.sep(); s.quote(v); s.comma = true }
func (s *jsonSink) beginArray()        { s.sep(); s.buf.WriteByte('['); s.comma = false }
func (s *jsonSink) endArray()          { s.buf.WriteByte(']'); s.comma = true }
func (s *jsonSink) beginObject()       { s.sep(); s.buf.WriteByte('{'); s.comma = false }
func (s *jsonSink) key(k string)       { s.sep(); s.quote(k); s.buf.WriteByte(':'); s.comma = false }
func (s *jsonSink) endObject()         { s.buf.WriteByte('}'); s.comma = true }
func (s *jsonSink) size() int          { return s.buf.Len() }

// quote writes v as a JSON string, escaping as JSON.stringify does (no
// HTML escaping of <, > and &); invalid UTF-8 becomes U+FFFD, one per
// byte, as encoding/json writes it.
func (s *jsonSink) quote(v string) {
	enc := json.NewEncoder(&s.buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	s.buf.Truncate(s.buf.Len() - 1) // the encoder's newline
}

// ExportJSON copies v out of the VM as JSON, the way JSON.stringify would,
// extended: a Map becomes an object (or an array of [key, value] pairs
// when a key is not a string), a Set an array, a BigInt a number, an
// Error {"name", "message"}, and a circular reference the string
// "[Circular]"; object keys keep their order. Getters and toJSON methods
// run, as in JSON.stringify: what they throw is returned as the error (a
// *goja.Exception), and so is an interrupt (the run's timeout) that stops
// them. A value nested more than 100 levels deep or larger than 64 MB as
// JSON is an error. It may be called inside or outside a JavaScript call.
// Loop goroutine only.
func ExportJSON(vm *goja.Runtime, v goja.Value) (json.RawMessage, error) {
	s := &jsonSink{}
	if err := export(vm, v, s); err != nil {
		return nil, err
	}
	return s.buf.Bytes(), nil
}

// ImportJSON creates a plain JavaScript value from JSON-able Go data (as
// encoding/json would encode it), so no Go value is exposed to the script.
// Loop goroutine only.
func ImportJSON(vm *goja.Runtime, data any) (goja.Value, error) {
	if data == nil {
		return goja.Null(), nil
	}
	if s, ok := data.(string); ok {
		return vm.ToValue(s), nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	return ParseJSON(vm, b)
}

// ParseJSON parses JSON text into a plain JavaScript value, as JSON.parse
// would (object keys in order, properties defined rather than assigned),
// without relying on the VM's JSON global, which a snippet may replace.
// Loop goroutine only.
func ParseJSON(vm *goja.Runtime, text []byte) (goja.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := parseJSONValue(vm, dec, 0)
	if err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("parse JSON: data after the value")
	}
	return v, nil
}

func parseJSONValue(vm *goja.Runtime, dec *json.Decoder, depth int) (goja.Value, error) {
	if depth > 10000 {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return goja.Null(), nil
	case bool:
		return vm.ToValue(t), nil
	case string:
		return vm.ToValue(t), nil
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil && i >= -(1<<53) && i <= 1<<53 {
			return vm.ToValue(i), nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return vm.ToValue(f), nil
	case json.Delim:
		switch t {
		case '[':
			var items []any
			for dec.More() {
				v, err := parseJSONValue(vm, dec, depth+1)
				if err != nil {
					return nil, err
				}
				items = append(items, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return vm.NewArray(items...), nil
		case '{':
			obj := vm.NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := parseJSONValue(vm, dec, depth+1)
				if err != nil {
					return nil, err
				}
				if err := obj.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
					return nil, err
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}
