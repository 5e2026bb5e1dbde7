package promptgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/codeexec/codeexec/registry"
)

// Provider names an LLM API whose tool-definition format Definition and
// ToolDefinition produce.
type Provider string

// The supported providers.
const (
	// OpenAI wraps a tool as {"type":"function","function":{...}} and adapts
	// its schema with ForOpenAI.
	OpenAI Provider = "openai"
	// Anthropic wraps a tool as {"name","description","input_schema"} and
	// passes its schema through unchanged.
	Anthropic Provider = "anthropic"
	// Google wraps a tool as {"functionDeclarations":[{...}]} and adapts its
	// schema with ForGoogle.
	Google Provider = "google"
)

// ErrUnknownProvider is wrapped by the errors ParseProvider, ToolDefinition
// and Definition return for a provider that is not supported.
var ErrUnknownProvider = errors.New("unknown provider")

// Providers returns the supported providers in a fixed order.
func Providers() []Provider { return []Provider{OpenAI, Anthropic, Google} }

// ParseProvider returns the provider named s, ignoring case and surrounding
// spaces. For any other name it returns an error wrapping ErrUnknownProvider
// that lists the valid names.
func ParseProvider(s string) (Provider, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, p := range Providers() {
		if string(p) == name {
			return p, nil
		}
	}
	return "", unknownProvider(s)
}

func unknownProvider(s string) error {
	return fmt.Errorf("%w %q (valid: %s)", ErrUnknownProvider, s, joinNames(Providers()))
}

// ToolName is the name of the code execution tool in provider definitions.
const ToolName = "code_execution"

// DefaultDescription is the code_execution tool description Definition uses
// unless DefinitionOptions.Description replaces it.
const DefaultDescription = "Run a TypeScript or JavaScript snippet in a sandbox where the host's tools are async functions. " +
	"Only what the snippet prints with console.log and the value it returns come back to you. " +
	"Use it to combine many tool calls in one step: loop, filter and aggregate in code, then print only what you need."

// CodeDescription describes the "code" parameter of the code_execution tool.
const CodeDescription = "TypeScript or JavaScript source to run. Types are stripped, not checked. " +
	"Tool functions are async globals (no imports): await every call. " +
	"Print with console.log or return a value; nothing else is shown."

// DefinitionOptions controls Definition. The zero value gives the default
// description and no function list.
type DefinitionOptions struct {
	// Description, when not empty, replaces DefaultDescription.
	Description string
	// Tools, when not nil (even if empty), appends Render(Tools,
	// RenderOptions) to the description after a blank line, so the
	// definition alone documents the functions a snippet can call. Leave it
	// nil when the same block is already in the system prompt.
	Tools []registry.Info
	// RenderOptions are the options for the block Tools appends.
	RenderOptions Options
}

// Parameters returns a new copy of the code_execution parameters schema:
// an object with one required string property, "code".
func Parameters() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"code": map[string]any{
				"type":        "string",
				"description": CodeDescription,
			},
		},
		"required": []any{"code"},
	}
}

// Definition returns the code_execution tool definition in provider's format
// (see ToolDefinition). The result is a new value the caller owns. It fails
// only for an unknown provider.
func Definition(provider Provider, opts DefinitionOptions) (map[string]any, error) {
	desc := strings.TrimSpace(opts.Description)
	if desc == "" {
		desc = DefaultDescription
	}
	if opts.Tools != nil {
		desc += "\n\n" + strings.TrimRight(Render(opts.Tools, opts.RenderOptions), "\n")
	}
	return ToolDefinition(provider, ToolName, desc, Parameters())
}

// DefinitionJSON returns Definition as JSON indented by two spaces, with
// object keys sorted, HTML characters (<, >, &) left unescaped, and a
// trailing newline.
func DefinitionJSON(provider Provider, opts DefinitionOptions) ([]byte, error) {
	def, err := Definition(provider, opts)
	if err != nil {
		return nil, err
	}
	return marshalIndent(def)
}

// marshalIndent encodes v like json.MarshalIndent with a two-space indent
// and a trailing newline, without escaping HTML characters.
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode tool definition: %w", err)
	}
	return buf.Bytes(), nil
}

// ToolDefinition returns the definition of any tool in provider's format:
//
//   - OpenAI: {"type":"function","function":{"name","description","parameters"}}
//     with parameters adapted by ForOpenAI;
//   - Anthropic: {"name","description","input_schema"} with a deep copy of
//     parameters, otherwise unchanged;
//   - Google: {"functionDeclarations":[{"name","description","parameters"}]}
//     with parameters adapted by ForGoogle.
//
// A nil parameters schema stands for an object with no properties. It
// returns an error for an unknown provider (wrapping ErrUnknownProvider), an
// empty name, or parameters whose "type" is not "object". parameters is not
// modified and the result shares nothing with it.
func ToolDefinition(provider Provider, name, description string, parameters map[string]any) (map[string]any, error) {
	if name == "" {
		return nil, errors.New("tool definition: empty name")
	}
	if parameters == nil {
		parameters = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	if t, ok := parameters["type"]; ok && t != "object" {
		return nil, fmt.Errorf("tool definition %s: parameters type is %v, want \"object\"", name, t)
	}
	switch provider {
	case OpenAI:
		return map[string]any{
			"type": "function",
			"function": map[string]any{
				"name":        name,
				"description": description,
				"parameters":  ForOpenAI(parameters),
			},
		}, nil
	case Anthropic:
		return map[string]any{
			"name":         name,
			"description":  description,
			"input_schema": deepCopy(parameters),
		}, nil
	case Google:
		return map[string]any{
			"functionDeclarations": []any{
				map[string]any{
					"name":        name,
					"description": description,
					"parameters":  ForGoogle(parameters),
				},
			},
		}, nil
	}
	return nil, fmt.Errorf("tool definition %s: %w", name, unknownProvider(string(provider)))
}
