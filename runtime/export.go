package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"

	"github.com/dop251/goja"
)

// maxExportDepth bounds the nesting exportJSON follows.
const maxExportDepth = 100

// exportJSON encodes v as JSON, the way JSON.stringify would, extended for
// Map, Set and BigInt. It copies data out of the VM; no Go value is shared.
func exportJSON(vm *goja.Runtime, v goja.Value) (json.RawMessage, error) {
	e := &exporter{vm: vm}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

type exporter struct {
	vm   *goja.Runtime
	buf  bytes.Buffer
	path []*goja.Object
}

var errTooDeep = errors.New("nested more than 100 levels deep")

func (e *exporter) value(v goja.Value, depth int) error {
	if depth > maxExportDepth {
		return errTooDeep
	}
	switch {
	case v == nil || goja.IsUndefined(v) || goja.IsNull(v):
		e.buf.WriteString("null")
		return nil
	case goja.IsString(v):
		e.str(v.String())
		return nil
	case goja.IsBigInt(v):
		e.buf.WriteString(v.String())
		return nil
	}
	switch x := v.Export().(type) {
	case bool:
		e.buf.WriteString(strconv.FormatBool(x))
		return nil
	case int64:
		e.buf.WriteString(strconv.FormatInt(x, 10))
		return nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			e.buf.WriteString("null")
		} else {
			e.buf.WriteString(formatNumber(x))
		}
		return nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		e.buf.WriteString("null") // symbols
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

	switch classOf(obj) {
	case "Function":
		e.buf.WriteString("null")
		return nil
	case "Array":
		n := toInt(obj.Get("length"))
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
	case "Map":
		return e.mapValue(obj, depth)
	case "Set":
		return e.iterate(obj, depth, func(pair *goja.Object, first bool) error {
			if !first {
				e.buf.WriteByte(',')
			}
			return e.value(pair.Get("0"), depth+1)
		}, '[', ']')
	case "Error":
		e.buf.WriteString(`{"name":`)
		e.str(obj.Get("name").String())
		e.buf.WriteString(`,"message":`)
		e.str(obj.Get("message").String())
		e.buf.WriteByte('}')
		return nil
	}
	if toJSON, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		r, err := toJSON(obj)
		if err != nil {
			return err
		}
		e.path = e.path[:len(e.path)-1]
		err = e.value(r, depth+1)
		e.path = append(e.path, obj)
		return err
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

// skipInObject reports values JSON.stringify leaves out of objects.
func skipInObject(v goja.Value) bool {
	if v == nil || goja.IsUndefined(v) {
		return true
	}
	if _, ok := v.(*goja.Symbol); ok {
		return true
	}
	o, ok := v.(*goja.Object)
	return ok && o.ClassName() == "Function"
}

// mapValue encodes a Map as an object when every key is a string, and as an
// array of [key, value] pairs otherwise.
func (e *exporter) mapValue(obj *goja.Object, depth int) error {
	allStrings := true
	_ = e.iterate(obj, depth, func(pair *goja.Object, _ bool) error {
		if !goja.IsString(pair.Get("0")) {
			allStrings = false
		}
		return nil
	}, 0, 0)
	if allStrings {
		return e.iterate(obj, depth, func(pair *goja.Object, first bool) error {
			if !first {
				e.buf.WriteByte(',')
			}
			e.str(pair.Get("0").String())
			e.buf.WriteByte(':')
			return e.value(pair.Get("1"), depth+1)
		}, '{', '}')
	}
	return e.iterate(obj, depth, func(pair *goja.Object, first bool) error {
		if !first {
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte('[')
		if err := e.value(pair.Get("0"), depth+2); err != nil {
			return err
		}
		e.buf.WriteByte(',')
		if err := e.value(pair.Get("1"), depth+2); err != nil {
			return err
		}
		e.buf.WriteByte(']')
		return nil
	}, '[', ']')
}

// iterate calls fn with each [key, value] entry of a Map or Set, writing
// open and close around them when they are not zero.
func (e *exporter) iterate(obj *goja.Object, depth int, fn func(pair *goja.Object, first bool) error, open, close byte) error {
	if open != 0 {
		e.buf.WriteByte(open)
	}
	entries, ok := goja.AssertFunction(obj.Get("entries"))
	if !ok {
		return errors.New("collection without entries()")
	}
	it, err := entries(obj)
	if err != nil {
		return err
	}
	ito := it.ToObject(e.vm)
	next, ok := goja.AssertFunction(ito.Get("next"))
	if !ok {
		return errors.New("iterator without next()")
	}
	for first := true; ; first = false {
		step, err := next(ito)
		if err != nil {
			return err
		}
		so := step.ToObject(e.vm)
		if so.Get("done").ToBoolean() {
			break
		}
		if err := fn(so.Get("value").ToObject(e.vm), first); err != nil {
			return err
		}
	}
	if close != 0 {
		e.buf.WriteByte(close)
	}
	return nil
}

func (e *exporter) str(s string) {
	b, _ := json.Marshal(s)
	e.buf.Write(b)
}

// ExportJSON copies v out of the VM as JSON, with the rules of Result.Value:
// JSON.stringify's, extended for Map, Set and BigInt, with circular
// references replaced by "[Circular]". Loop goroutine only.
func ExportJSON(vm *goja.Runtime, v goja.Value) (json.RawMessage, error) {
	return exportJSON(vm, v)
}

// ImportJSON creates a plain JavaScript value from JSON-able Go data (as
// encoding/json would encode it) by parsing its JSON text in the VM, so no
// Go value is exposed to the script. Loop goroutine only.
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

// ParseJSON parses JSON text into a plain JavaScript value with the VM's
// JSON.parse. Loop goroutine only.
func ParseJSON(vm *goja.Runtime, text []byte) (goja.Value, error) {
	parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	return parse(goja.Undefined(), vm.ToValue(string(text)))
}
