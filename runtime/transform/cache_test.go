package transform_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/transform"
)

// TestCompileCache checks that compiling the same snippet again returns the
// same Program, that another filename or source does not, and that
// snippets that do not compile are not cached.
func TestCompileCache(t *testing.T) {
	t.Parallel()
	src := "const n: number = 40;\nreturn n + 2 // cache test"
	a, d := transform.Compile(src, "a.ts")
	if d != nil {
		t.Fatal(d)
	}
	if b, _ := transform.Compile(src, "a.ts"); b != a {
		t.Errorf("the same snippet compiled twice gave two programs")
	}
	if c, _ := transform.Compile(src, "b.ts"); c == a {
		t.Errorf("another filename gave the cached program")
	}
	if c, _ := transform.Compile(src+" ", "a.ts"); c == a {
		t.Errorf("another source gave the cached program")
	}
	for range 2 {
		if _, d := transform.Compile("const x = ;", "bad.ts"); d == nil {
			t.Fatalf("a syntax error compiled")
		}
	}
}

// TestCachedProgramConcurrentRuns runs one cached TypeScript program in many
// runs at once, each failing so that its error's position is mapped back
// through the shared source map (the race detector watches the lazily made
// parts).
func TestCachedProgramConcurrentRuns(t *testing.T) {
	t.Parallel()
	src := "interface P { x: number }\nconst p: P = { x: 1 };\nthrow new Error(\"at line 3 \" + p.x);"
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			res := runtime.Run(context.Background(), src, runtime.Options{Filename: "shared.ts"})
			if e := res.Error; e == nil || e.Line != 3 || e.Column != 7 || !strings.Contains(e.Message, "at line 3 1") {
				errs <- fmt.Sprintf("error %+v, want one at shared.ts:3:7", e)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
