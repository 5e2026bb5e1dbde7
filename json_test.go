package codeexec_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
)

// TestResultSchema checks that ResultSchema accepts the JSON of real runs
// (a value with a tool call, a thrown error, a compile error) and refuses
// an object that lacks a field.
func TestResultSchema(t *testing.T) {
	t.Parallel()
	// The schema is open (a client may meet fields added later); the test
	// closes every object of it, so that an encoded key the schema does
	// not declare fails.
	var doc any
	if err := json.Unmarshal([]byte(codeexec.ResultSchema), &doc); err != nil {
		t.Fatalf("ResultSchema does not parse: %v", err)
	}
	closeObjects(doc)
	closed, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(closed, &s); err != nil {
		t.Fatalf("ResultSchema does not parse: %v", err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("ResultSchema does not resolve: %v", err)
	}
	reg := registry.New()
	if err := reg.Register(registry.Tool{
		Name: "twice", Description: "Doubles n.",
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`),
		Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
			return registry.Result{Details: c.Params["n"].(float64) * 2}, nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(registry.Tool{
		Name: "ask", Description: "Served by the caller.", CallerServed: true,
		Parameters: registry.MustParseSchema(`{"type":"object","properties":{"q":{"type":"string"}}}`),
	}); err != nil {
		t.Fatal(err)
	}
	r, err := codeexec.New(reg, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range []struct{ name, src string }{
		{"value and call", `console.log("hi"); return { n: await twice({ n: 2 }) }`},
		{"undefined", `console.warn("w")`},
		{"thrown", `throw new TypeError("bad")`},
		{"compile", `let x = ;`},
		{"paused", `await ask({ q: "why" })`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := r.Run(context.Background(), tc.src, codeexec.RunOptions{})
			if (res.Pause != nil) != (tc.name == "paused") {
				t.Fatalf("pause %v", res.Pause)
			}
			out := codeexec.NewJSONResult(res)
			if out.Pause != nil {
				out.Pause.State = "state.bin"
			}
			b, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			if err := resolved.Validate(v); err != nil {
				t.Errorf("schema refuses %s: %v", b, err)
			}
		})
	}
	if err := resolved.Validate(map[string]any{"ok": true}); err == nil {
		t.Error("schema accepts an object without the required fields")
	}
}

// closeObjects sets additionalProperties to false in every schema of v
// that declares properties.
func closeObjects(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"].(map[string]any); ok {
			x["additionalProperties"] = false
		}
		for _, e := range x {
			closeObjects(e)
		}
	case []any:
		for _, e := range x {
			closeObjects(e)
		}
	}
}
