// Package console ports Node's console and util.inspect to goja: the
// console object of a run (log, error, dir, table, time, count, group,
// trace, assert...) printing util.format of its arguments, and the
// formatter behind it, whose output matches Node 20's byte for byte for
// the values snippets print. Formatting never runs the code of the value
// it formats (getters, proxy traps, toString) except where Node does, and
// it is bounded in depth, width and time.
//
// A Console and the objects it makes belong to one goja.Runtime and must
// be used on the goroutine that runs it (a run's loop goroutine) only.
package console

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// Options configure a run's console.
type Options struct {
	// Stdout and Stderr receive each printed entry, a complete line or
	// more: log, info, debug, dirxml, dir, table, count, group labels and
	// timers print to Stdout; warn, error, trace, assert and warnings to
	// Stderr. A nil writer discards.
	Stdout, Stderr func(text string)
	// Stack rewrites the text of a stack in goja's form (console.trace's,
	// an Error's) into the form shown to the snippet's author; nil leaves
	// it as it is.
	Stack func(stack string) string
	// Done reports that the run is over; formatting then stops early,
	// leaving the VM's pending interrupt to end the run. nil never stops.
	Done func() bool
	// CustomInspect makes the formatter honour the objects' own
	// [Symbol.for('nodejs.util.inspect.custom')] methods. Looking the
	// symbol up costs a run about 15µs, so a run sets it only when the
	// snippet's code may use inspect.custom (transform.CustomInspect).
	// The sandbox's own classes (see RegisterInspect) are formatted by
	// theirs either way.
	CustomInspect bool
}

// Console is the console of one run: Node's console methods with
// util.format and util.inspect output, group indentation, counters and
// timers; and the formatter behind them, which the run also uses for the
// values in its messages and for its return value. A Console belongs to
// one goja.Runtime: its methods, and the JavaScript methods of its Object,
// must be called on the run's loop goroutine only.
type Console struct {
	vm     *goja.Runtime
	opts   Options
	intr   *intrinsics
	obj    *goja.Object
	indent string
	counts map[string]int
	times  map[string]time.Time
}

// methodNames lists the console's methods in Node's key order.
var methodNames = []string{
	"log", "warn", "dir", "time", "timeEnd", "timeLog", "trace", "assert", "clear",
	"count", "countReset", "group", "groupEnd", "table", "debug", "info", "dirxml",
	"error", "groupCollapsed", "profile", "profileEnd", "timeStamp", "context",
}

// New returns the console of a run in vm. It installs nothing: the value
// of the console global is Object.
func New(vm *goja.Runtime, opts Options) *Console {
	x := newIntrinsics(vm)
	x.userInspect = opts.CustomInspect
	return &Console{vm: vm, opts: opts, intr: x}
}

// Object returns the console object, the same one on every call. Its
// methods are created when first read: most snippets use one or two of
// them, and each native function costs about a microsecond to create.
func (c *Console) Object() *goja.Object {
	if c.obj == nil {
		c.obj = js.NewLazyObject(c.vm, methodNames, c.method)
	}
	return c.obj
}

// Format formats v as util.inspect does (strings quoted), for a message
// such as the report of a thrown value that is not an Error. It never
// throws: a value whose inspection throws (a getter of
// Symbol.toStringTag, say) or is interrupted gives "[uninspectable
// value]"; an interrupt stays pending, so the run still ends at its next
// instruction. It may be called inside or outside a JavaScript call.
func (c *Console) Format(v goja.Value) string { return c.inspector().format(v, 0) }

// Inspect formats a run's return value as console.log would print it (a
// string bare), outside any JavaScript call: a JavaScript exception or an
// interrupt raised by code the formatting calls is returned as err, and
// aborted reports that the run ended meanwhile (see Options.Done).
func (c *Console) Inspect(v goja.Value) (text string, aborted bool, err error) {
	return c.inspector().inspectTop(v)
}

// FormatWith is util.formatWithOptions(options, ...args), util.format
// when options is undefined: what console.log would print for args,
// with the util.inspect options of options (an object) applied to the
// values it inspects. It returns "" when the run ended meanwhile (the
// interrupt stays pending). Loop goroutine only, inside a JavaScript
// call: an exception raised by code the formatting calls (a custom
// inspect function) panics as goja's natives do.
func (c *Console) FormatWith(options goja.Value, args []goja.Value) string {
	in := c.inspector()
	if _, ok := options.(*goja.Object); ok {
		in.opts = inspectOptionsFrom(c.vm, options, in.opts)
	}
	s, _ := in.guard(func() string { return in.formatWithOptions(args) })
	return s
}

// InspectWith is util.inspect(value, options): value formatted as
// console.log formats it inside a container (strings quoted), with the
// util.inspect options of options, an object or undefined. It returns ""
// when the run ended meanwhile. Loop goroutine only, inside a JavaScript
// call, as FormatWith.
func (c *Console) InspectWith(value, options goja.Value) string {
	in := c.inspector()
	in.opts = inspectOptionsFrom(c.vm, options, in.opts)
	s, _ := in.guard(func() string { return in.value(value) })
	return s
}

// RegisterInspect makes fn the custom inspect function of the objects
// that inherit from proto, as Node's own classes (URL, TextDecoder...)
// have one: fn is called as Node calls a
// [Symbol.for('nodejs.util.inspect.custom')] method.
func (c *Console) RegisterInspect(proto *goja.Object, fn goja.Callable) {
	if c.intr.builtinInspect == nil {
		c.intr.builtinInspect = map[*goja.Object]goja.Callable{}
	}
	c.intr.builtinInspect[proto] = fn
}

// method creates the console method called name, or returns nil.
func (c *Console) method(name string) goja.Value {
	var fn func(goja.FunctionCall) goja.Value
	switch name {
	case "log", "info", "debug", "dirxml":
		fn = c.printer(c.opts.Stdout)
	case "warn", "error":
		fn = c.printer(c.opts.Stderr)
	case "dir":
		fn = c.dir
	case "time":
		fn = c.time
	case "timeEnd":
		fn = c.timeEnd
	case "timeLog":
		fn = c.timeLog
	case "trace":
		fn = c.trace
	case "assert":
		fn = c.assert
	case "count":
		fn = c.count
	case "countReset":
		fn = c.countReset
	case "group", "groupCollapsed":
		fn = c.group
	case "groupEnd":
		fn = c.groupEnd
	case "table":
		fn = c.table
	case "clear", "profile", "profileEnd", "timeStamp", "context":
		fn = func(goja.FunctionCall) goja.Value { return goja.Undefined() }
	default:
		return nil
	}
	return js.NamedFunction(c.vm, name, fn)
}

// inspector returns an inspector with the console's options and
// intrinsics.
func (c *Console) inspector() *inspector {
	return &inspector{vm: c.vm, stack: c.opts.Stack, done: c.opts.Done, opts: defaultInspectOptions, intr: c.intr}
}

// write prints one formatted entry to out, indented by console.group.
func (c *Console) write(out func(string), s string) {
	if out == nil {
		return
	}
	if c.indent != "" {
		s = c.indent + strings.ReplaceAll(s, "\n", "\n"+c.indent)
	}
	out(s + "\n")
}

// printer returns a console method writing util.format of its arguments.
func (c *Console) printer(out func(string)) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		if s, ok := c.format(call.Arguments); ok {
			c.write(out, s)
		}
		return goja.Undefined()
	}
}

// format implements util.format: printf-style specifiers in a leading
// string, then the remaining arguments inspected and joined by spaces.
// ok is false when the run ended while formatting.
func (c *Console) format(args []goja.Value) (string, bool) {
	in := c.inspector()
	return in.guard(func() string { return in.formatWithOptions(args) })
}

// formatWithOptions is Node's formatWithOptionsInternal.
func (in *inspector) formatWithOptions(args []goja.Value) string {
	if len(args) == 0 {
		return ""
	}
	var str strings.Builder
	a := 0
	join := ""
	if first := args[0]; goja.IsString(first) {
		f := first.String()
		if len(args) == 1 {
			return f
		}
		lastPos := 0
		for i := 0; i < len(f)-1; i++ {
			if f[i] != '%' {
				continue
			}
			i++
			next := f[i]
			if a+1 != len(args) {
				var tempStr string
				switch next {
				case 's':
					a++
					tempStr = in.formatS(args[a])
				case 'j':
					a++
					tempStr = in.tryStringify(args[a])
				case 'd':
					a++
					tempStr = in.formatD(args[a], false)
				case 'O':
					a++
					tempStr = in.sub(in.opts).value(args[a])
				case 'o':
					a++
					opts := in.opts
					opts.showHidden, opts.showProxy, opts.depth = true, true, 4
					tempStr = in.sub(opts).value(args[a])
				case 'i':
					a++
					tempStr = in.formatD(args[a], true)
				case 'f':
					a++
					if _, isSym := args[a].(*goja.Symbol); isSym {
						tempStr = "NaN"
					} else {
						tempStr = formatNumber(parseFloatPrefix(toJSString(args[a])))
					}
				case 'c':
					a++
					tempStr = ""
				case '%':
					str.WriteString(f[lastPos:i])
					lastPos = i + 1
					continue
				default:
					continue
				}
				if lastPos != i-1 {
					str.WriteString(f[lastPos : i-1])
				}
				str.WriteString(tempStr)
				lastPos = i + 1
			} else if next == '%' {
				str.WriteString(f[lastPos:i])
				lastPos = i + 1
			}
		}
		if lastPos != 0 {
			a++
			join = " "
			if lastPos < len(f) {
				str.WriteString(f[lastPos:])
			}
		}
	}
	for ; a < len(args); a++ {
		v := args[a]
		str.WriteString(join)
		if goja.IsString(v) {
			str.WriteString(v.String())
		} else {
			str.WriteString(in.sub(in.opts).value(v))
		}
		join = " "
	}
	return str.String()
}

// sub returns an inspector like in with other options, for one value.
func (in *inspector) sub(opts inspectOptions) *inspector {
	return &inspector{vm: in.vm, stack: in.stack, done: in.done, opts: opts, intr: in.intr}
}

// toJSString converts v to a string as String(v) does, calling toString on
// objects; a symbol converts to its description form.
func toJSString(v goja.Value) string {
	if s, ok := v.(*goja.Symbol); ok {
		return js.SymbolString(s)
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}

func (in *inspector) formatS(v goja.Value) string {
	switch {
	case goja.IsBigInt(v):
		return v.String() + "n"
	case goja.IsNumber(v):
		return in.formatPrimitive(v)
	}
	obj, ok := v.(*goja.Object)
	if !ok || !in.hasBuiltInToString(obj) {
		return toJSString(v)
	}
	opts := in.opts
	opts.compact, opts.compactTrue, opts.depth = 3, false, 0
	return in.sub(opts).value(v)
}

func (in *inspector) formatD(v goja.Value, integer bool) string {
	switch {
	case goja.IsBigInt(v):
		return v.String() + "n"
	}
	if _, isSym := v.(*goja.Symbol); isSym {
		return "NaN"
	}
	if integer {
		return formatNumber(parseIntPrefix(toJSString(v)))
	}
	return formatNumber(v.ToFloat())
}

// tryStringify is %j: JSON.stringify, with "[Circular]" for a circular
// structure.
func (in *inspector) tryStringify(v goja.Value) string {
	f := in.intr.Fn("jsonStringify")
	if f == nil {
		return "undefined"
	}
	s, err := f(goja.Undefined(), v)
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			if eo, ok := ex.Value().(*goja.Object); ok && strings.Contains(eo.Get("message").String(), "circular structure") {
				return "[Circular]"
			}
		}
		panic(err)
	}
	if !js.Defined(s) {
		return "undefined"
	}
	return s.String()
}

// hasBuiltInToString reports whether String(value) would use a built-in
// toString (or Symbol.toPrimitive), in which case %s inspects the value.
func (in *inspector) hasBuiltInToString(value *goja.Object) bool {
	if p, ok := js.AsProxy(value); ok {
		t := p.Target()
		if t == nil {
			return true
		}
		value = t
	}
	toString := propKey{name: "toString"}
	toPrimitive := propKey{sym: goja.SymToPrimitive}
	checkToString, checkToPrimitive := true, true
	_, hasToString := goja.AssertFunction(value.Get("toString"))
	_, hasToPrimitive := goja.AssertFunction(value.GetSymbol(goja.SymToPrimitive))
	switch {
	case !hasToString:
		if !hasToPrimitive {
			return true
		} else if in.hasOwn(value, toPrimitive) {
			return false
		}
		checkToString = false
	case in.hasOwn(value, toString):
		return false
	case !hasToPrimitive:
		checkToPrimitive = false
	case in.hasOwn(value, toPrimitive):
		return false
	}
	pointer := value
	for i := 0; i < 1000; i++ {
		pointer = pointer.Prototype()
		if pointer == nil {
			return true
		}
		if (checkToString && in.hasOwn(pointer, toString)) || (checkToPrimitive && in.hasOwn(pointer, toPrimitive)) {
			break
		}
	}
	d := in.ownDescriptor(pointer, propKey{name: "constructor"})
	c, ok := d.value.(*goja.Object)
	if !ok {
		return false
	}
	if _, callable := goja.AssertFunction(c); !callable {
		return false
	}
	return builtInObjects[js.String(c.Get("name"))]
}

// parseIntPrefix is parseInt(s) (radix 10, or 16 after 0x).
func parseIntPrefix(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	sign := 1.0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	base := 10
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base = 16
		s = s[2:]
	}
	end := 0
	for end < len(s) {
		c := s[end]
		d := 99
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		}
		if d >= base {
			break
		}
		end++
	}
	if end == 0 {
		return math.NaN()
	}
	if base == 10 {
		f, _ := strconv.ParseFloat(s[:end], 64)
		return sign * f
	}
	f := 0.0
	for _, c := range s[:end] {
		d, _ := strconv.ParseInt(string(c), 16, 64)
		f = f*16 + float64(d)
	}
	return sign * f
}

// parseFloatPrefix is parseFloat(s).
func parseFloatPrefix(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	rest := s
	sign := 1.0
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		if rest[0] == '-' {
			sign = -1
		}
		rest = rest[1:]
	}
	if strings.HasPrefix(rest, "Infinity") {
		return sign * math.Inf(1)
	}
	end, digits := 0, 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
		digits++
	}
	if end < len(rest) && rest[end] == '.' {
		end++
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
			digits++
		}
	}
	if digits == 0 {
		return math.NaN()
	}
	if end < len(rest) && (rest[end] == 'e' || rest[end] == 'E') {
		e := end + 1
		if e < len(rest) && (rest[e] == '+' || rest[e] == '-') {
			e++
		}
		if e < len(rest) && rest[e] >= '0' && rest[e] <= '9' {
			for e < len(rest) && rest[e] >= '0' && rest[e] <= '9' {
				e++
			}
			end = e
		}
	}
	f, err := strconv.ParseFloat(rest[:end], 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return math.NaN()
	}
	return sign * f
}

// --- the other console methods ------------------------------------------------

func (c *Console) dir(call goja.FunctionCall) goja.Value {
	in := c.inspector()
	in.opts.customInspect = false
	in.opts = inspectOptionsFrom(c.vm, call.Argument(1), in.opts)
	if s, ok := in.guard(func() string { return in.value(call.Argument(0)) }); ok {
		c.write(c.opts.Stdout, s)
	}
	return goja.Undefined()
}

// label converts a console label argument (default "default") to a string.
func label(v goja.Value) string {
	if !js.Defined(v) {
		return "default"
	}
	return v.ToString().String()
}

func (c *Console) warn(msg string) {
	c.write(c.opts.Stderr, "Warning: "+msg)
}

func (c *Console) time(call goja.FunctionCall) goja.Value {
	l := label(call.Argument(0))
	if c.times == nil {
		c.times = map[string]time.Time{}
	}
	if _, ok := c.times[l]; ok {
		c.warn("Label '" + l + "' already exists for console.time()")
		return goja.Undefined()
	}
	c.times[l] = time.Now()
	return goja.Undefined()
}

func (c *Console) timeEnd(call goja.FunctionCall) goja.Value {
	l := label(call.Argument(0))
	if c.timeLogImpl("timeEnd", l, nil) {
		delete(c.times, l)
	}
	return goja.Undefined()
}

func (c *Console) timeLog(call goja.FunctionCall) goja.Value {
	var data []goja.Value
	if len(call.Arguments) > 1 {
		data = call.Arguments[1:]
	}
	c.timeLogImpl("timeLog", label(call.Argument(0)), data)
	return goja.Undefined()
}

func (c *Console) timeLogImpl(name, l string, data []goja.Value) bool {
	start, ok := c.times[l]
	if !ok {
		c.warn("No such label '" + l + "' for console." + name + "()")
		return false
	}
	ms := float64(time.Since(start)) / float64(time.Millisecond)
	args := append([]goja.Value{c.vm.ToValue("%s: %s"), c.vm.ToValue(l), c.vm.ToValue(formatTime(ms))}, data...)
	if s, ok := c.format(args); ok {
		c.write(c.opts.Stdout, s)
	}
	return true
}

// formatTime renders a duration in milliseconds as Node's console.time.
func formatTime(ms float64) string {
	const second, minute, hour = 1000.0, 60000.0, 3600000.0
	hours, minutes, seconds := 0.0, 0.0, 0.0
	if ms >= second {
		if ms >= minute {
			if ms >= hour {
				hours = math.Floor(ms / hour)
				ms = math.Mod(ms, hour)
			}
			minutes = math.Floor(ms / minute)
			ms = math.Mod(ms, minute)
		}
		seconds = ms / second
	}
	if hours != 0 || minutes != 0 {
		fixed := strconv.FormatFloat(seconds, 'f', 3, 64)
		sec, milli, _ := strings.Cut(fixed, ".")
		if len(sec) < 2 {
			sec = "0" + sec
		}
		if hours != 0 {
			m := strconv.Itoa(int(minutes))
			if len(m) < 2 {
				m = "0" + m
			}
			return strconv.Itoa(int(hours)) + ":" + m + ":" + sec + "." + milli + " (h:mm:ss.mmm)"
		}
		return strconv.Itoa(int(minutes)) + ":" + sec + "." + milli + " (m:ss.mmm)"
	}
	if seconds != 0 {
		return strconv.FormatFloat(seconds, 'f', 3, 64) + "s"
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(ms, 'f', 3, 64), 64)
	return js.NumberString(f) + "ms"
}

func (c *Console) trace(call goja.FunctionCall) goja.Value {
	msg, ok := c.format(call.Arguments)
	if !ok {
		return goja.Undefined()
	}
	head := "Trace"
	if msg != "" {
		head += ": " + msg
	}
	var b strings.Builder
	b.WriteString(head)
	frames := c.vm.CaptureCallStack(64, nil)
	for _, f := range frames {
		if f.SrcName() == "<native>" {
			continue
		}
		b.WriteString("\n    at ")
		var fb strings.Builder
		writeFrame(&fb, f)
		b.WriteString(fb.String())
	}
	stack := b.String()
	if c.opts.Stack != nil {
		stack = c.opts.Stack(stack)
	}
	c.write(c.opts.Stderr, stack)
	return goja.Undefined()
}

// writeFrame writes a goja stack frame as goja's own stacks do.
func writeFrame(b *strings.Builder, f goja.StackFrame) {
	p := f.Position()
	name := f.FuncName()
	loc := p.Filename + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) + "(0)"
	if name != "" && name != "<anonymous>" {
		b.WriteString(name + " (" + loc + ")")
	} else {
		b.WriteString(loc)
	}
}

func (c *Console) assert(call goja.FunctionCall) goja.Value {
	if call.Argument(0).ToBoolean() {
		return goja.Undefined()
	}
	args := append([]goja.Value(nil), call.Arguments[min(1, len(call.Arguments)):]...)
	if len(args) == 0 {
		args = []goja.Value{c.vm.ToValue("Assertion failed")}
	} else {
		args[0] = c.vm.ToValue("Assertion failed: " + args[0].ToString().String())
	}
	if s, ok := c.format(args); ok {
		c.write(c.opts.Stderr, s)
	}
	return goja.Undefined()
}

func (c *Console) count(call goja.FunctionCall) goja.Value {
	l := label(call.Argument(0))
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[l]++
	c.write(c.opts.Stdout, l+": "+strconv.Itoa(c.counts[l]))
	return goja.Undefined()
}

func (c *Console) countReset(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	l := "default"
	if !goja.IsUndefined(v) {
		if !goja.IsString(v) {
			c.warn("Count for '" + toJSString(v) + "' does not exist")
			return goja.Undefined()
		}
		l = v.String()
	}
	if _, ok := c.counts[l]; !ok {
		c.warn("Count for '" + l + "' does not exist")
		return goja.Undefined()
	}
	delete(c.counts, l)
	return goja.Undefined()
}

func (c *Console) group(call goja.FunctionCall) goja.Value {
	if len(call.Arguments) > 0 {
		if s, ok := c.format(call.Arguments); ok {
			c.write(c.opts.Stdout, s)
		}
	}
	c.indent += "  "
	return goja.Undefined()
}

func (c *Console) groupEnd(goja.FunctionCall) goja.Value {
	c.indent = c.indent[:max(0, len(c.indent)-2)]
	return goja.Undefined()
}

// --- console.table ------------------------------------------------------------------

func (c *Console) table(call goja.FunctionCall) goja.Value {
	data, properties := call.Argument(0), call.Argument(1)
	var props []string
	if !goja.IsUndefined(properties) {
		po, ok := properties.(*goja.Object)
		if !ok || po.ClassName() != "Array" {
			in := c.inspector()
			panic(js.NewError(c.vm, "TypeError", `The "properties" argument must be an instance of Array. Received `+in.format(properties, 0)))
		}
		n := js.ToInt(po.Get("length"))
		for i := 0; i < n; i++ {
			props = append(props, toJSString(po.Get(strconv.Itoa(i))))
		}
	}
	obj, ok := data.(*goja.Object)
	if !ok {
		if s, ok := c.format([]goja.Value{data}); ok {
			c.write(c.opts.Stdout, s)
		}
		return goja.Undefined()
	}
	in := c.inspector()
	s, ok := in.guard(func() string { return c.renderTable(in, obj, props, properties) })
	if ok {
		c.write(c.opts.Stdout, s)
	}
	return goja.Undefined()
}

func (c *Console) renderTable(in *inspector, data *goja.Object, props []string, properties goja.Value) string {
	inspectCell := func(v goja.Value) string {
		opts := defaultInspectOptions
		opts.depth = 0
		if o, ok := v.(*goja.Object); ok && o.ClassName() != "Array" && !in.isTypedArray(o) && len(o.Keys()) > 2 {
			opts.depth = -1
		}
		opts.maxArrayLength = 3
		opts.breakLength = infinite
		return in.sub(opts).value(v)
	}
	indexArray := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	if p, ok := js.AsProxy(data); ok && p.Target() != nil {
		data = p.Target()
	}
	exportType := data.ExportType()
	if data.ClassName() == "Array" {
		exportType = nil
	}
	switch exportType {
	case js.MapType:
		var keys, values []string
		in.intr.Iterate(data, "Map", func(e goja.Value) bool {
			entry, ok := e.(*goja.Object)
			if ok {
				keys = append(keys, inspectCell(entry.Get("0")))
				values = append(values, inspectCell(entry.Get("1")))
			}
			return ok
		})
		return renderTable([]string{"(iteration index)", "Key", "Values"}, [][]string{indexArray(len(keys)), keys, values}, nil)
	case js.SetType:
		var values []string
		in.intr.Iterate(data, "Set", func(v goja.Value) bool {
			values = append(values, inspectCell(v))
			return true
		})
		return renderTable([]string{"(iteration index)", "Values"}, [][]string{indexArray(len(values)), values}, nil)
	}

	hasProps := properties != nil && !goja.IsUndefined(properties)
	var mapKeys []string
	columns := map[string]map[int]string{}
	hasPrimitives := false
	valuesKeyArray := map[int]string{}
	indexKeyArray := data.Keys()
	for i, k := range indexKeyArray {
		item := data.Get(k)
		itemObj, isObj := item.(*goja.Object)
		primitive := !isObj
		if !hasProps {
			if primitive {
				hasPrimitives = true
				valuesKeyArray[i] = inspectCell(item)
				continue
			}
		}
		keys := props
		if !hasProps && isObj {
			keys = itemObj.Keys()
		}
		for _, key := range keys {
			col, ok := columns[key]
			if !ok {
				col = map[int]string{}
				columns[key] = col
				mapKeys = append(mapKeys, key)
			}
			if primitive || !in.hasOwn(itemObj, propKey{name: key}) {
				col[i] = ""
			} else {
				col[i] = inspectCell(itemObj.Get(key))
			}
		}
	}
	head := []string{"(index)"}
	cols := [][]string{indexKeyArray}
	present := []map[int]bool{nil}
	// Object.keys of the columns map: integer-like keys first, ascending.
	ordered := orderKeys(mapKeys)
	for _, k := range ordered {
		head = append(head, k)
		col, set := columnSlice(columns[k], len(indexKeyArray))
		cols = append(cols, col)
		present = append(present, set)
	}
	if hasPrimitives {
		head = append(head, "Values")
		col, set := columnSlice(valuesKeyArray, len(indexKeyArray))
		cols = append(cols, col)
		present = append(present, set)
	}
	return renderTable(head, cols, present)
}

// orderKeys orders property names as Object.keys does: array indexes
// first in ascending order, then the others in insertion order.
func orderKeys(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if isArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	sort.Slice(idx, func(i, j int) bool {
		a, _ := strconv.Atoi(idx[i])
		b, _ := strconv.Atoi(idx[j])
		return a < b
	})
	return append(idx, rest...)
}

func columnSlice(m map[int]string, n int) ([]string, map[int]bool) {
	out := make([]string, n)
	set := map[int]bool{}
	for i, v := range m {
		if i < n {
			out[i] = v
			set[i] = true
		}
	}
	return out, set
}

// renderTable draws Node's console.table box. present marks the cells a
// column has (a column without an entry for a row prints empty).
func renderTable(head []string, columns [][]string, present []map[int]bool) string {
	widths := make([]int, len(head))
	for i, h := range head {
		widths[i] = getStringWidth(h)
	}
	longest := 0
	for _, col := range columns {
		longest = max(longest, len(col))
	}
	rows := make([][]string, longest)
	for i := range head {
		col := columns[i]
		for j := 0; j < longest; j++ {
			v := ""
			if j < len(col) && (present == nil || present[i] == nil || present[i][j]) {
				v = col[j]
			}
			if rows[j] == nil {
				rows[j] = make([]string, len(head))
			}
			rows[j][i] = v
			widths[i] = max(widths[i], getStringWidth(v))
		}
	}
	divider := make([]string, len(widths))
	for i, w := range widths {
		divider[i] = strings.Repeat("─", w+2)
	}
	renderRow := func(row []string) string {
		var b strings.Builder
		b.WriteString("│ ")
		for i, cell := range row {
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", max(0, widths[i]-getStringWidth(cell))))
			if i != len(row)-1 {
				b.WriteString(" │ ")
			}
		}
		b.WriteString(" │")
		return b.String()
	}
	var b strings.Builder
	b.WriteString("┌" + strings.Join(divider, "┬") + "┐\n")
	b.WriteString(renderRow(head) + "\n")
	b.WriteString("├" + strings.Join(divider, "┼") + "┤\n")
	for _, row := range rows {
		b.WriteString(renderRow(row) + "\n")
	}
	b.WriteString("└" + strings.Join(divider, "┴") + "┘")
	return b.String()
}
