package registry

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxExplainDepth bounds explain's recursion through nested schemas and
// $refs (which may be cyclic), and maxExplainSteps the schemas it visits in
// all (a $ref cycle through allOf would otherwise branch exponentially).
const (
	maxExplainDepth = 32
	maxExplainSteps = 10000
)

// explainer says why a value was refused by a schema document; see explain.
type explainer struct {
	root  map[string]any // the schema document, for local $refs
	steps int            // schemas visited so far
}

// explain appends one "PATH: message" line to out for every problem it
// finds with the JSON value v under schema s, a subschema of e.root. It is
// only called once the validator has refused v, to say why in terms a
// model can act on: it checks the keywords tool schemas use (type,
// enum, const, required, properties, patternProperties,
// additionalProperties, unevaluatedProperties, items, prefixItems, allOf,
// anyOf, oneOf, not, if/then/else, contains, dependentRequired,
// propertyNames, local $refs, and the bounds of numbers, strings, arrays and
// objects). Problems only the validator sees (under a remote $ref, or a
// keyword not listed) are left to its own message.
func (e *explainer) explain(s any, v any, path string, out *[]string, depth int) {
	if e.steps++; e.steps > maxExplainSteps {
		return
	}
	schema, ok := s.(map[string]any)
	if !ok || depth > maxExplainDepth {
		if s == false {
			*out = append(*out, path+": no value is allowed here")
		}
		return
	}
	if ref, ok := schema["$ref"].(string); ok {
		if target := localRef(e.root, ref); target != nil {
			e.explain(target, v, path, out, depth+1)
		}
	}
	if all, ok := schema["allOf"].([]any); ok {
		for _, sub := range all {
			e.explain(sub, v, path, out, depth+1)
		}
	}
	e.explainAlternatives(schema, v, path, out, depth)
	e.explainConditions(schema, v, path, out, depth)
	if t, ok := schema["type"]; ok && !hasType(t, v) {
		*out = append(*out, fmt.Sprintf("%s: got %s, want %s", path, JSONType(v), typeNames(t)))
		return
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(x any) bool { return jsonEqual(x, v) }) {
		parts := make([]string, len(enum))
		for i, x := range enum {
			parts[i] = quoteValue(x)
		}
		*out = append(*out, fmt.Sprintf("%s: value must be one of %s", path, strings.Join(parts, ", ")))
	}
	if c, ok := schema["const"]; ok && !jsonEqual(c, v) {
		*out = append(*out, fmt.Sprintf("%s: value must be %s", path, quoteValue(c)))
	}
	switch x := v.(type) {
	case float64:
		explainNumber(schema, x, path, out)
	case string:
		explainString(schema, x, path, out)
	case []any:
		e.explainArray(schema, x, path, out, depth)
	case map[string]any:
		e.explainObject(schema, x, path, out, depth)
	}
}

// explainAlternatives says when v fits none of an anyOf's subschemas, or
// not exactly one of a oneOf's, naming their shapes. A subschema fits when
// explain finds nothing wrong with v under it.
func (e *explainer) explainAlternatives(schema map[string]any, v any, path string, out *[]string, depth int) {
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := schema[k].([]any)
		if !ok {
			continue
		}
		fits := 0
		shapes := make([]string, len(list))
		for i, sub := range list {
			var problems []string
			e.explain(sub, v, path, &problems, depth+1)
			if len(problems) == 0 {
				fits++
			}
			m, _ := sub.(map[string]any)
			shapes[i] = shapeOf(m, 1)
		}
		switch {
		case fits == 0:
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", path, JSONType(v), strings.Join(shapes, " | ")))
		case k == "oneOf" && fits > 1:
			*out = append(*out, fmt.Sprintf("%s: the value fits more than one of %s, and must fit exactly one", path, strings.Join(shapes, " | ")))
		}
	}
}

// fits reports whether explain finds nothing wrong with v under s.
func (e *explainer) fits(s any, v any, path string, depth int) bool {
	var problems []string
	e.explain(s, v, path, &problems, depth+1)
	return len(problems) == 0
}

// explainConditions covers not and if/then/else: a value that fits the
// subschema of not, and what then (or else) says of a value that fits
// (or does not fit) if.
func (e *explainer) explainConditions(schema map[string]any, v any, path string, out *[]string, depth int) {
	if not, ok := schema["not"]; ok && e.fits(not, v, path, depth) {
		m, _ := not.(map[string]any)
		*out = append(*out, fmt.Sprintf("%s: must not be %s", path, shapeOf(m, 1)))
	}
	cond, ok := schema["if"]
	if !ok {
		return
	}
	branch := "else"
	if e.fits(cond, v, path, depth) {
		branch = "then"
	}
	if sub, ok := schema[branch]; ok {
		e.explain(sub, v, path, out, depth+1)
	}
}

// bound appends "PATH: KEYWORD: got GOT, want WANT" when the schema has the
// numeric keyword and fails(got, want).
func bound(schema map[string]any, keyword string, got float64, path string, out *[]string, fails func(got, want float64) bool) {
	if want, ok := schema[keyword].(float64); ok && fails(got, want) {
		*out = append(*out, fmt.Sprintf("%s: %s: got %s, want %s", path, keyword, jsonText(got), jsonText(want)))
	}
}

func explainNumber(schema map[string]any, n float64, path string, out *[]string) {
	bound(schema, "minimum", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maximum", n, path, out, func(g, w float64) bool { return g > w })
	bound(schema, "exclusiveMinimum", n, path, out, func(g, w float64) bool { return g <= w })
	bound(schema, "exclusiveMaximum", n, path, out, func(g, w float64) bool { return g >= w })
	if m, ok := schema["multipleOf"].(float64); ok && m > 0 {
		if q := n / m; q != math.Trunc(q) {
			*out = append(*out, fmt.Sprintf("%s: multipleOf: got %s, want a multiple of %s", path, jsonText(n), jsonText(m)))
		}
	}
}

func explainString(schema map[string]any, s, path string, out *[]string) {
	n := float64(utf8.RuneCountInString(s))
	bound(schema, "minLength", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxLength", n, path, out, func(g, w float64) bool { return g > w })
	if p, ok := schema["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil && !re.MatchString(s) {
			*out = append(*out, fmt.Sprintf("%s: does not match the pattern %s", path, quoteValue(p)))
		}
	}
}

func (e *explainer) explainArray(schema map[string]any, a []any, path string, out *[]string, depth int) {
	n := float64(len(a))
	bound(schema, "minItems", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxItems", n, path, out, func(g, w float64) bool { return g > w })
	prefix, _ := schema["prefixItems"].([]any)
	for i, elem := range a {
		item := schema["items"]
		if i < len(prefix) {
			item = prefix[i]
		}
		if item != nil {
			e.explain(item, elem, fmt.Sprintf("%s.%d", path, i), out, depth+1)
		}
	}
	if c, ok := schema["contains"]; ok {
		matches := 0
		for i, elem := range a {
			if e.fits(c, elem, fmt.Sprintf("%s.%d", path, i), depth) {
				matches++
			}
		}
		least, hasMin := schema["minContains"].(float64)
		if !hasMin {
			least = 1
		}
		m, _ := c.(map[string]any)
		if float64(matches) < least {
			*out = append(*out, fmt.Sprintf("%s: contains: want at least %s items that are %s, found %d", path, jsonText(least), shapeOf(m, 1), matches))
		}
		if most, ok := schema["maxContains"].(float64); ok && float64(matches) > most {
			*out = append(*out, fmt.Sprintf("%s: contains: want at most %s items that are %s, found %d", path, jsonText(most), shapeOf(m, 1), matches))
		}
	}
	if schema["uniqueItems"] == true {
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				if jsonEqual(a[i], a[j]) {
					*out = append(*out, fmt.Sprintf("%s: uniqueItems: items %d and %d are equal", path, i, j))
					return
				}
			}
		}
	}
}

func (e *explainer) explainObject(schema map[string]any, o map[string]any, path string, out *[]string, depth int) {
	if req, ok := schema["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, has := o[name]; !has {
					missing = append(missing, "'"+name+"'")
				}
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			*out = append(*out, fmt.Sprintf("%s: missing property %s", path, missing[0]))
		default:
			*out = append(*out, fmt.Sprintf("%s: missing properties %s", path, strings.Join(missing, ", ")))
		}
	}
	if deps, ok := schema["dependentRequired"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			list, _ := deps[name].([]any)
			if _, has := o[name]; !has {
				continue
			}
			for _, r := range list {
				if need, ok := r.(string); ok {
					if _, has := o[need]; !has {
						*out = append(*out, fmt.Sprintf("%s: property '%s' requires property '%s'", path, name, need))
					}
				}
			}
		}
	}
	if names, ok := schema["propertyNames"]; ok {
		for _, name := range slices.Sorted(maps.Keys(o)) {
			var problems []string
			e.explain(names, name, path, &problems, depth+1)
			if len(problems) > 0 {
				*out = append(*out, fmt.Sprintf("%s: property name '%s' is not allowed (%s)", path, name, strings.TrimPrefix(problems[0], path+": ")))
			}
		}
	}
	n := float64(len(o))
	bound(schema, "minProperties", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxProperties", n, path, out, func(g, w float64) bool { return g > w })
	props, _ := schema["properties"].(map[string]any)
	patterns := compilePatterns(schema)
	for _, name := range slices.Sorted(maps.Keys(o)) {
		value := o[name]
		sub, declared := props[name]
		if declared {
			e.explain(sub, value, path+"."+name, out, depth+1)
		}
		for re, sub := range patterns {
			if re.MatchString(name) {
				declared = true
				e.explain(sub, value, path+"."+name, out, depth+1)
			}
		}
		if declared {
			continue
		}
		switch extra := schema["additionalProperties"].(type) {
		case bool:
			if !extra {
				*out = append(*out, fmt.Sprintf("%s: additional properties '%s' not allowed", path, name))
			}
			continue
		case map[string]any:
			e.explain(extra, value, path+"."+name, out, depth+1)
			continue
		}
		if schema["unevaluatedProperties"] == false && !e.declaredElsewhere(schema, name, depth) {
			*out = append(*out, fmt.Sprintf("%s: additional properties '%s' not allowed", path, name))
		}
	}
}

// compilePatterns returns the schema's patternProperties with their
// regular expressions compiled (those that do not compile are skipped: the
// validator refused the schema already).
func compilePatterns(schema map[string]any) map[*regexp.Regexp]any {
	pp, _ := schema["patternProperties"].(map[string]any)
	out := make(map[*regexp.Regexp]any, len(pp))
	for p, sub := range pp {
		if re, err := regexp.Compile(p); err == nil {
			out[re] = sub
		}
	}
	return out
}

// declaredElsewhere reports whether a subschema that unevaluatedProperties
// takes into account (allOf, anyOf, oneOf, then, else, a local $ref)
// declares the property name.
func (e *explainer) declaredElsewhere(schema map[string]any, name string, depth int) bool {
	if e.steps++; depth > maxExplainDepth || e.steps > maxExplainSteps {
		return true // say nothing rather than something wrong
	}
	var subs []any
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := schema[k].([]any)
		subs = append(subs, list...)
	}
	subs = append(subs, schema["then"], schema["else"])
	if ref, ok := schema["$ref"].(string); ok {
		subs = append(subs, localRef(e.root, ref))
	}
	for _, s := range subs {
		sub, ok := s.(map[string]any)
		if !ok {
			continue
		}
		if props, ok := sub["properties"].(map[string]any); ok {
			if _, has := props[name]; has {
				return true
			}
		}
		for re := range compilePatterns(sub) {
			if re.MatchString(name) {
				return true
			}
		}
		if sub["additionalProperties"] != nil && sub["additionalProperties"] != false {
			return true
		}
		if e.declaredElsewhere(sub, name, depth+1) {
			return true
		}
	}
	return false
}

// localRef returns the subschema a "#/..." JSON pointer names in root, or
// nil.
func localRef(root map[string]any, ref string) any {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	var cur any = root
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = pointerUnescaper.Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	return cur
}

// JSONType names the JSON type of a value as encoding/json decodes it
// ("null", "boolean", "number", "string", "array", "object"; a
// json.Number is a number), or its Go type when it is not JSON.
func JSONType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// hasType reports whether v has the type (a name or a list of names) t.
func hasType(t any, v any) bool {
	names, _ := t.([]any)
	if name, ok := t.(string); ok {
		names = []any{name}
	}
	for _, n := range names {
		got := JSONType(v)
		switch {
		case n == got:
			return true
		case n == "integer" && got == "number":
			if f := v.(float64); f == math.Trunc(f) {
				return true
			}
		}
	}
	return false
}

// typeNames renders a type keyword for messages: "string", "string or null".
func typeNames(t any) string {
	if name, ok := t.(string); ok {
		return name
	}
	list, _ := t.([]any)
	parts := make([]string, len(list))
	for i, n := range list {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, " or ")
}

// jsonEqual compares two plain JSON values as JSON does (1 and 1.0 are one
// number; objects compare by their members).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, jsonEqual)
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && maps.EqualFunc(x, y, jsonEqual)
	}
	return a == b
}

// quoteValue renders a value for messages: strings in single quotes,
// anything else as JSON.
func quoteValue(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	return jsonText(v)
}
