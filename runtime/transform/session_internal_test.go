package transform

import (
	"strconv"
	"strings"
	"testing"
)

// TestLineCursor checks lineCursor against a count from the start of the
// text at every offset, in order and repeated, over every kind of line
// break, and that it scans the text once over all of them.
func TestLineCursor(t *testing.T) {
	t.Parallel()
	s := "a\nbc\r\nd\re\u2028f\u2029é\n\nlast"
	c := lineCursor{s: s}
	for offset := 0; offset <= len(s); offset++ {
		if offset > 0 && offset < len(s) && (s[offset-1] == '\r' && s[offset] == '\n' || s[offset-1] == 0xE2 || offset >= 2 && s[offset-2] == 0xE2) {
			continue // inside a line break: no edit goes there
		}
		line, start := 1, 0
		for i := 0; i < offset; {
			if n := lineBreak(s, i); n > 0 {
				i += n
				line, start = line+1, i
				continue
			}
			i++
		}
		for range 2 {
			if l, col := c.pos(offset); l != line || col != offset-start+1 {
				t.Fatalf("pos(%d) = %d:%d, want %d:%d", offset, l, col, line, offset-start+1)
			}
		}
		if c.i != offset {
			t.Fatalf("after pos(%d) the cursor scanned to %d", offset, c.i)
		}
	}
}

// manyLets is a snippet of 40,000 let declarations (430 KB, under the
// limit on a snippet's size), each of which the session rewrite edits.
var manyLets = func() string {
	var b strings.Builder
	for i := range 40000 {
		b.WriteString("let a" + strconv.Itoa(i) + "\n")
	}
	return b.String()
}()

// TestCompileSessionManyLets checks the session rewrite of a snippet with
// many declarations: each is a global, and a position after the last of
// them maps back to the snippet's own column.
func TestCompileSessionManyLets(t *testing.T) {
	t.Parallel()
	p, d := CompileSession(manyLets+"throw new Error('x')", "many.js")
	if d != nil {
		t.Fatal(d)
	}
	if n := len(p.Globals()); n != 40000 {
		t.Fatalf("%d globals, want 40000", n)
	}
	last := p.insertions[len(p.insertions)-1]
	if want := (insertion{line: 40000, col: len("let a39999") + 1, n: len(" = void 0")}); last != want {
		t.Errorf("last insertion %+v, want %+v", last, want)
	}
}

// BenchmarkCompileSessionManyLets and BenchmarkCompileManyLets compare, in
// one run, the session rewrite of a snippet with an edit on each of its
// 40,000 lines with the plain compile (neither is cached: the snippet is
// over cacheMaxSource). The rewrite must stay linear in the snippet's size.
func BenchmarkCompileSessionManyLets(b *testing.B) { benchManyLets(b, true) }

func BenchmarkCompileManyLets(b *testing.B) { benchManyLets(b, false) }

func benchManyLets(b *testing.B, session bool) {
	for b.Loop() {
		if _, d := compile(manyLets, "many.js", session); d != nil {
			b.Fatal(d)
		}
	}
}
