package bindings

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/convert"
)

// toData copies a JavaScript argument out of the VM as decoded JSON data
// (map[string]any, []any, float64, string, bool, nil): own enumerable
// properties only, so nothing inherited or hidden reaches a tool.
func toData(vm *goja.Runtime, v goja.Value) (any, error) {
	if d, ok := primitiveData(v); ok {
		return d, nil
	}
	raw, err := convert.ExportJSON(vm, v)
	if err != nil {
		return nil, err
	}
	var data any
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, err
	}
	return data, nil
}

// primitiveData converts the primitives most arguments are (a path, a
// pattern, a count) directly, to what the JSON round trip of toData would
// give: a string (invalid UTF-8 replaced, as encoding/json does), a
// boolean, a float64 (NaN and the infinities become nil, as
// JSON.stringify makes them null; -0 becomes 0) or nil for null. It reports false for
// anything else (objects, BigInts, symbols), which takes the round trip.
func primitiveData(v goja.Value) (any, bool) {
	if _, isObject := v.(*goja.Object); isObject {
		return nil, false
	}
	switch {
	case goja.IsString(v):
		return strings.ToValidUTF8(v.String(), "\uFFFD"), true
	case goja.IsNull(v):
		return nil, true
	case goja.IsNumber(v):
		f := v.ToFloat()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return nil, true
		case f == 0:
			return 0.0, true // JSON has no -0
		}
		return f, true
	}
	if b, ok := v.Export().(bool); ok {
		return b, true
	}
	return nil, false
}

// isRecord reports whether v is an object whose own properties can serve
// as parameters: any object (a literal, a null-prototype object, a class
// instance) except functions, arrays, Maps, Sets, Dates and other built-ins
// with internal state. Only its own enumerable properties are ever copied.
func isRecord(v goja.Value) bool {
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() != "Object" {
		return false
	}
	// goja exports records as Go maps, and Maps and Sets as slices.
	t := obj.ExportType()
	return t != nil && t.Kind() == reflect.Map
}

// typeName names the JavaScript type of v for messages.
func typeName(v goja.Value) string {
	switch {
	case goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	case goja.IsString(v):
		return "a string"
	case goja.IsNumber(v):
		return "a number"
	case goja.IsBigInt(v):
		return "a bigint"
	}
	if obj, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(v); isFn {
			return "a function"
		}
		if obj.ClassName() == "Array" {
			return "an array"
		}
		return "an object"
	}
	if _, ok := v.Export().(bool); ok {
		return "a boolean"
	}
	return "a symbol"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
