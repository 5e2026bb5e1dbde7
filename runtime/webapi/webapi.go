// Package webapi installs the web and Node globals that snippets reach for
// and goja lacks: structuredClone, TextEncoder/TextDecoder,
// URL/URLSearchParams, atob/btoa, crypto (randomUUID, getRandomValues),
// performance, DOMException, Intl and global; and, for the snippets that
// may use them (their transform.Features), Object.groupBy, Map.groupBy,
// Promise.withResolvers and toLocaleString through Intl. Which globals it provides is decided by
// package jsglobals (Lazy).
//
// Everything it installs belongs to one goja.Runtime and must be used on
// the goroutine that runs it (a run's loop goroutine) only.
package webapi

import (
	"crypto/rand"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/internal/jsglobals"
	"github.com/codeexec/codeexec/runtime/convert"
	"github.com/codeexec/codeexec/runtime/internal/js"
	"github.com/codeexec/codeexec/runtime/transform"
)

// The globals cost a run nothing until used: the new globals are served by a lazy
// object placed as the global object's prototype, which builds a global on
// first access and then defines it as an ordinary own property; the few
// additions to existing built-ins (groupBy, withResolvers, toLocale*) are
// installed only when the snippet may use them (its transform.Features
// say which), since touching Map or Promise at all costs tens of
// microseconds. Their JavaScript parts
// are compiled once per process. No Go value reaches the script: natives
// take and return plain JavaScript values.

//go:embed *.js
var webapiFS embed.FS

// webapiPrograms are the compiled <name>.js programs, compiled on
// first use and shared by every run; each one's value is a factory
// function.
var webapiPrograms = func() map[string]func() *goja.Program {
	m := map[string]func() *goja.Program{}
	for _, name := range []string{"domexception", "textcoding", "url", "performance", "intl", "locale", "es2024", "buffer", "events", "nonet", "process", "regexp", "date", "errors", "path", "util"} {
		m[name] = sync.OnceValue(func() *goja.Program {
			src, err := webapiFS.ReadFile(name + ".js")
			if err != nil {
				panic(fmt.Sprintf("codeexec: missing runtime/webapi/%s.js", name))
			}
			return goja.MustCompile("node:internal/"+name, string(src), true)
		})
	}
	return m
}()

func webapiProgram(name string) *goja.Program { return webapiPrograms[name]() }

// es2024Additions are the additions es2024.js makes, each by the flag it
// reads and the feature of the snippets that may use it.
var es2024Additions = []struct {
	flag    string
	feature transform.Features
}{
	{"groupBy", transform.GroupBy},
	{"withResolvers", transform.WithResolvers},
	{"wellFormed", transform.WellFormed},
	{"weakRefs", transform.WeakRefs},
	{"promiseAny", transform.PromiseAny},
}

// defineSymbols defines well-known symbols goja lacks on the Symbol global
// (on what replaced it, in a session whose earlier run replaced it; a value
// that is not an object fails the run with a TypeError saying so), as
// Node 20 has them: neither writable, enumerable nor configurable.
// Symbol.dispose and Symbol.asyncDispose are described "nodejs.dispose"
// and "nodejs.asyncDispose"; esbuild's lowering of using and await using
// reads them, and a snippet's class names its disposer with them.
// Symbol.asyncIterator is the registered Symbol.for("Symbol.asyncIterator")
// that esbuild's lowered async generators and for await loops use while it
// is undefined, so that an async iterable made before it was defined (an
// earlier run of a session) still iterates.
func defineSymbols(vm *goja.Runtime, names ...string) error {
	return js.Try(vm, func() {
		sym, ok := vm.Get("Symbol").(*goja.Object)
		if !ok {
			panic(vm.NewTypeError("Symbol.%s cannot be defined for this snippet: an earlier run replaced the Symbol global with a value that is not an object", names[0]))
		}
		for _, name := range names {
			var v goja.Value = goja.NewSymbol("nodejs." + name)
			if name == "asyncIterator" {
				v = registeredSymbol(vm, sym, "Symbol.asyncIterator")
			}
			if err := sym.DefineDataProperty(name, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
				panic(vm.NewTypeError("define Symbol.%s: %v", name, err))
			}
		}
	})
}

// registeredSymbol returns Symbol.for(key) through sym, the Symbol global,
// or a new symbol described key when sym's for does not give a symbol (a
// session's snippet replaced it).
func registeredSymbol(vm *goja.Runtime, sym *goja.Object, key string) goja.Value {
	if f, ok := goja.AssertFunction(sym.Get("for")); ok {
		if v, err := f(sym, vm.ToValue(key)); err == nil {
			if _, isSym := v.(*goja.Symbol); isSym {
				return v
			}
		}
	}
	return goja.NewSymbol(key)
}

// lazyGlobalNames are the globals the lazy prototype provides: the
// engine's list, which build must cover.
var lazyGlobalNames = jsglobals.Lazy()

// Options configure Install.
type Options struct {
	// Features are what the snippet may use (its program's, see
	// transform.Features). The additions to existing built-ins
	// (Object.groupBy, Map.groupBy, Promise.withResolvers,
	// String.prototype.isWellFormed and toWellFormed, WeakRef,
	// FinalizationRegistry, Promise.any's message, toLocaleString
	// through Intl, Symbol.dispose, Symbol.asyncDispose and
	// Symbol.asyncIterator, and the replacements of RegExp and Date) are
	// installed only when they include them.
	Features transform.Features
	// RegisterInspect receives the custom inspect function of each of the
	// sandbox's classes (URL, TextDecoder, Event...) when the class is
	// built, for the run's console (console.Console.RegisterInspect); with
	// Shared, Install also gives it those of the classes earlier runs
	// built. May be nil.
	RegisterInspect func(proto *goja.Object, fn goja.Callable)
	// Done reports that the run is over; structuredClone then stops. May
	// be nil.
	Done func() bool
	// Process makes the process global.
	Process Process
	// Format is util.formatWithOptions(options, ...args) of the run's
	// console (options undefined for util.format), and Inspect
	// util.inspect(value, options): the util global formats with them.
	// Nil makes util.format and util.inspect throw.
	Format  func(options goja.Value, args []goja.Value) string
	Inspect func(value, options goja.Value) string
	// Now reads the run's clock (performance, process.hrtime), and Random
	// is its randomness (crypto): see runtime.Sources. Nil: the system's.
	Now    func() time.Time
	Random io.Reader
	// Shared is what Install keeps between the runs of a global object
	// that serves more than one (a session's); nil for a fresh global
	// object that serves one run.
	Shared *Shared
}

// Shared is what Install keeps about a global object between the runs it
// serves. The zero value is for a global object that no Install has
// seen. It belongs to the global object's VM: only the run that holds
// the VM may use it.
//
// The classes and functions of the lazy globals (URL, TextEncoder,
// EventTarget, Intl, Buffer, structuredClone...) are built once per
// global object, so that a value an earlier run made is still an
// instance of them and prints as one: their natives read what belongs to
// a run (its console, its timers, its clock, whether it is over) from the
// run in progress, and each run's console is given their inspect
// functions again. process and performance keep state of their own in
// JavaScript (the exit code, ticks, marks, the time origin), so they are
// built for the run that first reads them and tied to it: the next
// Install deletes the ones the previous run built that still hold the
// value they were built with, and the next run builds its own. One that
// the snippet replaced, redefined or deleted is left as it is.
type Shared struct {
	// w builds the lazy globals of every run, with the options of the
	// run in progress; nil until the first Install.
	w *webGlobals
	// built are the per-run globals the last run built, with their
	// values.
	built map[string]goja.Value
	// inspects are the custom inspect functions the kept classes
	// registered, in order, for the consoles of later runs.
	inspects []inspectFunc
	// ownDescriptor is the engine's Object.getOwnPropertyDescriptor,
	// taken by the first Install, before any snippet could replace it.
	ownDescriptor goja.Callable
	// regexp and date report that RegExp and Date were replaced
	// (regexp.js, date.js): they wrap the constructor and methods they
	// find, so they are installed once per global object, never over
	// their own wrappers; disposal and asyncIterator, that Symbol.dispose
	// and Symbol.asyncDispose, or Symbol.asyncIterator, were defined (they
	// cannot be defined twice).
	regexp, date, disposal, asyncIterator bool
}

// inspectFunc is a custom inspect function and the prototype it serves.
type inspectFunc struct {
	proto *goja.Object
	fn    goja.Callable
}

// perRun reports whether the lazy global called name is built for each
// run of a shared global object rather than once (see Shared).
func perRun(name string) bool { return name == "process" || name == "performance" }

// forget deletes from vm's global object the globals that the last run
// built and that still hold their value (own data properties), without
// running any of the snippet's code: reading the descriptor of an
// ordinary object's property calls no getter.
func (s *Shared) forget(vm *goja.Runtime) {
	built := s.built
	s.built = nil
	if s.ownDescriptor == nil || len(built) == 0 {
		return
	}
	g := vm.GlobalObject()
	for name, v := range built {
		d, err := s.ownDescriptor(goja.Undefined(), g, vm.ToValue(name))
		if err != nil {
			continue
		}
		desc, ok := d.(*goja.Object)
		if !ok || !hasKey(desc, "value") {
			continue // gone, or an accessor now
		}
		if desc.Get("value").SameAs(v) {
			_ = g.Delete(name)
		}
	}
}

// hasKey reports whether o has an own enumerable property called key
// (a property descriptor's fields are).
func hasKey(o *goja.Object, key string) bool {
	for _, k := range o.Keys() {
		if k == key {
			return true
		}
	}
	return false
}

// webGlobals builds the lazy globals of a global object. Its opts,
// start and timers are those of the run in progress: Install sets them.
type webGlobals struct {
	vm    *goja.Runtime
	opts  Options
	start time.Time
	intl  *intlNatives
	// timers are the run's timerNames, as Install found them, for
	// events.js.
	timers [len(timerNames)]goja.Value
	// kept are the lazy globals built once per global object (all but
	// the perRun ones), by name.
	kept map[string]goja.Value
	// errs is errors.js's helpers, made on first use.
	errs goja.Value
	// quiet keeps build from defining what it builds on the global
	// object, while module builds a module for require.
	quiet bool
}

// Install installs the globals on vm's global object, which must be
// fresh or, with Options.Shared, one that Install saw for earlier runs
// with the same Shared: the globals of jsglobals.Lazy are served by an
// object placed as its prototype, and the additions to built-ins are made
// if Features include them. It returns the Globals that give the modules
// require may load, or what the JavaScript run to make the additions
// throws. Loop goroutine only.
func Install(vm *goja.Runtime, opts Options) (*Globals, error) {
	w, err := install(vm, opts)
	if err != nil {
		return nil, err
	}
	return &Globals{w: w}, nil
}

// install is Install, returning the run's webGlobals.
func install(vm *goja.Runtime, opts Options) (*webGlobals, error) {
	sh := opts.Shared
	var w *webGlobals
	switch {
	case sh == nil:
		w = &webGlobals{vm: vm}
	case sh.w == nil:
		// The global object's first run: nothing built yet to forget.
		w = &webGlobals{vm: vm}
		sh.w = w
		sh.ownDescriptor, _ = goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("getOwnPropertyDescriptor"))
	default:
		sh.forget(vm)
		w = sh.w
		if opts.RegisterInspect != nil {
			for _, in := range sh.inspects {
				opts.RegisterInspect(in.proto, in.fn)
			}
		}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Random == nil {
		opts.Random = rand.Reader
	}
	w.opts, w.start = opts, opts.Now()
	for i, name := range timerNames {
		w.timers[i] = vm.GlobalObject().Get(name)
	}
	lazy := js.NewLazyObject(vm, lazyGlobalNames, w.build)
	if err := vm.GlobalObject().SetPrototype(lazy); err != nil {
		return nil, err
	}
	f := opts.Features
	var which *goja.Object
	for _, a := range es2024Additions {
		if f.Has(a.feature) {
			if which == nil {
				which = vm.NewObject()
			}
			_ = which.Set(a.flag, true)
		}
	}
	if which != nil {
		if _, err := w.factory("es2024")(goja.Undefined(), vm.GlobalObject(), which); err != nil {
			return nil, err
		}
	}
	regexps := f.Has(transform.RegExps)
	dates := f.Has(transform.Dates)
	toLocale := f.Has(transform.Locale)
	disposal := f.Has(transform.Disposal)
	asyncIterator := f.Has(transform.AsyncIterator)
	if sh != nil {
		dates, regexps = dates && !sh.date, regexps && !sh.regexp
		disposal, asyncIterator = disposal && !sh.disposal, asyncIterator && !sh.asyncIterator
	}
	var symbols []string
	if disposal {
		symbols = append(symbols, "dispose", "asyncDispose")
	}
	if asyncIterator {
		symbols = append(symbols, "asyncIterator")
	}
	if len(symbols) > 0 {
		if err := defineSymbols(vm, symbols...); err != nil {
			return nil, err
		}
		if sh != nil {
			sh.disposal = sh.disposal || disposal
			sh.asyncIterator = sh.asyncIterator || asyncIterator
		}
	}
	if dates {
		d, err := w.factory("date")(goja.Undefined(), vm.Get("Date"))
		if err != nil {
			return nil, err
		}
		w.define("Date", d)
		if sh != nil {
			sh.date = true
		}
	}
	if regexps {
		re, err := w.factory("regexp")(goja.Undefined(), w.regexpNatives(), vm.Get("RegExp"))
		if err != nil {
			return nil, err
		}
		w.define("RegExp", re)
		if sh != nil {
			sh.regexp = true
		}
	}
	if toLocale {
		intl, err := w.global("Intl")
		if err != nil {
			return nil, err
		}
		if _, err := w.factory("locale")(goja.Undefined(), intl, w.intlNatives()); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// factory runs <name>.js in the VM and returns its factory function.
func (w *webGlobals) factory(name string) goja.Callable {
	v, err := w.vm.RunProgram(webapiProgram(name))
	if err != nil {
		panic(err)
	}
	f, ok := goja.AssertFunction(v)
	if !ok {
		panic(fmt.Sprintf("codeexec: runtime/webapi/%s.js is not a function", name))
	}
	return f
}

// global returns the value of a global, building a lazy one if needed.
func (w *webGlobals) global(name string) (goja.Value, error) {
	var v goja.Value
	err := js.Try(w.vm, func() { v = w.vm.GlobalObject().Get(name) })
	return v, err
}

// build creates the lazy global called name and defines it on the global
// object; it runs inside a property lookup of the snippet.
func (w *webGlobals) build(name string) goja.Value {
	if v, ok := w.kept[name]; ok {
		w.define(name, v)
		return v
	}
	var v goja.Value
	switch name {
	case "global":
		v = w.vm.GlobalObject()
	case "DOMException":
		v = js.Call(w.factory("domexception"), goja.Undefined(), w.natives(nil))
	case "structuredClone":
		v = js.NamedFunction(w.vm, "structuredClone", w.structuredClone)
	case "TextEncoder", "TextDecoder":
		pair := js.Call(w.factory("textcoding"), goja.Undefined(), w.withErrors(w.natives(map[string]func(goja.FunctionCall) goja.Value{
			"encode": w.encode, "encodeInto": w.encodeInto, "decode": w.decode,
			"isUint8Array": func(c goja.FunctionCall) goja.Value {
				return w.vm.ToValue(isUint8Array(c.Argument(0)))
			},
		}))).(*goja.Object)
		w.defineBuilt("TextEncoder", pair.Get("TextEncoder"))
		w.defineBuilt("TextDecoder", pair.Get("TextDecoder"))
		return pair.Get(name)
	case "URL", "URLSearchParams":
		pair := js.Call(w.factory("url"), goja.Undefined(), w.natives(map[string]func(goja.FunctionCall) goja.Value{
			"parseURL": w.parseURL, "formEncode": stringFunc(w.vm, formEncode), "formDecode": stringFunc(w.vm, formDecode),
			"userinfoEncode": stringFunc(w.vm, func(s string) string { return percentEncode(s, inUserinfoSet) }),
			"isSpecial": func(c goja.FunctionCall) goja.Value {
				return w.vm.ToValue(isSpecialScheme(strings.TrimSuffix(c.Argument(0).String(), ":")))
			},
		})).(*goja.Object)
		w.defineBuilt("URL", pair.Get("URL"))
		w.defineBuilt("URLSearchParams", pair.Get("URLSearchParams"))
		return pair.Get(name)
	case "atob":
		v = js.NamedFunction(w.vm, "atob", w.atob)
	case "btoa":
		v = js.NamedFunction(w.vm, "btoa", w.btoa)
	case "crypto":
		v = w.newCrypto()
	case "performance":
		v = js.Call(w.factory("performance"), goja.Undefined(), w.natives(map[string]func(goja.FunctionCall) goja.Value{
			"now": w.now,
			"timeOrigin": func(goja.FunctionCall) goja.Value {
				return w.vm.ToValue(float64(w.start.UnixMicro()) / 1000)
			},
		}))
	case "Intl":
		v = js.Call(w.factory("intl"), goja.Undefined(), w.intlNatives())
	case "process":
		v = w.newProcess()
	case "Buffer":
		v = js.Call(w.factory("buffer"), goja.Undefined(), w.withErrors(w.bufferNatives()))
	case "Event", "CustomEvent", "EventTarget", "AbortController", "AbortSignal":
		domException, err := w.global("DOMException")
		if err != nil {
			panic(err)
		}
		args := []goja.Value{w.withErrors(w.natives(map[string]func(goja.FunctionCall) goja.Value{"now": w.now})), domException}
		for i := range timerNames {
			args = append(args, w.timer(i))
		}
		set := js.Call(w.factory("events"), goja.Undefined(), args...).(*goja.Object)
		for _, g := range []string{"Event", "CustomEvent", "EventTarget", "AbortController", "AbortSignal"} {
			w.defineBuilt(g, set.Get(g))
		}
		return set.Get(name)
	case "path":
		v = w.newPath()
	case "util":
		v = w.newUtil()
	case "fetch", "XMLHttpRequest", "WebSocket":
		set := js.Call(w.factory("nonet"), goja.Undefined()).(*goja.Object)
		for _, g := range []string{"fetch", "XMLHttpRequest", "WebSocket"} {
			w.defineBuilt(g, set.Get(g))
		}
		return set.Get(name)
	default:
		return nil
	}
	w.defineBuilt(name, v)
	return v
}

// timerNames are the run's functions that events.js calls, in the order
// its factory takes them, then those util.promisify knows.
var timerNames = [...]string{"setInterval", "clearInterval", "queueMicrotask", "setTimeout", "setImmediate"}

// timer returns a function that calls the run's timerNames[i]: the one of
// the run in progress, whichever run built the caller.
func (w *webGlobals) timer(i int) goja.Value {
	name := timerNames[i]
	return js.NamedFunction(w.vm, name, func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(w.timers[i])
		if !ok {
			panic(js.NewError(w.vm, "TypeError", name+" is not a function"))
		}
		return js.Call(fn, goja.Undefined(), c.Arguments...)
	})
}

// now is performance.now(): the milliseconds since the run started, to
// the microsecond.
func (w *webGlobals) now(goja.FunctionCall) goja.Value {
	return w.vm.ToValue(float64(w.opts.Now().Sub(w.start).Microseconds()) / 1000)
}

// structuredClone implements the global structuredClone(value) (see
// convert.Clone); what cannot be cloned throws a DataCloneError.
func (w *webGlobals) structuredClone(c goja.FunctionCall) goja.Value {
	if len(c.Arguments) == 0 {
		panic(js.NewError(w.vm, "TypeError", "The value argument must be specified"))
	}
	return convert.Clone(w.vm, c.Argument(0), convert.CloneOptions{
		Uncloneable: func(msg string) goja.Value { return w.domException(msg, "DataCloneError") },
		Done:        w.opts.Done,
	})
}

// define makes name an ordinary global: writable, configurable, not
// enumerable, as Node's are.
func (w *webGlobals) define(name string, v goja.Value) {
	if w.quiet {
		return
	}
	_ = w.vm.GlobalObject().DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// defineBuilt defines a lazy global that build made, and keeps it for
// later builds, or, for a perRun one, records it in the Shared state for
// the next Install.
func (w *webGlobals) defineBuilt(name string, v goja.Value) {
	w.define(name, v)
	if !perRun(name) {
		if w.kept == nil {
			w.kept = map[string]goja.Value{}
		}
		w.kept[name] = v
		return
	}
	if sh := w.opts.Shared; sh != nil {
		if sh.built == nil {
			sh.built = map[string]goja.Value{}
		}
		sh.built[name] = v
	}
}

// natives builds a plain object of native helper functions for a prelude:
// fns, and the helpers every prelude may use (setTag, setIterator,
// registerInspect), which reach well-known symbols from Go so that the
// preludes never touch the Symbol global (materializing it costs ~15µs).
func (w *webGlobals) natives(fns map[string]func(goja.FunctionCall) goja.Value) *goja.Object {
	o := w.vm.NewObject()
	for name, fn := range fns {
		_ = o.Set(name, fn)
	}
	_ = o.Set("setTag", func(c goja.FunctionCall) goja.Value {
		if obj, ok := c.Argument(0).(*goja.Object); ok {
			_ = obj.DefineDataPropertySymbol(goja.SymToStringTag, c.Argument(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return goja.Undefined()
	})
	_ = o.Set("setIterator", func(c goja.FunctionCall) goja.Value {
		if obj, ok := c.Argument(0).(*goja.Object); ok {
			_ = obj.DefineDataPropertySymbol(goja.SymIterator, c.Argument(1), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return goja.Undefined()
	})
	_ = o.Set("registerInspect", func(c goja.FunctionCall) goja.Value {
		proto, ok := c.Argument(0).(*goja.Object)
		fn, callable := goja.AssertFunction(c.Argument(1))
		if !ok || !callable {
			return goja.Undefined()
		}
		if w.opts.RegisterInspect != nil {
			w.opts.RegisterInspect(proto, fn)
		}
		if sh := w.opts.Shared; sh != nil {
			sh.inspects = append(sh.inspects, inspectFunc{proto, fn})
		}
		return goja.Undefined()
	})
	return o
}

// withErrors adds to natives, as errors, the helpers of errors.js (ERR,
// outOfRange), which the preludes that make node's errors share.
func (w *webGlobals) withErrors(natives *goja.Object) *goja.Object {
	if w.errs == nil {
		w.errs = js.Call(w.factory("errors"), goja.Undefined())
	}
	_ = natives.Set("errors", w.errs)
	return natives
}

func stringFunc(vm *goja.Runtime, f func(string) string) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value { return vm.ToValue(f(c.Argument(0).String())) }
}

// domException returns a new DOMException.
func (w *webGlobals) domException(msg, name string) *goja.Object {
	ctor, err := w.global("DOMException")
	if err == nil {
		if o, err := w.vm.New(ctor, w.vm.ToValue(msg), w.vm.ToValue(name)); err == nil {
			return o
		}
	}
	return js.NewError(w.vm, "Error", msg)
}

// missingArg is Node's ERR_MISSING_ARGS TypeError.
func (w *webGlobals) missingArg(name string) *goja.Object {
	e := js.NewError(w.vm, "TypeError", `The "`+name+`" argument must be specified`)
	_ = e.Set("code", "ERR_MISSING_ARGS")
	return e
}

// --- text coding -------------------------------------------------------------------

// newUint8Array copies b into a new Uint8Array.
func (w *webGlobals) newUint8Array(b []byte) goja.Value {
	ctor := w.vm.Get("Uint8Array")
	o, err := w.vm.New(ctor, w.vm.ToValue(w.vm.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return o
}

// isUint8Array reports a Uint8Array (not Uint8ClampedArray).
func isUint8Array(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != reflect.TypeOf([]uint8{}) {
		return false
	}
	t := o.GetSymbol(goja.SymToStringTag)
	return t != nil && t.String() == "Uint8Array"
}

// bufferBytes returns the bytes an ArrayBuffer, typed array or DataView
// covers (shared, not copied); undefined is empty.
func bufferBytes(vm *goja.Runtime, v goja.Value) ([]byte, bool) {
	if !js.Defined(v) {
		return nil, true
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	if ab, ok := o.Export().(goja.ArrayBuffer); ok && o.ExportType() == js.ArrayBufferType {
		return ab.Bytes(), true
	}
	isTA := js.TypedArrayName(o.ExportType()) != ""
	if !isTA && (js.String(o.GetSymbol(goja.SymToStringTag)) != "DataView" || !js.IsDataView(vm, o)) {
		return nil, false
	}
	buf, ok := o.Get("buffer").(*goja.Object)
	if !ok {
		return nil, false
	}
	ab, ok := buf.Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	b := ab.Bytes()
	off, n := js.ToInt(o.Get("byteOffset")), js.ToInt(o.Get("byteLength"))
	if off+n > len(b) {
		return nil, false
	}
	return b[off : off+n], true
}

// bytesOf returns the bytes of a Uint8Array argument (a view, not a copy).
func bytesOf(v goja.Value) []byte {
	if o, ok := v.(*goja.Object); ok {
		if b, ok := o.Export().([]byte); ok {
			return b
		}
	}
	return nil
}

func (w *webGlobals) encode(c goja.FunctionCall) goja.Value {
	return w.newUint8Array([]byte(c.Argument(0).String()))
}

func (w *webGlobals) encodeInto(c goja.FunctionCall) goja.Value {
	src := c.Argument(0).String()
	dest := bytesOf(c.Argument(1))
	read, written := 0, 0
	for _, r := range src {
		n := utf8.RuneLen(r)
		if n < 0 {
			r, n = utf8.RuneError, 3
		}
		if written+n > len(dest) {
			break
		}
		utf8.EncodeRune(dest[written:], r)
		written += n
		if r >= 0x10000 {
			read += 2
		} else {
			read++
		}
	}
	return w.vm.NewArray(read, written)
}

// decode(input, pending, stream, fatal, bomDone) returns [text, pending,
// bomDone]; null when fatal and the bytes are not UTF-8; undefined when
// input is not undefined, an ArrayBuffer or a view of one.
func (w *webGlobals) decode(c goja.FunctionCall) goja.Value {
	input, ok := bufferBytes(w.vm, c.Argument(0))
	if !ok {
		return goja.Undefined()
	}
	data := append(append([]byte(nil), bytesOf(c.Argument(1))...), input...)
	stream, fatal, bomDone := c.Argument(2).ToBoolean(), c.Argument(3).ToBoolean(), c.Argument(4).ToBoolean()
	var pending []byte
	if stream {
		n := incompleteSuffix(data)
		data, pending = data[:len(data)-n], data[len(data)-n:]
	}
	if !bomDone && len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
		bomDone = true
	}
	text, ok := decodeUTF8(data, fatal)
	if !ok {
		return goja.Null()
	}
	if !stream {
		bomDone = false
	}
	return w.vm.NewArray(text, w.newUint8Array(pending), bomDone)
}

// incompleteSuffix returns the length of a trailing, incomplete but so far
// valid UTF-8 sequence.
func incompleteSuffix(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 {
			need := utf8SeqLen(c)
			if need > n && validPrefix(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

func utf8SeqLen(c byte) int {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 2
	case c >= 0xE0 && c <= 0xEF:
		return 3
	case c >= 0xF0 && c <= 0xF4:
		return 4
	}
	return 1
}

// validPrefix reports whether b is a valid prefix of a UTF-8 sequence.
func validPrefix(b []byte) bool {
	return maximalSubpart(b) == len(b)
}

// maximalSubpart returns how many bytes at the start of b form the longest
// valid prefix of a UTF-8 sequence (at least 1), the unit the WHATWG
// decoder replaces with one U+FFFD.
func maximalSubpart(b []byte) int {
	need := utf8SeqLen(b[0])
	if need == 1 {
		return 1
	}
	k := 1
	for k < need && k < len(b) {
		lo, hi := byte(0x80), byte(0xBF)
		if k == 1 {
			switch b[0] {
			case 0xE0:
				lo = 0xA0
			case 0xED:
				hi = 0x9F
			case 0xF0:
				lo = 0x90
			case 0xF4:
				hi = 0x8F
			}
		}
		if b[k] < lo || b[k] > hi {
			break
		}
		k++
	}
	return k
}

// decodeUTF8 decodes b, replacing each maximal invalid subpart with
// U+FFFD (or failing when fatal).
func decodeUTF8(b []byte, fatal bool) (string, bool) {
	if utf8.Valid(b) {
		return string(b), true
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.WriteRune(r)
			i += size
			continue
		}
		if fatal {
			return "", false
		}
		sb.WriteRune(utf8.RuneError)
		i += maximalSubpart(b[i:])
	}
	return sb.String(), true
}

// --- URL ---------------------------------------------------------------------------------

func (w *webGlobals) parseURL(c goja.FunctionCall) goja.Value {
	var base *webURL
	if b := c.Argument(1); !goja.IsUndefined(b) {
		var ok bool
		if base, ok = parseWebURL(b.String(), nil); !ok {
			return goja.Null()
		}
	}
	u, ok := parseWebURL(c.Argument(0).String(), base)
	if !ok {
		return goja.Null()
	}
	return w.vm.NewArray(u.components()...)
}

// --- base64 -------------------------------------------------------------------------------

func (w *webGlobals) btoa(c goja.FunctionCall) goja.Value {
	if len(c.Arguments) == 0 {
		panic(w.missingArg("input"))
	}
	s := c.Argument(0).String()
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			panic(w.domException("Invalid character", "InvalidCharacterError"))
		}
		b = append(b, byte(r))
	}
	return w.vm.ToValue(base64.StdEncoding.EncodeToString(b))
}

func (w *webGlobals) atob(c goja.FunctionCall) goja.Value {
	if len(c.Arguments) == 0 {
		panic(w.missingArg("input"))
	}
	s := strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\f', '\r', ' ':
			return -1
		}
		return r
	}, c.Argument(0).String())
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "="), "=")
	}
	if len(s)%4 == 1 {
		panic(w.domException("The string to be decoded is not correctly encoded.", "InvalidCharacterError"))
	}
	bad := false
	for i := 0; i < len(s) && !bad; i++ {
		ch := s[i]
		bad = !(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '+' || ch == '/')
	}
	if bad {
		panic(w.domException("Invalid character", "InvalidCharacterError"))
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		// Non-zero trailing bits are allowed by the forgiving decoder.
		b, err = base64.RawStdEncoding.Strict().DecodeString(s)
		if err != nil {
			b = forgivingBase64(s)
		}
	}
	runes := make([]rune, len(b))
	for i, x := range b {
		runes[i] = rune(x)
	}
	return w.vm.ToValue(string(runes))
}

// forgivingBase64 decodes valid base64 characters, ignoring leftover bits.
func forgivingBase64(s string) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []byte
	var buf, bits uint
	for i := 0; i < len(s); i++ {
		buf = buf<<6 | uint(strings.IndexByte(alphabet, s[i]))
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(buf>>bits))
		}
	}
	return out
}

// --- crypto -------------------------------------------------------------------------------

// newCrypto builds the crypto global: an instance of Crypto (which cannot
// be constructed) with randomUUID, getRandomValues and an undefined subtle.
func (w *webGlobals) newCrypto() goja.Value {
	vm := w.vm
	proto := vm.NewObject()
	ctor := js.NamedFunction(vm, "Crypto", func(goja.FunctionCall) goja.Value {
		panic(js.NewError(vm, "TypeError", "Illegal constructor"))
	}).(*goja.Object)
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("randomUUID", js.NamedFunction(vm, "randomUUID", w.randomUUID), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = proto.DefineDataProperty("getRandomValues", js.NamedFunction(vm, "getRandomValues", w.getRandomValues), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = proto.DefineAccessorProperty("subtle", js.NamedFunction(vm, "get subtle", func(goja.FunctionCall) goja.Value { return goja.Undefined() }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Crypto"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return vm.CreateObject(proto)
}

func (w *webGlobals) randomUUID(goja.FunctionCall) goja.Value {
	var b [16]byte
	_, _ = io.ReadFull(w.opts.Random, b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return w.vm.ToValue(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// getRandomValues fills an integer typed array with random bytes, in place.
func (w *webGlobals) getRandomValues(c goja.FunctionCall) goja.Value {
	if len(c.Arguments) == 0 {
		panic(js.NewError(w.vm, "TypeError", "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present."))
	}
	arg := c.Argument(0)
	o, ok := arg.(*goja.Object)
	integer := ok && js.TypedArrayName(o.ExportType()) != "" && o.ExportType() != reflect.TypeOf([]float32{}) && o.ExportType() != reflect.TypeOf([]float64{})
	if !integer {
		panic(w.domException("The data argument must be an integer-type TypedArray", "TypeMismatchError"))
	}
	b, ok := bufferBytes(w.vm, o)
	if !ok {
		panic(w.domException("The data argument must be an integer-type TypedArray", "TypeMismatchError"))
	}
	if len(b) > 65536 {
		panic(w.domException("The requested length exceeds 65,536 bytes", "QuotaExceededError"))
	}
	_, _ = io.ReadFull(w.opts.Random, b)
	return arg
}
