package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The file backend keeps three buckets in one bbolt file:
//
//   - meta: "format" -> fileFormat, so that Open refuses a bbolt file of
//     another program;
//   - entries: key -> version (8 bytes) | expiry in Unix nanoseconds (8
//     bytes) | value; the bucket's sequence is the last version given out;
//   - expiry: expiry (8 bytes) | key -> nothing, the index the sweeper
//     walks in order of expiry.
//
// All integers are big-endian.
var (
	bucketMeta    = []byte("meta")
	bucketEntries = []byte("entries")
	bucketExpiry  = []byte("expiry")
	keyFormat     = []byte("format")
)

const (
	fileFormat = "codeexec-store/1"
	// fileSweepBatch bounds the entries one sweep transaction deletes, so
	// that a sweep never holds the writer lock for long.
	fileSweepBatch = 1000
)

// file is the file:PATH backend.
type file struct {
	opts   Options
	path   string
	db     *bolt.DB
	closed atomic.Bool

	closeOnce sync.Once
	stop      chan struct{}
	done      chan struct{}
}

func openFile(ctx context.Context, path string, opts Options) (*file, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store: open file:%s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.FileLockTimeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("store: open file:%s: another process (or another open store in this one) holds the file; gave up after %v: %w", path, opts.FileLockTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open file:%s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return fmt.Errorf("the file is a bbolt database of another program")
			}
			if meta, err = tx.CreateBucket(bucketMeta); err != nil {
				return err
			}
			if err := meta.Put(keyFormat, []byte(fileFormat)); err != nil {
				return err
			}
		} else if f := meta.Get(keyFormat); string(f) != fileFormat {
			return fmt.Errorf("the file has format %q, this program reads %q", f, fileFormat)
		}
		if _, err := tx.CreateBucketIfNotExists(bucketEntries); err != nil {
			return err
		}
		_, err := tx.CreateBucketIfNotExists(bucketExpiry)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open file:%s: %w", path, err)
	}
	f := &file{opts: opts, path: path, db: db, stop: make(chan struct{}), done: make(chan struct{})}
	go f.sweeper()
	return f, nil
}

func encodeRecord(version uint64, expires time.Time, value []byte) []byte {
	b := make([]byte, 16+len(value))
	binary.BigEndian.PutUint64(b, version)
	binary.BigEndian.PutUint64(b[8:], uint64(expires.UnixNano()))
	copy(b[16:], value)
	return b
}

// decodeRecord splits a stored record; value aliases rec.
func decodeRecord(rec []byte) (version uint64, expires time.Time, value []byte, err error) {
	if len(rec) < 16 {
		return 0, time.Time{}, nil, fmt.Errorf("corrupt record of %d bytes", len(rec))
	}
	return binary.BigEndian.Uint64(rec), time.Unix(0, int64(binary.BigEndian.Uint64(rec[8:]))), rec[16:], nil
}

func expiryKey(expires time.Time, key string) []byte {
	b := make([]byte, 8+len(key))
	binary.BigEndian.PutUint64(b, uint64(expires.UnixNano()))
	copy(b[8:], key)
	return b
}

// wrap turns bbolt's error on a closed database into ErrClosed.
func (f *file) wrap(op, key string, err error) error {
	if f.closed.Load() || errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return closedErr(op)
	}
	return fmt.Errorf("store: %s %q in file:%s: %w", op, key, f.path, err)
}

// current returns key's live record in tx, or nil; an expired one counts
// as missing.
func current(tx *bolt.Tx, key string, now time.Time) (version uint64, expires time.Time, value []byte, err error) {
	rec := tx.Bucket(bucketEntries).Get([]byte(key))
	if rec == nil {
		return 0, time.Time{}, nil, nil
	}
	version, expires, value, err = decodeRecord(rec)
	if err != nil {
		return 0, time.Time{}, nil, err
	}
	if !now.Before(expires) {
		return 0, expires, nil, nil
	}
	return version, expires, value, nil
}

func (f *file) Get(ctx context.Context, key string) (Entry, error) {
	if err := ValidKey(key); err != nil {
		return Entry{}, err
	}
	if err := ctxErr(ctx, "get", key); err != nil {
		return Entry{}, err
	}
	if f.closed.Load() {
		return Entry{}, closedErr("get")
	}
	var e Entry
	err := f.db.View(func(tx *bolt.Tx) error {
		version, expires, value, err := current(tx, key, f.opts.Now())
		if err != nil || version == 0 {
			return err
		}
		// value lives in the mmap only while tx is open: copy it.
		e = Entry{Value: bytes.Clone(value), Version: version, Expires: expires}
		if e.Value == nil {
			e.Value = []byte{}
		}
		return nil
	})
	if err != nil {
		return Entry{}, f.wrap("get", key, err)
	}
	if e.Version == 0 {
		return Entry{}, notFound(key)
	}
	return e, nil
}

func (f *file) Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error) {
	ttl, err := checkPut(&f.opts, key, value, ttl)
	if err != nil {
		return 0, err
	}
	if err := ctxErr(ctx, "put", key); err != nil {
		return 0, err
	}
	if f.closed.Load() {
		return 0, closedErr("put")
	}
	var version uint64
	var conflict *ConflictError
	err = f.db.Update(func(tx *bolt.Tx) error {
		now := f.opts.Now()
		have, oldExpires, _, err := current(tx, key, now)
		if err != nil {
			return err
		}
		if have != ifVersion {
			conflict = &ConflictError{Key: key, Want: ifVersion, Have: have}
			return nil
		}
		entries, index := tx.Bucket(bucketEntries), tx.Bucket(bucketExpiry)
		if !oldExpires.IsZero() {
			if err := index.Delete(expiryKey(oldExpires, key)); err != nil {
				return err
			}
		}
		if version, err = entries.NextSequence(); err != nil {
			return err
		}
		expires := now.Add(ttl)
		if err := entries.Put([]byte(key), encodeRecord(version, expires, value)); err != nil {
			return err
		}
		return index.Put(expiryKey(expires, key), nil)
	})
	if err != nil {
		return 0, f.wrap("put", key, err)
	}
	if conflict != nil {
		return 0, conflict
	}
	return version, nil
}

func (f *file) Delete(ctx context.Context, key string, ifVersion uint64) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	if err := ctxErr(ctx, "delete", key); err != nil {
		return err
	}
	if f.closed.Load() {
		return closedErr("delete")
	}
	var result error
	err := f.db.Update(func(tx *bolt.Tx) error {
		have, expires, _, err := current(tx, key, f.opts.Now())
		if err != nil {
			return err
		}
		switch {
		case have == 0:
			result = notFound(key)
			return nil
		case ifVersion != 0 && have != ifVersion:
			result = &ConflictError{Key: key, Want: ifVersion, Have: have}
			return nil
		}
		if err := tx.Bucket(bucketExpiry).Delete(expiryKey(expires, key)); err != nil {
			return err
		}
		return tx.Bucket(bucketEntries).Delete([]byte(key))
	})
	if err != nil {
		return f.wrap("delete", key, err)
	}
	return result
}

func (f *file) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.closed.Load() {
		return closedErr("ping")
	}
	if err := f.db.View(func(*bolt.Tx) error { return nil }); err != nil {
		return f.wrap("ping", "", err)
	}
	return nil
}

func (f *file) Close() error {
	var err error
	f.closeOnce.Do(func() {
		f.closed.Store(true)
		close(f.stop)
		<-f.done
		if err = f.db.Close(); err != nil {
			err = fmt.Errorf("store: close file:%s: %w", f.path, err)
		}
	})
	return err
}

// sweeper deletes expired entries every SweepInterval until Close.
func (f *file) sweeper() {
	defer close(f.done)
	t := time.NewTicker(f.opts.SweepInterval)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		for {
			n, err := f.sweep()
			if err != nil || n < fileSweepBatch {
				break
			}
			select {
			case <-f.stop:
				return
			default:
			}
		}
	}
}

// sweep deletes up to fileSweepBatch expired entries in one transaction
// and returns how many it deleted.
func (f *file) sweep() (int, error) {
	n := 0
	err := f.db.Update(func(tx *bolt.Tx) error {
		now := uint64(f.opts.Now().UnixNano())
		entries, index := tx.Bucket(bucketEntries), tx.Bucket(bucketExpiry)
		c := index.Cursor()
		for k, _ := c.First(); k != nil && n < fileSweepBatch; k, _ = c.First() {
			if len(k) < 8 || binary.BigEndian.Uint64(k) > now {
				return nil
			}
			if err := entries.Delete(k[8:]); err != nil {
				return err
			}
			if err := c.Delete(); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// count returns how many records the file holds, expired or not (for
// tests).
func (f *file) count() (entries, index int) {
	_ = f.db.View(func(tx *bolt.Tx) error {
		entries = tx.Bucket(bucketEntries).Stats().KeyN
		index = tx.Bucket(bucketExpiry).Stats().KeyN
		return nil
	})
	return entries, index
}
