package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// validator checks params against a tool's compiled parameters schema.
type validator struct {
	schema *jsonschema.Schema
	shape  string // compact description of the expected params, for messages
	// simple is the schema reduced to what quickValid checks, or nil when
	// the schema uses anything more (then every call is fully validated).
	simple *simpleSchema
}

// simpleSchema is an object schema whose properties each have one plain
// type (and maybe an enum of primitives), which covers most tools. Checking
// it directly is a fraction of the full validator's cost per call.
type simpleSchema struct {
	props      map[string]simpleProp
	required   []string
	additional bool
}

type simpleProp struct {
	typ  string
	enum []any
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
			if !s.additional {
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
	if p.enum == nil {
		return true
	}
	if f, ok := toFloat(v); ok {
		v = f
	}
	return slices.Contains(p.enum, v)
}

// toFloat converts the numeric types params may hold.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

var printer = message.NewPrinter(language.English)

// compileSchema checks that schema is a JSON Schema of type object and
// compiles it. Unless the schema says otherwise, properties it does not
// declare are refused (additionalProperties: false).
func compileSchema(schema map[string]any) (*validator, error) {
	if schema == nil {
		return nil, errors.New(`parameters schema is missing: want a JSON Schema with "type": "object"`)
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf(`parameters schema must have "type": "object", got %s`, jsonText(schema["type"]))
	}
	// A JSON round trip gives the compiler its own copy of plain JSON values.
	var doc map[string]any
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is not JSON: %w", err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("parameters schema is not JSON: %w", err)
	}
	refuseUndeclared(doc)
	c := jsonschema.NewCompiler()
	const url = "mem:///parameters.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("parameters schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is invalid: %w", err)
	}
	return &validator{schema: s, shape: shapeOf(doc, 0), simple: simplify(doc)}, nil
}

// refuseUndeclared makes the schema refuse top-level properties it does not
// declare, unless it already says what to do with them. Drafts 2019-09 and
// later (and schemas naming no draft) get unevaluatedProperties: false,
// which also counts properties declared through allOf or $ref. Older drafts
// get additionalProperties: false, except when they declare properties
// through composition, which that keyword would refuse: such schemas are
// left as written.
func refuseUndeclared(doc map[string]any) {
	_, additional := doc["additionalProperties"]
	_, unevaluated := doc["unevaluatedProperties"]
	if additional || unevaluated {
		return
	}
	draft, _ := doc["$schema"].(string)
	if draft == "" || strings.Contains(draft, "2019-09") || strings.Contains(draft, "2020-12") {
		doc["unevaluatedProperties"] = false
		return
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "$ref", "if", "dependencies"} {
		if _, ok := doc[k]; ok {
			return
		}
	}
	doc["additionalProperties"] = false
}

// validate returns "" when params satisfy the schema, or a message naming
// each offending path and the expected shape.
func (v *validator) validate(params map[string]any) string {
	if v.simple != nil && v.simple.quickValid(params) {
		return ""
	}
	err := v.schema.Validate(map[string]any(params))
	if err == nil {
		return ""
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var problems []string
	collect(ve, &problems)
	slices.Sort(problems)
	problems = slices.Compact(problems)
	return strings.Join(problems, "; ") + "; expected " + v.shape
}

// collect appends one "at PATH: message" line per leaf validation error.
func collect(e *jsonschema.ValidationError, out *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	path := "params"
	loc := e.InstanceLocation
	if _, ok := e.ErrorKind.(*kind.FalseSchema); ok && len(loc) > 0 {
		// unevaluatedProperties: false reports each undeclared property as
		// a "false schema" at its own path; say it the usual way instead.
		for _, p := range loc[:len(loc)-1] {
			path += "." + p
		}
		*out = append(*out, fmt.Sprintf("%s: additional properties '%s' not allowed", path, loc[len(loc)-1]))
		return
	}
	for _, p := range loc {
		path += "." + p
	}
	*out = append(*out, path+": "+e.ErrorKind.LocalizedString(printer))
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
		for _, name := range propertyOrder(props, required) {
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

// propertyOrder lists required properties first, each group sorted by name,
// since Go maps keep no order.
func propertyOrder(props map[string]any, required map[string]bool) []string {
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

// jsonText renders v as compact JSON for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
