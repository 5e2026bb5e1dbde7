package registry

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/codeexec/codeexec/registry/signature"
)

// checkBinding reports, as an error naming the parameter (or member) and the
// schema's properties, a CallSignature that cannot bind to the parameters
// schema the way SPEC section 4 says a call binds:
//
//   - a parameter whose name is a property of the schema's own "properties"
//     sets that property;
//   - any other parameter must be typed as an object (see
//     signature.Type.IsObjectLike: an options bag, or the one params
//     object), whose members are merged into the params: each member must
//     be a property the schema accepts;
//   - every property in the schema's "required" list must be one that some
//     parameter can supply.
//
// Only names are compared, never types. A rest parameter binds like one
// parameter of its element type. A member the schema may accept is not
// refused: when the schema declares properties through allOf, anyOf, oneOf,
// if/then/else, dependentSchemas or a local $ref (which CallTool counts as
// declared), allows undeclared ones, or has a patternProperties pattern that
// matches, the member is accepted. An object type with an index signature,
// Record<string, T> or `object` is taken to supply any property.
func checkBinding(sig *signature.Signature, schema map[string]any) error {
	props := propsOf(schema)
	supplied := map[string]bool{}
	anyProperty := false
	for _, p := range sig.Params {
		if props.top[p.Name] {
			supplied[p.Name] = true
			continue
		}
		t := p.Type
		if p.Rest {
			t = elementType(t)
		}
		if !t.IsObjectLike() {
			return fmt.Errorf("parameter %q of %s() is neither a property of the parameters schema (%s) nor typed as an object whose members are properties (its type is %s)",
				p.Name, sig.Name, props.describe(), typeText(p.Type))
		}
		members, open := memberNames(t)
		for _, m := range members {
			if !props.accepts(m) {
				return fmt.Errorf("parameter %q of %s() has member %q, which is not a property of the parameters schema (%s)",
					p.Name, sig.Name, m, props.describe())
			}
			supplied[m] = true
		}
		anyProperty = anyProperty || open
	}
	if anyProperty {
		return nil
	}
	for _, name := range props.required {
		if !supplied[name] {
			return fmt.Errorf("required property %q of the parameters schema is supplied by no parameter of %s() (%s; %s)",
				name, sig.Name, paramList(sig), props.describe())
		}
	}
	return nil
}

// typeText is t as TypeScript, or "(none)" for a parameter without a type.
func typeText(t *signature.Type) string {
	if t == nil {
		return "(none)"
	}
	return t.String()
}

// paramList describes a signature's parameters for a message.
func paramList(sig *signature.Signature) string {
	if len(sig.Params) == 0 {
		return "it has no parameters"
	}
	names := make([]string, len(sig.Params))
	for i, p := range sig.Params {
		names[i] = p.Name
	}
	return "its parameters: " + strings.Join(names, ", ")
}

// elementType is the type of one argument of a rest parameter of type t.
func elementType(t *signature.Type) *signature.Type {
	switch {
	case t == nil:
		return nil
	case t.Kind == signature.KindArray:
		return t.Elem
	case t.Kind == signature.KindGeneric && (t.Name == "Array" || t.Name == "ReadonlyArray") && len(t.Args) == 1:
		return t.Args[0]
	}
	return nil
}

// memberNames returns the property names an argument of the object-like
// type t can hold, and open when it can hold any (an index signature,
// Record<string, T>, object).
func memberNames(t *signature.Type) (names []string, open bool) {
	switch t.Kind {
	case signature.KindObject:
		for _, f := range t.Fields {
			if f.Index {
				open = true
				continue
			}
			names = append(names, f.Name)
		}
		return names, open
	case signature.KindName:
		return nil, true // object
	case signature.KindGeneric:
		switch t.Name {
		case "Record":
			if keys, ok := literalKeys(t.Args[0]); ok {
				return keys, false
			}
			return nil, true
		case "Partial", "Required", "Readonly", "Omit":
			// Omit leaves out members; checking all of them is stricter
			// than needed only for members it leaves out anyway.
			names, open = memberNames(t.Args[0])
			if t.Name == "Omit" {
				if keys, ok := literalKeys(t.Args[1]); ok {
					names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(keys, n) })
				}
			}
			return names, open
		case "Pick":
			if keys, ok := literalKeys(t.Args[1]); ok {
				return keys, false
			}
			return memberNames(t.Args[0])
		}
	case signature.KindIntersection, signature.KindUnion:
		for _, a := range t.Args {
			if !a.IsObjectLike() {
				continue // null, undefined, void in a union
			}
			n, o := memberNames(a)
			names = append(names, n...)
			open = open || o
		}
		return names, open
	}
	return nil, true
}

// literalKeys returns the property names a key type such as "a" | "b"
// stands for, or false when it is not made of string literals.
func literalKeys(t *signature.Type) ([]string, bool) {
	var lits []*signature.Type
	switch t.Kind {
	case signature.KindLiteral:
		lits = []*signature.Type{t}
	case signature.KindUnion:
		lits = t.Args
	default:
		return nil, false
	}
	keys := make([]string, 0, len(lits))
	for _, l := range lits {
		if l.Kind != signature.KindLiteral {
			return nil, false
		}
		key, ok := unquoteLiteral(l.Literal)
		if !ok {
			return nil, false
		}
		keys = append(keys, key)
	}
	return keys, true
}

// unquoteLiteral returns the value of a string literal type's source text
// ("a", 'a' or `a`), or false for a number or boolean literal.
func unquoteLiteral(lit string) (string, bool) {
	if len(lit) < 2 {
		return "", false
	}
	switch lit[0] {
	case '"':
		s, err := strconv.Unquote(lit)
		return s, err == nil
	case '\'':
		body := strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`)
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(body, `"`, `\"`) + `"`)
		return s, err == nil
	case '`':
		return lit[1 : len(lit)-1], !strings.ContainsAny(lit[1:len(lit)-1], `\$`)
	}
	return "", false
}

// schemaProps is what a parameters schema lets the params of a call hold,
// by property name.
type schemaProps struct {
	top      map[string]bool // the schema's own properties: a parameter of that name sets one
	declared map[string]bool // every property name the schema accepts
	patterns []*regexp.Regexp
	open     bool // the schema accepts properties it does not declare
	required []string
}

// propsOf reads a parameters schema the way CallTool validates it: unless
// the schema says what to do with undeclared properties, they are refused,
// and properties declared by in-place subschemas count as declared.
func propsOf(schema map[string]any) *schemaProps {
	s := &schemaProps{top: map[string]bool{}, declared: map[string]bool{}}
	for name := range asMap(schema["properties"]) {
		s.top[name] = true
		s.declared[name] = true
	}
	if list, ok := schema["required"].([]any); ok {
		for _, r := range list {
			if name, ok := r.(string); ok && !slices.Contains(s.required, name) {
				s.required = append(s.required, name)
			}
		}
	}
	s.addPatterns(schema)
	if a, ok := schema["additionalProperties"]; ok {
		// additionalProperties sees only the schema's own properties.
		s.open = a != false
		return s
	}
	if u, ok := schema["unevaluatedProperties"]; ok && u != false {
		s.open = true
		return s
	}
	if _, ok := schema["unevaluatedProperties"]; !ok {
		if _, deps := schema["dependencies"]; deps {
			s.open = true // the registry leaves such a schema open
			return s
		}
	}
	s.collect(schema, schema, map[string]bool{})
	return s
}

// inPlace are the keywords whose subschemas apply to the object itself, so
// that unevaluatedProperties counts the properties they declare.
var inPlace = []string{"allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas", "$ref"}

// collect adds the properties that the in-place subschemas of m declare.
// seen holds the $refs followed so far.
func (s *schemaProps) collect(root, m map[string]any, seen map[string]bool) {
	visit := func(sub any) {
		sm, ok := sub.(map[string]any)
		if !ok {
			return // true or false: evaluates no property
		}
		for name := range asMap(sm["properties"]) {
			s.declared[name] = true
		}
		s.addPatterns(sm)
		for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
			if v, ok := sm[k]; ok && v != false {
				s.open = true
			}
		}
		s.collect(root, sm, seen)
	}
	for _, k := range inPlace {
		switch v := m[k].(type) {
		case []any:
			for _, sub := range v {
				visit(sub)
			}
		case map[string]any:
			if k == "dependentSchemas" {
				for _, sub := range v {
					visit(sub)
				}
			} else {
				visit(v)
			}
		case string:
			if k != "$ref" || seen[v] {
				continue
			}
			seen[v] = true
			target, ok := resolveLocal(root, v)
			if !ok {
				s.open = true // cannot tell what it declares: accept
				continue
			}
			visit(target)
		}
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if _, ok := m[k]; ok {
			s.open = true
		}
	}
}

// resolveLocal follows a JSON pointer reference within the schema ("#",
// "#/$defs/x"), or reports false for any other reference.
func resolveLocal(root map[string]any, ref string) (any, bool) {
	if ref == "#" {
		return root, true
	}
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var cur any = root
	for _, tok := range strings.Split(ptr, "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := cur.(type) {
		case map[string]any:
			if cur, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// addPatterns adds the patternProperties of m; a pattern that Go cannot
// compile is taken to match anything.
func (s *schemaProps) addPatterns(m map[string]any) {
	for p := range asMap(m["patternProperties"]) {
		re, err := regexp.Compile(p)
		if err != nil {
			s.open = true
			continue
		}
		s.patterns = append(s.patterns, re)
	}
}

// accepts reports whether the schema lets the params hold a property name.
func (s *schemaProps) accepts(name string) bool {
	if s.open || s.declared[name] {
		return true
	}
	for _, re := range s.patterns {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// describe lists the schema's properties for a message: "its properties:
// path, limit", required ones first.
func (s *schemaProps) describe() string {
	if len(s.declared) == 0 && len(s.patterns) == 0 {
		if s.open {
			return "it declares no properties but accepts any"
		}
		return "it declares no properties"
	}
	names := make(map[string]any, len(s.declared))
	for n := range s.declared {
		names[n] = nil
	}
	required := map[string]bool{}
	for _, r := range s.required {
		required[r] = true
	}
	list := signature.PropertyOrder(names, required)
	for i, n := range list {
		list[i] = strconv.Quote(n)
	}
	text := "its properties: " + strings.Join(list, ", ")
	if len(list) == 0 {
		text = "it declares no properties"
	}
	if len(s.patterns) > 0 {
		pats := make([]string, len(s.patterns))
		for i, re := range s.patterns {
			pats[i] = re.String()
		}
		slices.Sort(pats)
		text += "; and names matching " + strings.Join(pats, ", ")
	}
	return text
}

// asMap returns v as a JSON object, or nil.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
