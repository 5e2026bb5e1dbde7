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

// maxProblems is how many problems a refusal lists; it counts the others.
// Ten are enough for a model to fix its call, and keep the message small
// whatever the params (300,000 undeclared properties made a 16 MB message).
const maxProblems = 10

// maxNameBytes is how much of a property name a message quotes.
const maxNameBytes = 100

// problemList collects the "PATH: message" lines of a refusal: the first
// maxProblems distinct ones found, and a count of the problems found after
// them (a repeat of a listed one included), which are never formatted.
type problemList struct {
	items []string
	more  int
}

// take reports whether the next problem is to be listed; when the list is
// full it counts the problem instead and returns false, so the caller
// skips formatting it.
func (l *problemList) take() bool {
	if len(l.items) < maxProblems {
		return true
	}
	l.more++
	return false
}

// add lists the problem p, unless it is listed already or the list is
// full (then it is counted).
func (l *problemList) add(p string) {
	if l.take() && !slices.Contains(l.items, p) {
		l.items = append(l.items, p)
	}
}

// addf lists the problem format makes of args, as add does. Its arguments
// are evaluated whether or not it is listed: a loop that may find a
// problem per element of the params calls take first.
func (l *problemList) addf(format string, args ...any) {
	if l.take() {
		l.add(fmt.Sprintf(format, args...))
	}
}

// empty reports whether no problem was found.
func (l problemList) empty() bool { return len(l.items) == 0 && l.more == 0 }

// clipName returns a property name for a message or a path, cut to
// maxNameBytes.
func clipName(name string) string {
	if len(name) <= maxNameBytes {
		return name
	}
	return strings.ToValidUTF8(name[:maxNameBytes], "") + "…"
}

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
func (e *explainer) explain(s any, v any, path string, out *problemList, depth int) {
	if e.steps++; e.spent() {
		return
	}
	schema, ok := s.(map[string]any)
	if !ok || depth > maxExplainDepth {
		if s == false {
			out.add(path + ": no value is allowed here")
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
		out.addf("%s: got %s, want %s", path, JSONType(v), typeNames(t))
		return
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(x any) bool { return jsonEqual(x, v) }) && out.take() {
		parts := make([]string, len(enum))
		for i, x := range enum {
			parts[i] = quoteValue(x)
		}
		out.add(fmt.Sprintf("%s: value must be one of %s", path, strings.Join(parts, ", ")))
	}
	if c, ok := schema["const"]; ok && !jsonEqual(c, v) {
		out.addf("%s: value must be %s", path, quoteValue(c))
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

// spent reports whether explain has visited as many schemas as it may.
func (e *explainer) spent() bool { return e.steps > maxExplainSteps }

// explainAlternatives says when v fits none of an anyOf's subschemas, or
// not exactly one of a oneOf's, naming their shapes. A subschema fits when
// explain finds nothing wrong with v under it.
func (e *explainer) explainAlternatives(schema map[string]any, v any, path string, out *problemList, depth int) {
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := schema[k].([]any)
		if !ok {
			continue
		}
		fits := 0
		shapes := make([]string, len(list))
		for i, sub := range list {
			if e.fits(sub, v, path, depth) {
				fits++
			}
			m, _ := sub.(map[string]any)
			shapes[i] = shapeOf(m, 1)
		}
		switch {
		case fits == 0:
			out.addf("%s: got %s, want %s", path, JSONType(v), strings.Join(shapes, " | "))
		case k == "oneOf" && fits > 1:
			out.addf("%s: the value fits more than one of %s, and must fit exactly one", path, strings.Join(shapes, " | "))
		}
	}
}

// fits reports whether explain finds nothing wrong with v under s.
func (e *explainer) fits(s any, v any, path string, depth int) bool {
	var problems problemList
	e.explain(s, v, path, &problems, depth+1)
	return problems.empty()
}

// explainConditions covers not and if/then/else: a value that fits the
// subschema of not, and what then (or else) says of a value that fits
// (or does not fit) if.
func (e *explainer) explainConditions(schema map[string]any, v any, path string, out *problemList, depth int) {
	if not, ok := schema["not"]; ok && e.fits(not, v, path, depth) {
		m, _ := not.(map[string]any)
		out.addf("%s: must not be %s", path, shapeOf(m, 1))
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
func bound(schema map[string]any, keyword string, got float64, path string, out *problemList, fails func(got, want float64) bool) {
	if want, ok := schema[keyword].(float64); ok && fails(got, want) {
		out.addf("%s: %s: got %s, want %s", path, keyword, jsonText(got), jsonText(want))
	}
}

func explainNumber(schema map[string]any, n float64, path string, out *problemList) {
	bound(schema, "minimum", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maximum", n, path, out, func(g, w float64) bool { return g > w })
	bound(schema, "exclusiveMinimum", n, path, out, func(g, w float64) bool { return g <= w })
	bound(schema, "exclusiveMaximum", n, path, out, func(g, w float64) bool { return g >= w })
	if m, ok := schema["multipleOf"].(float64); ok && m > 0 {
		if q := n / m; q != math.Trunc(q) {
			out.addf("%s: multipleOf: got %s, want a multiple of %s", path, jsonText(n), jsonText(m))
		}
	}
}

func explainString(schema map[string]any, s, path string, out *problemList) {
	n := float64(utf8.RuneCountInString(s))
	bound(schema, "minLength", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxLength", n, path, out, func(g, w float64) bool { return g > w })
	if p, ok := schema["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil && !re.MatchString(s) {
			out.addf("%s: does not match the pattern %s", path, quoteValue(p))
		}
	}
}

func (e *explainer) explainArray(schema map[string]any, a []any, path string, out *problemList, depth int) {
	n := float64(len(a))
	bound(schema, "minItems", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxItems", n, path, out, func(g, w float64) bool { return g > w })
	prefix, _ := schema["prefixItems"].([]any)
	for i, elem := range a {
		if e.spent() {
			break // explain would say nothing more
		}
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
			out.addf("%s: contains: want at least %s items that are %s, found %d", path, jsonText(least), shapeOf(m, 1), matches)
		}
		if most, ok := schema["maxContains"].(float64); ok && float64(matches) > most {
			out.addf("%s: contains: want at most %s items that are %s, found %d", path, jsonText(most), shapeOf(m, 1), matches)
		}
	}
	if schema["uniqueItems"] == true {
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				if jsonEqual(a[i], a[j]) {
					out.addf("%s: uniqueItems: items %d and %d are equal", path, i, j)
					return
				}
			}
		}
	}
}

func (e *explainer) explainObject(schema map[string]any, o map[string]any, path string, out *problemList, depth int) {
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
			out.addf("%s: missing property %s", path, missing[0])
		default:
			out.addf("%s: missing properties %s", path, strings.Join(missing, ", "))
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
						out.addf("%s: property '%s' requires property '%s'", path, name, need)
					}
				}
			}
		}
	}
	if names, ok := schema["propertyNames"]; ok {
		for _, name := range sortedKeys(o) {
			if e.spent() {
				break // explain would say nothing more
			}
			var problems problemList
			e.explain(names, name, path, &problems, depth+1)
			if len(problems.items) > 0 && out.take() {
				out.add(fmt.Sprintf("%s: property name '%s' is not allowed (%s)", path, clipName(name), strings.TrimPrefix(problems.items[0], path+": ")))
			}
		}
	}
	n := float64(len(o))
	bound(schema, "minProperties", n, path, out, func(g, w float64) bool { return g < w })
	bound(schema, "maxProperties", n, path, out, func(g, w float64) bool { return g > w })
	props, _ := schema["properties"].(map[string]any)
	patterns := compilePatterns(schema)
	for _, name := range sortedKeys(o) {
		value := o[name]
		sub, declared := props[name]
		if declared && !e.spent() {
			e.explain(sub, value, path+"."+clipName(name), out, depth+1)
		}
		for _, pp := range patterns {
			if pp.re.MatchString(name) {
				declared = true
				if !e.spent() {
					e.explain(pp.schema, value, path+"."+clipName(name), out, depth+1)
				}
			}
		}
		if declared {
			continue
		}
		switch extra := schema["additionalProperties"].(type) {
		case bool:
			if !extra && out.take() {
				out.add(path + ": additional properties '" + clipName(name) + "' not allowed")
			}
			continue
		case map[string]any:
			if !e.spent() {
				e.explain(extra, value, path+"."+clipName(name), out, depth+1)
			}
			continue
		}
		if schema["unevaluatedProperties"] == false && !e.declaredElsewhere(schema, name, depth) && out.take() {
			out.add(path + ": additional properties '" + clipName(name) + "' not allowed")
		}
	}
}

// sortedKeys returns the keys of o, sorted, in a slice of their number.
func sortedKeys(o map[string]any) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// patternProperty is one of a schema's patternProperties, compiled.
type patternProperty struct {
	re     *regexp.Regexp
	schema any
}

// compilePatterns returns the schema's patternProperties with their
// regular expressions compiled, in the order of their source (those that
// do not compile are skipped: the validator refused the schema already).
func compilePatterns(schema map[string]any) []patternProperty {
	pp, _ := schema["patternProperties"].(map[string]any)
	out := make([]patternProperty, 0, len(pp))
	for _, p := range slices.Sorted(maps.Keys(pp)) {
		if re, err := regexp.Compile(p); err == nil {
			out = append(out, patternProperty{re, pp[p]})
		}
	}
	return out
}

// declaredElsewhere reports whether a subschema that unevaluatedProperties
// takes into account (allOf, anyOf, oneOf, then, else, a local $ref)
// declares the property name.
func (e *explainer) declaredElsewhere(schema map[string]any, name string, depth int) bool {
	if depth > maxExplainDepth || e.spent() {
		return true // say nothing rather than something wrong
	}
	var subs []any
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := schema[k].([]any)
		subs = append(subs, list...)
	}
	for _, k := range []string{"then", "else"} {
		if sub, ok := schema[k]; ok {
			subs = append(subs, sub)
		}
	}
	if ref, ok := schema["$ref"].(string); ok {
		subs = append(subs, localRef(e.root, ref))
	}
	for _, s := range subs {
		sub, ok := s.(map[string]any)
		if !ok {
			continue
		}
		// Only the subschemas visited count against the budget, so that a
		// schema without any checks every name it is given.
		if e.steps++; e.spent() {
			return true
		}
		if props, ok := sub["properties"].(map[string]any); ok {
			if _, has := props[name]; has {
				return true
			}
		}
		for _, pp := range compilePatterns(sub) {
			if pp.re.MatchString(name) {
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
