package signature

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// schemaDepth is how many levels of nested schemas FromSchema follows below
// the parameters object (and below the output schema); deeper schemas are
// rendered as `unknown`. FromSchema lowers it further, down to zero, when a
// schema would otherwise give a signature longer than maxSourceLen.
const schemaDepth = 8

// paramNames are the names FromSchema tries, in order, for the single
// params-object argument; it takes the first that is not a top-level
// property of the schema, so that the binding merges the object instead of
// assigning it to that property.
var paramNames = []string{"params", "args", "input", "request", "options"}

// FromSchema generates a call signature for a tool that ships none, from its
// JSON Schemas:
//
//	async function NAME(params: { ... }): Promise<T>
//
// NAME is the tool's name when that is a valid identifier that names no
// global (word_count stays word_count). Otherwise every character that
// cannot appear in an identifier is replaced by "_" (get-sum gives get_sum),
// a leading digit gets a "_" before it (3d_render gives _3d_render), and a
// reserved word or a JavaScript or sandbox global (see Reserved) gets a "_"
// after it (delete gives delete_, fetch gives fetch_). Two tool names can
// give the same NAME (get-sum and get_sum): the registry refuses the second.
//
// The single argument is the params object; it is optional (`params?`) when
// the schema requires no property, and omitted when the schema declares no
// property and allows no others. It is called `params` unless the schema has
// a top-level property of that name, in which case the first of args, input,
// request, options (then params1, params2, …) that is not a property is
// used. Its type is always object-like (see Type.IsObjectLike), so that a
// binding merges the object into the params: a parameters schema whose type
// would be anything else (a $ref, an anyOf of non-objects) gives
// `Record<string, unknown>`. T is `any` when output is nil and the type of
// the output schema otherwise.
//
// Types map as follows: string, number and integer (both `number`), boolean
// and null to their TypeScript names; enum and const to unions of literals;
// arrays to `T[]` (parenthesized when T is a union), items/prefixItems tuples
// to tuple types; objects to object types whose properties keep their names
// (quoted when not identifiers) and are optional unless required, required
// ones first and each group sorted by name; additionalProperties or
// patternProperties schemas to `Record<string, T>` when there are no
// properties and to an index signature `[key: string]: T` beside them; an
// object with no properties and no additionalProperties to
// `Record<string, unknown>`, or `{}` when additionalProperties is false;
// anyOf and oneOf to unions, allOf to intersections (combined with the
// schema's own type by intersection); type arrays and OpenAPI
// `nullable: true` to unions with null; the schema true, an empty schema and
// any unknown type to `unknown`; false to `never`. $ref is not resolved: a
// schema with $ref becomes `unknown`. Descriptions, formats and numeric or
// length constraints are not represented. Schemas nested more than eight
// levels below the parameters object (or the output schema) become
// `unknown`, and fewer levels are followed when a schema would otherwise give
// a signature too long for Parse; if even that is too long, the signature is
// `NAME(params?: Record<string, unknown>): Promise<any>`.
//
// It returns an error when the tool name is empty, when parameters has a
// "type" other than "object", or, which would be a bug, when the generated
// text does not parse. The result always satisfies Parse and is in
// canonical form (Parse(s).String() == s). FromSchema does not modify its
// arguments and is safe for concurrent use.
func FromSchema(name string, parameters map[string]any, output map[string]any) (string, error) {
	fn, err := FunctionName(name)
	if err != nil {
		return "", err
	}
	if t, ok := parameters["type"]; ok && t != "object" {
		return "", fmt.Errorf("signature from schema of %q: parameters schema must have \"type\": \"object\", got %s", name, jsonText(t))
	}
	var lastErr error
	for _, depth := range []int{schemaDepth, 4, 2, 1, 0, -1} {
		pg := &schemaGen{maxDepth: depth, closedRoot: true}
		og := &schemaGen{maxDepth: depth}
		sig := &Signature{Name: fn, Async: true, Params: []Param{}}
		if depth < 0 {
			// Last resort for enormous schemas: no detail at all.
			sig.Params = append(sig.Params, Param{Name: paramName(parameters), Optional: true,
				Type: recordOf(unknownType())})
			sig.Returns = promiseOf(&Type{Kind: KindName, Name: "any"})
		} else {
			if p, ok := pg.params(parameters); ok {
				sig.Params = append(sig.Params, p)
			}
			ret := &Type{Kind: KindName, Name: "any"}
			if output != nil {
				ret = og.typeOf(output, 0)
			}
			sig.Returns = promiseOf(ret)
		}
		text := sig.String()
		parsed, err := Parse(text)
		if err != nil {
			lastErr = err
			continue
		}
		if again := parsed.String(); again != text {
			lastErr = fmt.Errorf("canonical form %q differs from %q", again, text)
			continue
		}
		return text, nil
	}
	return "", fmt.Errorf("signature from schema of %q: generated signature does not parse: %w", name, lastErr)
}

// FunctionName converts a tool name to the JavaScript function name of the
// signature FromSchema generates for it. The rule is one for every source of
// tools (registered Go tools, executables, typed tools, MCP servers, whose
// names as namespaces follow it too):
//
//   - a name that is a valid identifier and names no global is kept as it
//     is: word_count stays word_count, read stays read (no camelCase);
//   - otherwise every character that cannot appear in an identifier (only
//     ASCII letters, digits, "_" and "$" can) is replaced by "_", one per
//     character: get-sum gives get_sum, mcp.server/tool gives
//     mcp_server_tool, café gives caf_;
//   - a name that then starts with a digit gets a leading "_": 3d_render
//     gives _3d_render;
//   - a name that is then a reserved word or would shadow a JavaScript or
//     sandbox global (see Reserved) gets a trailing "_", the usual way out
//     of a keyword: delete gives delete_, fetch gives fetch_, console gives
//     console_.
//
// Distinct tool names can give the same function name (get-sum and
// get_sum); telling them apart is the registry's job, not this function's.
// An empty name is an error.
func FunctionName(name string) (string, error) {
	if name == "" {
		return "", errors.New("tool name is empty: there is no function name to make from it")
	}
	var b strings.Builder
	for _, r := range name {
		if r < utf8.RuneSelf && isIdentPart(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	id := b.String()
	if isDigit(id[0]) {
		id = "_" + id
	}
	for reservedWords[id] || Reserved(id) {
		id += "_"
	}
	return id, nil
}

// schemaGen turns JSON Schemas into Types, following nested schemas down to
// maxDepth levels.
type schemaGen struct {
	maxDepth int
	// closedRoot makes the schema at depth 0 refuse undeclared properties
	// unless it says otherwise, as the registry does for parameters.
	closedRoot bool
}

// params returns the params-object parameter for a parameters schema, or
// false when the tool takes no parameters.
func (g *schemaGen) params(schema map[string]any) (Param, bool) {
	if schema == nil {
		return Param{}, false
	}
	t := g.typeOf(schema, 0)
	if t.Kind == KindObject && len(t.Fields) == 0 {
		return Param{}, false
	}
	if !t.IsObjectLike() {
		// A binding merges only an object-like argument into the params.
		t = recordOf(unknownType())
	}
	return Param{Name: paramName(schema), Optional: allOptional(t), Type: t}, true
}

// paramName picks the name of the params-object parameter.
func paramName(schema map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	for _, n := range paramNames {
		if _, taken := props[n]; !taken {
			return n
		}
	}
	for i := 1; ; i++ {
		n := "params" + strconv.Itoa(i)
		if _, taken := props[n]; !taken {
			return n
		}
	}
}

// allOptional reports whether an empty object satisfies t, so that the
// params argument may be left out.
func allOptional(t *Type) bool {
	switch t.Kind {
	case KindObject:
		for _, f := range t.Fields {
			if !f.Optional && !f.Index {
				return false
			}
		}
		return true
	case KindGeneric:
		return t.Name == "Record"
	case KindName:
		return t.Name == "unknown" || t.Name == "any" || t.Name == "object"
	case KindIntersection:
		for _, a := range t.Args {
			if !allOptional(a) {
				return false
			}
		}
		return true
	case KindUnion:
		return slices.ContainsFunc(t.Args, allOptional)
	}
	return false
}

// typeOf returns the type of schema s found depth levels below the root.
func (g *schemaGen) typeOf(s any, depth int) *Type {
	if depth > g.maxDepth {
		return unknownType()
	}
	switch s := s.(type) {
	case bool:
		if s {
			return unknownType()
		}
		return neverType()
	case map[string]any:
		return g.schemaType(s, depth)
	}
	return unknownType()
}

// schemaType is typeOf for an object schema.
func (g *schemaGen) schemaType(m map[string]any, depth int) *Type {
	if _, ok := m["$ref"]; ok {
		return unknownType()
	}
	t := g.ownType(m, depth)
	var variants []*Type
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := m[k].([]any); ok {
			for _, sub := range list {
				variants = append(variants, g.typeOf(sub, depth+1))
			}
		}
	}
	if len(variants) > 0 {
		if u := unionOf(variants); !isUnknown(u) {
			t = intersectionOf(t, u)
		}
	}
	if list, ok := m["allOf"].([]any); ok {
		parts := []*Type{t}
		for _, sub := range list {
			parts = append(parts, g.typeOf(sub, depth+1))
		}
		t = intersectionOf(parts...)
	}
	if t == nil {
		t = unknownType()
	}
	if m["nullable"] == true && !isUnknown(t) {
		t = unionOf([]*Type{t, nullType()})
	}
	return t
}

// ownType is the type m gives by const, enum, type or, without a type, by
// the keywords of one (properties imply an object, items an array); nil when
// m says nothing about its type.
func (g *schemaGen) ownType(m map[string]any, depth int) *Type {
	if c, ok := m["const"]; ok {
		if lit := literalType(c); lit != nil {
			return lit
		}
	}
	if enum, ok := m["enum"].([]any); ok {
		members := make([]*Type, 0, len(enum))
		for _, v := range enum {
			lit := literalType(v)
			if lit == nil {
				members = nil
				break
			}
			members = append(members, lit)
		}
		if members != nil {
			return unionOf(members)
		}
	}
	switch typ := m["type"].(type) {
	case string:
		return g.namedType(typ, m, depth)
	case []any:
		var members []*Type
		for _, v := range typ {
			if name, ok := v.(string); ok {
				members = append(members, g.namedType(name, m, depth))
			}
		}
		if len(members) > 0 {
			return unionOf(members)
		}
		return nil
	}
	for _, k := range []string{"properties", "additionalProperties", "patternProperties"} {
		if _, ok := m[k]; ok {
			return g.objectType(m, depth)
		}
	}
	for _, k := range []string{"items", "prefixItems"} {
		if _, ok := m[k]; ok {
			return g.arrayType(m, depth)
		}
	}
	return nil
}

// namedType is the type of a schema whose "type" is name.
func (g *schemaGen) namedType(name string, m map[string]any, depth int) *Type {
	switch name {
	case "string", "boolean", "null":
		return &Type{Kind: KindName, Name: name}
	case "number", "integer":
		return &Type{Kind: KindName, Name: "number"}
	case "array":
		return g.arrayType(m, depth)
	case "object":
		return g.objectType(m, depth)
	}
	return unknownType()
}

// arrayType is the type of an array schema: T[] or a tuple.
func (g *schemaGen) arrayType(m map[string]any, depth int) *Type {
	prefix, isTuple := m["prefixItems"].([]any)
	rest, hasRest := m["items"]
	if items, ok := m["items"].([]any); ok && !isTuple {
		// Drafts before 2020-12 write tuples as an items array.
		prefix, isTuple = items, true
		rest, hasRest = m["additionalItems"]
	}
	if !isTuple {
		if !hasRest {
			return &Type{Kind: KindArray, Elem: unknownType()}
		}
		return &Type{Kind: KindArray, Elem: g.typeOf(rest, depth+1)}
	}
	t := &Type{Kind: KindTuple, Args: []*Type{}, Params: []Param{}}
	for _, sub := range prefix {
		e := g.typeOf(sub, depth+1)
		t.Args = append(t.Args, e)
		t.Params = append(t.Params, Param{Type: e})
	}
	if hasRest && rest != false {
		e := &Type{Kind: KindArray, Elem: g.typeOf(rest, depth+1)}
		t.Args = append(t.Args, e)
		t.Params = append(t.Params, Param{Rest: true, Type: e})
	}
	return t
}

// objectType is the type of an object schema.
func (g *schemaGen) objectType(m map[string]any, depth int) *Type {
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	var requiredOrder []string
	if list, ok := m["required"].([]any); ok {
		for _, v := range list {
			if name, ok := v.(string); ok && !required[name] {
				required[name] = true
				requiredOrder = append(requiredOrder, name)
			}
		}
	}

	// The type of properties not declared: additionalProperties and
	// patternProperties together; nil when there may be none.
	var extra []*Type
	additional, hasAdditional := m["additionalProperties"]
	if hasAdditional && additional != false {
		extra = append(extra, g.typeOf(additional, depth+1))
	}
	if pats, ok := m["patternProperties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(pats)) {
			extra = append(extra, g.typeOf(pats[k], depth+1))
		}
	}
	var index *Type
	if len(extra) > 0 {
		index = unionOf(extra)
	}

	fields := []Field{}
	for _, name := range PropertyOrder(props, required) {
		fields = append(fields, Field{Name: name, Optional: !required[name], Type: g.typeOf(props[name], depth+1)})
	}
	// Required properties the schema does not declare still have to be there.
	var undeclared []Field
	for _, name := range requiredOrder {
		if _, ok := props[name]; !ok {
			t := index
			if t == nil {
				t = unknownType()
			}
			undeclared = append(undeclared, Field{Name: name, Type: t})
		}
	}
	slices.SortFunc(undeclared, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	nRequired := 0
	for nRequired < len(fields) && !fields[nRequired].Optional {
		nRequired++
	}
	fields = slices.Insert(fields, nRequired, undeclared...)

	switch {
	case len(fields) == 0 && index != nil:
		return recordOf(index)
	case len(fields) == 0 && !hasAdditional && !(g.closedRoot && depth == 0):
		return recordOf(unknownType())
	case index != nil:
		fields = append(fields, Field{Name: "key", Index: true, KeyType: &Type{Kind: KindName, Name: "string"}, Type: index})
	}
	return &Type{Kind: KindObject, Fields: fields}
}

// literalType returns the literal type of a JSON value, or nil for objects,
// arrays and other values that have none.
func literalType(v any) *Type {
	switch v := v.(type) {
	case nil:
		return nullType()
	case bool:
		return &Type{Kind: KindLiteral, Literal: strconv.FormatBool(v)}
	case string:
		return &Type{Kind: KindLiteral, Literal: quoteString(v)}
	case float64:
		return numberLiteral(v)
	case float32:
		return numberLiteral(float64(v))
	case int:
		return &Type{Kind: KindLiteral, Literal: strconv.Itoa(v)}
	case int64:
		return &Type{Kind: KindLiteral, Literal: strconv.FormatInt(v, 10)}
	case json.Number:
		s := string(v)
		if validNumber(strings.TrimPrefix(s, "-")) && !strings.HasSuffix(s, "n") {
			return &Type{Kind: KindLiteral, Literal: s}
		}
	}
	return nil
}

// numberLiteral renders a finite number as a literal type.
func numberLiteral(f float64) *Type {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	format := byte('g')
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		format = 'f'
	}
	return &Type{Kind: KindLiteral, Literal: strconv.FormatFloat(f, format, -1, 64)}
}

func unknownType() *Type { return &Type{Kind: KindName, Name: "unknown"} }
func neverType() *Type   { return &Type{Kind: KindName, Name: "never"} }
func nullType() *Type    { return &Type{Kind: KindName, Name: "null"} }

func isUnknown(t *Type) bool {
	return t != nil && t.Kind == KindName && (t.Name == "unknown" || t.Name == "any")
}

func isNever(t *Type) bool { return t != nil && t.Kind == KindName && t.Name == "never" }

func recordOf(t *Type) *Type {
	return &Type{Kind: KindGeneric, Name: "Record", Args: []*Type{{Kind: KindName, Name: "string"}, t}}
}

func promiseOf(t *Type) *Type {
	return &Type{Kind: KindGeneric, Name: "Promise", Args: []*Type{t}}
}

// unionOf joins types into a flattened union without duplicates: never is
// dropped, unknown absorbs everything, and one member stands for itself.
func unionOf(types []*Type) *Type {
	var members []*Type
	seen := map[string]bool{}
	for _, t := range types {
		for _, m := range flatten(nil, t, KindUnion) {
			if isUnknown(m) {
				return unknownType()
			}
			if isNever(m) || seen[m.String()] {
				continue
			}
			seen[m.String()] = true
			members = append(members, m)
		}
	}
	switch len(members) {
	case 0:
		return neverType()
	case 1:
		return members[0]
	}
	return &Type{Kind: KindUnion, Args: members}
}

// intersectionOf joins types into a flattened intersection without
// duplicates: nil and unknown are dropped, never absorbs everything, and one
// member stands for itself. With no members left it returns nil.
func intersectionOf(types ...*Type) *Type {
	var members []*Type
	seen := map[string]bool{}
	for _, t := range types {
		if t == nil {
			continue
		}
		for _, m := range flatten(nil, t, KindIntersection) {
			if isNever(m) {
				return neverType()
			}
			if isUnknown(m) || seen[m.String()] {
				continue
			}
			seen[m.String()] = true
			members = append(members, m)
		}
	}
	switch len(members) {
	case 0:
		return nil
	case 1:
		return members[0]
	}
	return &Type{Kind: KindIntersection, Args: members}
}

// jsonText renders v as compact JSON for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// PropertyOrder lists the names of props with the required ones first, each
// group sorted by name (Go maps keep no order): the order of the fields of
// a generated signature, and of the expected shape in the registry's
// validation messages.
func PropertyOrder(props map[string]any, required map[string]bool) []string {
	names := slices.Sorted(maps.Keys(props))
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case required[a] == required[b]:
			return 0
		case required[a]:
			return -1
		}
		return 1
	})
	return names
}
