package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codeexec/codeexec/builtin"
)

// stateLockSuffix names the lock file of a --state FILE: FILE.lock.
const stateLockSuffix = ".lock"

// errStateChanged is wrapped in the error of a --state save that found the
// file changed since the run loaded it.
var errStateChanged = errors.New("another process changed the file since this run loaded it")

// errLockUnsupported is wrapped in the error of lockFile where this system
// or file system cannot lock a file.
var errLockUnsupported = errors.New("file locking is not supported here")

// heldState is a --state file held by one run, from before its session
// loads until after the session is saved back. Two safeguards keep runs
// that share the file (started at once, by one agent or several) from
// losing each other's committed planning steps, in both isolation modes
// (the session lives in the CLI process either way; only the snippet runs
// in the worker):
//
//   - A lock: an exclusive flock(2) on FILE.lock, a sibling file created
//     on first use and never removed (removing it would let a run that
//     waits on the old file and one that creates a new one both hold "the
//     lock"). It is taken before the session loads, waiting while another
//     run holds it (saying so on stderr) until the run's context ends,
//     and released after the session is saved: runs on one file take
//     turns, and each loads what the one before it saved.
//   - A check: just before saving, the file is read again and must hold
//     the bytes it held when the session loaded (or still not exist).
//     Otherwise the save fails with errStateChanged and leaves the file as
//     it is. This catches the writers the lock cannot: an editor, a
//     snippet's own write to the file, and every writer where flock is
//     unavailable (then there is no lock, only the check, and a writer
//     that slips in between the check and the rename still wins).
//
// A run whose session did not change writes nothing back, so it cannot
// conflict with anyone. A corrupt file fails the load and is never
// written.
type heldState struct {
	path    string
	unlock  func() // nil: not locked
	existed bool   // the file existed when loaded
	loaded  []byte // its bytes then
	encoded []byte // the session's encoding then
}

// openState locks the --state file at path and loads its session (a new
// one when the file does not exist); waiting is called if the lock is
// held by another process. Close the heldState when done, after save.
func openState(ctx context.Context, path string, waiting func(lockPath string)) (*heldState, *builtin.Session, error) {
	h := &heldState{path: path}
	lockPath := path + stateLockSuffix
	unlock, err := lockFile(ctx, lockPath, func() { waiting(lockPath) })
	switch {
	case errors.Is(err, errLockUnsupported):
		// Only the check at save guards the file.
	case err != nil:
		return nil, nil, fmt.Errorf("--state %s: %w", path, err)
	}
	h.unlock = unlock
	s, err := h.load()
	if err != nil {
		h.close()
		return nil, nil, err
	}
	return h, s, nil
}

// load reads the session saved in the file; a missing file is a new
// session, and a corrupt one is an error (the file is left alone).
func (h *heldState) load() (*builtin.Session, error) {
	b, err := os.ReadFile(h.path)
	if errors.Is(err, os.ErrNotExist) {
		s := &builtin.Session{}
		h.encoded, err = encodeSession(s)
		return s, err
	}
	if err != nil {
		return nil, fmt.Errorf("--state: %w", err)
	}
	s, err := builtin.LoadSession(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("--state %s: %w (the file was left unchanged; fix or remove it)", h.path, err)
	}
	h.existed, h.loaded = true, b
	h.encoded, err = encodeSession(s)
	return s, err
}

// save writes s back to the file atomically (a temporary file in the same
// directory, renamed over it), unless s is what was loaded from the file.
// If the file changed since it was loaded, it writes nothing and fails
// with errStateChanged.
func (h *heldState) save(s *builtin.Session) error {
	b, err := encodeSession(s)
	if err != nil {
		return err
	}
	if h.existed && bytes.Equal(b, h.encoded) {
		return nil
	}
	now, err := os.ReadFile(h.path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("save --state %s: %w", h.path, err)
	}
	if exists != h.existed || !bytes.Equal(now, h.loaded) {
		return fmt.Errorf("save --state %s: %w; this run's planning changes were not saved, and the file was left as it is", h.path, errStateChanged)
	}
	if err := replaceFile(h.path, b); err != nil {
		return fmt.Errorf("save --state: %w", err)
	}
	return nil
}

// replaceFile writes data to path, readable by its owner only, replacing
// what was there in one rename: a reader sees the old file or the new
// one, never a part; nothing is left behind on an error.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Close()); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// close releases the lock, if it is held.
func (h *heldState) close() {
	if h.unlock != nil {
		h.unlock()
		h.unlock = nil
	}
}

// encodeSession is what Save writes for s.
func encodeSession(s *builtin.Session) ([]byte, error) {
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		return nil, fmt.Errorf("save --state: %w", err)
	}
	return buf.Bytes(), nil
}
