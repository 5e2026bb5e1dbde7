package bindings

import (
	"reflect"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/convert"
)

// toData copies a JavaScript argument out of the VM as decoded JSON data
// (map[string]any, []any, float64, string, bool, nil), by the rules of
// convert.ExportData: own enumerable properties only, so nothing inherited
// or hidden reaches a tool.
func toData(vm *goja.Runtime, v goja.Value) (any, error) {
	return convert.ExportData(vm, v)
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
