package runtime

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// inspector renders JavaScript values the way Node's util.inspect does for
// the common cases: quoted strings inside containers, `[ 1, 2 ]`, `{ a: 1 }`,
// Map/Set, class names, a depth limit, circular references and Node's rule
// for breaking long entries over lines. It is bounded: it stops descending
// at depth, lists at most maxItems entries per container, and aborts through
// the VM's interrupt when the run's time is up.
type inspector struct {
	vm *goja.Runtime
	// stack rewrites an Error's goja stack text into the form shown to the
	// snippet's author (see run.rewriteStack); nil leaves it as it is.
	stack    func(string) string
	depth    int // nesting levels shown before [Object] / [Array]
	maxItems int
	seen     []*goja.Object // ancestors, for cycle detection
	refs     map[*goja.Object]int
	curDepth int
}

const breakLength = 80

func newInspector(vm *goja.Runtime) *inspector {
	return &inspector{vm: vm, depth: 2, maxItems: 100}
}

// inspector returns an inspector for the run's VM whose Error stacks point
// into the snippet.
func (r *run) inspector() *inspector {
	in := newInspector(r.vm)
	in.stack = r.rewriteStack
	return in
}

// inspect formats v; top-level strings are printed bare.
func (in *inspector) inspect(v goja.Value) string {
	if v != nil && goja.IsString(v) {
		return v.String()
	}
	in.refs = nil
	return in.format(v, 0)
}

func (in *inspector) format(v goja.Value, level int) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if goja.IsString(v) {
		return quote(v.String())
	}
	switch x := v.Export().(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return formatNumber(x)
	}
	if goja.IsBigInt(v) {
		return v.String() + "n"
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		if sym, ok := v.(*goja.Symbol); ok {
			return sym.String()
		}
		return v.String()
	}
	return in.formatObject(obj, level)
}

func formatNumber(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return jsNumber(f)
}

// quote renders s as Node does inside containers: single quotes unless s
// contains one, then double quotes, then backticks.
func quote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		switch {
		case strings.IndexByte(s, '"') < 0:
			q = '"'
		case strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\v':
			b.WriteString(`\v`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			h := strconv.FormatInt(int64(r), 16)
			if len(h) < 2 {
				b.WriteByte('0')
			}
			b.WriteString(strings.ToUpper(h))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// isIdentifier reports whether an object key prints without quotes.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

func (in *inspector) formatObject(obj *goja.Object, level int) string {
	for _, a := range in.seen {
		if a == obj {
			if in.refs == nil {
				in.refs = map[*goja.Object]int{}
			}
			n, ok := in.refs[obj]
			if !ok {
				n = len(in.refs) + 1
				in.refs[obj] = n
			}
			return "[Circular *" + strconv.Itoa(n) + "]"
		}
	}
	class := classOf(obj)
	switch class {
	case "Function":
		return in.formatFunction(obj)
	case "Error":
		if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) {
			if in.stack != nil {
				return in.stack(s.String())
			}
			return s.String()
		}
		return obj.String()
	case "Date":
		if f, ok := goja.AssertFunction(obj.Get("toISOString")); ok {
			if s, err := f(obj); err == nil {
				return s.String()
			}
		}
		return "Invalid Date"
	case "RegExp":
		return obj.String()
	case "String", "Number", "Boolean":
		return "[" + class + ": " + in.format(in.vm.ToValue(obj.Export()), level) + "]"
	}
	if p, ok := obj.Export().(*goja.Promise); ok {
		return in.formatPromise(p, level)
	}
	if level > in.depth {
		if class == "Array" {
			return "[Array]"
		}
		if name := constructorName(obj); name != "" && name != "Object" {
			return "[" + name + "]"
		}
		return "[Object]"
	}

	in.seen = append(in.seen, obj)
	in.curDepth = level
	var entries []string
	braces := [2]string{"{", "}"}
	prefix := ""
	isArray := false
	switch class {
	case "Array":
		isArray = true
		braces = [2]string{"[", "]"}
		n := toInt(obj.Get("length"))
		for i := 0; i < n && i < in.maxItems; i++ {
			entries = append(entries, in.format(obj.Get(strconv.Itoa(i)), level+1))
		}
		if n > in.maxItems {
			entries = append(entries, "... "+strconv.Itoa(n-in.maxItems)+" more item"+plural(n-in.maxItems))
		}
	case "Map", "Set":
		size := toInt(obj.Get("size"))
		prefix = class + "(" + strconv.Itoa(size) + ")"
		entries = in.formatCollection(obj, class == "Map", level)
	default:
		if name := constructorName(obj); name == "" {
			prefix = "[Object: null prototype]"
		} else if name != "Object" {
			prefix = name
		}
	}
	for _, key := range obj.Keys() {
		if isArray && isIndex(key) {
			continue
		}
		if len(entries) > in.maxItems {
			break
		}
		name := key
		if !isIdentifier(key) {
			name = quote(key)
		}
		entries = append(entries, name+": "+in.format(obj.Get(key), level+1))
	}
	in.seen = in.seen[:len(in.seen)-1]

	out := in.reduce(entries, prefix, braces, level)
	if n, ok := in.refs[obj]; ok {
		out = "<ref *" + strconv.Itoa(n) + "> " + out
	}
	return out
}

// reduce joins entries on one line when they fit Node's break length, and
// one per line otherwise.
func (in *inspector) reduce(entries []string, prefix string, braces [2]string, level int) string {
	base := ""
	if prefix != "" {
		base = prefix + " "
	}
	if len(entries) == 0 {
		return base + braces[0] + braces[1]
	}
	if in.curDepth-level < 3 {
		start := len(entries) + level*2 + len(braces[0]) + len(prefix) + 10
		total := len(entries) + start
		fits := total+len(entries) <= breakLength
		for _, e := range entries {
			total += len(e)
			if total > breakLength || strings.Contains(e, "\n") {
				fits = false
				break
			}
		}
		if fits {
			return base + braces[0] + " " + strings.Join(entries, ", ") + " " + braces[1]
		}
	}
	ind := "\n" + strings.Repeat(" ", level*2)
	for i, e := range entries {
		entries[i] = strings.ReplaceAll(e, "\n", "\n  ")
	}
	return base + braces[0] + ind + "  " + strings.Join(entries, ","+ind+"  ") + ind + braces[1]
}

func (in *inspector) formatCollection(obj *goja.Object, isMap bool, level int) []string {
	var entries []string
	iter, ok := goja.AssertFunction(obj.Get("entries"))
	if !ok {
		return nil
	}
	it, err := iter(obj)
	if err != nil {
		return nil
	}
	itObj := it.ToObject(in.vm)
	next, ok := goja.AssertFunction(itObj.Get("next"))
	if !ok {
		return nil
	}
	for len(entries) < in.maxItems {
		r, err := next(itObj)
		if err != nil {
			break
		}
		ro := r.ToObject(in.vm)
		if ro.Get("done").ToBoolean() {
			break
		}
		pair := ro.Get("value").ToObject(in.vm)
		if isMap {
			entries = append(entries, in.format(pair.Get("0"), level+1)+" => "+in.format(pair.Get("1"), level+1))
		} else {
			entries = append(entries, in.format(pair.Get("0"), level+1))
		}
	}
	return entries
}

func (in *inspector) formatFunction(obj *goja.Object) string {
	name := ""
	if n := obj.Get("name"); n != nil {
		name = n.String()
	}
	src := ""
	if f, ok := goja.AssertFunction(in.vm.Get("Function").ToObject(in.vm).Get("prototype").ToObject(in.vm).Get("toString")); ok {
		if s, err := f(obj); err == nil {
			src = s.String()
		}
	}
	kind := "Function"
	switch {
	case strings.HasPrefix(src, "class"):
		if name == "" {
			return "[class (anonymous)]"
		}
		return "[class " + name + "]"
	case strings.HasPrefix(src, "async function*") || strings.HasPrefix(src, "async *"):
		kind = "AsyncGeneratorFunction"
	case strings.HasPrefix(src, "async"):
		kind = "AsyncFunction"
	case strings.HasPrefix(src, "function*"):
		kind = "GeneratorFunction"
	}
	if name == "" {
		return "[" + kind + " (anonymous)]"
	}
	return "[" + kind + ": " + name + "]"
}

func (in *inspector) formatPromise(p *goja.Promise, level int) string {
	switch p.State() {
	case goja.PromiseStatePending:
		return "Promise { <pending> }"
	case goja.PromiseStateRejected:
		return "Promise { <rejected> " + in.format(p.Result(), level+1) + " }"
	}
	return "Promise { " + in.format(p.Result(), level+1) + " }"
}

var (
	mapExportType = reflect.TypeOf([][2]any{})
	setExportType = reflect.TypeOf([]any{})
)

// classOf returns obj's internal class, telling Map and Set apart from plain
// objects (goja reports "Object" for both) by their export types.
func classOf(obj *goja.Object) string {
	class := obj.ClassName()
	if class == "Object" {
		switch obj.ExportType() {
		case mapExportType:
			return "Map"
		case setExportType:
			return "Set"
		}
	}
	return class
}

// constructorName returns the name of obj's constructor, or "" for an object
// without a prototype.
func constructorName(obj *goja.Object) string {
	proto := obj.Prototype()
	if proto == nil {
		return ""
	}
	c := proto.Get("constructor")
	if c == nil {
		return "Object"
	}
	co, ok := c.(*goja.Object)
	if !ok {
		return "Object"
	}
	if n := co.Get("name"); n != nil && n.String() != "" {
		return n.String()
	}
	return "Object"
}

func isIndex(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func toInt(v goja.Value) int {
	if v == nil {
		return 0
	}
	return int(v.ToInteger())
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// jsNumber formats f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		return s
	}
	e, _ := strconv.Atoi(exp)
	if e >= -7 && e < 21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	sign := "+"
	if e < 0 {
		sign, e = "-", -e
	}
	return mant + "e" + sign + strconv.Itoa(e)
}
