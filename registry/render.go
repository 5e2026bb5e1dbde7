package registry

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// maxRenderedArg bounds one argument's value in a RenderCall line, in
// runes.
const maxRenderedArg = 60

// RenderCall renders a call of the tool with params on one line, as a
// person reads it in a trace or an approval question: "Label: main-arg
// key=value ...". The label is the tool's Label
// (its name when it has none); the main argument is the schema's first
// required property, shown bare; the others follow as key=value in the
// schema's order, each value cut at 60 characters with "...".
func (info Info) RenderCall(params map[string]any) string {
	label := info.Label
	if label == "" {
		label = info.Name
	}
	var b strings.Builder
	b.WriteString(label + ":")
	main := ""
	if req, ok := info.Parameters["required"].([]any); ok && len(req) > 0 {
		if name, ok := req[0].(string); ok {
			if v, ok := params[name]; ok {
				main = name
				b.WriteString(" " + argValue(v))
			}
		}
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != main {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(" " + k + "=" + argValue(params[k]))
	}
	return b.String()
}

// argValue renders one argument: a plain word bare, other strings quoted,
// anything else as compact JSON; cut at maxRenderedArg.
func argValue(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
		if s == "" || strings.ContainsAny(s, " \t\n\"'=\\") {
			s = fmt.Sprintf("%q", s)
		}
	default:
		b, err := json.Marshal(x)
		if err != nil {
			b = []byte(fmt.Sprint(x))
		}
		s = string(b)
	}
	if r := []rune(s); len(r) > maxRenderedArg {
		s = string(r[:maxRenderedArg]) + "..."
	}
	return s
}
