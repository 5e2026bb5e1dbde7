package runtime

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/codeexec/codeexec/internal/jsglobals"
	"github.com/codeexec/codeexec/internal/suggest"
)

// notDefined is the end of the engine's message for an identifier that
// is not defined: "reed is not defined".
const notDefined = " is not defined"

// maxHintGlobals bounds how many of the global object's names are
// candidates for a hint.
const maxHintGlobals = 10000

// Suggest adds names that a snippet may mean when it uses an identifier
// that is not defined, beside the globals, which are always candidates: a
// namespaced tool's "github.search_issues", say. When the run ends with
// such a ReferenceError, or with a call of a method the namespace lacks,
// its message names the closest candidate ("reed is not defined (did you
// mean read?)", "github.searchIssue is not a function (did you mean
// github.search_issues?)"). Loop goroutine only.
func (e *Env) Suggest(names ...string) { e.r.known = append(e.r.known, names...) }

// withHint returns msg, the message of a ReferenceError the run ended
// with, with the name the snippet most likely meant, if one is close
// enough: among the global object's own properties (read by name only:
// no getter runs), the lazily built globals and the names Setup suggested.
func (r *run) withHint(msg string) string {
	name, ok := strings.CutSuffix(msg, notDefined)
	if !ok || !isIdentifier(name) {
		return msg
	}
	globals := r.vm.GlobalObject().GetOwnPropertyNames()
	// A snippet that made a million globals does not make its error
	// report slow.
	globals = globals[:min(len(globals), maxHintGlobals)]
	candidates := slices.Concat(globals, jsglobals.Lazy(), r.known)
	if best := suggest.Closest(name, candidates); best != "" {
		return msg + " (did you mean " + best + "?)"
	}
	return msg
}

// isIdentifier reports whether s looks like a JavaScript identifier, as
// the engine's message names one.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// noMember matches goja's message for a call of a method the object does
// not have: "Object has no member 'lg'".
var noMember = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Object has no member '([^']+)'$`) })

// calleeRE matches an identifier chain at the end of a text: the callee of
// a call whose "(" follows it ("github.search", "a?.b.c"). Both are
// compiled at their first use, not in every start of the binary.
var calleeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[\p{L}_$][\p{L}\p{N}_$]*(?:\s*\??\.\s*[\p{L}_$][\p{L}\p{N}_$]*)*$`)
})

// memberHint returns msg, the message of a TypeError the run ended with,
// in Node's words when it is goja's "Object has no member 'm'" and the
// snippet's source at the error shows the callee as an identifier chain:
// "console.lg is not a function", with the closest suggested name of the
// same namespace ("github.searchIssue is not a function (did you mean
// github.search_issues?)"). line is the source line, col the error's
// column (UTF-16, 1-based), which goja puts at the call's "(".
func (r *run) memberHint(msg, line string, col int) string {
	m := noMember().FindStringSubmatch(msg)
	if m == nil || line == "" || col < 2 {
		return msg
	}
	before := line[:min(byteColumn(line, col)-1, len(line))]
	callee := calleeRE().FindString(strings.TrimRight(before, " \t"))
	dot := strings.LastIndexByte(callee, '.')
	if dot < 0 || strings.TrimSpace(callee[dot+1:]) != m[1] {
		return msg
	}
	out := callee + " is not a function"
	object := strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(callee[:dot]), "?"), " \t")
	var members []string
	for _, k := range r.known {
		if ns, name, ok := strings.Cut(k, "."); ok && ns == object {
			members = append(members, name)
		}
	}
	if best := suggest.Closest(m[1], members); best != "" {
		out += " (did you mean " + object + "." + best + "?)"
	}
	return out
}
