// Package builtin provides codeexec's stock tools — read, write, edit, bash,
// grep, ls and find — confined to one root directory.
//
// Every file access of read, write, edit, grep, ls and find goes through an
// [os.Root], so "..", absolute paths outside the root and symbolic links that
// lead outside it are refused by the operating-system layer, not by string
// checks; the tools turn those refusals into messages a model can act on.
// Absolute paths that lie inside the root are accepted and made relative.
// Paths in output are relative to the root and use forward slashes.
//
// bash is not a confinement boundary: it runs a shell whose working directory
// is the root, and the shell can reach anything the host process can. It runs
// in a process group of its own, which is killed on timeout, on cancellation
// and when the shell exits, so nothing it started in the background outlives
// the call; on Linux that includes processes that left the group (setsid, a
// double fork). bash needs process groups, so a Unix system: elsewhere
// (Windows) its calls fail with an error that says so.
//
// read, write and edit follow symbolic links that stay inside the root; grep,
// find and ls list links but never descend into them.
//
// Outputs are data a snippet parses. Listings (grep, ls, find) are lines
// joined with "\n" without a trailing newline, and an empty string when there
// is nothing to list. When an output is cut, one line in square brackets says
// what was left out and how to get the rest: the last line for listings and
// read windows, which keep the head, and the first line for bash, which keeps
// the tail.
//
// In listings, a path or name is printed as is unless it contains a control
// character (U+0000 to U+001F, U+007F to U+009F) or invalid UTF-8, or starts
// with a double quote: then it is printed as a JSON string literal (double
// quotes, "\n", "\t", "\u001b" and so on; invalid UTF-8 bytes become
// "\ufffd"), so a name can never make a line of its own or pass for another
// one, and JSON.parse gives the name back. ls, find and grep all print names
// this way.
//
// The file tools work on regular files (and directories, for the tools that
// list or search them): a named pipe, socket, device or other special file
// is refused at once by every tool, without being read, written or waited on.
// write and edit refuse to produce a file larger than MaxFileBytes, and say
// so before the file is touched.
package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/codeexec/codeexec/registry"
)

// Defaults applied by Open to zero Options fields.
const (
	// DefaultBashTimeout is how long bash waits when the call gives no timeout.
	DefaultBashTimeout = 120 * time.Second
	// DefaultMaxBashTimeout caps the timeout a bash call may ask for.
	DefaultMaxBashTimeout = 10 * time.Minute
	// DefaultMaxOutputBytes caps the output of bash, grep, ls and find.
	DefaultMaxOutputBytes = 50 << 10
	// DefaultMaxReadBytes caps what read returns: a larger file must be read
	// in windows. It is larger than DefaultMaxOutputBytes because read's text
	// goes to the snippet (which may parse and filter it), not to the model.
	DefaultMaxReadBytes = 1 << 20
	// DefaultGrepLimit is how many matching lines grep returns by default.
	DefaultGrepLimit = 200
	// DefaultFindLimit is how many paths find returns by default.
	DefaultFindLimit = 1000
	// DefaultMaxFileBytes caps the files write and edit produce, the files
	// edit loads, and how much of one line grep searches.
	DefaultMaxFileBytes = 64 << 20
)

// Options configure the built-in tools. Zero fields take the Default values.
type Options struct {
	// Root is the directory the tools are confined to; "" means the working
	// directory.
	Root string
	// BashTimeout is bash's timeout when a call gives none
	// (DefaultBashTimeout); it is lowered to MaxBashTimeout if larger.
	BashTimeout time.Duration
	// MaxBashTimeout caps a call's own timeout; a larger request is lowered
	// to it (DefaultMaxBashTimeout).
	MaxBashTimeout time.Duration
	// MaxOutputBytes caps the output of bash (keeping the tail), grep, ls and
	// find (keeping the head), not counting the one notice line
	// (DefaultMaxOutputBytes).
	MaxOutputBytes int
	// MaxReadBytes caps read: a larger file without a window is an error,
	// and a window is cut at this size with a notice (DefaultMaxReadBytes).
	MaxReadBytes int
	// MaxFileBytes is the largest file write and edit produce: a call whose
	// file would be larger fails with an error naming the limit, before the
	// file is touched (edit computes the new size before building the new
	// content). It also caps the file edit loads and how much of one line
	// grep holds and searches; grep says which lines it did not search
	// whole (DefaultMaxFileBytes).
	MaxFileBytes int
	// Env is bash's environment as "KEY=value" strings; nil inherits the
	// host process's environment at the time of each call.
	Env []string
}

// Toolset owns the opened root directory and the tools bound to it. Its tools
// may be called concurrently; Close must not be called while calls are in
// flight (calls after Close fail).
type Toolset struct {
	root  *os.Root
	fsys  fs.FS
	abs   string // absolute root path as given
	real  string // abs with symbolic links resolved
	shell string
	opts  Options
}

// Open opens opts.Root (the working directory if empty) with os.OpenRoot and
// returns the tools bound to it. It fails if the root does not exist or is not
// a directory, or if an option is negative.
func Open(opts Options) (*Toolset, error) {
	dir := opts.Root
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("builtin: working directory: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("builtin: root %q: %w", dir, err)
	}
	if opts.BashTimeout < 0 || opts.MaxBashTimeout < 0 || opts.MaxOutputBytes < 0 || opts.MaxReadBytes < 0 || opts.MaxFileBytes < 0 {
		return nil, errors.New("builtin: options must not be negative")
	}
	if opts.BashTimeout == 0 {
		opts.BashTimeout = DefaultBashTimeout
	}
	if opts.MaxBashTimeout == 0 {
		opts.MaxBashTimeout = DefaultMaxBashTimeout
	}
	if opts.BashTimeout > opts.MaxBashTimeout {
		opts.BashTimeout = opts.MaxBashTimeout
	}
	if opts.MaxOutputBytes == 0 {
		opts.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if opts.MaxReadBytes == 0 {
		opts.MaxReadBytes = DefaultMaxReadBytes
	}
	if opts.MaxFileBytes == 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("builtin: open root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	t := &Toolset{root: root, fsys: root.FS(), abs: abs, real: real, opts: opts}
	t.shell = "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		t.shell = p
	}
	return t, nil
}

// Root returns the absolute path of the root directory.
func (t *Toolset) Root() string { return t.abs }

// Close releases the root directory. Tool calls made afterwards fail.
func (t *Toolset) Close() error { return t.root.Close() }

// Tools returns the seven tools bound to the root, in the order read, write,
// edit, bash, grep, ls, find, each with Source "builtin" and a CallSignature.
// Each call returns a new slice.
func (t *Toolset) Tools() []registry.Tool {
	return []registry.Tool{
		t.readTool(),
		t.writeTool(),
		t.editTool(),
		t.bashTool(),
		t.grepTool(),
		t.lsTool(),
		t.findTool(),
	}
}
