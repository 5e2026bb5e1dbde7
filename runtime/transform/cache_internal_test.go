package transform

import (
	"strconv"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/bench/benchdata"
)

// TestProgramCacheBounds checks the cache's bounds: at most cacheEntries
// programs and cacheBytes of source, the least recently used evicted
// first, and no source over cacheMaxSource kept.
func TestProgramCacheBounds(t *testing.T) {
	c := newCache[*Program]()
	first := &Program{}
	c.put(plainCompile, "src 0", "f.ts", first)
	for i := 1; i < cacheEntries+10; i++ {
		if i == cacheEntries-1 {
			c.get(plainCompile, "src 0", "f.ts") // used again: it stays
		}
		c.put(plainCompile, "src "+strconv.Itoa(i), "f.ts", &Program{})
	}
	if n := c.order.Len(); n != cacheEntries || len(c.index) != cacheEntries {
		t.Errorf("%d programs cached (%d indexed), want %d", n, len(c.index), cacheEntries)
	}
	if c.get(plainCompile, "src 0", "f.ts") != first {
		t.Errorf("the recently used program was evicted")
	}
	if c.get(plainCompile, "src 1", "f.ts") != nil {
		t.Errorf("the least recently used program was kept")
	}
	c.put(plainCompile, strings.Repeat("x", cacheMaxSource+1), "f.ts", &Program{})
	if c.get(plainCompile, strings.Repeat("x", cacheMaxSource+1), "f.ts") != nil {
		t.Errorf("a source over cacheMaxSource was cached")
	}
	big := newCache[*Program]()
	for i := range 100 {
		big.put(plainCompile, strings.Repeat("y", cacheMaxSource-10)+strconv.Itoa(i), "f.ts", &Program{})
	}
	if big.bytes > cacheBytes {
		t.Errorf("the cache holds %d bytes of source, over %d", big.bytes, cacheBytes)
	}
}

// TestProgramCacheKey checks that looking a program up copies neither
// source nor filename into a key (a source over cacheMaxSource, which is
// never cached, is not even looked up), and that a filename and a source
// are told apart whatever bytes they hold.
func TestProgramCacheKey(t *testing.T) {
	c := newCache[*Program]()
	p := &Program{}
	src := strings.Repeat("s", 1000)
	c.put(plainCompile, src, "f.ts", p)
	huge := strings.Repeat("h", cacheMaxSource+1)
	if n := testing.AllocsPerRun(100, func() {
		if c.get(plainCompile, src, "f.ts") != p || c.get(plainCompile, huge, "f.ts") != nil {
			t.Fatal("wrong program")
		}
	}); n != 0 {
		t.Errorf("a lookup allocates %v times, want 0", n)
	}
	c.put(plainCompile, "c", "a\x00b", p)
	if c.get(plainCompile, "b\x00c", "a") != nil {
		t.Errorf("filename a with source b\\x00c found the program of filename a\\x00b with source c")
	}
}

// TestSessionCompilesShareTransform checks that the runs of a session that
// compile the same snippet (under their own names, so as different
// Programs) share esbuild's output, which is most of a compile.
func TestSessionCompilesShareTransform(t *testing.T) {
	src := "const n: number = 1;\nn + 1" // types: esbuild is needed
	p1, d := CompileSessionNamed(src, "s.ts", "s.ts#1")
	if d != nil {
		t.Fatal(d)
	}
	p2, d := CompileSessionNamed(src, "s.ts", "s.ts#2")
	if d != nil {
		t.Fatal(d)
	}
	if p1 == p2 || p1.Name() == p2.Name() {
		t.Fatal("two runs' compiles gave one Program")
	}
	if p1.transformed == nil || p1.transformed != p2.transformed {
		t.Errorf("the second compile ran esbuild again (%p, %p)", p1.transformed, p2.transformed)
	}
}

// TestCompileSessionCached checks the cache of session compiles: the same
// snippet gives the same Program for the same filename and echo, and
// another for another of them or for the plain compile; every Program has
// a name of its own in goja's stacks, while its diagnostics and positions
// name the snippet's file.
func TestCompileSessionCached(t *testing.T) {
	src := "const n: number = 1;\nn + 1"
	first, d := CompileSessionCached(src, "c.ts", false)
	if d != nil {
		t.Fatal(d)
	}
	tests := []struct {
		name     string
		compile  func() (*Program, *Diagnostic)
		wantSame bool
	}{
		{"again", func() (*Program, *Diagnostic) { return CompileSessionCached(src, "c.ts", false) }, true},
		{"echo", func() (*Program, *Diagnostic) { return CompileSessionCached(src, "c.ts", true) }, false},
		{"another file", func() (*Program, *Diagnostic) { return CompileSessionCached(src, "d.ts", false) }, false},
		{"another source", func() (*Program, *Diagnostic) { return CompileSessionCached(src+" ", "c.ts", false) }, false},
		{"plain", func() (*Program, *Diagnostic) { return Compile(src, "c.ts") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, d := tt.compile()
			if d != nil {
				t.Fatal(d)
			}
			if same := p == first; same != tt.wantSame {
				t.Fatalf("same Program: %v, want %v", same, tt.wantSame)
			}
			if !tt.wantSame && p.Name() == first.Name() {
				t.Errorf("two Programs named %q", p.Name())
			}
		})
	}
	if !strings.HasPrefix(first.Name(), "c.ts#p") || len(first.Globals()) != 1 {
		t.Errorf("name %q, globals %v", first.Name(), first.Globals())
	}
	_, d = CompileSessionCached("const x = ;", "e.ts", false)
	if d == nil || d.File != "e.ts" || d.Line != 1 {
		t.Errorf("diagnostic %v, want one in e.ts at line 1", d)
	}
}

// BenchmarkSessionCompile measures compiling a session's snippet (the
// 30-line benchmark snippet, which has types): cached, as every run after
// the first that sends the same snippet (an MCP client's retry, a loop of
// the same check), and uncached, a new snippet each time (esbuild runs);
// shared/ with CompileSessionCached, which package runtime's sessions use
// (a cache hit is a lookup), the others under a new run's name with
// CompileSessionNamed (a hit shares esbuild's output; goja compiles).
func BenchmarkSessionCompile(b *testing.B) {
	for _, tc := range []struct {
		name string
		src  func(i int) string
	}{
		{"cached", func(int) string { return benchdata.Snippet30 }},
		{"uncached", func(i int) string { return benchdata.Snippet30 + "\n// " + strconv.Itoa(i) }},
	} {
		b.Run("shared/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if _, d := CompileSessionCached(tc.src(i), "s.ts", false); d != nil {
					b.Fatal(d)
				}
			}
		})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if _, d := CompileSessionNamed(tc.src(i), "s.ts", "s.ts#"+strconv.Itoa(i)); d != nil {
					b.Fatal(d)
				}
			}
		})
	}
}
