package convert

import (
	"testing"

	"github.com/dop251/goja"
)

// TestJSONHelpers checks ExportJSON, ImportJSON and ParseJSON: data crosses
// as plain copies.
func TestJSONHelpers(t *testing.T) {
	t.Parallel()
	vm := goja.New()
	v, err := vm.RunString(`({ b: 1, a: [true, null, "s"], m: new Map([["k", 1n]]) })`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ExportJSON(vm, v)
	if err != nil || string(out) != `{"b":1,"a":[true,null,"s"],"m":{"k":1}}` {
		t.Errorf("ExportJSON = %s, %v", out, err)
	}

	data := map[string]any{"n": 1.5, "list": []any{"x", map[string]any{"deep": true}}}
	iv, err := ImportJSON(vm, data)
	if err != nil {
		t.Fatal(err)
	}
	if err := vm.Set("imported", iv); err != nil {
		t.Fatal(err)
	}
	r, err := vm.RunString(`imported.list[1].deep = "changed"; imported.extra = 1; Object.getPrototypeOf(imported) === Object.prototype && Array.isArray(imported.list)`)
	if err != nil || !r.ToBoolean() {
		t.Errorf("imported value is not a plain object: %v %v", r, err)
	}
	if data["list"].([]any)[1].(map[string]any)["deep"] != true || len(data) != 2 {
		t.Errorf("the script changed the Go data: %v", data)
	}
	for _, c := range []struct {
		in   any
		want string
	}{{nil, "null"}, {"str", "str"}, {3, "3"}, {[]int{1, 2}, "1,2"}} {
		v, err := ImportJSON(vm, c.in)
		if err != nil || v.String() != c.want {
			t.Errorf("ImportJSON(%v) = %v, %v", c.in, v, err)
		}
	}
	if _, err := ImportJSON(vm, make(chan int)); err == nil {
		t.Errorf("ImportJSON of a channel should fail")
	}
	if _, err := ParseJSON(vm, []byte("{bad")); err == nil {
		t.Errorf("ParseJSON of bad JSON should fail")
	}
	pv, err := ParseJSON(vm, []byte(`{"x":[1,2]}`))
	if err != nil || pv.ToObject(vm).Get("x").ToObject(vm).Get("length").ToInteger() != 2 {
		t.Errorf("ParseJSON = %v, %v", pv, err)
	}
}
