package console

import (
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// This file formats the kinds of object util.inspect treats specially:
// functions and classes, regular expressions, dates, boxed primitives,
// errors, arrays, typed arrays, buffers, Map, Set, promises, and
// properties.

// --- functions, regexps, dates, boxed primitives ------------------------------

func (in *inspector) getFunctionBase(value *goja.Object, constructor string, hasConstructor bool, tag string) string {
	src := ""
	if f := in.intr.Fn("functionToString"); f != nil {
		if !in.try(func() { src = js.Call(f, value).String() }) {
			src = ""
		}
	}
	if strings.HasPrefix(src, "class") && strings.HasSuffix(src, "}") {
		slice := src[5 : len(src)-1]
		if i := strings.IndexByte(slice, '{'); i != -1 && (!strings.Contains(slice[:i], "(") || classRE(slice)) {
			return in.getClassBase(value, constructor, hasConstructor, tag)
		}
	}
	typ := "Function"
	proto := value.Prototype()
	if proto != nil && proto == in.intr.GeneratorFunctionProto() {
		typ = "Generator" + typ
	}
	if proto != nil && proto == in.intr.AsyncFunctionProto() {
		typ = "Async" + typ
	} else if proto == in.intr.FunctionProto() && len(src) > 6 && strings.HasPrefix(src, "async") && isJSSpace(rune(src[5])) {
		// goja gives async methods Function.prototype.
		typ = "Async" + typ
		if constructor == "Function" {
			constructor = typ
		}
	}
	base := "[" + typ
	if !hasConstructor {
		base += " (null prototype)"
	}
	name := value.Get("name")
	if !js.Defined(name) || js.String(name) == "" {
		base += " (anonymous)"
	} else {
		base += ": " + js.String(name)
	}
	base += "]"
	if hasConstructor && constructor != typ {
		base += " " + constructor
	}
	if tag != "" && constructor != tag {
		base += " [" + tag + "]"
	}
	return base
}

// classRE is Node's slow check that source text after `class` is a class
// header: /^(\s+[^(]*?)\s*{/ after stripping comments.
func classRE(slice string) bool {
	var b strings.Builder
	for i := 0; i < len(slice); i++ {
		if strings.HasPrefix(slice[i:], "//") {
			if j := strings.IndexByte(slice[i:], '\n'); j >= 0 {
				i += j
				continue
			}
		}
		if strings.HasPrefix(slice[i:], "/*") {
			if j := strings.Index(slice[i+2:], "*/"); j >= 0 {
				i += j + 3
				continue
			}
		}
		b.WriteByte(slice[i])
	}
	s := b.String()
	if s == "" || !isJSSpace(rune(s[0])) {
		return false
	}
	i := strings.IndexByte(s, '{')
	return i > 0 && !strings.Contains(s[:i], "(")
}

func (in *inspector) getClassBase(value *goja.Object, constructor string, hasConstructor bool, tag string) string {
	name := ""
	if in.hasOwn(value, propKey{name: "name"}) {
		if n := value.Get("name"); js.Defined(n) && n.ToBoolean() {
			name = js.String(n)
		}
	}
	if name == "" {
		name = "(anonymous)"
	}
	base := "class " + name
	if constructor != "Function" && hasConstructor {
		base += " [" + constructor + "]"
	}
	if tag != "" && constructor != tag {
		base += " [" + tag + "]"
	}
	if hasConstructor {
		if p := value.Prototype(); p != nil {
			if superName := p.Get("name"); js.Defined(superName) && superName.ToBoolean() {
				base += " extends " + js.String(superName)
			}
		}
	} else {
		base += " extends [null prototype]"
	}
	return "[" + base + "]"
}

func (in *inspector) regExpString(value *goja.Object) string {
	if f := in.intr.Fn("regExpToString"); f != nil {
		var s string
		if in.try(func() { s = js.Call(f, value).String() }) {
			return s
		}
	}
	return "/" + js.String(value.Get("source")) + "/" + js.String(value.Get("flags"))
}

func (in *inspector) dateString(value *goja.Object) string {
	t := value.Export()
	if t == nil { // an invalid date
		if f := in.intr.Fn("dateToString"); f != nil {
			var s string
			if in.try(func() { s = js.Call(f, value).String() }) {
				return s
			}
		}
		return "Invalid Date"
	}
	if tt, ok := t.(time.Time); ok {
		return isoDate(tt)
	}
	return "Invalid Date"
}

func (in *inspector) getBoxedBase(value *goja.Object, class string, exportType reflect.Type, keys []propKey, constructor string, hasConstructor bool, tag string) (string, []propKey) {
	var typ, prim string
	switch {
	case class == "Number":
		typ = "Number"
		prim = in.formatPrimitive(in.vm.ToValue(value.Export()))
	case class == "String":
		typ = "String"
		s := ""
		if f := in.intr.Fn("stringValueOf"); f != nil {
			s = js.Call(f, value).String()
		}
		prim = in.formatPrimitive(in.vm.ToValue(s))
		// Drop the index keys of the string's characters.
		n := jsLen(s)
		var rest []propKey
		for i, k := range keys {
			if i < n && k.sym == nil && isIndex(k.name) {
				continue
			}
			rest = append(rest, k)
		}
		keys = rest
	case class == "Boolean":
		typ = "Boolean"
		prim = strconv.FormatBool(value.Export() == true)
	case exportType == js.BigIntType:
		typ = "BigInt"
		if b, ok := value.Export().(*big.Int); ok {
			prim = b.String() + "n"
		}
	default:
		typ = "Symbol"
		desc, _ := value.Export().(string)
		prim = "Symbol(" + desc + ")"
	}
	base := "[" + typ
	if typ != constructor || !hasConstructor {
		if !hasConstructor {
			base += " (null prototype)"
		} else {
			base += " (" + constructor + ")"
		}
	}
	base += ": " + prim + "]"
	if tag != "" && tag != constructor {
		base += " [" + tag + "]"
	}
	return base, keys
}

// isoDate formats t as Date.prototype.toISOString does, with six-digit
// signed years outside 0000-9999.
func isoDate(t time.Time) string {
	t = t.UTC()
	y := t.Year()
	year := fmt.Sprintf("%04d", y)
	if y < 0 || y > 9999 {
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		year = sign + fmt.Sprintf("%06d", y)
	}
	return year + t.Format("-01-02T15:04:05.000Z")
}

// --- errors ---------------------------------------------------------------------

func (in *inspector) errorStack(err *goja.Object) string {
	stack := err.Get("stack")
	var s string
	if js.Defined(stack) && stack.ToBoolean() {
		s = js.String(stack)
	} else if f := in.intr.Fn("errorToString"); f != nil {
		s = js.Call(f, err).String()
	} else {
		s = "Error"
	}
	if in.stack != nil {
		s = in.stack(s)
	}
	return s
}

func (in *inspector) formatError(err *goja.Object, constructor string, hasConstructor bool, tag string, keys []propKey) (string, []propKey) {
	name := "Error"
	if n := err.Get("name"); n != nil && !goja.IsUndefined(n) && !goja.IsNull(n) {
		name = js.String(n)
	}
	stack := in.errorStack(err)

	// removeDuplicateErrorKeys
	if !in.opts.showHidden && len(keys) != 0 {
		for _, prop := range []string{"name", "message", "stack"} {
			for i, k := range keys {
				if k.sym == nil && k.name == prop {
					if v := err.Get(prop); strings.Contains(stack, js.String(v)) {
						keys = append(keys[:i:i], keys[i+1:]...)
					}
					break
				}
			}
		}
	}
	hasKey := func(name string) bool {
		for _, k := range keys {
			if k.sym == nil && k.name == name {
				return true
			}
		}
		return false
	}
	if err.Get("cause") != nil && (len(keys) == 0 || !hasKey("cause")) {
		keys = append(keys, propKey{name: "cause"})
	}
	if errs, ok := err.Get("errors").(*goja.Object); ok && errs.ClassName() == "Array" && (len(keys) == 0 || !hasKey("errors")) {
		if _, isProxy := js.AsProxy(errs); !isProxy {
			keys = append(keys, propKey{name: "errors"})
		}
	}

	stack = improveStack(stack, constructor, hasConstructor, name, tag)

	pos := -1
	if m := err.Get("message"); js.Defined(m) && m.ToBoolean() {
		msg := js.String(m)
		if p := strings.Index(stack, msg); p > 0 {
			pos = p + len(msg)
		}
	}
	stackStart := -1
	if pos < 0 {
		pos = 0
	}
	if pos <= len(stack) {
		if i := strings.Index(stack[pos:], "\n    at"); i >= 0 {
			stackStart = pos + i
		}
	}
	if stackStart == -1 {
		stack = "[" + stack + "]"
	} else {
		newStack := stack[:stackStart]
		lines := in.getStackFrames(err, stack[stackStart+1:])
		stack = newStack + "\n" + strings.Join(lines, "\n")
	}
	if in.indentationLvl != 0 {
		stack = strings.ReplaceAll(stack, "\n", "\n"+strings.Repeat(" ", in.indentationLvl))
	}
	return stack, keys
}

func (in *inspector) getStackFrames(err *goja.Object, stack string) []string {
	frames := strings.Split(stack, "\n")
	var cause goja.Value
	in.try(func() { cause = err.Get("cause") })
	co, ok := cause.(*goja.Object)
	if !ok || !in.isError(co) {
		return frames
	}
	causeStack := in.errorStack(co)
	i := strings.Index(causeStack, "\n    at")
	if i == -1 {
		return frames
	}
	causeFrames := strings.Split(causeStack[i+1:], "\n")
	n, offset := identicalSequenceRange(frames, causeFrames)
	if n > 0 {
		skipped := n - 2
		msg := "    ... " + strconv.Itoa(skipped) + " lines matching cause stack trace ..."
		out := append([]string{}, frames[:offset+1]...)
		out = append(out, msg)
		frames = append(out, frames[offset+1+skipped:]...)
	}
	return frames
}

func identicalSequenceRange(a, b []string) (int, int) {
	for i := 0; i < len(a)-3; i++ {
		pos := -1
		for j, s := range b {
			if s == a[i] {
				pos = j
				break
			}
		}
		if pos != -1 {
			rest := len(b) - pos
			if rest > 3 {
				n := 1
				maxLen := min(len(a)-i, rest)
				for maxLen > n && a[i+n] == b[pos+n] {
					n++
				}
				if n > 3 {
					return n, i
				}
			}
		}
	}
	return 0, 0
}

func (in *inspector) isError(obj *goja.Object) bool {
	if _, isProxy := js.AsProxy(obj); isProxy {
		return false
	}
	if obj.ClassName() == "Error" {
		return true
	}
	ep := in.intr.Proto("Error")
	for p, i := obj.Prototype(), 0; p != nil && i < 1000; p, i = p.Prototype(), i+1 {
		if p == ep {
			return true
		}
	}
	return false
}

func improveStack(stack, constructor string, hasConstructor bool, name, tag string) string {
	n := len(name)
	if !hasConstructor || (strings.HasSuffix(name, "Error") && strings.HasPrefix(stack, name) &&
		(len(stack) == n || stack[n] == ':' || stack[n] == '\n')) {
		fallback := "Error"
		if !hasConstructor {
			fallback = errorNameAtStart(stack)
			n = len(fallback)
			if fallback == "" {
				fallback = "Error"
			}
		}
		prefix := getPrefix(constructor, hasConstructor, tag, fallback, "")
		prefix = prefix[:len(prefix)-1]
		if name != prefix {
			if strings.Contains(prefix, name) {
				if n == 0 {
					stack = prefix + ": " + stack
				} else {
					stack = prefix + stack[min(n, len(stack)):]
				}
			} else {
				stack = prefix + " [" + name + "]" + stack[min(n, len(stack)):]
			}
		}
	}
	return stack
}

// errorNameAtStart implements Node's
// /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)/ || /^([a-z_A-Z0-9-]*Error)$/.
func errorNameAtStart(stack string) string {
	if stack != "" && stack[0] >= 'A' && stack[0] <= 'Z' {
		i := 1
		for i < len(stack) {
			c := stack[i]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_ []()-", c) >= 0 {
				i++
				continue
			}
			break
		}
		// Backtrack as the regexp would, to a position followed by ':' or
		// "\n    at".
		for j := i; j > 1; j-- {
			if j < len(stack) && (stack[j] == ':' || strings.HasPrefix(stack[j:], "\n    at")) {
				return stack[:j]
			}
		}
	}
	ok := strings.HasSuffix(stack, "Error")
	for i := 0; ok && i < len(stack); i++ {
		c := stack[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if ok {
		return stack
	}
	return ""
}

// --- arrays, typed arrays, buffers, collections, promises ------------------------

func (in *inspector) formatArray(value *goja.Object, valLen, recurseTimes int) []string {
	n := min(max(0, in.opts.maxArrayLength), valLen)
	remaining := valLen - n
	var output []string
	for i := 0; i < n; i++ {
		key := propKey{name: strconv.Itoa(i)}
		d := in.ownDescriptor(value, key)
		if !d.exists {
			return in.formatSpecialArray(value, valLen, recurseTimes, n, output, i)
		}
		output = append(output, in.formatProperty(value, recurseTimes, key, kArrayType, &d))
	}
	if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	return output
}

// formatSpecialArray formats a sparse array from its first hole at index i,
// coalescing holes into "<n empty items>".
func (in *inspector) formatSpecialArray(value *goja.Object, valLen, recurseTimes, maxLength int, output []string, i int) []string {
	next := in.indexIterator(value, valLen, i)
	index := i
	for len(output) < maxLength {
		key, ok := next()
		if !ok {
			break
		}
		if key != index {
			emptyItems := key - index
			output = append(output, "<"+strconv.Itoa(emptyItems)+" empty item"+plural(emptyItems)+">")
			index = key
			if len(output) == maxLength {
				break
			}
		}
		k := propKey{name: strconv.Itoa(key)}
		d := in.ownDescriptor(value, k)
		output = append(output, in.formatProperty(value, recurseTimes, k, kArrayType, &d))
		index++
	}
	remaining := valLen - index
	if len(output) != maxLength {
		if remaining > 0 {
			output = append(output, "<"+strconv.Itoa(remaining)+" empty item"+plural(remaining)+">")
		}
	} else if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	return output
}

// maxHoleProbes bounds the indexes probed one by one when looking for the
// next element of a long sparse array, before listing its keys instead.
const maxHoleProbes = 20000

// indexIterator returns the own indexes of an array from start on, in
// order. Short arrays list their keys; long ones are probed index by index
// (goja lists every index of a dense array), falling back to the key list
// when the probes run out.
func (in *inspector) indexIterator(value *goja.Object, valLen, start int) func() (int, bool) {
	var keys []int
	listed := false
	list := func(from int) {
		listed = true
		for _, k := range value.Keys() {
			if !isArrayIndex(k) {
				continue
			}
			if n, _ := strconv.Atoi(k); n >= from {
				keys = append(keys, n)
			}
		}
		sort.Ints(keys)
	}
	if valLen <= maxKeyScan {
		list(start)
	}
	pos, probes := start, 0
	return func() (int, bool) {
		if !listed {
			for pos < valLen && probes < maxHoleProbes {
				probes++
				if probes%1024 == 0 {
					in.checkDone()
				}
				i := pos
				pos++
				if value.Get(strconv.Itoa(i)) != nil || in.hasOwn(value, propKey{name: strconv.Itoa(i)}) {
					return i, true
				}
			}
			if pos >= valLen {
				return 0, false
			}
			list(pos)
		}
		if len(keys) == 0 {
			return 0, false
		}
		k := keys[0]
		keys = keys[1:]
		return k, true
	}
}

func (in *inspector) formatTypedArray(value *goja.Object, length, recurseTimes int) []string {
	maxLength := min(max(0, in.opts.maxArrayLength), length)
	remaining := length - maxLength
	output := make([]string, 0, maxLength+1)
	for i := 0; i < maxLength; i++ {
		output = append(output, in.formatPrimitive(value.Get(strconv.Itoa(i))))
	}
	if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	if in.opts.showHidden {
		in.indentationLvl += 2
		for _, key := range []string{"BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"} {
			output = append(output, "["+key+"]: "+in.formatValue(value.Get(key), recurseTimes, true))
		}
		in.indentationLvl -= 2
	}
	return output
}

func arrayBufferLength(value *goja.Object) int {
	if ab, ok := value.Export().(goja.ArrayBuffer); ok {
		return len(ab.Bytes())
	}
	return 0
}

func (in *inspector) formatArrayBuffer(value *goja.Object) []string {
	ab, ok := value.Export().(goja.ArrayBuffer)
	if !ok || ab.Detached() {
		return []string{"(detached)"}
	}
	data := ab.Bytes()
	n := min(in.opts.maxArrayLength, len(data))
	var b strings.Builder
	const hexDigits = "0123456789abcdef"
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(hexDigits[data[i]>>4])
		b.WriteByte(hexDigits[data[i]&15])
	}
	if remaining := len(data) - in.opts.maxArrayLength; remaining > 0 {
		b.WriteString(" ... " + strconv.Itoa(remaining) + " more byte" + plural(remaining))
	}
	return []string{"[Uint8Contents]: <" + b.String() + ">"}
}

// collectionSize returns a Map's or Set's size through the built-in getter.
func (in *inspector) collectionSize(value *goja.Object, class string) int {
	if f := in.intr.Getter(class, "size"); f != nil {
		return js.ToInt(js.Call(f, value))
	}
	return js.ToInt(value.Get("size"))
}

func (in *inspector) formatSet(value *goja.Object, length, recurseTimes int) []string {
	maxLength := min(max(0, in.opts.maxArrayLength), length)
	remaining := length - maxLength
	var output []string
	in.indentationLvl += 2
	i := 0
	in.intr.Iterate(value, "Set", func(v goja.Value) bool {
		if i >= maxLength {
			return false
		}
		output = append(output, in.formatValue(v, recurseTimes, false))
		i++
		return true
	})
	if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	in.indentationLvl -= 2
	return output
}

func (in *inspector) formatMap(value *goja.Object, length, recurseTimes int) []string {
	maxLength := min(max(0, in.opts.maxArrayLength), length)
	remaining := length - maxLength
	var output []string
	in.indentationLvl += 2
	i := 0
	in.intr.Iterate(value, "Map", func(e goja.Value) bool {
		if i >= maxLength {
			return false
		}
		entry, ok := e.(*goja.Object)
		if !ok {
			return false
		}
		k := in.formatValue(entry.Get("0"), recurseTimes, false)
		v := in.formatValue(entry.Get("1"), recurseTimes, false)
		output = append(output, k+" => "+v)
		i++
		return true
	})
	if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	in.indentationLvl -= 2
	return output
}

func (in *inspector) formatPromise(value *goja.Object, recurseTimes int) []string {
	p, ok := value.Export().(*goja.Promise)
	if !ok || p.State() == goja.PromiseStatePending {
		return []string{"<pending>"}
	}
	in.indentationLvl += 2
	str := in.formatValue(p.Result(), recurseTimes, false)
	in.indentationLvl -= 2
	if p.State() == goja.PromiseStateRejected {
		return []string{"<rejected> " + str}
	}
	return []string{str}
}

// --- properties ------------------------------------------------------------------

func (in *inspector) formatProperty(value *goja.Object, recurseTimes int, key propKey, typ int, desc *descriptor) string {
	var d descriptor
	if desc != nil {
		d = *desc
	} else {
		d = in.ownDescriptor(value, key)
		if !d.exists {
			d = descriptor{value: in.get(value, key), enumerable: true}
		}
	}
	var str string
	switch {
	case js.Defined(d.value):
		diff := 2
		if in.opts.compactTrue && typ == kObjectType {
			diff = 3
		}
		in.indentationLvl += diff
		str = in.formatValue(d.value, recurseTimes, false)
		in.indentationLvl -= diff
		if diff == 3 && in.opts.breakLength < getStringWidth(str) {
			str = "\n" + strings.Repeat(" ", in.indentationLvl+3) + str
			return in.propertyName(key, d) + ":" + str
		}
	case js.Defined(d.get):
		if js.Defined(d.set) {
			str = "[Getter/Setter]"
		} else {
			str = "[Getter]"
		}
	case js.Defined(d.set):
		str = "[Setter]"
	default:
		str = "undefined"
	}
	if typ == kArrayType {
		return str
	}
	return in.propertyName(key, d) + ": " + str
}

func (in *inspector) propertyName(key propKey, d descriptor) string {
	switch {
	case key.sym != nil:
		return "[" + escapeKey(js.SymbolString(key.sym)) + "]"
	case key.name == "__proto__":
		return "['__proto__']"
	case d.exists && !d.enumerable:
		return "[" + escapeKey(key.name) + "]"
	case isIdentifier(key.name):
		return key.name
	}
	return quote(key.name)
}

// isIdentifier reports whether an object key prints without quotes
// (Node's /^[a-zA-Z_][a-zA-Z_0-9]*$/).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func remainingText(remaining int) string {
	return "... " + strconv.Itoa(remaining) + " more item" + plural(remaining)
}
