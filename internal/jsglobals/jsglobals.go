// Package jsglobals lists the names of the JavaScript global object of a
// snippet's run. It is the single source of truth for which globals the
// engine provides (package runtime builds its lazily made web globals from
// Lazy, and its tests check Names against the global object of a fresh run)
// and for which names a tool's function may not take (registry/signature
// delegates its shadowing check to Reserved).
//
// It imports nothing of the project, so that both the engine and the tool
// registry can use it without importing each other. Everything here is
// immutable; the functions are safe for concurrent use and return slices
// the caller owns.
package jsglobals

import "slices"

// builtins are the ECMAScript globals the JavaScript engine (goja) defines
// on the global object: value properties, functions, constructors and
// namespaces, plus goja's GoError.
var builtins = []string{
	"globalThis", "undefined", "NaN", "Infinity",
	"eval", "isFinite", "isNaN", "parseFloat", "parseInt",
	"decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
	"Object", "Function", "Array", "Boolean", "Number", "String", "Symbol", "BigInt",
	"Date", "RegExp", "Promise", "Proxy", "Reflect", "JSON", "Math",
	"Map", "Set", "WeakMap", "WeakSet",
	"ArrayBuffer", "DataView",
	"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
	"Error", "AggregateError", "EvalError", "RangeError", "ReferenceError",
	"SyntaxError", "TypeError", "URIError",
	"GoError",
}

// sandbox are the globals the runtime installs on every run: Node's
// console and timers, queueMicrotask, and a require that gives path and
// util and explains that other modules are unavailable.
var sandbox = []string{
	"console", "setTimeout", "setInterval", "clearTimeout", "clearInterval",
	"setImmediate", "clearImmediate", "queueMicrotask", "require",
}

// StackOf is the global function that package transform wraps the object
// of a snippet's `x.stack` read in (its StackReader), which maps the
// error's stack to the snippet's positions. The runtime defines it only
// for a snippet that reads a stack.
const StackOf = "__codeexecStackOf"

// engine are the globals the engine's own generated code calls; not
// enumerable, and not for snippets.
var engine = []string{StackOf}

// lazy are the web and Node globals the runtime builds on first access,
// served by the global object's prototype until then (path and util are
// globals of node -e and Node's REPL).
var lazy = []string{
	"structuredClone", "TextEncoder", "TextDecoder", "URL", "URLSearchParams",
	"atob", "btoa", "crypto", "performance", "DOMException", "Intl", "global",
	"Buffer", "Event", "CustomEvent", "EventTarget", "AbortController", "AbortSignal",
	"fetch", "XMLHttpRequest", "WebSocket", "process", "path", "util",
}

// inherited are the properties the global object inherits from
// Object.prototype; shadowing them (or assigning __proto__) breaks the
// global object itself.
var inherited = []string{
	"__proto__", "constructor", "hasOwnProperty", "isPrototypeOf",
	"propertyIsEnumerable", "toLocaleString", "toString", "valueOf",
}

// elsewhere are names that are not globals of a run but that a tool's
// function may not take either: callTool, which package bindings installs
// beside the tools; globals of Node 20 or of newer ECMAScript that the
// engine lacks, which a snippet written for Node may test with typeof;
// and host globals of Node and browsers (process, window, fetch...) whose
// absence tells a snippet where it runs.
var elsewhere = []string{
	"callTool",
	"Atomics", "FinalizationRegistry", "Float16Array", "Iterator",
	"SharedArrayBuffer", "SuppressedError", "WeakRef",
	"__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
	"module", "exports",
	"self", "window",
}

var (
	names    = sorted(builtins, sandbox, engine, lazy, inherited)
	reserved = sorted(builtins, sandbox, engine, lazy, inherited, elsewhere)
)

func sorted(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.Sort(all)
	return all
}

func contains(list []string, name string) bool {
	_, found := slices.BinarySearch(list, name)
	return found
}

// Names returns, sorted, every name the global object of a fresh run has
// before any tool is bound: its own properties, those it builds on first
// access (Lazy) and those it inherits from Object.prototype.
func Names() []string { return append([]string(nil), names...) }

// Has reports whether name is one of Names. The comparison is
// case-sensitive.
func Has(name string) bool { return contains(names, name) }

// Lazy returns the globals the runtime builds on first access (the web
// APIs, Intl and global), in the order a run lists them.
func Lazy() []string { return append([]string(nil), lazy...) }

// Reserved reports whether a tool's function may not be called name: a
// global of a run (Has), or one of the names of globals elsewhere (callTool,
// which package bindings installs; Node's process, Buffer, setImmediate...;
// a browser's window, self, fetch; newer ECMAScript's Iterator, WeakRef...).
// The comparison is case-sensitive. JavaScript's reserved words are not
// listed here.
func Reserved(name string) bool { return contains(reserved, name) }

// ReservedNames returns every name for which Reserved is true, sorted.
func ReservedNames() []string { return append([]string(nil), reserved...) }
