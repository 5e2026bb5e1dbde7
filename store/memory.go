package store

import (
	"context"
	"sync"
	"time"
)

// sweepBatch, sweepRounds and sweepInterval make a memory store's active
// expiry, beside the lazy check of every Get, like Redis's: at most every
// sweepInterval, a Put examines a sample of sweepBatch entries (Go's map
// iteration starts at a random place) and deletes the expired ones, and
// samples again while more than a quarter of a sample had expired, up to
// sweepRounds samples. A Put costs O(1) however many entries there are
// (a sample on every Put cost a stored session's call 3% of its CPU), and
// expired entries that nobody reads are still reclaimed over time, faster
// when many have expired.
const (
	sweepBatch    = 20
	sweepRounds   = 16
	sweepInterval = 100 * time.Millisecond
)

type memEntry struct {
	value   []byte
	version uint64
	expires time.Time
}

// memory is the memory: backend: one map under one mutex.
type memory struct {
	opts Options

	mu      sync.Mutex
	entries map[string]*memEntry
	seq     uint64    // the last version given out
	swept   time.Time // when a Put last swept
	closed  bool
}

func newMemory(opts Options) *memory {
	return &memory{opts: opts, entries: make(map[string]*memEntry)}
}

// live returns key's entry if it exists and has not expired, deleting it
// if it has. The caller holds m.mu.
func (m *memory) live(key string, now time.Time) *memEntry {
	e := m.entries[key]
	if e == nil {
		return nil
	}
	if !now.Before(e.expires) {
		delete(m.entries, key)
		return nil
	}
	return e
}

func (m *memory) Get(ctx context.Context, key string) (Entry, error) {
	if err := ValidKey(key); err != nil {
		return Entry{}, err
	}
	if err := ctxErr(ctx, "get", key); err != nil {
		return Entry{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Entry{}, closedErr("get")
	}
	e := m.live(key, m.opts.Now())
	if e == nil {
		return Entry{}, notFound(key)
	}
	return Entry{Value: append([]byte(nil), e.value...), Version: e.version, Expires: e.expires}, nil
}

func (m *memory) Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error) {
	ttl, err := checkPut(&m.opts, key, value, ttl)
	if err != nil {
		return 0, err
	}
	if err := ctxErr(ctx, "put", key); err != nil {
		return 0, err
	}
	v := append([]byte(nil), value...) // copied outside the lock
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, closedErr("put")
	}
	now := m.opts.Now()
	var have uint64
	if e := m.live(key, now); e != nil {
		have = e.version
	}
	if have != ifVersion {
		return 0, &ConflictError{Key: key, Want: ifVersion, Have: have}
	}
	m.sweep(now)
	m.seq++
	m.entries[key] = &memEntry{value: v, version: m.seq, expires: now.Add(ttl)}
	return m.seq, nil
}

// sweep deletes expired entries, sampled as sweepBatch describes, unless
// the last sweep was less than sweepInterval ago. The caller holds m.mu.
func (m *memory) sweep(now time.Time) {
	if now.Sub(m.swept) < sweepInterval {
		return
	}
	m.swept = now
	for range sweepRounds {
		n, expired := 0, 0
		for k, e := range m.entries {
			if !now.Before(e.expires) {
				delete(m.entries, k)
				expired++
			}
			if n++; n == sweepBatch {
				break
			}
		}
		if expired*4 <= n {
			return
		}
	}
}

func (m *memory) Delete(ctx context.Context, key string, ifVersion uint64) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	if err := ctxErr(ctx, "delete", key); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return closedErr("delete")
	}
	e := m.live(key, m.opts.Now())
	if e == nil {
		return notFound(key)
	}
	if ifVersion != 0 && e.version != ifVersion {
		return &ConflictError{Key: key, Want: ifVersion, Have: e.version}
	}
	delete(m.entries, key)
	return nil
}

func (m *memory) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return closedErr("ping")
	}
	return nil
}

func (m *memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.entries = nil
	return nil
}

// len returns how many entries the map holds, expired or not (for tests).
func (m *memory) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}
