package webapi

import (
	"sync"
	"testing"
)

// TestRewritePatternCached checks that the rendered classes, which are
// cached by property, come out the same the first time and later, from
// concurrent callers, and that a property's members and those of its
// complement are told apart.
func TestRewritePatternCached(t *testing.T) {
	t.Parallel()
	tests := []struct{ pattern, want string }{
		{`\p{ASCII}`, `[\u{0}-\u{7F}]`},
		{`\P{ASCII}`, `[^\u{0}-\u{7F}]`},
		{`[\P{ASCII}]`, `[\u{80}-\u{10FFFF}]`},
		{`[\p{ASCII}]x\p{ASCII}[^\P{ASCII}]`, `[\u{0}-\u{7F}]x[\u{0}-\u{7F}][^\u{80}-\u{10FFFF}]`},
		{`\p{Script=Ogham}`, `[\u{1680}-\u{169C}]`},
		{`[\P{sc=Ogham}]`, `[\u{0}-\u{167F}\u{169D}-\u{10FFFF}]`},
	}
	for round := range 2 {
		var wg sync.WaitGroup
		for _, tt := range tests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := rewritePattern(tt.pattern, "u")
				if err != nil || got != tt.want {
					t.Errorf("round %d: rewritePattern(%q) = %q, %v; want %q", round, tt.pattern, got, err, tt.want)
				}
			}()
		}
		wg.Wait()
	}
	if _, err := rewritePattern(`\p{Nope}`, "u"); err == nil {
		t.Error(`rewritePattern(\p{Nope}) did not fail`)
	}
}
