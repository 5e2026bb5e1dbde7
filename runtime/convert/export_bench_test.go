package convert

import (
	"encoding/json"
	"testing"

	"github.com/dop251/goja"
)

// benchArgument is a tool argument of 30 keys, some nested: the shape
// BenchmarkExportData and BenchmarkExportJSONRoundTrip convert.
const benchArgument = `(() => {
	const o = {};
	for (let i = 0; i < 30; i++) {
		switch (i % 5) {
		case 0: o["key" + i] = "value number " + i; break;
		case 1: o["key" + i] = i * 1.5; break;
		case 2: o["key" + i] = [i, "x", true, null]; break;
		case 3: o["key" + i] = { path: "/tmp/f" + i, recursive: i % 2 === 0, depth: i }; break;
		default: o["key" + i] = { nested: { list: [1, 2, 3], name: "n" + i } };
		}
	}
	return o;
})()`

func benchValue(b *testing.B) (*goja.Runtime, goja.Value) {
	vm := goja.New()
	v, err := vm.RunString(benchArgument)
	if err != nil {
		b.Fatal(err)
	}
	return vm, v
}

// BenchmarkExportJSONRoundTrip measures the two walks tool arguments took
// before ExportData: ExportJSON, then json.Unmarshal.
func BenchmarkExportJSONRoundTrip(b *testing.B) {
	vm, v := benchValue(b)
	b.ReportAllocs()
	for b.Loop() {
		raw, err := ExportJSON(vm, v)
		if err != nil {
			b.Fatal(err)
		}
		var data any
		if err := json.Unmarshal(raw, &data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportData measures the one walk that replaced them.
func BenchmarkExportData(b *testing.B) {
	vm, v := benchValue(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExportData(vm, v); err != nil {
			b.Fatal(err)
		}
	}
}
