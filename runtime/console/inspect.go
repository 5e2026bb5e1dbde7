package console

import (
	"errors"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// This file is a port of Node 20's util.inspect (lib/internal/util/inspect.js)
// for goja values. The structure follows Node's: formatValue, formatRaw,
// formatProperty, reduceToSingleString and groupArrayElements keep their
// names and their rules, so that output matches Node byte for byte for the
// values snippets print. Lengths are measured in UTF-16 code units, as in
// JavaScript.
//
// Formatting never calls a getter, a Proxy trap or a toString of the value
// being printed (except where Node does: an Error's stack, name and message,
// Symbol.toStringTag, and a custom inspect function). It is bounded: at most
// maxArrayLength entries per array, Map or Set, depth levels of nesting, and
// it stops as soon as the run is over (its timeout fired), leaving the VM's
// pending interrupt to end the run.

// inspectOptions are the options of util.inspect that console output uses.
type inspectOptions struct {
	depth           int // nesting levels shown; infinite for Infinity or null
	showHidden      bool
	showProxy       bool
	customInspect   bool
	maxArrayLength  int
	maxStringLength int
	breakLength     int
	compact         int  // Node's numeric compact mode (3 by default)
	compactTrue     bool // compact: true
	sorted          bool
}

// Limits standing for Infinity (or null) in options; the nesting shown at
// most even with depth: Infinity (Go strings are copied at every level, so
// a deeper structure would cost quadratic time; Node stops at its stack
// limit instead); and the output size, per indentation level, past which
// nothing more is expanded (Node's is 2**27).
const (
	infinite        = 1 << 40
	maxInspectDepth = 200
	maxBudget       = 1 << 24
)

var defaultInspectOptions = inspectOptions{
	depth:           2,
	customInspect:   true,
	maxArrayLength:  100,
	maxStringLength: 10000,
	breakLength:     80,
	compact:         3,
}

// inspector formats values for one console call or one return value. It
// is used on the loop goroutine only; its entry points are value (inside a
// console call: what the formatting calls may throw propagates), format
// (never throws) and inspectTop (outside JavaScript: errors are returned).
type inspector struct {
	vm *goja.Runtime
	// stack rewrites an Error's goja stack text into the form shown to the
	// snippet's author (see Options.Stack); nil leaves it as it is.
	stack func(string) string
	// done reports that the run is over; formatting then stops early.
	done func() bool

	opts inspectOptions
	intr *intrinsics

	// Node's ctx: per formatValue call tree.
	depth          int
	indentationLvl int
	currentDepth   int
	seen           []*goja.Object
	circular       map[*goja.Object]int
	budget         map[int]int
}

// errFormatAborted is the panic value that unwinds a formatting whose run
// is over. It never leaves the inspector's entry points.
var errFormatAborted = errors.New("formatting aborted: the run is over")

// guard runs f, turning an abort into ok == false. JavaScript exceptions and
// interrupts raised by code the formatting calls keep propagating, so that
// console.log throws what Node would throw and a timeout still ends the run.
func (in *inspector) guard(f func() string) (s string, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			if p == errFormatAborted { //nolint:errorlint // sentinel identity
				s, ok = "", false
				return
			}
			panic(p)
		}
	}()
	return f(), true
}

func (in *inspector) reset() {
	in.depth = in.opts.depth
	in.indentationLvl = 0
	in.currentDepth = 0
	in.seen = in.seen[:0]
	in.circular = nil
	in.budget = nil
}

// value formats v with util.inspect, strings quoted.
func (in *inspector) value(v goja.Value) string {
	in.reset()
	return in.formatValue(v, 0, false)
}

// format formats v with util.inspect (strings quoted), starting at nesting
// level. It is used for values in messages, such as an uncaught non-Error,
// inside or outside JavaScript calls, and never throws: a value whose
// inspection throws (a getter of Symbol.toStringTag, say) or is
// interrupted gives a placeholder. (goja keeps an interrupt pending until
// it is cleared, so a run still ends at its next instruction.)
func (in *inspector) format(v goja.Value, level int) string {
	var s string
	err := js.Try(in.vm, func() {
		s, _ = in.guard(func() string {
			in.reset()
			return in.formatValue(v, level, false)
		})
	})
	if err != nil {
		return "[uninspectable value]"
	}
	return s
}

// inspectTop formats the snippet's return value outside of any JavaScript
// call: a JavaScript exception or interrupt raised while formatting is
// returned as an error, and aborted reports a run that ended meanwhile.
func (in *inspector) inspectTop(v goja.Value) (s string, aborted bool, err error) {
	if v != nil && goja.IsString(v) {
		return v.String(), false, nil
	}
	err = js.Try(in.vm, func() {
		var ok bool
		s, ok = in.guard(func() string { return in.value(v) })
		aborted = !ok
	})
	return s, aborted, err
}

func (in *inspector) checkDone() {
	if in.done != nil && in.done() {
		panic(errFormatAborted)
	}
}

// try runs f, which may throw a JavaScript exception; it reports whether f
// returned normally. Uncatchable errors (interrupts) still unwind.
func (in *inspector) try(f func()) bool {
	return in.vm.Try(f) == nil
}

// --- keys and descriptors ----------------------------------------------------

// propKey is a property key: a string or a symbol.
type propKey struct {
	name string
	sym  *goja.Symbol
}

func (k propKey) value(vm *goja.Runtime) goja.Value {
	if k.sym != nil {
		return k.sym
	}
	return vm.ToValue(k.name)
}

// descriptor is an own property's descriptor; exists is false when there is
// no such own property.
type descriptor struct {
	exists     bool
	value      goja.Value // nil for accessors
	get, set   goja.Value // nil or undefined when absent
	enumerable bool
}

// ownDescriptor returns obj's own property descriptor for key without
// calling any getter.
func (in *inspector) ownDescriptor(obj *goja.Object, key propKey) descriptor {
	gopd := in.intr.Fn("getOwnPropertyDescriptor")
	if gopd == nil {
		v := in.get(obj, key)
		return descriptor{exists: v != nil, value: v, enumerable: true}
	}
	d := js.Call(gopd, goja.Undefined(), obj, key.value(in.vm))
	do, ok := d.(*goja.Object)
	if !ok {
		return descriptor{}
	}
	return descriptor{
		exists:     true,
		value:      do.Get("value"),
		get:        do.Get("get"),
		set:        do.Get("set"),
		enumerable: do.Get("enumerable").ToBoolean(),
	}
}

func (in *inspector) hasOwn(obj *goja.Object, key propKey) bool {
	return in.ownDescriptor(obj, key).exists
}

func (in *inspector) get(obj *goja.Object, key propKey) goja.Value {
	if key.sym != nil {
		return obj.GetSymbol(key.sym)
	}
	return obj.Get(key.name)
}

// getKeys lists obj's own keys as Node's getKeys does: enumerable string
// keys then enumerable symbols, or every own key with showHidden.
func (in *inspector) getKeys(obj *goja.Object, showHidden bool) []propKey {
	var names []string
	if showHidden {
		names = obj.GetOwnPropertyNames()
	} else {
		names = obj.Keys()
	}
	keys := make([]propKey, 0, len(names))
	for _, n := range names {
		keys = append(keys, propKey{name: n})
	}
	return append(keys, in.symbolKeys(obj, showHidden)...)
}

func (in *inspector) symbolKeys(obj *goja.Object, showHidden bool) []propKey {
	var keys []propKey
	if showHidden {
		if f := in.intr.Fn("getOwnPropertySymbols"); f != nil {
			if arr, ok := js.Call(f, goja.Undefined(), obj).(*goja.Object); ok {
				n := js.ToInt(arr.Get("length"))
				for i := 0; i < n; i++ {
					if s, ok := arr.Get(strconv.Itoa(i)).(*goja.Symbol); ok {
						keys = append(keys, propKey{sym: s})
					}
				}
			}
			return keys
		}
	}
	for _, s := range obj.Symbols() {
		keys = append(keys, propKey{sym: s})
	}
	return keys
}

// maxKeyScan bounds the length of an array or typed array whose own
// non-index properties are listed: goja can only list them by listing every
// index first, which for a million elements takes a third of a second.
const maxKeyScan = 10000

// nonIndexKeys lists the own properties of an array-like that are not
// indexes (getOwnNonIndexProperties).
func (in *inspector) nonIndexKeys(obj *goja.Object, length int, showHidden bool) []propKey {
	if length > maxKeyScan {
		if showHidden && !in.isTypedArray(obj) {
			return []propKey{{name: "length"}}
		}
		return nil
	}
	var names []string
	if showHidden {
		names = obj.GetOwnPropertyNames()
	} else {
		names = obj.Keys()
	}
	var keys []propKey
	for _, n := range names {
		if !isArrayIndex(n) {
			keys = append(keys, propKey{name: n})
		}
	}
	return append(keys, in.symbolKeys(obj, showHidden)...)
}

func (in *inspector) isTypedArray(obj *goja.Object) bool {
	ok := js.TypedArrayName(obj.ExportType()) != ""
	return ok
}

// isArrayIndex reports whether k is a canonical array index.
func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// isIndex reports whether k is made of decimal digits only.
func isIndex(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return true
}

// --- formatValue -------------------------------------------------------------

func (in *inspector) formatValue(v goja.Value, recurseTimes int, typedArray bool) string {
	in.checkDone()
	obj, ok := v.(*goja.Object)
	if !ok {
		return in.formatPrimitive(v)
	}
	context := obj
	if p, isProxy := js.AsProxy(obj); isProxy {
		if in.opts.showProxy {
			return in.formatProxy(p, recurseTimes)
		}
		// Node shows the target without calling a trap; a target that is
		// itself a proxy is unwrapped too.
		for i := 0; isProxy; i++ {
			t := p.Target()
			if t == nil || i > 100 {
				return "<Revoked Proxy>"
			}
			obj = t
			p, isProxy = js.AsProxy(obj)
		}
	}
	if in.opts.customInspect {
		if s, ok := in.customInspect(obj, context, recurseTimes); ok {
			return s
		}
	}
	for _, s := range in.seen {
		if s == obj {
			if in.circular == nil {
				in.circular = map[*goja.Object]int{}
			}
			index, ok := in.circular[obj]
			if !ok {
				index = len(in.circular) + 1
				in.circular[obj] = index
			}
			return "[Circular *" + strconv.Itoa(index) + "]"
		}
	}
	return in.formatRaw(obj, recurseTimes, typedArray)
}

func (in *inspector) formatProxy(p goja.Proxy, recurseTimes int) string {
	if recurseTimes > in.depth {
		return "Proxy [Array]"
	}
	recurseTimes++
	in.indentationLvl += 2
	var target, handler goja.Value = goja.Null(), goja.Null()
	if t := p.Target(); t != nil {
		target = t
	}
	if h := p.Handler(); h != nil {
		handler = h
	}
	res := []string{in.formatValue(target, recurseTimes, false), in.formatValue(handler, recurseTimes, false)}
	in.indentationLvl -= 2
	return in.reduceToSingleString(res, "", [2]string{"Proxy [", "]"}, kArrayExtrasType, recurseTimes, nil)
}

// customInspect calls obj[Symbol.for('nodejs.util.inspect.custom')] as Node
// does, when it is a function.
func (in *inspector) customInspect(obj, context *goja.Object, recurseTimes int) (string, bool) {
	var fn goja.Callable
	if len(in.intr.builtinInspect) > 0 {
		for p, i := obj.Prototype(), 0; p != nil && i < 16; p, i = p.Prototype(), i+1 {
			if f, ok := in.intr.builtinInspect[p]; ok {
				fn = f
				break
			}
		}
	}
	if sym := in.intr.customSymbol(); sym != nil {
		if f, ok := goja.AssertFunction(obj.GetSymbol(sym)); ok {
			fn = f
		}
	}
	if fn == nil {
		return "", false
	}
	// Leave prototype objects alone (value.constructor.prototype === value).
	if c, ok := obj.Get("constructor").(*goja.Object); ok {
		if p, ok := c.Get("prototype").(*goja.Object); ok && p == obj {
			return "", false
		}
	}
	depth := goja.Value(goja.Null())
	if in.depth < infinite {
		depth = in.vm.ToValue(in.depth - recurseTimes)
	}
	ret := js.Call(fn, context, depth, in.optionsObject(), in.intr.inspectFunction(in))
	if ro, ok := ret.(*goja.Object); ok && ro == context {
		return "", false
	}
	if !goja.IsString(ret) {
		return in.formatValue(ret, recurseTimes, false), true
	}
	return strings.ReplaceAll(ret.String(), "\n", "\n"+strings.Repeat(" ", in.indentationLvl)), true
}

// optionsObject builds the options argument of a custom inspect function.
func (in *inspector) optionsObject() *goja.Object {
	o := in.vm.NewObject()
	var depth any = in.depth
	if in.depth >= infinite {
		depth = nil
	}
	_ = o.Set("depth", depth)
	_ = o.Set("showHidden", in.opts.showHidden)
	_ = o.Set("colors", false)
	_ = o.Set("customInspect", in.opts.customInspect)
	_ = o.Set("showProxy", in.opts.showProxy)
	_ = o.Set("maxArrayLength", jsLimit(in.opts.maxArrayLength))
	_ = o.Set("maxStringLength", jsLimit(in.opts.maxStringLength))
	_ = o.Set("breakLength", jsLimit(in.opts.breakLength))
	if in.opts.compactTrue {
		_ = o.Set("compact", true)
	} else {
		_ = o.Set("compact", in.opts.compact)
	}
	_ = o.Set("sorted", in.opts.sorted)
	_ = o.Set("getters", false)
	_ = o.Set("numericSeparator", false)
	_ = o.Set("stylize", func(c goja.FunctionCall) goja.Value { return c.Argument(0).ToString() })
	return o
}

func jsLimit(n int) any {
	if n >= infinite {
		return math.Inf(1)
	}
	return n
}

// --- formatRaw ----------------------------------------------------------------

const (
	kObjectType = iota
	kArrayType
	kArrayExtrasType
)

// objectKind is what formatRaw found obj to be.
type objectKind int

const (
	kindOther objectKind = iota
	kindArray
	kindSet
	kindMap
	kindTypedArray
	kindFunction
	kindRegExp
	kindDate
	kindError
	kindArrayBuffer
	kindDataView
	kindPromise
	kindWeakSet
	kindWeakMap
	kindBoxed
	kindArguments
)

func (in *inspector) formatRaw(value *goja.Object, recurseTimes int, typedArray bool) string {
	var protoProps []string
	wantProto := in.opts.showHidden && recurseTimes <= in.depth
	constructor, hasConstructor := in.getConstructorName(value, recurseTimes, wantProto, &protoProps)

	tag, rawTag := "", ""
	if t := value.GetSymbol(goja.SymToStringTag); t != nil && goja.IsString(t) {
		tag = t.String()
		rawTag = tag
		if tag != "" {
			d := in.ownDescriptor(value, propKey{sym: goja.SymToStringTag})
			if d.exists && (in.opts.showHidden || d.enumerable) {
				tag = ""
			}
		}
	}

	base := ""
	var keys []propKey
	braces := [2]string{"{", "}"}
	extrasType := kObjectType
	var formatter func(recurseTimes int) []string
	ctorOrNull := func(fallback string, size string) string {
		return getPrefix(constructor, hasConstructor, tag, fallback, size)
	}

	exportType := value.ExportType()
	class := value.ClassName()
	isTA := js.TypedArrayName(exportType) != ""
	isFunction := false
	if _, ok := goja.AssertFunction(value); ok {
		isFunction = true
	}

	switch {
	case class == "Array":
		length := js.ToInt(value.Get("length"))
		prefix := ""
		if constructor != "Array" || !hasConstructor || tag != "" {
			prefix = ctorOrNull("Array", "("+strconv.Itoa(length)+")")
		}
		keys = in.nonIndexKeys(value, length, in.opts.showHidden)
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 && len(protoProps) == 0 {
			return braces[0] + "]"
		}
		extrasType = kArrayExtrasType
		formatter = func(rt int) []string { return in.formatArray(value, length, rt) }
	case exportType == js.SetType && !isFunction:
		size := in.collectionSize(value, "Set")
		prefix := ctorOrNull("Set", "("+strconv.Itoa(size)+")")
		keys = in.getKeys(value, in.opts.showHidden)
		formatter = func(rt int) []string { return in.formatSet(value, size, rt) }
		if size == 0 && len(keys) == 0 && len(protoProps) == 0 {
			return prefix + "{}"
		}
		braces = [2]string{prefix + "{", "}"}
	case exportType == js.MapType && !isFunction:
		size := in.collectionSize(value, "Map")
		prefix := ctorOrNull("Map", "("+strconv.Itoa(size)+")")
		keys = in.getKeys(value, in.opts.showHidden)
		formatter = func(rt int) []string { return in.formatMap(value, size, rt) }
		if size == 0 && len(keys) == 0 && len(protoProps) == 0 {
			return prefix + "{}"
		}
		braces = [2]string{prefix + "{", "}"}
	case isTA:
		length := js.ToInt(value.Get("length"))
		keys = in.nonIndexKeys(value, length, in.opts.showHidden)
		fallback := ""
		if !hasConstructor {
			fallback = js.TypedArrayName(exportType)
			if tag != "" {
				fallback = tag
			}
		}
		prefix := ctorOrNull(fallback, "("+strconv.Itoa(length)+")")
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 && !in.opts.showHidden {
			return braces[0] + "]"
		}
		formatter = func(rt int) []string { return in.formatTypedArray(value, length, rt) }
		extrasType = kArrayExtrasType
	default:
		keys = in.getKeys(value, in.opts.showHidden)
		kind := in.kindOf(value, class, exportType, isFunction, constructor, hasConstructor, rawTag)
		switch {
		case kind == kindFunction:
			if in.opts.showHidden {
				keys = functionKeyOrder(keys)
			}
			base = in.getFunctionBase(value, constructor, hasConstructor, tag)
			if len(keys) == 0 && len(protoProps) == 0 {
				return base
			}
		case hasConstructor && constructor == "Object":
			if kind == kindArguments {
				braces[0] = "[Arguments] {"
			} else if tag != "" {
				braces[0] = ctorOrNull("Object", "") + "{"
			}
			if len(keys) == 0 && len(protoProps) == 0 {
				return braces[0] + "}"
			}
		case kind == kindRegExp:
			base = in.regExpString(value)
			prefix := ctorOrNull("RegExp", "")
			if prefix != "RegExp " {
				base = prefix + base
			}
			if (len(keys) == 0 && len(protoProps) == 0) || recurseTimes > in.depth {
				return base
			}
		case kind == kindDate:
			base = in.dateString(value)
			prefix := ctorOrNull("Date", "")
			if prefix != "Date " {
				base = prefix + base
			}
			if len(keys) == 0 && len(protoProps) == 0 {
				return base
			}
		case kind == kindError:
			base, keys = in.formatError(value, constructor, hasConstructor, tag, keys)
			if len(keys) == 0 && len(protoProps) == 0 {
				return base
			}
		case kind == kindArrayBuffer:
			prefix := ctorOrNull("ArrayBuffer", "")
			if !typedArray {
				formatter = func(int) []string { return in.formatArrayBuffer(value) }
			} else if len(keys) == 0 && len(protoProps) == 0 {
				return prefix + "{ byteLength: " + formatNumber(float64(arrayBufferLength(value))) + " }"
			}
			braces[0] = prefix + "{"
			keys = append([]propKey{{name: "byteLength"}}, keys...)
		case kind == kindDataView:
			braces[0] = ctorOrNull("DataView", "") + "{"
			keys = append([]propKey{{name: "byteLength"}, {name: "byteOffset"}, {name: "buffer"}}, keys...)
		case kind == kindPromise:
			braces[0] = ctorOrNull("Promise", "") + "{"
			formatter = func(rt int) []string { return in.formatPromise(value, rt) }
		case kind == kindWeakSet:
			braces[0] = ctorOrNull("WeakSet", "") + "{"
			formatter = func(int) []string { return []string{"<items unknown>"} }
		case kind == kindWeakMap:
			braces[0] = ctorOrNull("WeakMap", "") + "{"
			formatter = func(int) []string { return []string{"<items unknown>"} }
		case kind == kindBoxed:
			base, keys = in.getBoxedBase(value, class, exportType, keys, constructor, hasConstructor, tag)
			if len(keys) == 0 && len(protoProps) == 0 {
				return base
			}
		default:
			if len(keys) == 0 && len(protoProps) == 0 {
				return getCtxStyle(constructor, hasConstructor, tag) + "{}"
			}
			braces[0] = getCtxStyle(constructor, hasConstructor, tag) + "{"
		}
	}

	if recurseTimes > in.depth || recurseTimes >= maxInspectDepth {
		name := getCtxStyle(constructor, hasConstructor, tag)
		name = name[:len(name)-1]
		if hasConstructor {
			name = "[" + name + "]"
		}
		return name
	}
	recurseTimes++

	in.seen = append(in.seen, value)
	in.currentDepth = recurseTimes
	var output []string
	if formatter != nil {
		output = formatter(recurseTimes)
	}
	for _, k := range keys {
		output = append(output, in.formatProperty(value, recurseTimes, k, extrasType, nil))
	}
	output = append(output, protoProps...)
	if index, ok := in.circular[value]; ok {
		reference := "<ref *" + strconv.Itoa(index) + ">"
		if !in.opts.compactTrue {
			if base == "" {
				base = reference
			} else {
				base = reference + " " + base
			}
		} else {
			braces[0] = reference + " " + braces[0]
		}
	}
	in.seen = in.seen[:len(in.seen)-1]

	if in.opts.sorted {
		if extrasType == kObjectType {
			sort.Strings(output)
		} else if len(keys) > 1 {
			sort.Strings(output[len(output)-len(keys):])
		}
	}

	res := in.reduceToSingleString(output, base, braces, extrasType, recurseTimes, value)
	if in.budget == nil {
		in.budget = map[int]int{}
	}
	newLength := in.budget[in.indentationLvl] + len(res)
	in.budget[in.indentationLvl] = newLength
	if newLength > maxBudget {
		in.depth = -1
	}
	return res
}

// kindOf classifies an object that is not an array, Map, Set or typed
// array, in Node's order of checks.
func (in *inspector) kindOf(obj *goja.Object, class string, exportType reflect.Type, isFunction bool, constructor string, hasConstructor bool, tag string) objectKind {
	switch {
	case isFunction:
		return kindFunction
	case class == "Arguments":
		return kindArguments
	case class == "RegExp":
		return kindRegExp
	case class == "Date":
		return kindDate
	case class == "Error":
		return kindError
	case class == "Number" || class == "String" || class == "Boolean":
		return kindBoxed
	case exportType == js.ArrayBufferType:
		return kindArrayBuffer
	case exportType == js.PromiseType:
		return kindPromise
	case exportType == js.BigIntType:
		return kindBoxed
	}
	if hasConstructor && constructor == "Object" {
		return kindOther
	}
	// The remaining kinds have no Go-visible mark; tell them by their
	// prototype chain (Node asks V8 for the internal type). The chain is
	// only compared with the built-in whose Symbol.toStringTag the object
	// shows, so that printing an object does not create those built-ins.
	kinds := map[string]objectKind{"DataView": kindDataView, "WeakMap": kindWeakMap, "WeakSet": kindWeakSet, "Symbol": kindBoxed}
	if k, ok := kinds[tag]; ok && (tag != "Symbol" || exportType == js.StringType) && js.Inherits(obj, in.intr.Proto(tag)) {
		return k
	}
	if in.isError(obj) {
		return kindError
	}
	return kindOther
}

// functionKeyOrder puts a function's own keys in V8's order (length, name,
// prototype first), which goja does not follow.
func functionKeyOrder(keys []propKey) []propKey {
	rank := func(k propKey) int {
		switch {
		case k.sym != nil:
			return 5
		case k.name == "length":
			return 0
		case k.name == "name":
			return 1
		case k.name == "arguments":
			return 2
		case k.name == "caller":
			return 3
		case k.name == "prototype":
			return 4
		}
		return 5
	}
	sort.SliceStable(keys, func(i, j int) bool { return rank(keys[i]) < rank(keys[j]) })
	return keys
}

func getPrefix(constructor string, hasConstructor bool, tag, fallback, size string) string {
	if !hasConstructor {
		if tag != "" && fallback != tag {
			return "[" + fallback + size + ": null prototype] [" + tag + "] "
		}
		return "[" + fallback + size + ": null prototype] "
	}
	if tag != "" && constructor != tag {
		return constructor + size + " [" + tag + "] "
	}
	return constructor + size + " "
}

func getCtxStyle(constructor string, hasConstructor bool, tag string) string {
	fallback := ""
	if !hasConstructor {
		fallback = "Object"
		if fallback == tag {
			fallback = "Object"
		}
	}
	return getPrefix(constructor, hasConstructor, tag, fallback, "")
}

// --- constructor names ---------------------------------------------------------

// getConstructorName returns the name of obj's constructor as Node finds
// it, or hasConstructor == false for an object whose prototype chain ends
// without one (a null prototype). With wantProto, it collects the
// properties of user-defined prototypes into protoProps (showHidden).
func (in *inspector) getConstructorName(obj *goja.Object, recurseTimes int, wantProto bool, protoProps *[]string) (string, bool) {
	tmp := obj
	var firstProto *goja.Object
	firstSet := false
	objectProto, functionProto := in.intr.ObjectProto(), in.intr.FunctionProto()
	isFunction := false
	if _, ok := goja.AssertFunction(obj); ok {
		isFunction = true
	}
	for o, i := obj, 0; o != nil && i < 1000; i++ {
		// The prototypes of async and generator functions are well known
		// too: their constructors are replaced by the sandbox (see
		// restrictCodeGeneration).
		if isFunction && o != obj {
			if o == in.intr.AsyncFunctionProto() {
				return "AsyncFunction", true
			}
			if o == in.intr.GeneratorFunctionProto() {
				return "GeneratorFunction", true
			}
		}
		if o == objectProto || o == functionProto {
			if wantProto && firstSet && firstProto != o {
				in.addPrototypeProperties(tmp, firstProto, recurseTimes, protoProps)
			}
			if o == objectProto {
				return "Object", true
			}
			return "Function", true
		}
		d := in.ownDescriptor(o, propKey{name: "constructor"})
		if c, ok := d.value.(*goja.Object); ok && d.exists {
			if _, callable := goja.AssertFunction(c); callable {
				name := c.Get("name")
				if js.Defined(name) && name.String() != "" && in.instanceOf(tmp, c) {
					if wantProto && (firstProto != o || !builtInObjects[name.String()]) {
						start := firstProto
						if !firstSet {
							start = tmp
						}
						in.addPrototypeProperties(tmp, start, recurseTimes, protoProps)
					}
					return name.String(), true
				}
			}
		}
		o = o.Prototype()
		if !firstSet {
			firstProto, firstSet = o, true
		}
	}
	if firstProto == nil {
		return "", false
	}
	res := "Object"
	if recurseTimes > in.depth {
		return res + " <Complex prototype>", true
	}
	protoConstr, ok := in.getConstructorName(firstProto, recurseTimes+1, false, nil)
	if !ok {
		sub := &inspector{vm: in.vm, stack: in.stack, done: in.done, opts: in.opts, intr: in.intr}
		sub.opts.customInspect = false
		sub.opts.depth = -1
		sub.reset()
		return res + " <" + sub.formatValue(firstProto, 0, false) + ">", true
	}
	return res + " <" + protoConstr + ">", true
}

func (in *inspector) instanceOf(v *goja.Object, c *goja.Object) (res bool) {
	if !in.try(func() { res = in.vm.InstanceOf(v, c) }) {
		return false
	}
	return res
}

// addPrototypeProperties lists the non-function properties of up to three
// user-defined prototype layers (showHidden only).
func (in *inspector) addPrototypeProperties(main, obj *goja.Object, recurseTimes int, output *[]string) {
	keySet := map[propKey]bool{}
	var keys []propKey
	for depth := 0; depth < 3; depth++ {
		if depth != 0 || main == obj {
			obj = obj.Prototype()
			if obj == nil {
				return
			}
			d := in.ownDescriptor(obj, propKey{name: "constructor"})
			if c, ok := d.value.(*goja.Object); ok {
				if _, callable := goja.AssertFunction(c); callable && builtInObjects[c.Get("name").String()] {
					return
				}
			}
		}
		if depth != 0 {
			for _, k := range keys {
				keySet[k] = true
			}
		}
		keys = in.getKeys(obj, true)
		in.seen = append(in.seen, main)
		for _, k := range keys {
			if (k.sym == nil && k.name == "constructor") || in.hasOwn(main, k) || (depth != 0 && keySet[k]) {
				continue
			}
			d := in.ownDescriptor(obj, k)
			if _, isFn := goja.AssertFunction(d.value); isFn {
				continue
			}
			*output = append(*output, in.formatProperty(obj, recurseTimes, k, kObjectType, &d))
		}
		in.seen = in.seen[:len(in.seen)-1]
	}
}

// builtInObjects are the global constructors of Node 20 (names matching
// /^[A-Z][a-zA-Z0-9]+$/).
var builtInObjects = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`Object Function Array Number Infinity NaN Boolean String Symbol Date
Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError
JSON Math Intl ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array
Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set
WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef Buffer URL URLSearchParams DOMException
AbortController AbortSignal Event EventTarget TextEncoder TextDecoder TransformStream
TransformStreamDefaultController WritableStream WritableStreamDefaultController
WritableStreamDefaultWriter ReadableStream ReadableStreamDefaultReader ReadableStreamBYOBReader
ReadableStreamBYOBRequest ReadableByteStreamController ReadableStreamDefaultController
ByteLengthQueuingStrategy CountQueuingStrategy TextEncoderStream TextDecoderStream
CompressionStream DecompressionStream BroadcastChannel MessageChannel MessagePort MessageEvent Blob
File Performance PerformanceEntry PerformanceMark PerformanceMeasure PerformanceObserver
PerformanceObserverEntryList PerformanceResourceTiming FormData Headers Request Response
SharedArrayBuffer Atomics WebAssembly Crypto CryptoKey SubtleCrypto CustomEvent`) {
		m[n] = true
	}
	return m
}()
