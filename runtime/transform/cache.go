package transform

import (
	"container/list"
	"sync"
)

// Compiled programs are cached by filename and source, so that a snippet
// run again (a retry, a loop of the same check, a benchmark) skips esbuild
// and goja's compiler: a Program is immutable once compiled (its lazy
// parts are made under its lock) and goja runs one *goja.Program in many
// runtimes at once. A session's snippets are cached apart from the plain
// compiles of the same source (the session rewrite makes other code), each
// Program under a name of its own in goja's stacks (see
// CompileSessionCached); what esbuild made of a snippet is cached too
// (transforms), shared by the kinds of compile and by the uncached
// CompileSessionNamed.
const (
	// cacheEntries bounds how many programs the cache keeps.
	cacheEntries = 256
	// cacheBytes bounds the source text the cached programs hold.
	cacheBytes = 16 << 20
	// cacheMaxSource is the largest source that is cached.
	cacheMaxSource = 256 << 10
)

// programs is the process's cache of compiled programs.
var programs = newCache[*Program]()

// transforms is the process's cache of esbuild's output, for the
// compiles that programs does not serve (session snippets).
var transforms = newCache[*transformed]()

// cache is a least-recently-used cache of what a compile made of a
// snippet, by filename and source. Safe for concurrent use.
type cache[V comparable] struct {
	mu    sync.Mutex
	index map[cacheKey]*list.Element // key -> element holding a *cached
	order *list.List                 // most recently used first
	bytes int
}

type cached[V any] struct {
	key cacheKey
	v   V
}

func newCache[V comparable]() *cache[V] {
	return &cache[V]{index: map[cacheKey]*list.Element{}, order: list.New()}
}

// compileKind is what a compile makes of a snippet: a plain program, a
// session's (hoisted top-level declarations) or an echoing session's.
type compileKind uint8

const (
	plainCompile compileKind = iota
	sessionCompile
	echoCompile
)

// cacheKey identifies a compiled program; its strings are the caller's,
// not copies.
type cacheKey struct {
	filename, source string
	kind             compileKind
}

// size is what the key counts against cacheBytes.
func (k cacheKey) size() int { return len(k.filename) + len(k.source) }

// get returns the cached value of kind, source and filename, or the zero
// value.
func (c *cache[V]) get(kind compileKind, source, filename string) V {
	var zero V
	if len(source) > cacheMaxSource {
		return zero // never cached
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[cacheKey{filename, source, kind}]
	if !ok {
		return zero
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached[V]).v
}

// put caches v, evicting the least recently used entries beyond the
// bounds; a source over cacheMaxSource is not cached.
func (c *cache[V]) put(kind compileKind, source, filename string, v V) {
	if len(source) > cacheMaxSource {
		return
	}
	key := cacheKey{filename, source, kind}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.index[key]; ok {
		return
	}
	c.index[key] = c.order.PushFront(&cached[V]{key: key, v: v})
	c.bytes += key.size()
	for c.order.Len() > cacheEntries || c.bytes > cacheBytes {
		last := c.order.Back()
		old := last.Value.(*cached[V])
		c.order.Remove(last)
		delete(c.index, old.key)
		c.bytes -= old.key.size()
	}
}
