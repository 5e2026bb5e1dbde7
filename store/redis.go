package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// The Redis backend keeps an entry in a hash at PREFIX + "e:" + key, with
// fields "val" (the value) and "ver" (its version), and Redis's own time to
// live on the hash; the counter PREFIX + "seq" gives out versions. Put and
// Delete are Lua scripts, so the compare and the set are one atomic step on
// the server. (Both keys are named in KEYS, but they do not share a hash
// slot: the backend is for one Redis server or a primary with replicas, not
// Redis Cluster.)

// putScript: KEYS entry, seq; ARGV value, ifVersion, ttl in ms.
// Returns {1, newVersion} or {0, currentVersion}.
var putScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], 'ver')
local have = 0
if cur then have = tonumber(cur) end
if have ~= tonumber(ARGV[2]) then return {0, have} end
local nv = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'val', ARGV[1], 'ver', nv)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, nv}
`)

// deleteScript: KEYS entry; ARGV ifVersion. Returns -1 when the key is
// missing, 0 when it deleted it, the current version on a conflict.
var deleteScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], 'ver')
if not cur then return -1 end
local want = tonumber(ARGV[1])
if want ~= 0 and tonumber(cur) ~= want then return tonumber(cur) end
redis.call('DEL', KEYS[1])
return 0
`)

type redisStore struct {
	opts   Options
	addr   string // for errors: host:port/db, without credentials
	client *redis.Client
	closed atomic.Bool
}

func openRedis(ctx context.Context, rawURL string, opts Options) (*redisStore, error) {
	ro, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: redis URL: %w (use redis://[USER:PASSWORD@]HOST:PORT/DB)", err)
	}
	// No CLIENT SETINFO and no maintenance-notification handshake: both
	// are optional, and a server that refuses them makes go-redis log to
	// the process's stderr.
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	s := &redisStore{opts: opts, addr: fmt.Sprintf("%s/%d", ro.Addr, ro.DB), client: redis.NewClient(ro)}
	if err := s.client.Ping(ctx).Err(); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("store: open redis %s: %w", s.addr, err)
	}
	return s, nil
}

func (s *redisStore) key(key string) string { return s.opts.KeyPrefix + "e:" + key }

func (s *redisStore) wrap(op, key string, err error) error {
	if s.closed.Load() || errors.Is(err, redis.ErrClosed) {
		return closedErr(op)
	}
	return fmt.Errorf("store: %s %q in redis %s: %w", op, key, s.addr, err)
}

func (s *redisStore) Get(ctx context.Context, key string) (Entry, error) {
	if err := ValidKey(key); err != nil {
		return Entry{}, err
	}
	if s.closed.Load() {
		return Entry{}, closedErr("get")
	}
	var fields *redis.SliceCmd
	var ttl *redis.DurationCmd
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		fields = p.HMGet(ctx, s.key(key), "val", "ver")
		ttl = p.PTTL(ctx, s.key(key))
		return nil
	})
	if err != nil {
		return Entry{}, s.wrap("get", key, err)
	}
	now := time.Now()
	vals := fields.Val()
	val, ok1 := vals[0].(string)
	ver, ok2 := vals[1].(string)
	if !ok1 || !ok2 {
		return Entry{}, notFound(key)
	}
	version, err := strconv.ParseUint(ver, 10, 64)
	if err != nil {
		return Entry{}, s.wrap("get", key, fmt.Errorf("corrupt version %q", ver))
	}
	e := Entry{Value: []byte(val), Version: version}
	if d := ttl.Val(); d > 0 {
		e.Expires = now.Add(d)
	}
	return e, nil
}

func (s *redisStore) Put(ctx context.Context, key string, value []byte, ifVersion uint64, ttl time.Duration) (uint64, error) {
	ttl, err := checkPut(&s.opts, key, value, ttl)
	if err != nil {
		return 0, err
	}
	if s.closed.Load() {
		return 0, closedErr("put")
	}
	ms := ttl.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	res, err := putScript.Run(ctx, s.client, []string{s.key(key), s.opts.KeyPrefix + "seq"}, value, ifVersion, ms).Int64Slice()
	if err != nil {
		return 0, s.wrap("put", key, err)
	}
	if len(res) != 2 {
		return 0, s.wrap("put", key, fmt.Errorf("unexpected reply %v", res))
	}
	if res[0] == 0 {
		return 0, &ConflictError{Key: key, Want: ifVersion, Have: uint64(res[1])}
	}
	return uint64(res[1]), nil
}

func (s *redisStore) Delete(ctx context.Context, key string, ifVersion uint64) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	if s.closed.Load() {
		return closedErr("delete")
	}
	res, err := deleteScript.Run(ctx, s.client, []string{s.key(key)}, ifVersion).Int64()
	switch {
	case err != nil:
		return s.wrap("delete", key, err)
	case res < 0:
		return notFound(key)
	case res > 0:
		return &ConflictError{Key: key, Want: ifVersion, Have: uint64(res)}
	}
	return nil
}

func (s *redisStore) Ping(ctx context.Context) error {
	if s.closed.Load() {
		return closedErr("ping")
	}
	if err := s.client.Ping(ctx).Err(); err != nil {
		return s.wrap("ping", "", err)
	}
	return nil
}

func (s *redisStore) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if err := s.client.Close(); err != nil {
		return fmt.Errorf("store: close redis %s: %w", s.addr, err)
	}
	return nil
}
