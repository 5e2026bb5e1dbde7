package transform

import (
	"container/list"
	"sync"
)

// Compiled programs are cached by filename and source, so that a snippet
// run again (a retry, a loop of the same check, a benchmark) skips esbuild
// and goja's compiler: a Program is immutable once compiled (its lazy
// parts are made under its lock) and goja runs one *goja.Program in many
// runtimes at once. A session's snippets are compiled under a name of
// their run's, so their Programs differ from run to run: what esbuild made
// of them is cached instead (transforms), which is most of a compile.
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

// cacheKey identifies a compiled program; its strings are the caller's,
// not copies.
type cacheKey struct{ filename, source string }

// size is what the key counts against cacheBytes.
func (k cacheKey) size() int { return len(k.filename) + len(k.source) }

// get returns the cached value of source and filename, or the zero value.
func (c *cache[V]) get(source, filename string) V {
	var zero V
	if len(source) > cacheMaxSource {
		return zero // never cached
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[cacheKey{filename, source}]
	if !ok {
		return zero
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached[V]).v
}

// put caches v, evicting the least recently used entries beyond the
// bounds; a source over cacheMaxSource is not cached.
func (c *cache[V]) put(source, filename string, v V) {
	if len(source) > cacheMaxSource {
		return
	}
	key := cacheKey{filename, source}
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
