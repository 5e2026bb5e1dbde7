package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// validator checks params against a tool's compiled parameters schema.
type validator struct {
	schema *jsonschema.Schema
	shape  string // compact description of the expected params, for messages
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
	if _, ok := doc["additionalProperties"]; !ok {
		doc["additionalProperties"] = false
	}
	c := jsonschema.NewCompiler()
	const url = "mem:///parameters.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("parameters schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("parameters schema is invalid: %w", err)
	}
	return &validator{schema: s, shape: shapeOf(doc, 0)}, nil
}

// validate returns "" when params satisfy the schema, or a message naming
// each offending path and the expected shape.
func (v *validator) validate(params map[string]any) string {
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
	for _, p := range e.InstanceLocation {
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
