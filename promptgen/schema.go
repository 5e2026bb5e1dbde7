package promptgen

import (
	"reflect"
	"slices"
	"sort"
)

// ForOpenAI returns a deep copy of a JSON Schema adapted to OpenAI function
// calling (strict-mode rules): every object schema, at any depth, gets
// "additionalProperties": false (replacing any other value) and, when it
// declares properties, a "required" list naming all of them — the names
// already required keep their order and the others follow sorted by name.
// Sub-schemas are found through the schema keywords (properties, items,
// anyOf, oneOf, allOf, $defs, not, ...), never through data such as enum,
// const or default. A schema is an object schema when its "type" is or
// includes "object", or when it has no "type" but has "properties". The
// input is not modified; nil gives nil.
func ForOpenAI(schema map[string]any) map[string]any {
	if schema == nil {
		return nil
	}
	out := deepCopy(schema).(map[string]any)
	walkSchema(out, openAIObject)
	return out
}

// ForGoogle returns a deep copy of a JSON Schema adapted to Google (Gemini)
// function declarations: the "additionalProperties" keyword is removed from
// every schema at any depth; "required" and everything else are kept. A
// property that happens to be named additionalProperties is kept. The input
// is not modified; nil gives nil.
func ForGoogle(schema map[string]any) map[string]any {
	if schema == nil {
		return nil
	}
	out := deepCopy(schema).(map[string]any)
	walkSchema(out, func(s map[string]any) { delete(s, "additionalProperties") })
	return out
}

// openAIObject applies the OpenAI object rules to one schema in place.
func openAIObject(s map[string]any) {
	if !isObjectSchema(s) {
		return
	}
	s["additionalProperties"] = false
	props, ok := s["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return
	}
	var required []any
	seen := map[string]bool{}
	for _, r := range stringList(s["required"]) {
		if !seen[r] {
			seen[r] = true
			required = append(required, r)
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		if !seen[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		required = append(required, name)
	}
	s["required"] = required
}

func isObjectSchema(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	case nil:
		_, ok := s["properties"].(map[string]any)
		return ok
	}
	return false
}

// stringList returns the strings in a "required" value.
func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Schema keywords whose value is a map of sub-schemas, one sub-schema, or a
// list of sub-schemas.
var (
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaOneKeywords  = []string{"items", "additionalItems", "additionalProperties", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties"}
	schemaListKeywords = []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"}
)

// walkSchema calls fn on s and then on every sub-schema of s, depth first.
// fn may change s; the sub-schemas visited are those present after fn runs.
func walkSchema(s map[string]any, fn func(map[string]any)) {
	fn(s)
	for _, k := range schemaMapKeywords {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				if subMap, ok := sub.(map[string]any); ok {
					walkSchema(subMap, fn)
				}
			}
		}
	}
	for _, k := range schemaOneKeywords {
		if sub, ok := s[k].(map[string]any); ok {
			walkSchema(sub, fn)
		}
	}
	for _, k := range schemaListKeywords {
		if list, ok := s[k].([]any); ok {
			for _, sub := range list {
				if subMap, ok := sub.(map[string]any); ok {
					walkSchema(subMap, fn)
				}
			}
		}
	}
}

// deepCopy copies maps with string keys into map[string]any and slices and
// arrays (other than byte slices, which keep their type) into []any, at any
// depth, so the copy shares nothing with v that a schema transform could
// modify. Scalars, pointers and structs are returned as they are.
func deepCopy(v any) any {
	switch t := v.(type) {
	case nil, string, bool, float64, int, int64:
		return v
	case map[string]any:
		if t == nil {
			return t
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = deepCopy(x)
		}
		return out
	case []any:
		if t == nil {
			return t
		}
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = deepCopy(x)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return v
		}
		if rv.IsNil() {
			return map[string]any(nil)
		}
		out := make(map[string]any, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			out[iter.Key().String()] = deepCopy(iter.Value().Interface())
		}
		return out
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return []any(nil)
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			if rv.Kind() == reflect.Array {
				return v
			}
			cp := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
			reflect.Copy(cp, rv)
			return cp.Interface()
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = deepCopy(rv.Index(i).Interface())
		}
		return out
	}
	return v
}
