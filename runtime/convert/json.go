// Package convert copies values between a goja VM and Go, so that no Go
// value is ever shared with a snippet: ExportJSON copies a JavaScript
// value out as JSON (the rules of a run's return value: JSON.stringify's,
// extended for Map, Set and BigInt), ParseJSON and ImportJSON make plain
// JavaScript values from JSON and JSON-able Go data, and Clone deep-copies
// a value inside the VM as structuredClone does. None of them relies on
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
	"math"
	"math/big"
	"strconv"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// maxExportDepth bounds the nesting ExportJSON follows.
const maxExportDepth = 100

// maxExportBytes bounds the JSON text of an exported value.
const maxExportBytes = 64 << 20

type exporter struct {
	vm   *goja.Runtime
	intr *js.Intrinsics
	buf  bytes.Buffer
	path []*goja.Object
	n    int // values written, for the periodic size check
}

var (
	errTooDeep  = errors.New("nested more than 100 levels deep")
	errTooLarge = fmt.Errorf("larger than %d MB as JSON", maxExportBytes>>20)
)

func (e *exporter) value(v goja.Value, depth int) error {
	if depth > maxExportDepth {
		return errTooDeep
	}
	if e.n++; e.n%1024 == 0 && e.buf.Len() > maxExportBytes {
		return errTooLarge
	}
	obj, isObj := v.(*goja.Object)
	if !isObj {
		e.primitive(v)
		return nil
	}
	for _, a := range e.path {
		if a == obj {
			e.str("[Circular]")
			return nil
		}
	}
	e.path = append(e.path, obj)
	defer func() { e.path = e.path[:len(e.path)-1] }()

	if _, callable := goja.AssertFunction(obj); callable {
		e.buf.WriteString("null")
		return nil
	}
	if _, isProxy := js.AsProxy(obj); !isProxy && obj.ClassName() != "Array" {
		switch obj.ExportType() {
		case js.MapType:
			return e.mapValue(obj, depth)
		case js.SetType:
			e.buf.WriteByte('[')
			first := true
			var err error
			e.intr.Iterate(obj, "Set", func(v goja.Value) bool {
				if !first {
					e.buf.WriteByte(',')
				}
				first = false
				err = e.value(v, depth+1)
				return err == nil
			})
			e.buf.WriteByte(']')
			return err
		}
		if obj.ClassName() == "Error" {
			e.buf.WriteString(`{"name":`)
			e.str(js.String(obj.Get("name")))
			e.buf.WriteString(`,"message":`)
			e.str(js.String(obj.Get("message")))
			e.buf.WriteByte('}')
			return nil
		}
	}
	if toJSON, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		r := js.Call(toJSON, obj)
		e.path = e.path[:len(e.path)-1]
		err := e.value(r, depth+1)
		e.path = append(e.path, obj)
		return err
	}
	if obj.ClassName() == "Array" {
		n := js.ToInt(obj.Get("length"))
		e.buf.WriteByte('[')
		for i := range n {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			if err := e.value(obj.Get(strconv.Itoa(i)), depth+1); err != nil {
				return err
			}
		}
		e.buf.WriteByte(']')
		return nil
	}
	e.buf.WriteByte('{')
	first := true
	for _, k := range obj.Keys() {
		pv := obj.Get(k)
		if skipInObject(pv) {
			continue
		}
		if !first {
			e.buf.WriteByte(',')
		}
		first = false
		e.str(k)
		e.buf.WriteByte(':')
		if err := e.value(pv, depth+1); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return nil
}

// primitive writes a non-object value: JSON's form, BigInt as a number,
// and null for undefined, symbols and non-finite numbers.
func (e *exporter) primitive(v goja.Value) {
	switch {
	case v == nil || goja.IsUndefined(v) || goja.IsNull(v):
		e.buf.WriteString("null")
	case goja.IsString(v):
		e.str(v.String())
	case goja.IsBigInt(v):
		if b, ok := v.Export().(*big.Int); ok {
			e.buf.WriteString(b.String())
		} else {
			e.buf.WriteString(v.String())
		}
	default:
		switch x := v.Export().(type) {
		case bool:
			e.buf.WriteString(strconv.FormatBool(x))
		case int64:
			e.buf.WriteString(strconv.FormatInt(x, 10))
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				e.buf.WriteString("null")
			} else {
				e.buf.WriteString(js.NumberString(x))
			}
		default:
			e.buf.WriteString("null") // symbols
		}
	}
}

// skipInObject reports values JSON.stringify leaves out of objects.
func skipInObject(v goja.Value) bool {
	if v == nil || goja.IsUndefined(v) {
		return true
	}
	if _, ok := v.(*goja.Symbol); ok {
		return true
	}
	_, callable := goja.AssertFunction(v)
	return callable
}

// mapValue encodes a Map as an object when every key is a string, and as an
// array of [key, value] pairs otherwise.
func (e *exporter) mapValue(obj *goja.Object, depth int) error {
	var keys, values []goja.Value
	e.intr.Iterate(obj, "Map", func(entry goja.Value) bool {
		if eo, ok := entry.(*goja.Object); ok {
			keys = append(keys, eo.Get("0"))
			values = append(values, eo.Get("1"))
		}
		return true
	})
	allStrings := true
	for _, k := range keys {
		if !goja.IsString(k) {
			allStrings = false
			break
		}
	}
	if allStrings {
		e.buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			e.str(k.String())
			e.buf.WriteByte(':')
			if err := e.value(values[i], depth+1); err != nil {
				return err
			}
		}
		e.buf.WriteByte('}')
		return nil
	}
	e.buf.WriteByte('[')
	for i, k := range keys {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte('[')
		if err := e.value(k, depth+2); err != nil {
			return err
		}
		e.buf.WriteByte(',')
		if err := e.value(values[i], depth+2); err != nil {
			return err
		}
		e.buf.WriteByte(']')
	}
	e.buf.WriteByte(']')
	return nil
}

// str writes s as a JSON string, escaping as JSON.stringify does (no HTML
// escaping of <, > and &).
func (e *exporter) str(s string) {
	enc := json.NewEncoder(&e.buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	e.buf.Truncate(e.buf.Len() - 1) // the encoder's newline
}

// ExportJSON copies v out of the VM as JSON, the way JSON.stringify would,
// extended: a Map becomes an object (or an array of [key, value] pairs
// when a key is not a string), a Set an array, a BigInt a number, and a
// circular reference the string "[Circular]"; object keys keep their
// order. Getters and toJSON methods run, as in JSON.stringify: what they
// throw is returned as the error (a *goja.Exception), and so is an
// interrupt (the run's timeout) that stops them. A value nested more than
// 100 levels deep or larger than 64 MB as JSON is an error. It may be
// called inside or outside a JavaScript call. Loop goroutine only.
func ExportJSON(vm *goja.Runtime, v goja.Value) (json.RawMessage, error) {
	e := &exporter{vm: vm, intr: js.NewIntrinsics(vm)}
	var err error
	if verr := js.Try(vm, func() { err = e.value(v, 0) }); verr != nil {
		return nil, verr
	}
	if err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
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
