package transform

import (
	"strings"
	"testing"
)

// TestTransformDiagnostic checks the transform's own result for a value
// import: one Diagnostic in esbuild's form.
func TestTransformDiagnostic(t *testing.T) {
	t.Parallel()
	tr, diags := transform("const a = 1;\n  import {a} from \"b\";\n", "x.ts")
	if tr != nil || len(diags) != 1 {
		t.Fatalf("transform = %v, %v; want one diagnostic", tr, diags)
	}
	d := diags[0]
	if d.File != "x.ts" || d.Line != 2 || d.Column != 3 || d.LineText != `  import {a} from "b";` {
		t.Errorf("diagnostic %+v, want x.ts:2:3 with the line text", d)
	}
	if got, want := d.String(), "x.ts:2:3: error: "+d.Message; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}

	tr, diags = transform("import type { A } from \"a\";\nexport const b: A = 1;\nreturn b;", "y.ts")
	if len(diags) != 0 || tr == nil || tr.code == "" {
		t.Fatalf("transform of type import + export: %v, %v", tr, diags)
	}
	// The source map made on demand describes the very code that runs.
	if m, err := tr.sourceMap("y.ts"); err != nil || len(m) == 0 {
		t.Fatalf("sourceMap: %q, %v", m, err)
	}
	if strings.Contains(tr.code, "import") || strings.Contains(tr.code, "export") {
		t.Errorf("transformed code still has module syntax:\n%s", tr.code)
	}
}

// FuzzTransform checks that the transform never panics and that every
// diagnostic points into the snippet.
func FuzzTransform(f *testing.F) {
	for _, s := range []string{
		"", "return 1", "const x: number = 1;", "import fs from \"fs\";", "import type {A} from 'a';\nexport const b = 1;",
		"export default 1", "const y = ;", "import(", "`${", "/*", "</>", "(async () => {", "})()", "\\u{", "enum E { A }",
		"export * from 'x'", "import type X = require('y')", "class A { #x; m() { return #x in this } }",
	} {
		f.Add(s, "snippet.ts")
		f.Add(s, "snippet.js")
	}
	f.Fuzz(func(t *testing.T, src, file string) {
		if file == "" {
			file = "snippet.ts"
		}
		tr, diags := transform(src, file)
		if (tr == nil) == (len(diags) == 0) {
			t.Fatalf("transform(%q) = %v, %v: want exactly one of code or diagnostics", src, tr, diags)
		}
		n := len(SplitLines(src))
		for _, d := range diags {
			if d.File != file || d.Line < 1 || d.Line > n || d.Column < 1 || d.Message == "" {
				t.Fatalf("transform(%q): diagnostic %+v outside the %d-line snippet", src, d, n)
			}
		}
	})
}
