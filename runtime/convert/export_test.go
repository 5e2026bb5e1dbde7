package convert_test

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/codeexec/codeexec/runtime/convert"
)

// newVM returns a VM whose Math.random and clock are fixed (so that two
// VMs evaluating the same source make the same value), with a global bad
// holding a Go string of invalid UTF-8 and a global halt that interrupts
// the VM. Its call stack is bounded and its parser reads no source maps.
func newVM() *goja.Runtime {
	vm := goja.New()
	vm.SetMaxCallStackSize(1000)
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	vm.SetRandSource(func() float64 { return 0.25 })
	vm.SetTimeSource(func() time.Time { return time.Unix(1700000000, 0) })
	if err := vm.Set("bad", "a\xffb\xed\xa0\x80c\xc3"); err != nil {
		panic(err)
	}
	if err := vm.Set("halt", func() { vm.Interrupt("halted") }); err != nil {
		panic(err)
	}
	return vm
}

// exportBothWays evaluates src in two fresh VMs (so that getters with side
// effects run once for each) and converts the value both ways: the old
// round trip, ExportJSON then json.Unmarshal, and ExportData. evalErr is
// set when src does not evaluate.
func exportBothWays(src string, limit time.Duration) (want, got any, wantErr, gotErr, evalErr error) {
	run := func(conv func(*goja.Runtime, goja.Value) (any, error)) (any, error, error) {
		vm := newVM()
		if limit > 0 {
			timer := time.AfterFunc(limit, func() { vm.Interrupt("timeout") })
			defer timer.Stop()
		}
		v, err := vm.RunString(src)
		if err != nil {
			return nil, nil, err
		}
		d, err := conv(vm, v)
		return d, err, nil
	}
	want, wantErr, evalErr = run(func(vm *goja.Runtime, v goja.Value) (any, error) {
		raw, err := convert.ExportJSON(vm, v)
		if err != nil {
			return nil, err
		}
		var data any
		if err := json.Unmarshal(raw, &data); err != nil {
			return nil, err
		}
		return data, nil
	})
	if evalErr != nil {
		return
	}
	got, gotErr, evalErr = run(convert.ExportData)
	return
}

// sameData reports whether a and b are the same decoded JSON data, telling
// 0 from -0 (which reflect.DeepEqual does not) and nil slices and maps
// from empty ones.
func sameData(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameData(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameData(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// exportCases are values JSON.stringify treats specially, with the error
// each must give ("" for none) and, for some, the data as json.Marshal
// writes it (object keys sorted).
var exportCases = []struct {
	src, wantErr, wantJSON string
}{
	{src: `({ a: 1, b: { c: [1, "x", null, true, false] }, d: [], e: {} })`, wantJSON: `{"a":1,"b":{"c":[1,"x",null,true,false]},"d":[],"e":{}}`},
	{src: `[[[]], {}, [{}]]`, wantJSON: `[[[]],{},[{}]]`},
	{src: `({ b: 1, 2: 2, a: 3, 1: 4, "k y": 5 })`},
	{src: `new Map([["a", 1], ["b", { c: 2 }]])`, wantJSON: `{"a":1,"b":{"c":2}}`},
	{src: `new Map([[1, "one"], [{ k: 1 }, [2]], [null, undefined]])`, wantJSON: `[[1,"one"],[{"k":1},[2]],[null,null]]`},
	{src: `new Map([["a", 1], [2, 2]])`, wantJSON: `[["a",1],[2,2]]`},
	{src: `new Map()`, wantJSON: `{}`},
	{src: `new Map([["f", () => 1], ["u", undefined]])`, wantJSON: `{"f":null,"u":null}`},
	{src: `new Set([1, "a", { b: 2 }, new Set([3])])`, wantJSON: `[1,"a",{"b":2},[3]]`},
	{src: `new Set()`, wantJSON: `[]`},
	{src: `[1n, -12345678901234567890123n, 2n ** 64n, 2n ** 53n + 1n, 0n]`},
	{src: `12n`, wantJSON: `12`},
	{src: `({ big: 10n ** 400n })`, wantErr: "json: cannot unmarshal number 1"},
	{src: `[-(10n ** 400n), { toJSON() { throw new Error("first") } }]`, wantErr: "first"},
	{src: `[-0, 0, NaN, Infinity, -Infinity, 1e300, 5e-324, 0.1, 2 ** 53 + 2, -7.5, 1e21, 123456789012]`},
	{src: `-0`, wantJSON: `0`},
	{src: `NaN`, wantJSON: `null`},
	{src: `2 ** 53 + 2`},
	{src: `"path/to/file.txt"`},
	{src: `""`},
	{src: `"\ud800 lone"`},
	{src: `({ "\udc00": "\ud83d", "\ud800": 1, "\udbff": 2, ok: "\ud83d\ude00" })`},
	{src: `"é 🎉 \u2028 \u2029 \n \t \u0001 \" \\ <&>"`},
	{src: `bad`},
	{src: `({ [bad]: bad, list: [bad] })`},
	{src: `new Map([[bad, 1], ["a\uFFFDb\uFFFD\uFFFD\uFFFDc\uFFFD", 2]])`},
	{src: `true`}, {src: `false`}, {src: `null`}, {src: `undefined`, wantJSON: `null`},
	{src: `({ toJSON() { return { replaced: [1, 2] } } })`, wantJSON: `{"replaced":[1,2]}`},
	{src: `({ a: { toJSON(k) { return String(k) + "!" } } })`, wantJSON: `{"a":"undefined!"}`},
	{src: `({ toJSON: 1, v: 2 })`, wantJSON: `{"toJSON":1,"v":2}`},
	{src: `({ get g() { return [1, 2] }, n: 1 })`, wantJSON: `{"g":[1,2],"n":1}`},
	{src: `(() => { const o = { a: 1 }; o.self = o; o.list = [o, { up: o }]; return o })()`, wantJSON: `{"a":1,"list":["[Circular]",{"up":"[Circular]"}],"self":"[Circular]"}`},
	{src: `(() => { const s = { x: 1 }; return [s, s, { s }] })()`, wantJSON: `[{"x":1},{"x":1},{"s":{"x":1}}]`},
	// As JSON.stringify: the value toJSON returns is not asked for its toJSON.
	{src: `(() => { const o = { toJSON() { return o } }; return [o] })()`, wantJSON: `[{}]`},
	{src: `Object.assign(["a"], { toJSON() { return this } })`, wantJSON: `["a"]`},
	{src: `({ toJSON() { return { inner: { toJSON() { return 7 } } } } })`, wantJSON: `{"inner":7}`},
	{src: `new TypeError("bad")`, wantJSON: `{"message":"bad","name":"TypeError"}`},
	{src: `(() => { const e = new RangeError("r"); e.name = "Mine"; e.extra = 1; return { e } })()`, wantJSON: `{"e":{"message":"r","name":"Mine"}}`},
	{src: `new Date(0)`, wantJSON: `"1970-01-01T00:00:00.000Z"`},
	{src: `[new Date(NaN), new Date()]`},
	{src: `new (class K { constructor() { this.a = 1 } m() {} get p() { return 2 } })()`, wantJSON: `{"a":1}`},
	{src: `[function () {}, () => 1, async () => 1, class {}, function* () {}]`, wantJSON: `[null,null,null,null,null]`},
	{src: `({ f() {}, g: () => 1, v: 1 })`, wantJSON: `{"v":1}`},
	{src: `(function () {})`, wantJSON: `null`},
	{src: `[Symbol("s"), undefined]`, wantJSON: `[null,null]`},
	{src: `({ s: Symbol("s"), [Symbol("k")]: 1, u: undefined, v: 2 })`, wantJSON: `{"v":2}`},
	{src: `Symbol("x")`, wantJSON: `null`},
	{src: `[1, , 3]`, wantJSON: `[1,null,3]`},
	{src: `(() => { const a = []; a[5] = 1; a.extra = 2; return a })()`, wantJSON: `[null,null,null,null,null,1]`},
	{src: `new Uint8Array([1, 2, 3])`, wantJSON: `{"0":1,"1":2,"2":3}`},
	{src: `[new Float64Array([0.5, -0, NaN]), new ArrayBuffer(4), new DataView(new ArrayBuffer(2))]`},
	{src: `new Proxy({ a: 1 }, {})`, wantJSON: `{"a":1}`},
	{src: `new Proxy([1, 2], {})`},
	{src: `new Proxy(new Map([["a", 1]]), {})`},
	{src: `new Proxy({}, { ownKeys() { return ["a", "b"] }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true } }, get(t, k) { return k } })`},
	{src: `[new String("s"), Object(5), Object(1n), Object(true), /a/g, Math, globalThis.JSON]`},
	{src: `Object.create(null, { a: { value: 1, enumerable: true }, hidden: { value: 2 } })`, wantJSON: `{"a":1}`},
	{src: `(() => { let v = 1; for (let i = 0; i < 100; i++) v = [v]; return v })()`},
	{src: `(() => { let v = 1; for (let i = 0; i < 101; i++) v = [v]; return v })()`, wantErr: "nested more than 100 levels deep"},
	{src: `(() => { let v = 1; for (let i = 0; i < 99; i++) v = { v }; return new Map([[1, v]]) })()`, wantErr: "nested more than 100 levels deep"},
	{src: `({ ok: 1, get x() { throw new RangeError("from getter") } })`, wantErr: "RangeError: from getter"},
	{src: `[{ toJSON() { throw new TypeError("bad toJSON") } }]`, wantErr: "TypeError: bad toJSON"},
	{src: `new Proxy({}, { ownKeys() { throw new Error("trap") } })`, wantErr: "Error: trap"},
	{src: `({ get x() { halt(); for (;;) {} } })`, wantErr: "halted"},
	{src: `Array(1100).fill("x".repeat(70000))`, wantErr: "larger than 64 MB as JSON"},
}

// TestExportDataMatchesRoundTrip checks ExportData against what it
// replaces, ExportJSON then json.Unmarshal: the same data, or the same
// error.
func TestExportDataMatchesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range exportCases {
		want, got, wantErr, gotErr, evalErr := exportBothWays(c.src, 0)
		if evalErr != nil {
			t.Fatalf("%s: %v", c.src, evalErr)
		}
		if errText(gotErr) != errText(wantErr) {
			t.Errorf("%s: ExportData error %q, round trip error %q", c.src, errText(gotErr), errText(wantErr))
			continue
		}
		if c.wantErr != "" {
			if gotErr == nil || !strings.Contains(gotErr.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", c.src, gotErr, c.wantErr)
			}
			continue
		}
		if gotErr != nil {
			t.Errorf("%s: unexpected error %v", c.src, gotErr)
			continue
		}
		if !sameData(got, want) {
			t.Errorf("%s: ExportData %#v, round trip %#v", c.src, got, want)
		}
		if c.wantJSON != "" {
			if b, err := json.Marshal(got); err != nil || string(b) != c.wantJSON {
				t.Errorf("%s: data %s (%v), want %s", c.src, b, err, c.wantJSON)
			}
		}
	}
}

// TestExportDataErrors checks that the errors of ExportData unwrap as
// ExportJSON's do: a thrown value as a *goja.Exception, an interrupt as a
// *goja.InterruptedError, an unrepresentable BigInt as a
// *json.UnmarshalTypeError.
func TestExportDataErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src   string
		check func(error) bool
	}{
		{`({ get x() { throw new Error("e") } })`, func(err error) bool { var e *goja.Exception; return errors.As(err, &e) }},
		{`({ get x() { halt(); for (;;) {} } })`, func(err error) bool { var e *goja.InterruptedError; return errors.As(err, &e) }},
		{`[10n ** 400n]`, func(err error) bool { var e *json.UnmarshalTypeError; return errors.As(err, &e) }},
	} {
		vm := newVM()
		v, err := vm.RunString(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := convert.ExportData(vm, v); !c.check(err) {
			t.Errorf("%s: error %T %v", c.src, err, err)
		}
	}
}

// nativeHeavy lists what fuzzed source may not contain: the ways to make a
// single native call that an interrupt cannot stop, or that exhausts the
// process's memory (see the engine notes: 'x'.repeat(1e9), Array(1e9)
// .fill, sort, 2n ** 2n ** 53n, eval of deep nesting).
var nativeHeavy = []string{"**", "<<", "repeat", "fill", "Array", "sort", "pad", "eval", "Function", "join", "flat"}

// FuzzExportData compares ExportData with ExportJSON then json.Unmarshal
// on values made by evaluating fuzzed source. Sources longer than 300
// bytes or naming a nativeHeavy operation are skipped, and so are those
// that do not evaluate and those a 100 ms interrupt stops (whether it
// stops one conversion or the other is a matter of timing).
func FuzzExportData(f *testing.F) {
	for _, c := range exportCases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 300 || slices.ContainsFunc(nativeHeavy, func(s string) bool { return strings.Contains(src, s) }) {
			t.Skip()
		}
		want, got, wantErr, gotErr, evalErr := exportBothWays(src, 100*time.Millisecond)
		var intr *goja.InterruptedError
		if evalErr != nil || errors.As(wantErr, &intr) || errors.As(gotErr, &intr) {
			t.Skip()
		}
		if gotErr == nil && errText(wantErr) == "larger than 64 MB as JSON" {
			t.Skip() // ExportData's size is a lower bound of the JSON's
		}
		if errText(gotErr) != errText(wantErr) {
			t.Fatalf("%q: ExportData error %q, round trip error %q", src, errText(gotErr), errText(wantErr))
		}
		if gotErr == nil && !sameData(got, want) {
			t.Fatalf("%q: ExportData %#v, round trip %#v", src, got, want)
		}
	})
}
