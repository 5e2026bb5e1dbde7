package builtin

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"go.uber.org/goleak"
)

func TestExpandBraces(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{"*.go", []string{"*.go"}},
		{"*.{ts,tsx}", []string{"*.ts", "*.tsx"}},
		{"a{b,c{d,e}}f", []string{"abf", "acdf", "acef"}},
		{"{a,b}{c,d}", []string{"ac", "ad", "bc", "bd"}},
		{"{}x", []string{"x"}},
		{"{a,}", []string{"a", ""}},
		{`\{a,b\}`, []string{`\{a,b\}`}},
		{"[{,]{x,y}", []string{"[{,]x", "[{,]y"}},
		{`[\]}]{x,y}`, []string{`[\]}]x`, `[\]}]y`}},
		{"src/{a,b/**}/*.go", []string{"src/a/*.go", "src/b/**/*.go"}},
		{"a,b", []string{"a,b"}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			if !doublestar.ValidatePattern(tt.pattern) {
				t.Fatalf("%q is not a valid pattern", tt.pattern)
			}
			got := expandBraces(tt.pattern)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("expandBraces(%q) = %q, want %q", tt.pattern, got, tt.want)
			}
			size := 0
			for _, p := range got {
				size += len(p)
			}
			if n, s := braceCount(tt.pattern); n != len(got) || s != size {
				t.Fatalf("braceCount(%q) = %d, %d; the expansion has %d patterns of %d bytes", tt.pattern, n, s, len(got), size)
			}
		})
	}
}

// TestGlobMatchesDoublestar holds the expanded glob to what doublestar
// says of the pattern as written. (They differ on purpose in one case: a
// group's "dir/**" alternative is inside dir only, as the whole pattern
// "dir/**" is; see TestFind.)
func TestGlobMatchesDoublestar(t *testing.T) {
	names := []string{"a.go", "a.ts", "a.tsx", "src/a.go", "src/b/c.go", "src/b", "src", "x/y/z.md", "ab", "abc", "acd", ".hidden", "b,c", "{a}"}
	patterns := []string{"*.{ts,tsx}", "{src,x}/**/*.{go,md}", "a{b,c{d,e}}", "{*.go,*.md}", "**/{b,y}/*", "{a,b}*", `\{a\}`, "*{.,}go", "src/{b,c}/**", "b,c", "{b,c},c"}
	for _, p := range patterns {
		g, err := compileGlob("find", "pattern", p, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			target := name
			if !strings.Contains(p, "/") {
				target = path.Base(name)
			}
			want, err := doublestar.Match(p, target)
			if err != nil {
				t.Fatal(err)
			}
			if parent, ok := strings.CutSuffix(p, "/**"); ok && want {
				inside, _ := doublestar.Match(parent, target)
				want = !inside
			}
			if got := g.match(name, true); got != want {
				t.Errorf("pattern %q, path %q: match is %v, doublestar says %v", p, name, got, want)
			}
		}
	}
}

func TestGlobTooLarge(t *testing.T) {
	e := newEnv(t, searchTree)
	exponential := strings.Repeat("{a,aa}", 40)
	long := strings.Repeat("x", 70000)
	tests := []struct {
		tool   string
		params map[string]any
		want   string
	}{
		{"find", map[string]any{"pattern": exponential},
			`find: pattern "` + exponential + `" expands to more than 256 alternatives (its { } groups multiply); use fewer or smaller { } groups, or several calls`},
		{"grep", map[string]any{"pattern": "x", "glob": "!" + exponential},
			`grep: glob "!` + exponential + `" expands to more than 256 alternatives (its { } groups multiply); use fewer or smaller { } groups, or several calls`},
		{"find", map[string]any{"pattern": "{" + long + ",y}"},
			`find: pattern "{` + long[:299] + `"… (70004 bytes) is longer than 64 KiB once its { } groups are expanded; use a shorter pattern, or several calls`},
		{"find", map[string]any{"pattern": strings.Repeat("{a,b}", 8)}, ""}, // 256 alternatives: allowed
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %.20s", tt.tool, tt.params), func(t *testing.T) {
			_, err := e.call(t, tt.tool, tt.params)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("got error %v\nwant %s", err, tt.want)
			}
		})
	}
}

// cancelAfter is a context that cancels itself on the nth call of Err
// and counts the calls, so a test can cancel a tool in the middle of its
// work without timing anything.
type cancelAfter struct {
	context.Context
	cancel context.CancelFunc
	n      int64
	calls  atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) == c.n {
		c.cancel()
	}
	return c.Context.Err()
}

// TestWalkCancelled cancels find and grep in the middle of a walk of many
// files: the call returns the cancellation, having looked at no more than
// a few entries after it, and leaves no goroutine behind.
func TestWalkCancelled(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%10, i)] = "hello\n"
	}
	e := newEnv(t, files)
	// 256 alternatives, the most a glob may have, none of which matches.
	slow := strings.Repeat("{a,b}", 8)
	tests := []struct {
		tool   string
		params map[string]any
	}{
		{"find", map[string]any{"pattern": slow}},
		{"grep", map[string]any{"pattern": "hello", "glob": slow}},
		{"grep", map[string]any{"pattern": "hello"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.tool, tt.params), func(t *testing.T) {
			const cancelAt = 10
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx := &cancelAfter{Context: parent, cancel: cancel, n: cancelAt}
			done := make(chan error, 1)
			go func() {
				_, err := e.callCtx(t, ctx, tt.tool, tt.params)
				done <- err
			}()
			err := <-done
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want the cancellation", err)
			}
			// The walk looks at ctx once per entry; 300 files in 10
			// directories are far more than it may visit after the cancel.
			if calls := ctx.calls.Load(); calls > cancelAt+5 {
				t.Fatalf("ctx was consulted %d times, %d after the cancellation: the work went on", calls, calls-cancelAt)
			}
			goleak.VerifyNone(t)
		})
	}
}

// TestLsCancelled cancels ls between two batches of a large directory:
// the call returns the cancellation instead of reading on. A batch is 1024
// entries: the directory holds a few more (each file costs a creation and
// a removal, a millisecond of system time on a VM's disk).
func TestLsCancelled(t *testing.T) {
	files := map[string]string{}
	for i := range 1100 {
		files[fmt.Sprintf("big/f%04d", i)] = ""
	}
	e := newEnv(t, files)
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first look at ctx is before the directory is opened, the second
	// before its first batch, the third before its second.
	ctx := &cancelAfter{Context: parent, cancel: cancel, n: 3}
	_, err := e.callCtx(t, ctx, "ls", map[string]any{"path": "big"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the cancellation", err)
	}
	if calls := ctx.calls.Load(); calls != 3 {
		t.Fatalf("ctx was consulted %d times, want 3", calls)
	}
}
