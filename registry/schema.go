package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/codeexec/codeexec/registry/signature"
)

// validator checks params against a tool's compiled parameters schema.
type validator struct {
	// once makes schema (or err) on first use (see full).
	once   sync.Once
	schema *jsonschema.Resolved
	err    error
	doc    map[string]any // the schema as compiled, for explain and messages
	// params is the schema as given, as encoding/json decodes it: the
	// copy Register keeps. doc shares its values below the top level
	// (except in a draft 04 schema); neither is ever changed.
	params map[string]any
	// simple is the schema reduced to what quickValid checks, or nil when
	// the schema uses anything more (then every call is fully validated).
	simple *simpleSchema
}

// simpleSchema is an object schema whose properties each have one plain
// type (and maybe an enum of primitives, numeric bounds and length bounds),
// which covers most tools, the built-in ones too. Checking it directly is a
// fraction of the full validator's cost per call (about 28 µs a call for
// the built-in read's schema, which bounds two integers).
type simpleSchema struct {
	props      map[string]simpleProp
	required   []string
	additional bool
}

type simpleProp struct {
	typ  string
	enum []any
	// The bounds of a number and of a string's length in Unicode code
	// points, as numbers (the compiled schema words draft 04's boolean
	// exclusiveMinimum and exclusiveMaximum so too; any other form falls
	// back to the validator); nil: none.
	minimum, maximum, exclusiveMinimum, exclusiveMaximum *float64
	minLength, maxLength                                 *float64
}

// simplify returns the simpleSchema equivalent to doc, or nil.
func simplify(doc map[string]any) *simpleSchema {
	s := &simpleSchema{props: map[string]simpleProp{}}
	for k, v := range doc {
		switch k {
		case "type", "description", "title", "$schema", "$comment":
		case "additionalProperties", "unevaluatedProperties":
			b, ok := v.(bool)
			if !ok {
				return nil
			}
			_, hasA := doc["additionalProperties"]
			_, hasU := doc["unevaluatedProperties"]
			if hasA && hasU {
				return nil // two rules to combine: leave it to the validator
			}
			s.additional = b
		case "required":
			list, ok := v.([]any)
			if !ok {
				return nil
			}
			for _, r := range list {
				name, ok := r.(string)
				if !ok {
					return nil
				}
				s.required = append(s.required, name)
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			for name, p := range props {
				prop, ok := simplifyProp(p)
				if !ok {
					return nil
				}
				s.props[name] = prop
			}
		default:
			return nil
		}
	}
	return s
}

func simplifyProp(p any) (simpleProp, bool) {
	m, ok := p.(map[string]any)
	if !ok {
		return simpleProp{}, false
	}
	var prop simpleProp
	for k, v := range m {
		switch k {
		case "description", "title", "default", "examples", "$comment":
		case "type":
			t, ok := v.(string)
			if !ok || t == "array" || t == "object" {
				return simpleProp{}, false
			}
			prop.typ = t
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return simpleProp{}, false
			}
			for _, e := range list {
				switch e.(type) {
				case string, float64, bool, nil:
				default:
					return simpleProp{}, false
				}
			}
			prop.enum = list
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength":
			f, ok := v.(float64)
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				return simpleProp{}, false
			}
			if (k == "minLength" || k == "maxLength") && (f < 0 || f != math.Trunc(f)) {
				return simpleProp{}, false
			}
			switch k {
			case "minimum":
				prop.minimum = &f
			case "maximum":
				prop.maximum = &f
			case "exclusiveMinimum":
				prop.exclusiveMinimum = &f
			case "exclusiveMaximum":
				prop.exclusiveMaximum = &f
			case "minLength":
				prop.minLength = &f
			case "maxLength":
				prop.maxLength = &f
			}
		default:
			return simpleProp{}, false
		}
	}
	return prop, true
}

// quickValid reports whether params certainly satisfy s. false means "run
// the full validator", which also writes the message.
func (s *simpleSchema) quickValid(params map[string]any) bool {
	for _, name := range s.required {
		if _, ok := params[name]; !ok {
			return false
		}
	}
	for name, v := range params {
		prop, declared := s.props[name]
		if !declared {
			if _, bad := plainJSON(v, ""); !s.additional || bad != "" {
				return false
			}
			continue
		}
		if !prop.accepts(v) {
			return false
		}
	}
	return true
}

func (p simpleProp) accepts(v any) bool {
	switch p.typ {
	case "string":
		if _, ok := v.(string); !ok {
			return false
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return false
		}
	case "null":
		if v != nil {
			return false
		}
	case "number", "integer":
		f, ok := toFloat(v)
		if !ok || (p.typ == "integer" && f != math.Trunc(f)) || math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	default:
		return false
	}
	if !p.inBounds(v) {
		return false
	}
	if p.enum == nil {
		return true
	}
	if f, ok := toFloat(v); ok {
		v = f
	}
	return slices.Contains(p.enum, v)
}

// inBounds reports whether v, of p's type, is within p's bounds: a number
// as the float64 the full validator is given (see toPlain), a string's
// length in code points.
func (p simpleProp) inBounds(v any) bool {
	if str, ok := v.(string); ok {
		if p.minLength == nil && p.maxLength == nil {
			return true
		}
		n := float64(utf8.RuneCountInString(str))
		return (p.minLength == nil || n >= *p.minLength) && (p.maxLength == nil || n <= *p.maxLength)
	}
	if p.minimum == nil && p.maximum == nil && p.exclusiveMinimum == nil && p.exclusiveMaximum == nil {
		return true
	}
	f, ok := toFloat(v)
	return ok && (p.minimum == nil || f >= *p.minimum) && (p.maximum == nil || f <= *p.maximum) &&
		(p.exclusiveMinimum == nil || f > *p.exclusiveMinimum) && (p.exclusiveMaximum == nil || f < *p.exclusiveMaximum)
}

// toFloat converts the numeric types params may hold.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// MaxSchemaDepth is how deeply a tool's parameters schema may nest, in
// JSON levels (every object and array is one, the schema itself the first),
// checked when the tool is registered. The full validator takes time
// quadratic in the depth to build (its decoder decodes every level again
// for each one above it): about 7 ms at 64 levels, 75 ms at 256 and 12 s
// at 6,000 on a 2-core machine. 64 levels hold 31 nested object schemas
// (each nests its properties map and the property's schema), more than
// tool schemas use.
const MaxSchemaDepth = 64

// jsonDepthOf returns how deeply v nests: 0 for a scalar, 1 for an object
// or array of scalars, and so on.
func jsonDepthOf(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, jsonDepthOf(e))
		}
	case []any:
		for _, e := range x {
			d = max(d, jsonDepthOf(e))
		}
	default:
		return 0
	}
	return d + 1
}

// compileSchema checks that schema is a JSON Schema of type object and
// compiles it. Unless the schema says otherwise, properties it does not
// declare are refused (additionalProperties: false).
//
// The schema is checked structurally (every keyword's value has the type
// the specification gives it, type names exist, regular expressions
// compile, $refs resolve), not against the meta-schema. Drafts 2020-12
// and 07 are validated as their specifications say; other drafts by the
// nearest of the two (see normalizeDraft), which agree with them on the
// keywords tool schemas use.
func compileSchema(schema map[string]any) (*validator, error) {
	if schema == nil {
		return nil, errors.New(`parameters schema is missing: want a JSON Schema with "type": "object"`)
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf(`parameters schema must have "type": "object", got %s`, jsonText(schema["type"]))
	}
	// The schema's one copy, as plain JSON values. The validator's view
	// of it differs at the top level only (refuseUndeclared,
	// normalizeDraft), so a shallow copy does, except for a draft 04
	// schema, whose exclusive bounds normalizeDraft rewrites throughout.
	copied, err := jsonCopy(schema)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is not JSON: %w", err)
	}
	params := copied.(map[string]any)
	if d := jsonDepthOf(params); d > MaxSchemaDepth {
		return nil, fmt.Errorf("parameters schema is nested %d levels deep, more than the %d allowed (each object or array is a level)", d, MaxSchemaDepth)
	}
	doc := maps.Clone(params)
	if isDraft04(doc) {
		doc = cloneJSON(params).(map[string]any)
	}
	refuseUndeclared(doc)
	normalizeDraft(doc)
	// The quick pass, in map order and without JSON pointers, passes a
	// valid schema; an invalid one is walked again in key order, so that
	// the error reported is the same whatever the map order.
	if checkKeywords(doc, "", false) != nil {
		if err := checkKeywords(doc, "", true); err != nil {
			return nil, fmt.Errorf("parameters schema is invalid: %w", err)
		}
	}
	// Without references (resolverKeywords include $ref and $dynamicRef)
	// the subschemas form a tree, which has no cycle to look for.
	resolver := usesResolver(doc)
	if resolver {
		if err := checkRefCycles(doc); err != nil {
			return nil, fmt.Errorf("parameters schema is invalid: %w", err)
		}
	}
	// The full validator costs more to build than the rest (most of a
	// CLI's start). A schema without references, anchors or regular
	// expressions, which the checks above cover whole (FuzzCompileSchema
	// holds them to it), gets it on the first call the quick check does not
	// settle; any other now, so that Register refuses what cannot resolve.
	v := &validator{doc: doc, params: params, simple: simplify(doc)}
	if resolver {
		if _, err := v.full(); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// resolverKeywords are the keywords whose values only the full validator
// checks: references and anchors must resolve, patterns compile.
var resolverKeywords = []string{"$ref", "$dynamicRef", "$anchor", "$dynamicAnchor", "$id", "pattern", "patternProperties"}

// usesResolver reports whether the schema s or one of its subschemas
// uses one of resolverKeywords (as a keyword: a property may be called
// "pattern").
func usesResolver(s any) bool {
	schema, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for k := range schema {
		if slices.Contains(resolverKeywords, k) {
			return true
		}
	}
	return walkSubschemas(schema, "", false, func(sub any, _ string) error {
		if usesResolver(sub) {
			return errFound
		}
		return nil
	}) != nil
}

// errFound stops a walk of eachSubschema that found what it looked for.
var errFound = errors.New("found")

// full returns the full validator of v, built on first use; safe for
// concurrent use.
func (v *validator) full() (*jsonschema.Resolved, error) {
	v.once.Do(func() {
		v.schema, v.err = resolve(v.doc)
	})
	return v.schema, v.err
}

// resolve builds the full validator of a checked schema document.
func resolve(doc map[string]any) (*jsonschema.Resolved, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is not JSON: %w", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("parameters schema is invalid: %w", err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is invalid: %w", err)
	}
	return resolved, nil
}

// jsonTypes are the type names of JSON Schema.
var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// Keywords by the kind of value they take, for checkKeywords.
var (
	countKeywords  = []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"}
	numberKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	schemaMaps     = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaLists    = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaValues   = []string{"additionalProperties", "unevaluatedProperties", "items", "additionalItems", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"}
)

// resolverFields are the keywords the full validator's schema type
// decodes, from its JSON field names, by their lower-case form (the
// decoder matches them in any case).
var resolverFields = func() map[string]string {
	names := map[string]string{}
	t := reflect.TypeOf(jsonschema.Schema{})
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[strings.ToLower(name)] = name
		}
	}
	return names
}()

// miscased returns the keyword k spells in another case, if it does.
func miscased(k string) (string, bool) {
	kw, ok := resolverFields[strings.ToLower(k)]
	return kw, ok && kw != k
}

// checkKeywords checks the keywords of the schema s, at JSON pointer ptr,
// and of its subschemas: that each has the kind of value the specification
// gives it and that type names exist. The validator would otherwise refuse
// a mistyped keyword with a message that does not name it, or take a
// misspelled type name as a type nothing has. When exact is set the error
// is the first in key order and names its JSON pointer; otherwise the
// walk, cheaper, takes keys in map order and the error's pointer is
// left out (ptr is ignored): only whether there is one is to be relied on.
func checkKeywords(s any, ptr string, exact bool) error {
	schema, ok := s.(map[string]any)
	if !ok {
		if _, isBool := s.(bool); !isBool {
			return fmt.Errorf("%s: a schema must be an object or a boolean, got %s", orRoot(ptr), jsonText(s))
		}
		return nil
	}
	for k, v := range keysOf(schema, exact) {
		at := ""
		if exact {
			at = ptr + "/" + escapePointer(k)
		}
		if kw, bad := miscased(k); bad {
			// The validator's decoder matches keywords whatever their case
			// (encoding/json's rule), where JSON Schema would ignore an
			// unknown keyword: refuse the ambiguity.
			return fmt.Errorf("%s: keywords are case-sensitive; did you mean %q?", at, kw)
		}
		switch {
		case k == "type":
			names, isList := v.([]any)
			if name, ok := v.(string); ok {
				names, isList = []any{name}, true
			}
			if !isList {
				return fmt.Errorf("%s: want a type name or a list of them, got %s", at, jsonText(v))
			}
			for _, n := range names {
				if name, _ := n.(string); !slices.Contains(jsonTypes, name) {
					return fmt.Errorf("%s: %s is not a JSON Schema type (want one of %s)", at, jsonText(n), strings.Join(jsonTypes, ", "))
				}
			}
		case k == "required":
			list, ok := v.([]any)
			if !ok || slices.ContainsFunc(list, func(e any) bool { _, ok := e.(string); return !ok }) {
				return fmt.Errorf("%s: want a list of property names, got %s", at, jsonText(v))
			}
		case k == "enum":
			if _, ok := v.([]any); !ok {
				return fmt.Errorf("%s: want a list of values, got %s", at, jsonText(v))
			}
		case k == "pattern":
			if _, ok := v.(string); !ok {
				return fmt.Errorf("%s: want a regular expression, got %s", at, jsonText(v))
			}
		case slices.Contains(countKeywords, k):
			if n, ok := v.(float64); !ok || n < 0 || n != math.Trunc(n) {
				return fmt.Errorf("%s: want a non-negative integer, got %s", at, jsonText(v))
			}
		case slices.Contains(numberKeywords, k):
			if _, ok := v.(float64); !ok {
				return fmt.Errorf("%s: want a number, got %s", at, jsonText(v))
			}
		case slices.Contains(schemaMaps, k):
			if _, ok := v.(map[string]any); !ok {
				return fmt.Errorf("%s: want an object of schemas, got %s", at, jsonText(v))
			}
		case slices.Contains(schemaLists, k):
			if !isList(v) {
				return fmt.Errorf("%s: want a list of schemas, got %s", at, jsonText(v))
			}
		}
	}
	return walkSubschemas(schema, ptr, exact, func(sub any, at string) error {
		return checkKeywords(sub, at, exact)
	})
}

// eachSubschema calls fn with each subschema directly under the schema s
// (at JSON pointer ptr) and the subschema's own pointer, in key order, and
// stops at the first error fn returns. A keyword whose value is not of the
// kind it takes is passed over: checkKeywords reports those.
func eachSubschema(s map[string]any, ptr string, fn func(sub any, at string) error) error {
	return walkSubschemas(s, ptr, true, fn)
}

// walkSubschemas is eachSubschema when exact is set; otherwise it calls fn
// with the same subschemas in map order, and with "" for their pointers.
func walkSubschemas(s map[string]any, ptr string, exact bool, fn func(sub any, at string) error) error {
	for k, v := range keysOf(s, exact) {
		at := ""
		if exact {
			at = ptr + "/" + escapePointer(k)
		}
		switch {
		case slices.Contains(schemaMaps, k) || k == "dependencies":
			m, _ := v.(map[string]any)
			for name, sub := range keysOf(m, exact) {
				if k == "dependencies" && isList(sub) {
					continue // draft 07: a list of property names, not a schema
				}
				subAt := ""
				if exact {
					subAt = at + "/" + escapePointer(name)
				}
				if err := fn(sub, subAt); err != nil {
					return err
				}
			}
		case slices.Contains(schemaLists, k) || k == "items" && isList(v):
			list, _ := v.([]any)
			for i, sub := range list {
				subAt := ""
				if exact {
					subAt = at + "/" + strconv.Itoa(i)
				}
				if err := fn(sub, subAt); err != nil {
					return err
				}
			}
		case slices.Contains(schemaValues, k):
			if err := fn(v, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// keysOf iterates over m's keys and values: in key order when sorted is
// set, in map order (cheaper: nothing to sort) otherwise.
func keysOf(m map[string]any, sorted bool) iter.Seq2[string, any] {
	if !sorted {
		return maps.All(m)
	}
	return func(yield func(string, any) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

// inPlaceKeywords apply their subschemas to the value the schema applies
// to, not to a part of it; a cycle through them (and $ref) never ends.
var inPlaceKeywords = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"}

// checkRefCycles refuses a schema in which a chain of $refs and in-place
// keywords leads from a subschema back to itself, such as
// {"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}}: validating would
// apply it to the same value forever, and the validator recurses until
// the process's stack overflows. Recursion through properties or items
// (a tree of nodes) moves to a part of the value and is fine. References
// are resolved as the validator resolves them: against the base URI of
// each embedded resource ($id), to JSON pointers and to anchors.
func checkRefCycles(doc map[string]any) error {
	g := refGraph{schemas: map[string]map[string]any{}, bases: map[string]*url.URL{}, resources: map[string]string{}, anchors: map[string]string{}}
	root, _ := url.Parse(defaultBase)
	g.collect(doc, "", root)
	const (
		unseen = iota
		open
		closed
	)
	state := map[string]int{}
	var visit func(ptr string) error
	visit = func(ptr string) error {
		state[ptr] = open
		for _, n := range g.next(ptr) {
			switch state[n] {
			case open:
				return fmt.Errorf("%s: the $ref cycle through %s applies a schema to the same value without end (recursion must go through properties or items)", orRoot(ptr), orRoot(n))
			case unseen:
				if err := visit(n); err != nil {
					return err
				}
			}
		}
		state[ptr] = closed
		return nil
	}
	for _, ptr := range slices.Sorted(maps.Keys(g.schemas)) {
		if state[ptr] == unseen {
			if err := visit(ptr); err != nil {
				return err
			}
		}
	}
	return nil
}

// defaultBase is the base URI of a schema without an $id, for resolving
// its references.
const defaultBase = "https://codeexec.invalid/parameters.json"

// refGraph is a schema document's subschemas by JSON pointer, with what
// checkRefCycles needs to resolve references between them.
type refGraph struct {
	schemas   map[string]map[string]any // pointer -> subschema
	bases     map[string]*url.URL       // pointer -> base URI of the subschema
	resources map[string]string         // resource URI (no fragment) -> pointer
	anchors   map[string]string         // resource URI#anchor -> pointer
}

// collect records the subschema v at ptr, whose parent's base URI is base,
// and everything under it.
func (g *refGraph) collect(v any, ptr string, base *url.URL) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	if id, ok := s["$id"].(string); ok {
		if u, err := base.Parse(id); err == nil {
			u.Fragment = ""
			base = u
			g.resources[u.String()] = ptr
		}
	} else if ptr == "" {
		g.resources[base.String()] = ptr
	}
	g.schemas[ptr], g.bases[ptr] = s, base
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if name, ok := s[k].(string); ok {
			g.anchors[base.String()+"#"+name] = ptr
		}
	}
	_ = eachSubschema(s, ptr, func(sub any, at string) error {
		g.collect(sub, at, base)
		return nil
	})
}

// next lists the subschemas applied in place of the one at ptr: its $ref
// and $dynamicRef targets, and its in-place keywords' subschemas.
func (g *refGraph) next(ptr string) []string {
	s := g.schemas[ptr]
	var out []string
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if ref, ok := s[k].(string); ok {
			if target, ok := g.resolve(g.bases[ptr], ref); ok {
				out = append(out, target)
			}
		}
	}
	for _, k := range inPlaceKeywords {
		switch sub := s[k].(type) {
		case []any:
			for i := range sub {
				out = append(out, fmt.Sprintf("%s/%s/%d", ptr, k, i))
			}
		case map[string]any:
			if k != "dependentSchemas" && k != "dependencies" {
				out = append(out, ptr+"/"+k)
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(sub)) {
				out = append(out, ptr+"/"+k+"/"+escapePointer(name))
			}
		}
	}
	var known []string
	for _, n := range out {
		if _, ok := g.schemas[n]; ok {
			known = append(known, n)
		}
	}
	return known
}

// resolve returns the pointer of the subschema ref names from base, if it
// is in the document.
func (g *refGraph) resolve(base *url.URL, ref string) (string, bool) {
	u, err := base.Parse(ref)
	if err != nil {
		return "", false
	}
	frag := u.Fragment
	u.Fragment = ""
	resource, ok := g.resources[u.String()]
	switch {
	case !ok:
		return "", false
	case frag == "":
		return resource, true
	case strings.HasPrefix(frag, "/"):
		return resource + frag, true
	}
	ptr, ok := g.anchors[u.String()+"#"+frag]
	return ptr, ok
}

// Escaping and unescaping of JSON pointer tokens.
var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// escapePointer escapes a key for a JSON pointer.
func escapePointer(key string) string { return pointerEscaper.Replace(key) }

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the schema"
	}
	return ptr
}

// normalizeDraft rewrites the root "$schema" for the validator, which
// knows drafts 2020-12 and 07 only: drafts 04 and 06 are read as 07 (draft
// 04's boolean exclusiveMinimum and exclusiveMaximum become draft 06's
// numbers), and any other draft as 2020-12.
func normalizeDraft(doc map[string]any) {
	draft, _ := doc["$schema"].(string)
	switch {
	case draft == "":
	case isDraft04(doc):
		doc["$schema"] = draft07
		upgradeExclusive(doc)
	case strings.Contains(draft, "draft-06"), strings.Contains(draft, "draft-07"):
		doc["$schema"] = draft07
	default:
		delete(doc, "$schema")
	}
}

// isDraft04 reports whether doc's $schema is draft 04's.
func isDraft04(doc map[string]any) bool {
	draft, _ := doc["$schema"].(string)
	return strings.Contains(draft, "draft-04")
}

// draft07 is the $schema of draft 07 as the validator spells it.
const draft07 = "http://json-schema.org/draft-07/schema#"

// upgradeExclusive turns draft 04's {"minimum": 1, "exclusiveMinimum":
// true} into {"exclusiveMinimum": 1}, in v and everything under it.
func upgradeExclusive(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, pair := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			if b, ok := v[pair[0]].(bool); ok {
				delete(v, pair[0])
				if bound, has := v[pair[1]]; has && b {
					v[pair[0]] = bound
					delete(v, pair[1])
				}
			}
		}
		for k, sub := range v {
			if k != "enum" && k != "const" && k != "default" && k != "examples" {
				upgradeExclusive(sub)
			}
		}
	case []any:
		for _, sub := range v {
			upgradeExclusive(sub)
		}
	}
}

// refuseUndeclared makes the schema refuse top-level properties it does not
// declare, unless it already says what to do with them: it adds
// unevaluatedProperties: false, which also counts properties declared
// through allOf, anyOf, oneOf, if/then/else or $ref. The validator honours
// the keyword in every draft it reads. A schema with draft 07's
// dependencies (which may declare properties the keyword does not count)
// is left as written.
func refuseUndeclared(doc map[string]any) {
	_, additional := doc["additionalProperties"]
	_, unevaluated := doc["unevaluatedProperties"]
	_, dependencies := doc["dependencies"]
	if additional || unevaluated || dependencies {
		return
	}
	doc["unevaluatedProperties"] = false
}

// validate returns "" when params satisfy the schema, or a message naming
// each offending path and the expected shape.
func (v *validator) validate(params map[string]any) string {
	if v.simple != nil && v.simple.quickValid(params) {
		return ""
	}
	problems := v.problems(params)
	if problems.empty() {
		return ""
	}
	// The expected shape is rendered here, when a message needs it, not
	// when the schema is compiled: most tools of a program never get a
	// call their schema refuses.
	msg := strings.Join(problems.items, "; ")
	switch {
	case problems.more == 1:
		msg += "; and 1 more problem"
	case problems.more > 1:
		msg += fmt.Sprintf("; and %d more problems", problems.more)
	}
	return msg + "; expected " + shapeOf(v.doc, 0)
}

// problems validates params with the full validator and returns one
// "PATH: message" line per problem, sorted, or none when params are valid;
// at most maxProblems are listed, the rest counted.
// Values that are not JSON (a NaN, a Go struct or []string) are refused
// wherever they are, before the schema is consulted.
func (v *validator) problems(params map[string]any) problemList {
	instance, bad := plainJSON(params, "params")
	if bad != "" {
		return problemList{items: []string{bad}}
	}
	// The validator stops at the first problem and says it in its own
	// terms; explain lists the problems it can find in ours, and the
	// validator's message stands in for those it cannot. Params with an
	// undeclared property the schema certainly refuses skip the validator,
	// whose message would list every such property.
	var err error
	skip := refusesUndeclared(v.doc, instance.(map[string]any))
	if !skip {
		full, ferr := v.full()
		if ferr != nil {
			return problemList{items: []string{"params cannot be checked: the tool's " + ferr.Error()}}
		}
		if err = full.Validate(instance); err == nil {
			return problemList{}
		}
	}
	var problems problemList
	(&explainer{root: v.doc}).explain(v.doc, instance, "params", &problems, 0)
	if problems.empty() && skip {
		// Not expected: explain reports every undeclared property.
		full, ferr := v.full()
		if ferr != nil {
			return problemList{items: []string{"params cannot be checked: the tool's " + ferr.Error()}}
		}
		if err = full.Validate(instance); err == nil {
			return problemList{}
		}
	}
	if problems.empty() {
		msg := strings.TrimPrefix(err.Error(), "validating root: ")
		if len(msg) > maxValidatorMessage {
			msg = strings.ToValidUTF8(msg[:maxValidatorMessage], "") + "…"
		}
		problems.add("params: " + msg)
	}
	slices.Sort(problems.items)
	return problems
}

// refusesUndeclared reports whether params has a top-level property that
// the schema doc certainly refuses: doc has additionalProperties: false,
// or unevaluatedProperties: false and nothing that could declare
// properties in place, and neither its properties nor patternProperties
// name it. A $ref makes it uncertain (draft 07 ignores the keywords beside
// one).
func refusesUndeclared(doc, params map[string]any) bool {
	if _, ok := doc["patternProperties"]; ok {
		return false
	}
	for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		if _, ok := doc[k]; ok {
			return false
		}
	}
	switch {
	case doc["additionalProperties"] == false:
	case doc["unevaluatedProperties"] == false && doc["additionalProperties"] == nil:
		for _, k := range inPlaceKeywords {
			if _, ok := doc[k]; ok {
				return false
			}
		}
	default:
		return false
	}
	props, _ := doc["properties"].(map[string]any)
	for name := range params {
		if _, ok := props[name]; !ok {
			return true
		}
	}
	return false
}

// maxValidatorMessage is how much of the validator's own message a
// refusal quotes.
const maxValidatorMessage = 1000

// plainJSON returns v made of the values encoding/json decodes into
// (every number a float64, a nil map or slice empty): v itself when it is
// one already, so that checking params copies nothing, or else a copy; or
// a problem naming the path (path, then the keys and indexes below it) of
// the first value that is not JSON.
func plainJSON(v any, path string) (any, string) {
	out, _, bad := toPlain(v)
	if bad != nil {
		for i := len(bad.path) - 1; i >= 0; i-- {
			path += "." + bad.path[i]
		}
		return nil, path + ": " + bad.got
	}
	return out, ""
}

// notJSON says where and why a value is not JSON.
type notJSON struct {
	path []string // the keys and indexes to it, innermost first
	got  string
}

// toPlain is plainJSON without the path: it also reports whether the value
// returned is a copy.
func toPlain(v any) (any, bool, *notJSON) {
	switch x := v.(type) {
	case nil, bool, string:
		return x, false, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false, &notJSON{got: fmt.Sprintf("got %v, which is not a JSON number", x)}
		}
		return x, false, nil
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil, false, &notJSON{got: fmt.Sprintf("got %q, which is not a JSON number", string(x))}
		}
		return f, true, nil
	case map[string]any:
		if x == nil {
			return map[string]any{}, true, nil
		}
		var out map[string]any // made on the first member that changes
		for k, e := range x {
			c, copied, bad := toPlain(e)
			if bad != nil {
				bad.path = append(bad.path, clipName(k))
				return nil, false, bad
			}
			if copied {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = c
			}
		}
		if out == nil {
			return x, false, nil
		}
		return out, true, nil
	case []any:
		if x == nil {
			return []any{}, true, nil
		}
		var out []any
		for i, e := range x {
			c, copied, bad := toPlain(e)
			if bad != nil {
				bad.path = append(bad.path, strconv.Itoa(i))
				return nil, false, bad
			}
			if copied {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = c
			}
		}
		if out == nil {
			return x, false, nil
		}
		return out, true, nil
	}
	if f, ok := toFloat(v); ok {
		c, _, bad := toPlain(f)
		return c, true, bad
	}
	return nil, false, &notJSON{got: fmt.Sprintf("got a Go %T, which is not a JSON value (want null, boolean, number, string, []any or map[string]any)", v)}
}

// shapeOf renders a compact TypeScript-like description of a schema, such as
// {path: string, offset?: integer}. depth bounds the recursion.
func shapeOf(s map[string]any, depth int) string {
	if depth > 3 {
		return "…"
	}
	if enum, ok := s["enum"].([]any); ok {
		parts := make([]string, len(enum))
		for i, v := range enum {
			parts[i] = jsonText(v)
		}
		return strings.Join(parts, " | ")
	}
	if s["type"] == "object" {
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			return "object"
		}
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		var parts []string
		for _, name := range signature.PropertyOrder(props, required) {
			sub, _ := props[name].(map[string]any)
			opt := "?"
			if required[name] {
				opt = ""
			}
			parts = append(parts, name+opt+": "+shapeOf(sub, depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if s["type"] == "array" {
		if items, ok := s["items"].(map[string]any); ok {
			return "array of " + shapeOf(items, depth+1)
		}
		return "array"
	}
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		parts := make([]string, len(t))
		for i, v := range t {
			parts[i] = fmt.Sprint(v)
		}
		return strings.Join(parts, " | ")
	}
	return "any"
}

// jsonText renders v as compact JSON for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
