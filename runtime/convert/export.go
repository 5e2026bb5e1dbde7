package convert

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// maxExportDepth bounds the nesting ExportJSON and ExportData follow.
const maxExportDepth = 100

// maxExportBytes bounds the JSON text of an exported value (for
// ExportData, an estimate of it: see dataSink).
const maxExportBytes = 64 << 20

var (
	errTooDeep  = errors.New("nested more than 100 levels deep")
	errTooLarge = fmt.Errorf("larger than %d MB as JSON", maxExportBytes>>20)
)

// sink receives the exporter's walk as the events of a JSON text, in
// order: one value, where a value is a scalar or an array (beginArray,
// values, endArray) or an object (beginObject, then key and value pairs,
// endObject). The exporter decides everything JSON.stringify decides; a
// sink only records. Numbers reach it finite.
type sink interface {
	null()
	boolean(b bool)
	integer(i int64)
	number(f float64)
	bigint(text string) // a BigInt's decimal digits
	str(s string)
	beginArray()
	endArray()
	beginObject()
	key(k string)
	endObject()
	// size is the length of the JSON text so far, or an estimate of it.
	size() int
}

// exporter walks a JavaScript value by the rules ExportJSON documents,
// telling out what it finds.
type exporter struct {
	intr *js.Intrinsics
	out  sink
	path []*goja.Object
	n    int // values walked, for the periodic size check
}

// export walks v into out, returning what stopped it: a walk limit, or
// what a getter, a toJSON method or a Proxy trap threw (or an interrupt).
func export(vm *goja.Runtime, v goja.Value, out sink) error {
	e := &exporter{intr: js.NewIntrinsics(vm), out: out}
	var err error
	if verr := js.Try(vm, func() { err = e.value(v, 0) }); verr != nil {
		return verr
	}
	return err
}

func (e *exporter) value(v goja.Value, depth int) error { return e.walk(v, depth, true) }

// walk is value; toJSON says whether an object's toJSON method is called.
// As in JSON.stringify, it is not for the value a toJSON method returned
// (so a toJSON that returns this serializes the object's own properties),
// and it is again for each of that value's members.
func (e *exporter) walk(v goja.Value, depth int, toJSON bool) error {
	if depth > maxExportDepth {
		return errTooDeep
	}
	if e.n++; e.n%1024 == 0 && e.out.size() > maxExportBytes {
		return errTooLarge
	}
	obj, isObj := v.(*goja.Object)
	if !isObj {
		primitive(v, e.out)
		return nil
	}
	for _, a := range e.path {
		if a == obj {
			e.out.str("[Circular]")
			return nil
		}
	}
	e.path = append(e.path, obj)
	defer func() { e.path = e.path[:len(e.path)-1] }()

	if _, callable := goja.AssertFunction(obj); callable {
		e.out.null()
		return nil
	}
	if _, isProxy := js.AsProxy(obj); !isProxy && obj.ClassName() != "Array" {
		switch obj.ExportType() {
		case js.MapType:
			return e.mapValue(obj, depth)
		case js.SetType:
			e.out.beginArray()
			var err error
			e.intr.Iterate(obj, "Set", func(v goja.Value) bool {
				err = e.value(v, depth+1)
				return err == nil
			})
			e.out.endArray()
			return err
		}
		if obj.ClassName() == "Error" {
			e.out.beginObject()
			e.out.key("name")
			e.out.str(js.String(obj.Get("name")))
			e.out.key("message")
			e.out.str(js.String(obj.Get("message")))
			e.out.endObject()
			return nil
		}
	}
	if fn, ok := goja.AssertFunction(obj.Get("toJSON")); toJSON && ok {
		r := js.Call(fn, obj)
		e.path = e.path[:len(e.path)-1]
		err := e.walk(r, depth+1, false)
		e.path = append(e.path, obj)
		return err
	}
	if obj.ClassName() == "Array" {
		n := js.ToInt(obj.Get("length"))
		e.out.beginArray()
		for i := range n {
			if err := e.value(obj.Get(strconv.Itoa(i)), depth+1); err != nil {
				return err
			}
		}
		e.out.endArray()
		return nil
	}
	e.out.beginObject()
	for _, k := range obj.Keys() {
		pv := obj.Get(k)
		if skipInObject(pv) {
			continue
		}
		e.out.key(k)
		if err := e.value(pv, depth+1); err != nil {
			return err
		}
	}
	e.out.endObject()
	return nil
}

// primitive tells out a non-object value: JSON's form, BigInt as a
// number, and null for undefined, symbols and non-finite numbers.
func primitive(v goja.Value, out sink) {
	switch {
	case !js.Defined(v) || goja.IsNull(v):
		out.null()
	case goja.IsString(v):
		out.str(v.String())
	case goja.IsBigInt(v):
		if b, ok := v.Export().(*big.Int); ok {
			out.bigint(b.String())
		} else {
			out.bigint(v.String())
		}
	default:
		switch x := v.Export().(type) {
		case bool:
			out.boolean(x)
		case int64:
			out.integer(x)
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				out.null()
			} else {
				out.number(x)
			}
		default:
			out.null() // symbols
		}
	}
}

// skipInObject reports values JSON.stringify leaves out of objects.
func skipInObject(v goja.Value) bool {
	if !js.Defined(v) {
		return true
	}
	if _, ok := v.(*goja.Symbol); ok {
		return true
	}
	_, callable := goja.AssertFunction(v)
	return callable
}

// mapValue tells out a Map as an object when every key is a string, and
// as an array of [key, value] pairs otherwise.
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
		e.out.beginObject()
		for i, k := range keys {
			e.out.key(k.String())
			if err := e.value(values[i], depth+1); err != nil {
				return err
			}
		}
		e.out.endObject()
		return nil
	}
	e.out.beginArray()
	for i, k := range keys {
		e.out.beginArray()
		if err := e.value(k, depth+2); err != nil {
			return err
		}
		if err := e.value(values[i], depth+2); err != nil {
			return err
		}
		e.out.endArray()
	}
	e.out.endArray()
	return nil
}
