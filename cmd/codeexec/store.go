package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/store"
)

// storeFlag is --store: where a command keeps sessions and paused runs
// (see package store).
type storeFlag struct {
	url string
	st  store.Store
}

// register defines --store on fs with the default def ("" for none) and
// what the store keeps for the command.
func (sf *storeFlag) register(fs *pflag.FlagSet, def, keeps string) {
	fs.StringVar(&sf.url, "store", def, "keep "+keeps+" in the store at `URL`: memory: (this process), file:PATH (one file that survives restarts) or redis://HOST:PORT/DB (shared by every replica)")
}

// open opens the store the flag names, if any; close it with close.
func (sf *storeFlag) open(ctx context.Context) error {
	if sf.url == "" {
		return nil
	}
	// go-redis logs a lost connection to the standard logger; the store's
	// errors say it where it matters.
	redis.SetLogger(quietRedis{})
	st, err := store.Open(ctx, sf.url, store.Options{})
	if err != nil {
		return fmt.Errorf("--store: %w", err)
	}
	sf.st = st
	return nil
}

// close closes the store, if one is open.
func (sf *storeFlag) close() {
	if sf.st != nil {
		_ = sf.st.Close()
	}
}

// quietRedis is go-redis's logger: nothing.
type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

// handleMagic opens a --pause file that holds a handle of a paused run's
// state in the store, not the state itself.
const handleMagic = "codeexec-handle/1 "

// stateKeyPrefix is the store key prefix of paused runs' states.
const stateKeyPrefix = "state/"

// keepState puts a paused run's state in the store and returns what the
// --pause file then holds: its handle.
func (sf *storeFlag) keepState(ctx context.Context, state []byte) ([]byte, error) {
	key := stateKeyPrefix + codeexec.NewSessionID()
	if _, err := sf.st.Put(ctx, key, state, 0, codeexec.DefaultStateTTL); err != nil {
		return nil, fmt.Errorf("keep the state in the store: %w", err)
	}
	return []byte(handleMagic + key + "\n"), nil
}

// takeState returns the state that a --pause file's content names: the
// content itself, or the state its handle names in the store, and the
// store key of the latter ("" for the former).
func (sf *storeFlag) takeState(ctx context.Context, content []byte) ([]byte, string, error) {
	rest, ok := bytes.CutPrefix(content, []byte(handleMagic))
	if !ok {
		return content, "", nil
	}
	key := string(bytes.TrimSpace(rest))
	if sf.st == nil {
		return nil, "", fmt.Errorf("it is a handle of a state kept in a store (%s): give the store with --store URL", key)
	}
	e, err := sf.st.Get(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, "", fmt.Errorf("the store has no state %s: it was resumed already, or it expired (states live %s)", key, codeexec.DefaultStateTTL)
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the state from the store: %w", err)
	}
	return e.Value, key, nil
}

// dropState deletes a resumed run's state from the store: a state resumes
// once.
func (sf *storeFlag) dropState(key string) {
	if key == "" || sf.st == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = sf.st.Delete(ctx, key, 0)
}
