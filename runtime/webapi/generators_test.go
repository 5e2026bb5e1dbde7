package webapi

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// TestNoGeneratorsReachable checks that the JavaScript of the globals
// declares no generator function, except where a comment of this test
// says why the snippet cannot reach it: through one, a snippet could
// reach the GeneratorFunction constructor, which the runtime restricts
// only for the snippets that may make a generator themselves
// (transform.Generators).
func TestNoGeneratorsReachable(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{
		// util.types' checks take the prototype of a generator function
		// of their own, which util never returns.
		"util.js": true,
	}
	names, err := fs.Glob(webapiFS, "*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("no JavaScript files (%v)", err)
	}
	for _, name := range names {
		src, err := webapiFS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := goja.Parse(name, string(src), parser.WithDisableSourceMaps)
		if err != nil {
			t.Fatal(err)
		}
		if n := countGenerators(reflect.ValueOf(prog)); n > 0 && !allowed[name] {
			t.Errorf("%s declares %d generator functions", name, n)
		}
	}
}

// countGenerators counts the generator functions in the syntax tree at v.
func countGenerators(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return countGenerators(v.Elem())
	case reflect.Slice:
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += countGenerators(v.Index(i))
		}
		return n
	case reflect.Struct:
		if !strings.HasSuffix(v.Type().PkgPath(), "goja/ast") {
			return 0
		}
	default:
		return 0
	}
	n := 0
	if f, ok := v.Addr().Interface().(*ast.FunctionLiteral); ok && f.Generator {
		n++
	}
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Name != "DeclarationList" && v.Field(i).CanInterface() {
			n += countGenerators(v.Field(i))
		}
	}
	return n
}
