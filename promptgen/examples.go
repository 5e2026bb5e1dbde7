package promptgen

import (
	"encoding/json"
	"strings"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
)

// maxExampleText bounds the call and the output shown for an example.
const maxExampleText = 160

// exampleLines renders t's examples as comment lines under its signature,
// each a call as a snippet writes it and what it resolves to:
//
//	// e.g. Three words: await word_count("a b c") → {"words":3}
//
// callee is the function as a snippet calls it (ns.fn for a namespace's
// tool). Examples whose call cannot be written from the signature are left
// out.
func exampleLines(t registry.Info, sig *signature.Signature, callee string) []string {
	var out []string
	for _, ex := range t.Examples {
		args, ok := exampleArgs(sig, ex.Input)
		if !ok {
			continue
		}
		call := "await " + callee + "(" + strings.Join(args, ", ") + ")"
		result := "undefined"
		if ret := sig.ResultType(); ret == nil || !ret.IsVoid() {
			result = cut(compactJSON(ex.Output))
		}
		out = append(out, "// e.g. "+ex.Description+": "+cut(call)+" → "+result)
	}
	return out
}

// exampleArgs maps an example's params onto the signature's positional
// parameters as the bindings map them back: a parameter named after a
// param takes its value; an object-typed parameter named after none (an
// options bag, or one params object) takes the params its members name.
// Trailing parameters without a value are left out; a gap before a value
// is written undefined. ok is false when a param has no parameter to go
// through.
func exampleArgs(sig *signature.Signature, input map[string]any) (args []string, ok bool) {
	used := map[string]bool{}
	last := -1
	for i, p := range sig.Params {
		if v, has := input[p.Name]; has && !(p.Type != nil && p.Type.Kind == signature.KindObject && !isMember(p.Type, p.Name)) {
			args = append(args, compactJSON(v))
			used[p.Name], last = true, i
			continue
		}
		if p.Type != nil && p.Type.Kind == signature.KindObject {
			var b strings.Builder
			for _, f := range p.Type.Fields {
				if v, has := input[f.Name]; has && !used[f.Name] {
					if b.Len() > 0 {
						b.WriteString(", ")
					}
					b.WriteString(f.Name + ": " + compactJSON(v))
					used[f.Name] = true
				}
			}
			if b.Len() > 0 {
				args = append(args, "{ "+b.String()+" }")
				last = i
				continue
			}
		}
		args = append(args, "undefined")
	}
	for k := range input {
		if !used[k] {
			return nil, false
		}
	}
	return args[:last+1], true
}

// isMember reports whether an object type declares a member called name.
func isMember(t *signature.Type, name string) bool {
	for _, f := range t.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// cut shortens s to maxExampleText characters with "…".
func cut(s string) string {
	if r := []rune(s); len(r) > maxExampleText {
		return string(r[:maxExampleText]) + "…"
	}
	return s
}
