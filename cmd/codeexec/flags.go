package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/internal/suggest"
)

// commands are the CLI's commands, the candidates for "did you mean".
var commands = []string{"run", "resume", "repl", "prompt", "tools", "schema", "mcp", "version", "help"}

// usageError is a mistake on the command line: main prints it followed by a
// pointer to the help of the command it concerns (cmd, or the top level
// when cmd is empty).
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usageError of cmd with a formatted message.
func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, args...)}
}

// helpPointer is the line that follows a usage error of cmd.
func helpPointer(cmd string) string {
	if cmd == "" {
		return "Run 'codeexec --help' for usage."
	}
	return fmt.Sprintf("Run 'codeexec %s --help' for usage.", cmd)
}

// unknownCommand is the error for an unknown command (or top-level flag)
// name, with the closest names if any is close.
func unknownCommand(name string) error {
	if strings.HasPrefix(name, "-") {
		msg := fmt.Sprintf("unknown flag %s", name)
		if s := closeNames(strings.TrimLeft(name, "-"), []string{"help", "version"}); len(s) > 0 {
			return usagef("", "%s; did you mean %s?", msg, orList(s, "--"))
		}
		return usagef("", "%s (a command's flags follow it: codeexec COMMAND %s)", msg, name)
	}
	if s := closeNames(name, commands); len(s) > 0 {
		return usagef("", "unknown command %q; did you mean %s?", name, orList(s, ""))
	}
	return usagef("", "unknown command %q", name)
}

// parseFlags parses args into fs. A request for help prints the usage to
// stdout and returns pflag.ErrHelp; any other error is a usageError of the
// command fs belongs to, worded for a person: unknown flags come with the
// closest names, bad values with what the flag accepts.
func (a *app) parseFlags(fs *pflag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, pflag.ErrHelp) {
		return err
	}
	return &usageError{cmd: fs.Name(), err: flagError(fs, err)}
}

// flagError rewords an error of fs.Parse.
func flagError(fs *pflag.FlagSet, err error) error {
	var (
		notExist *pflag.NotExistError
		invalid  *pflag.InvalidValueError
		noValue  *pflag.ValueRequiredError
	)
	switch {
	case errors.As(err, &notExist):
		return unknownFlag(fs, notExist)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		switch f.Value.Type() {
		case "duration":
			return fmt.Errorf("--%s: want a duration such as 500ms, 30s, 2m or 1m30s, got %q", f.Name, invalid.GetValue())
		case "int":
			return fmt.Errorf("--%s: want a whole number, got %q", f.Name, invalid.GetValue())
		case "bool":
			return fmt.Errorf("--%s: want true or false, got %q", f.Name, invalid.GetValue())
		}
		// The other values (byteSize) say what they accept themselves.
		return fmt.Errorf("--%s: %w", f.Name, errors.Unwrap(invalid))
	case errors.As(err, &noValue):
		if noValue.GetSpecifiedShortnames() != "" {
			return fmt.Errorf("-%s needs a value", noValue.GetSpecifiedName())
		}
		return fmt.Errorf("--%s needs a value", noValue.GetSpecifiedName())
	}
	return err
}

// unknownFlag words an unknown flag of fs, suggesting the closest long
// flag names. A single-dash word such as -timeout is taken for a long flag
// written with one dash.
func unknownFlag(fs *pflag.FlagSet, e *pflag.NotExistError) error {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	names = append(names, "help")

	group := e.GetSpecifiedShortnames()
	if group == "" {
		name := e.GetSpecifiedName()
		if s := closeNames(name, names); len(s) > 0 {
			return fmt.Errorf("unknown flag --%s; did you mean %s?", name, orList(s, "--"))
		}
		return fmt.Errorf("unknown flag --%s", name)
	}
	if len(group) == 1 {
		return fmt.Errorf("unknown flag -%s", group)
	}
	word, _, _ := strings.Cut(group, "=")
	if slices.Contains(names, word) {
		return fmt.Errorf("unknown flag -%s; did you mean --%s? (long flags take two dashes)", word, word)
	}
	if s := closeNames(word, names); len(s) > 0 {
		return fmt.Errorf("unknown flag -%s; did you mean %s?", word, orList(s, "--"))
	}
	return fmt.Errorf("unknown flag -%s in -%s", e.GetSpecifiedName(), group)
}

// closeNames returns the candidates closest to s by edit distance (adjacent
// transpositions count as one edit), when they are close: at most one edit
// per three characters of s, and at least one. Without a close candidate
// it falls back to the only candidate that s begins, if s has three
// characters or more. Ties are all returned, in candidates' order.
func closeNames(s string, candidates []string) []string {
	if len(s) < 2 {
		return nil
	}
	limit := max(1, len(s)/3)
	best := limit + 1
	var out []string
	for _, c := range candidates {
		switch d := suggest.Distance(s, c, limit); {
		case d > limit:
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	if len(out) > 0 || len(s) < 3 {
		return out
	}
	for _, c := range candidates {
		if strings.HasPrefix(c, s) {
			out = append(out, c)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}

// orList joins names as "A", "A or B", "A, B or C", each with prefix.
func orList(names []string, prefix string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = prefix + n
		if prefix == "" {
			quoted[i] = strconv.Quote(n)
		}
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// byteUnits are the units a size may end with, matched without regard to
// case; a bare number is bytes.
var byteUnits = []struct {
	name  string
	scale int64
}{
	{"B", 1},
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
}

// bytesHelp says what parseBytes accepts; it ends every flag usage that
// takes BYTES.
const bytesHelp = "BYTES is a whole number of bytes, optionally followed by a unit:\n" +
	"B, KiB, MiB, GiB (powers of 1024) or KB, MB, GB (powers of 1000),\n" +
	"in any case, such as 65536, 64KiB, 512MiB or 2GB.\n"

// parseBytes reads a positive size: a whole number of bytes, optionally
// followed (with or without a space) by one of byteUnits. It is the one
// parser of every byte-size flag. K, M and G alone are refused as
// ambiguous (tools disagree on whether they mean 1000 or 1024).
func parseBytes(s string) (int64, error) {
	num := strings.TrimSpace(s)
	i := strings.IndexFunc(num, func(r rune) bool { return r < '0' || r > '9' })
	unit := ""
	if i >= 0 {
		num, unit = num[:i], strings.TrimSpace(num[i:])
	}
	scale := int64(-1)
	for _, u := range byteUnits {
		if strings.EqualFold(unit, u.name) {
			scale = u.scale
		}
	}
	if unit == "" {
		scale = 1
	}
	switch {
	case scale < 0 && len(unit) == 1 && strings.ContainsAny(unit, "kKmMgG"):
		u := strings.ToUpper(unit)
		return 0, fmt.Errorf("unit %q is ambiguous: write %s%siB (powers of 1024) or %s%sB (powers of 1000), got %q", unit, num, u, num, u, s)
	case scale < 0:
		return 0, fmt.Errorf("want a positive size in bytes such as 65536, 512MiB or 2GB (units B, KiB, MiB, GiB, KB, MB, GB), got %q", s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive size in bytes such as 65536, 512MiB or 2GB (units B, KiB, MiB, GiB, KB, MB, GB), got %q", s)
	}
	if n > math.MaxInt64/scale {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * scale, nil
}

// formatBytes writes n in the largest binary unit that divides it, so that
// formatBytes(1<<20) is "1MiB" and parseBytes reads it back.
func formatBytes(n int64) string {
	for _, u := range []struct {
		name  string
		scale int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.scale == 0 {
			return fmt.Sprintf("%d%s", n/u.scale, u.name)
		}
	}
	return strconv.FormatInt(n, 10)
}

// byteSize is a flag value of type T read by parseBytes, stored in *p.
type byteSize[T int | int64] struct{ p *T }

// Set implements pflag.Value.
func (b byteSize[T]) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	if int64(T(n)) != n {
		return fmt.Errorf("size %q is too large", s)
	}
	*b.p = T(n)
	return nil
}

// String implements pflag.Value.
func (b byteSize[T]) String() string {
	if b.p == nil {
		return "0"
	}
	return formatBytes(int64(*b.p))
}

// Type implements pflag.Value; a flag usage shows it where it names no
// placeholder.
func (b byteSize[T]) Type() string { return "BYTES" }

// bytesFlag defines on fs a byte-size flag with default def, read by
// parseBytes, and returns where parsing stores it.
func bytesFlag[T int | int64](fs *pflag.FlagSet, name string, def T, usage string) *T {
	p := new(T)
	*p = def
	fs.Var(byteSize[T]{p}, name, usage)
	return p
}

// check refuses what toolset.Open would take otherwise: a time limit of
// zero (the flags' defaults are explicit, so a zero is a mistake, not a
// request for the default) for executable tools or MCP servers in use,
// and an explicitly named path that is empty, or that is not an existing
// directory: --root and each --tools-dir. A flag left unset is not
// checked; toolset.Open checks the rest (--root with --no-builtins, the
// --mcp-config file).
func (tf *toolFlags) check(fs *pflag.FlagSet) error {
	switch {
	case tf.mcpConfig != "" && tf.mcpTimeout <= 0:
		return fmt.Errorf("--mcp-timeout must be positive, got %s", tf.mcpTimeout)
	case len(tf.toolsDirs) > 0 && tf.schemaTimeout <= 0:
		return fmt.Errorf("--schema-timeout must be positive, got %s", tf.schemaTimeout)
	}
	if fs.Changed("root") {
		if err := checkDir("root", tf.root); err != nil {
			return err
		}
	}
	for _, dir := range tf.toolsDirs {
		if err := checkDir("tools-dir", dir); err != nil {
			return err
		}
	}
	return nil
}

// checkDir returns a usage error naming flag and path when path is empty
// or not a directory.
func checkDir(flag, path string) error {
	if path == "" {
		return fmt.Errorf("--%s: the path is empty", flag)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("--%s %s: no such directory", flag, path)
	case err != nil:
		return fmt.Errorf("--%s %s: %v", flag, path, err)
	case !fi.IsDir():
		return fmt.Errorf("--%s %s: not a directory", flag, path)
	}
	return nil
}

// checkStatePath refuses a --state path that cannot be loaded and saved
// back: empty, a directory, or in a directory that does not exist (which
// would only fail after the snippet ran).
func checkStatePath(path string) error {
	if path == "" {
		return fmt.Errorf("--state: the path is empty")
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--state %s: is a directory, not a file", path)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--state %s: no such directory %s to save it in", path, dir)
	}
	return nil
}

// process is what a snippet's process global shows under these flags:
// process.cwd() is the tools' root (the working directory without
// --root), and process.env holds no host variable.
func (tf *toolFlags) process() codeexec.ProcessOptions {
	root := tf.root
	if root == "" {
		root, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return codeexec.ProcessOptions{Cwd: root}
}
