package webapi

import (
	"testing"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/transform"
)

// BenchmarkInstall measures Install on a fresh VM, for a snippet with
// none of the features Install acts on, and for one that may use Date
// (which installs date.js's Date).
func BenchmarkInstall(b *testing.B) {
	for _, bc := range []struct {
		name     string
		features transform.Features
	}{
		{"plain", 0},
		{"Date", transform.Dates},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				vm := goja.New()
				b.StartTimer()
				if _, err := Install(vm, Options{Features: bc.features}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRewritePattern measures the rewriting of a u-flag pattern's
// Unicode property escapes into classes, which every new RegExp with one
// goes through.
func BenchmarkRewritePattern(b *testing.B) {
	for _, bc := range []struct{ name, pattern string }{
		{"L", `\p{L}+`},
		{"classes", `[\p{Lu}\P{N}]\p{Script=Greek}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rewritePattern(bc.pattern, "u"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPluralResolvedOptions measures
// Intl.PluralRules.prototype.resolvedOptions, which lists the locale's
// plural categories.
func BenchmarkPluralResolvedOptions(b *testing.B) {
	vm := goja.New()
	if _, err := Install(vm, Options{}); err != nil {
		b.Fatal(err)
	}
	v, err := vm.RunString(`(() => { const p = new Intl.PluralRules("ar"); return () => p.resolvedOptions().pluralCategories.length })()`)
	if err != nil {
		b.Fatal(err)
	}
	f, _ := goja.AssertFunction(v)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f(goja.Undefined()); err != nil {
			b.Fatal(err)
		}
	}
}
