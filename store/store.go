// Package store keeps what several processes share — sessions and paused
// runs that outlive the process that made them — behind one small
// interface, [Store], with three backends chosen by a URL given to [Open]:
//
//   - memory: entries in this process's memory; nothing touches the disk,
//     and nothing outlives the process.
//   - file:PATH — an embedded single-file store (bbolt) that survives
//     restarts; one process holds the file at a time.
//   - redis://HOST:PORT/DB — a Redis server that every replica of a fleet
//     shares.
//
// Every entry has a version, for optimistic concurrency (a Put or Delete
// names the version it read, and fails with [ErrConflict] if another
// writer got there first), an expiry, and a size bound ([ErrTooLarge]).
//
// The package imports nothing else of the module.
package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Store is a map from keys to versioned, expiring byte values, shared by
// the processes that open the same backend.
//
// Every Store is safe for concurrent use by multiple goroutines (and, for
// the file and Redis backends, its entries by the processes that open the
// same file one after the other, or the same Redis server at once).
// A method called after Close fails with an error that unwraps to
// [ErrClosed]. Every method that takes a context returns the context's
// error, wrapped, once it is done.
type Store interface {
	// Get returns the entry stored at key. A key that was never put, was
	// deleted or has expired gives an error that unwraps to [ErrNotFound].
	// The returned Entry's Value is the caller's own: the store keeps no
	// reference to it, and the caller may change it.
	Get(ctx context.Context, key string) (Entry, error)

	// Put stores value at key if the entry's current version is ifVersion,
	// and returns the entry's new version. ifVersion 0 means the key must
	// not exist (or has expired); otherwise it must exist with exactly that
	// version. If not, Put changes nothing and fails with a *[ConflictError]
	// (which unwraps to [ErrConflict]) naming the key and both versions. The
	// compare and the set are one atomic step, also across processes: of
	// several Puts that name the same version, exactly one succeeds.
	//
	// The entry expires ttl after the Put (the deadline is absolute: a
	// later Get does not extend it; a later Put sets a new one). ttl 0 means
	// the store's default, [Options.DefaultTTL]; a negative ttl is an error.
	// A value longer than [Options.MaxEntryBytes] fails with a
	// *[TooLargeError] (which unwraps to [ErrTooLarge]). Put does not keep
	// a reference to value.
	//
	// Versions are unique within a store and increase with every Put: a
	// key deleted and put again never gets back a version it had before, so
	// a writer holding a stale version cannot overwrite the new entry.
	Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error)

	// Delete removes the entry at key if its current version is ifVersion,
	// or whatever its version if ifVersion is 0. A missing (or expired) key
	// gives an error that unwraps to [ErrNotFound]; another version, a
	// *[ConflictError].
	Delete(ctx context.Context, key string, ifVersion uint64) error

	// Ping reports whether the store can serve requests now: for Redis,
	// that the server answers; for the others, that the store is open. It
	// is what a readiness probe asks.
	Ping(ctx context.Context) error

	// Close releases the store: the memory backend drops its entries, the
	// file backend stops its sweeper and releases the file (another process
	// may then open it), the Redis backend closes its connections. Close
	// waits for the store's own goroutines to end. A second Close returns
	// nil.
	Close() error
}

// Entry is one stored value with its version and expiry.
type Entry struct {
	// Value is the stored bytes, owned by the caller (see [Store.Get]).
	Value []byte
	// Version is the version Put returned when it stored Value; give it
	// to the next Put or Delete of the key.
	Version uint64
	// Expires is when the entry expires. For Redis it is computed from
	// the server's remaining time to live and this process's clock.
	Expires time.Time
}

var (
	// ErrNotFound is what a Get or Delete of a missing or expired key
	// unwraps to.
	ErrNotFound = errors.New("not found")
	// ErrConflict is what a *ConflictError unwraps to.
	ErrConflict = errors.New("version conflict")
	// ErrTooLarge is what a *TooLargeError unwraps to.
	ErrTooLarge = errors.New("value too large")
	// ErrClosed is what a call on a closed Store unwraps to.
	ErrClosed = errors.New("store is closed")
	// ErrInvalidKey is what a call with a key that breaks the rules of
	// [ValidKey] unwraps to.
	ErrInvalidKey = errors.New("invalid key")
)

// ConflictError is the error of a Put or Delete whose ifVersion is not the
// entry's current version. It unwraps to [ErrConflict].
type ConflictError struct {
	Key string
	// Want is the ifVersion the caller gave (0: the key must not exist).
	Want uint64
	// Have is the entry's current version (0: the key does not exist, or
	// has expired).
	Have uint64
}

// Error names the key and both versions.
func (e *ConflictError) Error() string {
	switch {
	case e.Want == 0:
		return fmt.Sprintf("store: key %q: version conflict: expected no entry, it has version %d", e.Key, e.Have)
	case e.Have == 0:
		return fmt.Sprintf("store: key %q: version conflict: expected version %d, the entry does not exist (deleted or expired)", e.Key, e.Want)
	default:
		return fmt.Sprintf("store: key %q: version conflict: expected version %d, it has version %d", e.Key, e.Want, e.Have)
	}
}

// Unwrap returns [ErrConflict].
func (e *ConflictError) Unwrap() error { return ErrConflict }

// TooLargeError is the error of a Put whose value is longer than the
// store's bound. It unwraps to [ErrTooLarge].
type TooLargeError struct {
	Key string
	// Size is the value's length and Max the bound, in bytes.
	Size, Max int
}

// Error names the key, the value's size and the bound.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("store: key %q: value of %d bytes is larger than the store's bound of %d bytes", e.Key, e.Size, e.Max)
}

// Unwrap returns [ErrTooLarge].
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Defaults of [Options].
const (
	DefaultMaxEntryBytes   = 16 << 20
	DefaultTTL             = 24 * time.Hour
	DefaultFileLockTimeout = 5 * time.Second
	DefaultSweepInterval   = time.Minute
	DefaultRedisKeyPrefix  = "codeexec:"
	maxKeyLen              = 512
)

// Options tune a store; the zero value takes every default.
type Options struct {
	// MaxEntryBytes bounds a value's length (DefaultMaxEntryBytes, 16 MiB,
	// when 0).
	MaxEntryBytes int
	// DefaultTTL is the time to live of a Put that gives ttl 0
	// (DefaultTTL, 24 hours, when 0).
	DefaultTTL time.Duration
	// FileLockTimeout bounds how long Open of file:PATH waits for another
	// process (or another Store in this one) to release the file
	// (DefaultFileLockTimeout, 5 s, when 0); then Open fails.
	FileLockTimeout time.Duration
	// SweepInterval is how often the file backend deletes expired entries
	// (DefaultSweepInterval, a minute, when 0).
	SweepInterval time.Duration
	// KeyPrefix is put before every key in Redis, so that one database
	// can serve several users (DefaultRedisKeyPrefix, "codeexec:", when
	// empty).
	KeyPrefix string
	// Now is the clock of the memory and file backends (time.Now when
	// nil), for tests that expire entries without waiting. Redis keeps
	// its own time.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.MaxEntryBytes <= 0 {
		o.MaxEntryBytes = DefaultMaxEntryBytes
	}
	if o.DefaultTTL <= 0 {
		o.DefaultTTL = DefaultTTL
	}
	if o.FileLockTimeout <= 0 {
		o.FileLockTimeout = DefaultFileLockTimeout
	}
	if o.SweepInterval <= 0 {
		o.SweepInterval = DefaultSweepInterval
	}
	if o.KeyPrefix == "" {
		o.KeyPrefix = DefaultRedisKeyPrefix
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Open opens the store that url names:
//
//   - "memory:" — in this process's memory;
//   - "file:PATH" (or "file:///ABSOLUTE/PATH") — the single file at PATH,
//     created if missing;
//   - "redis://[USER:PASSWORD@]HOST:PORT/DB" (or "rediss://" for TLS) — a
//     Redis server, which Open pings.
//
// Any other URL is an error naming its scheme and the supported ones.
func Open(ctx context.Context, rawURL string, opts Options) (Store, error) {
	opts = opts.withDefaults()
	scheme, rest, ok := strings.Cut(rawURL, ":")
	if !ok {
		return nil, fmt.Errorf("store: URL %q has no scheme: use memory:, file:PATH or redis://HOST:PORT/DB", rawURL)
	}
	switch strings.ToLower(scheme) {
	case "memory":
		if rest != "" {
			return nil, fmt.Errorf("store: URL %q: memory: takes nothing after the colon", rawURL)
		}
		return newMemory(opts), nil
	case "file":
		path := rest
		if strings.HasPrefix(rest, "//") {
			u, err := url.Parse(rawURL)
			if err != nil {
				return nil, fmt.Errorf("store: URL %q: %w", rawURL, err)
			}
			if u.Host != "" && u.Host != "localhost" {
				return nil, fmt.Errorf("store: URL %q: a file URL names a local path (file:PATH or file:///PATH), not host %q", rawURL, u.Host)
			}
			path = u.Path
		}
		if path == "" {
			return nil, fmt.Errorf("store: URL %q: file: needs a path (file:PATH)", rawURL)
		}
		return openFile(ctx, path, opts)
	case "redis", "rediss":
		return openRedis(ctx, rawURL, opts)
	default:
		return nil, fmt.Errorf("store: unsupported store URL %q (scheme %q): use memory:, file:PATH or redis://HOST:PORT/DB", rawURL, scheme)
	}
}

// ValidKey reports whether key may be stored: 1 to 512 bytes, each a
// printable ASCII character other than space (0x21 to 0x7E). Callers build
// keys from a kind and an id, such as "session/4f2a…" or "state/9c1e…".
func ValidKey(key string) error {
	if key == "" {
		return fmt.Errorf("store: %w: the key is empty", ErrInvalidKey)
	}
	if len(key) > maxKeyLen {
		return fmt.Errorf("store: %w: the key is %d bytes long, more than %d", ErrInvalidKey, len(key), maxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x21 || c > 0x7e {
			return fmt.Errorf("store: %w: key %q has byte 0x%02x at %d (keys are printable ASCII without spaces)", ErrInvalidKey, key, c, i)
		}
	}
	return nil
}

// checkPut validates a Put's arguments and resolves its ttl.
func checkPut(opts *Options, key string, value []byte, ttl time.Duration) (time.Duration, error) {
	if err := ValidKey(key); err != nil {
		return 0, err
	}
	if len(value) > opts.MaxEntryBytes {
		return 0, &TooLargeError{Key: key, Size: len(value), Max: opts.MaxEntryBytes}
	}
	if ttl < 0 {
		return 0, fmt.Errorf("store: key %q: negative ttl %v", key, ttl)
	}
	if ttl == 0 {
		ttl = opts.DefaultTTL
	}
	return ttl, nil
}

func ctxErr(ctx context.Context, op, key string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s %q: %w", op, key, err)
	}
	return nil
}

func notFound(key string) error {
	return fmt.Errorf("store: key %q: %w", key, ErrNotFound)
}

func closedErr(op string) error {
	return fmt.Errorf("store: %s: %w", op, ErrClosed)
}
