package transform

import (
	"container/list"
	"sync"
)

// Compiled programs are cached by filename and source, so that a snippet
// run again (a retry, a loop of the same check, a benchmark) skips esbuild
// and goja's compiler: a Program is immutable once compiled (its lazy
// parts are made under its lock) and goja runs one *goja.Program in many
// runtimes at once.
const (
	// cacheEntries bounds how many programs the cache keeps.
	cacheEntries = 256
	// cacheBytes bounds the source text the cached programs hold.
	cacheBytes = 16 << 20
	// cacheMaxSource is the largest source that is cached.
	cacheMaxSource = 256 << 10
)

// programs is the process's cache of compiled programs.
var programs = &programCache{index: map[cacheKey]*list.Element{}, order: list.New()}

// programCache is a least-recently-used cache of compiled programs.
type programCache struct {
	mu    sync.Mutex
	index map[cacheKey]*list.Element // key -> element holding a *cached
	order *list.List                 // most recently used first
	bytes int
}

type cached struct {
	key cacheKey
	p   *Program
}

// cacheKey identifies a compiled program; its strings are the caller's,
// not copies.
type cacheKey struct{ filename, source string }

// size is what the key counts against cacheBytes.
func (k cacheKey) size() int { return len(k.filename) + len(k.source) }

// get returns the cached program of source and filename, or nil.
func (c *programCache) get(source, filename string) *Program {
	if len(source) > cacheMaxSource {
		return nil // never cached
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[cacheKey{filename, source}]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).p
}

// put caches p, evicting the least recently used programs beyond the
// bounds; a source over cacheMaxSource is not cached.
func (c *programCache) put(source, filename string, p *Program) {
	if len(source) > cacheMaxSource {
		return
	}
	key := cacheKey{filename, source}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.index[key]; ok {
		return
	}
	c.index[key] = c.order.PushFront(&cached{key: key, p: p})
	c.bytes += key.size()
	for c.order.Len() > cacheEntries || c.bytes > cacheBytes {
		last := c.order.Back()
		old := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.index, old.key)
		c.bytes -= old.key.size()
	}
}
