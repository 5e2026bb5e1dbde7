package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// resolve turns a path given by a model into a clean, slash-separated path
// relative to the root ("." for the root itself). It refuses paths with a NUL
// byte, absolute paths outside the root and paths that climb out with "..".
// Symbolic links are not looked at here: os.Root refuses those that lead
// outside when the path is used.
func (t *Toolset) resolve(tool, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("%s: path %s contains a NUL byte; pass a plain path relative to the root, such as \"src/main.go\"", tool, strconv.Quote(p))
	}
	if p == "" {
		return "", fmt.Errorf("%s: path is empty; pass a path relative to the root, such as \"src/main.go\" (\".\" is the root)", tool)
	}
	if filepath.IsAbs(p) {
		clean := filepath.Clean(p)
		for _, base := range []string{t.abs, t.real} {
			if rel, err := filepath.Rel(base, clean); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return filepath.ToSlash(rel), nil
			}
		}
		return "", t.outsideErr(tool, p)
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", t.outsideErr(tool, p)
	}
	return clean, nil
}

// outsideErr is the error for a path that lies outside the root.
func (t *Toolset) outsideErr(tool, p string) error {
	return fmt.Errorf("%s: path %s is outside the root directory %s; only paths inside it can be used (relative to it, e.g. \"src/main.go\")", tool, strconv.Quote(p), t.abs)
}

// isEscape reports whether err is os.Root refusing a path that leads outside
// the root. The standard library does not export that error, so its text is
// the only way to tell it apart.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// fsError turns an error from the file system into a message for the model.
// what names the kind of thing expected at rel ("file", "directory", "path")
// and is used in the not-found message.
func (t *Toolset) fsError(tool, what, rel string, err error) error {
	q := strconv.Quote(rel)
	var se *specialError
	switch {
	case errors.As(err, &se):
		return &specialError{tool: tool, rel: se.rel, mode: se.mode}
	case isEscape(err):
		return fmt.Errorf("%s: path %s leads outside the root directory %s (through a symbolic link or \"..\"); only files inside the root can be used", tool, q, t.abs)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return notFound(tool, what, rel)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied for %s", tool, q)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: path %s has too many levels of symbolic links", tool, q)
	case errors.Is(err, fs.ErrClosed):
		return fmt.Errorf("%s: the tools have been shut down (root closed)", tool)
	}
	return fmt.Errorf("%s %s: %w", tool, q, err)
}

// notFound is the error for a missing path, with a hint on how to look for it.
func notFound(tool, what, rel string) error {
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	return fmt.Errorf("%s: %s %s not found; use ls(%s) or find(%s) to locate it",
		tool, what, strconv.Quote(rel), strconv.Quote(dir), strconv.Quote("**/"+base))
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+@%=:,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openRead opens rel for reading and returns it with its file info. It opens
// with O_NONBLOCK so that a FIFO or device cannot block the call; callers
// refuse anything that is not a regular file (see special).
func (t *Toolset) openRead(rel string) (*os.File, fs.FileInfo, error) {
	return t.openFile(rel, os.O_RDONLY, 0)
}

// openFile opens rel with flag (O_NONBLOCK added, so that opening a FIFO or
// a device cannot block) and returns it with its file info. A special file
// that cannot be opened that way is a *specialError.
func (t *Toolset) openFile(rel string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := t.root.OpenFile(rel, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			// A socket, a named pipe opened for writing without a reader,
			// or a device without a driver.
			if fi, serr := t.root.Stat(rel); serr == nil && special("", rel, fi) != nil {
				return nil, fi, &specialError{rel: rel, mode: fi.Mode()}
			}
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// special returns the error every file tool gives for rel when fi, its
// file info (symbolic links followed), is neither a regular file nor a
// directory: a named pipe, socket, device or other special file, which
// could block a call or have side effects when opened, read or written. It
// returns nil for regular files and directories.
func special(tool, rel string, fi fs.FileInfo) error {
	m := fi.Mode()
	if m.IsRegular() || m.IsDir() {
		return nil
	}
	return &specialError{tool: tool, rel: rel, mode: m}
}

// specialError is special's error; fsError passes it through, naming the
// tool when it was opened without one.
type specialError struct {
	tool, rel string
	mode      fs.FileMode
}

func (e *specialError) Error() string {
	return fmt.Sprintf("%s: %s is not a regular file but %s; the file tools refuse named pipes, sockets and devices (use bash if you really mean it)",
		e.tool, strconv.Quote(e.rel), fileKind(e.mode))
}

// fileKind names the type of a special file for a message.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}
