package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/codeexec/codeexec/registry/signature"
)

// NewTool returns a Tool named name that runs fn, with its parameters
// schema and call signature inferred from the types In and Out. Register the
// result like any other Tool; set its Label or Source first if wanted.
//
// In must be a struct type. Parameters is jsonschema.For[In]: its exported
// fields are the properties, named as encoding/json names them; a field is
// required unless its json tag has omitempty or omitzero; a `jsonschema`
// tag is the property's description; properties the struct does not have
// are refused. CallTool validates params against that schema before the
// tool runs, then Execute decodes them into an In with encoding/json
// (unknown fields refused) and calls fn with the call's context.
//
// CallSignature is generated as signature.FromSchema generates it, with the
// function named after the tool (see Registry.Register) and the return
// type inferred from Out: `async function word_count(params: { text: string
// }): Promise<{ words: number }>`.
//
// The result of fn becomes the tool's Result: Details is the Out value
// itself, and Content one text block holding its JSON encoding, or, when
// the Out value is a string, the string itself (so that a snippet's `await`
// of a Promise<string> gives the string). An error from fn, or an Out that does not encode as JSON, is the
// tool's error: CallTool turns it into an error result.
//
// NewTool returns an error when In is not a struct type or when
// jsonschema.For cannot describe In or Out (channels, functions, maps
// without string keys, recursive types). fn must be safe for concurrent use
// if the tool may be called concurrently.
func NewTool[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("new tool %q: fn is nil", name)
	}
	if t := reflect.TypeFor[In](); t.Kind() != reflect.Struct {
		return Tool{}, fmt.Errorf("new tool %q: the params type %s is not a struct", name, t)
	}
	params, err := schemaFor[In]()
	if err != nil {
		return Tool{}, fmt.Errorf("new tool %q: params schema: %w", name, err)
	}
	output, err := schemaFor[Out]()
	if err != nil {
		return Tool{}, fmt.Errorf("new tool %q: result schema: %w", name, err)
	}
	sig, err := signature.FromSchema(name, params, output)
	if err != nil {
		return Tool{}, fmt.Errorf("new tool %q: %w", name, err)
	}
	return Tool{
		Name:          name,
		Description:   description,
		Parameters:    params,
		CallSignature: sig,
		Execute: func(ctx context.Context, call Call) (Result, error) {
			var in In
			raw, err := json.Marshal(call.Params)
			if err != nil {
				return Result{}, fmt.Errorf("%s: params do not encode as JSON: %w", name, err)
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				return Result{}, fmt.Errorf("%s: params do not fit %T: %w", name, in, err)
			}
			out, err := fn(ctx, in)
			if err != nil {
				return Result{}, err
			}
			if s, ok := any(out).(string); ok {
				return Result{Content: []Content{TextContent(s)}, Details: out}, nil
			}
			text, err := json.Marshal(out)
			if err != nil {
				return Result{}, fmt.Errorf("%s: result does not encode as JSON: %w", name, err)
			}
			return Result{Content: []Content{TextContent(string(text))}, Details: out}, nil
		},
	}, nil
}

// schemaFor is jsonschema.For[T] as a decoded JSON object; the schema
// true (T is an interface type) is the empty schema.
func schemaFor[T any]() (map[string]any, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case map[string]any:
		return v, nil
	case bool:
		if v {
			return map[string]any{}, nil
		}
	}
	return nil, fmt.Errorf("schema %s is not an object", raw)
}
