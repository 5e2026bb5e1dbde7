package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/codeexec/codeexec/registry/signature"
)

// maxExampleDescription bounds an example's description, in characters.
const maxExampleDescription = 200

// Example is one example call of a tool, shown to the model under the
// tool's signature (seed 004's tool examples).
type Example struct {
	// Description says what the example shows: non-empty, at most 200
	// characters.
	Description string `json:"description"`
	// Input is the call's params; it must pass the tool's Parameters schema.
	Input map[string]any `json:"input"`
	// Output is what the bound function resolves to: it must fit the
	// CallSignature's return type (a string for Promise<string>, nothing
	// for Promise<void>, an object with the declared fields for an object
	// type, ...).
	Output any `json:"output,omitempty"`
}

// checkExamples validates t's examples against its schema (v) and the
// return type of its signature, and returns their own copies. The error
// names the example by its number and description.
func checkExamples(examples []Example, v *validator, ret *signature.Type) ([]Example, error) {
	out := make([]Example, len(examples))
	for i, ex := range examples {
		name := fmt.Sprintf("example %d (%q)", i+1, ex.Description)
		switch n := utf8.RuneCountInString(ex.Description); {
		case n == 0:
			return nil, fmt.Errorf("example %d: the description is empty", i+1)
		case n > maxExampleDescription:
			return nil, fmt.Errorf("%s: the description has %d characters, over the limit of %d", name, n, maxExampleDescription)
		}
		in, err := jsonCopy(ex.Input)
		if err != nil {
			return nil, fmt.Errorf("%s: the input is not JSON: %w", name, err)
		}
		params, _ := in.(map[string]any)
		if params == nil {
			params = map[string]any{}
		}
		if msg := v.validate(params); msg != "" {
			return nil, fmt.Errorf("%s: the input does not fit the parameters schema: %s", name, msg)
		}
		output, err := jsonCopy(ex.Output)
		if err != nil {
			return nil, fmt.Errorf("%s: the output is not JSON: %w", name, err)
		}
		if err := conforms(ret, output, "output"); err != nil {
			return nil, fmt.Errorf("%s: the output does not fit the return type %s: %w", name, ret, err)
		}
		out[i] = Example{Description: ex.Description, Input: params, Output: output}
	}
	return out, nil
}

// conforms checks a decoded JSON value against a TypeScript type, as far as
// the type says something JSON can hold: primitives, literals, object
// literal types (declared members present when required; others allowed),
// arrays, tuples, unions, intersections, Array<T>, Record<K, V> and
// Promise<T>. A named type it does not know (an interface declared
// elsewhere, any, unknown) accepts every value. path names the value in
// the error.
func conforms(t *signature.Type, v any, path string) error {
	if t == nil {
		return nil
	}
	mismatch := func() error { return fmt.Errorf("%s is %s, want %s", path, JSONType(v), t) }
	switch t.Kind {
	case signature.KindName:
		ok := true
		switch t.Name {
		case "string":
			_, ok = v.(string)
		case "number":
			_, ok = v.(float64)
		case "boolean":
			_, ok = v.(bool)
		case "null", "undefined", "void":
			ok = v == nil
		case "object":
			_, ok = v.(map[string]any)
		case "never":
			ok = false
		}
		if !ok {
			return mismatch()
		}
	case signature.KindLiteral:
		if lit, ok := literalValue(t.Literal); !ok || lit != v {
			return mismatch()
		}
	case signature.KindObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return mismatch()
		}
		for _, f := range t.Fields {
			if f.Index || f.Method {
				continue
			}
			fv, present := obj[f.Name]
			if !present {
				if !f.Optional {
					return fmt.Errorf("%s has no member %q, which %s requires", path, f.Name, t)
				}
				continue
			}
			if err := conforms(f.Type, fv, path+"."+f.Name); err != nil {
				return err
			}
		}
	case signature.KindArray:
		return conformsArray(t.Elem, v, path, mismatch)
	case signature.KindTuple:
		arr, ok := v.([]any)
		if !ok || len(arr) > len(t.Args) {
			return mismatch()
		}
		for i, et := range t.Args {
			if i >= len(arr) {
				if i < len(t.Params) && t.Params[i].Optional {
					continue
				}
				return mismatch()
			}
			if err := conforms(et, arr[i], path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case signature.KindUnion:
		for _, m := range t.Args {
			if conforms(m, v, path) == nil {
				return nil
			}
		}
		return mismatch()
	case signature.KindIntersection:
		for _, m := range t.Args {
			if err := conforms(m, v, path); err != nil {
				return err
			}
		}
	case signature.KindGeneric:
		switch {
		case (t.Name == "Promise" || t.Name == "Array" || t.Name == "ReadonlyArray") && len(t.Args) == 1:
			if t.Name == "Promise" {
				return conforms(t.Args[0], v, path)
			}
			return conformsArray(t.Args[0], v, path, mismatch)
		case t.Name == "Record" && len(t.Args) == 2:
			obj, ok := v.(map[string]any)
			if !ok {
				return mismatch()
			}
			for k, fv := range obj {
				if err := conforms(t.Args[1], fv, path+"."+k); err != nil {
					return err
				}
			}
		}
	case signature.KindFunction:
		return errors.New(path + " cannot be a function in an example")
	}
	return nil
}

func conformsArray(elem *signature.Type, v any, path string, mismatch func() error) error {
	arr, ok := v.([]any)
	if !ok {
		return mismatch()
	}
	for i, ev := range arr {
		if err := conforms(elem, ev, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

// literalValue is the value of a TypeScript literal type's source as
// encoding/json decodes it: a string (in any of the quotes
// unquoteLiteral reads), a boolean, null, or a number (hexadecimal, octal
// and binary forms too), as a float64.
func literalValue(lit string) (any, bool) {
	if s, ok := unquoteLiteral(lit); ok {
		return s, true
	}
	switch lit {
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return nil, true
	}
	if n, err := strconv.ParseInt(lit, 0, 64); err == nil {
		return float64(n), true
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil {
		return f, true
	}
	return nil, false
}

// DecodeExamples reads examples from a decoded JSON value v: an array of
// {"description", "input", "output"} objects (see Example), as an
// executable tool's definition and an MCP tool's _meta give them. With
// strict, a member other than those three is an error, so that the
// author of a definition hears of a misspelt one; without, it is ignored,
// as in metadata other programs may extend. The examples are not checked
// against a tool (Register does that); the error says what is malformed.
func DecodeExamples(v any, strict bool) ([]Example, error) {
	const want = `"examples" must be an array of {"description", "input", "output"} objects`
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s, got a JSON %s", want, JSONType(v))
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, fmt.Errorf(`"examples": %w`, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if strict {
		dec.DisallowUnknownFields()
	}
	var out []Example
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("%s: %w", want, err)
	}
	return out, nil
}
