package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/runtime/transform"
)

const (
	replSynopsis = `  codeexec repl [flags]`
	replAbout    = `Run snippets one after another in one session: what a snippet declares at
its top level (const, let, var, function, class) and puts on globalThis is
there for the next one, as in Node's REPL. Each snippet's output, value and
error print as 'codeexec run' prints them; a snippet that ends with an
expression has its value as its value, as Node's REPL prints it ('1 + 1'
prints 2; a promise is awaited).

On a terminal, it reads snippets with line editing and history; an input
that is not a complete statement yet continues on the next line ('...');
Ctrl-C during a run stops that run (what it declared may be lost: the next
run says so), and Ctrl-D (or Ctrl-C at the prompt) ends the session.

When stdin is not a terminal, it reads all of stdin as a sequence of
snippets separated by lines that hold only '---', and runs them in order.
Exit codes: 0 every snippet succeeded, 1 one failed, 2 usage error.`

	// snippetSeparator separates the snippets of a piped repl input.
	snippetSeparator = "---"
)

// repl implements `codeexec repl`.
func (a *app) repl(ctx context.Context, args []string) (int, error) {
	fs := a.newFlagSet("repl", replSynopsis, replAbout)
	var rf runnerFlags
	rf.register(fs, "where the session runs, a `MODE`: process (one worker process, with a hard memory limit, for the whole session) or none (this process)")
	rf.store.register(fs, "", "the session (each snippet and its tool-call log), so that a later repl with the same --store and --session goes on with it")
	name := fs.String("session", "repl", "the session's `NAME` in the --store: a repl started again with the same store and name goes on with it")
	if err := a.parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("repl", "repl takes no arguments (it reads snippets from stdin)")
	}
	if err := rf.check(); err != nil {
		return 0, err
	}
	if fs.Changed("session") && rf.store.url == "" {
		return 0, usagef("repl", "--session names a session in a store: give --store URL")
	}
	if err := rf.store.open(ctx); err != nil {
		return 0, err
	}
	defer rf.store.close()
	_, stopTracing, err := a.tracing(ctx, &rf, a.warnTraces)
	if err != nil {
		return 0, err
	}
	defer stopTracing()
	runner, set, err := a.startRunner(ctx, &rf, 0, nil)
	if err != nil {
		return 0, err
	}
	defer runner.Close()
	defer set.Close()
	session := runner.NewSession()
	if rf.store.st != nil {
		if session, err = runner.OpenSession(codeexec.SessionOptions{ID: *name, New: true}); err != nil {
			return 0, usagef("repl", "--session: %v", err)
		}
	}
	defer session.Close()
	if f, ok := a.stdin.(*os.File); ok && a.terminal != nil && a.terminal(f) {
		return a.interactive(ctx, session, f)
	}
	return a.piped(ctx, session)
}

// runSnippet runs one snippet of the session and prints what it gave as
// `codeexec run` does, and returns its result.
func (a *app) runSnippet(ctx context.Context, s *codeexec.Session, source string, n int) *codeexec.Result {
	res := s.Run(ctx, source, codeexec.RunOptions{
		Filename: fmt.Sprintf("repl%d.ts", n),
		Stdout:   a.stdout, Stderr: a.stderr,
		Echo: true,
	})
	a.printResult(res)
	return res
}

// piped runs the snippets of stdin, separated by lines holding only
// snippetSeparator, in order, each as soon as its separator (or the end of
// stdin) is read, so that a harness can pipe snippets one at a time.
// Snippets that hold only white space are skipped.
func (a *app) piped(ctx context.Context, s *codeexec.Session) (int, error) {
	code, n := exitOK, 0
	err := eachSnippet(a.stdin, func(src string) bool {
		if ctx.Err() != nil {
			code = exitFailed
			return false
		}
		n++
		if a.runSnippet(ctx, s, src, n).Error != nil {
			code = exitFailed
		}
		return true
	})
	if err != nil {
		return 0, fmt.Errorf("read snippets: %w", err)
	}
	return code, nil
}

// splitSnippets reads r and splits it at lines that hold only
// snippetSeparator (a trailing \r is allowed), dropping blank snippets.
func splitSnippets(r io.Reader) ([]string, error) {
	var snippets []string
	err := eachSnippet(r, func(src string) bool {
		snippets = append(snippets, src)
		return true
	})
	return snippets, err
}

// eachSnippet reads r and calls f with each snippet, as splitSnippets
// splits them, as soon as it is read, until f returns false.
func eachSnippet(r io.Reader, f func(string) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), codeexec.DefaultMaxSourceBytes*4)
	var cur strings.Builder
	flush := func() bool {
		src := cur.String()
		cur.Reset()
		return strings.TrimSpace(src) == "" || f(src)
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSuffix(line, "\r") == snippetSeparator {
			if !flush() {
				return nil
			}
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return err
	}
	flush()
	return nil
}

// incomplete reports whether source stops in the middle of a statement (an
// open bracket or block, a template literal, a comment), so that a
// terminal reads on.
func incomplete(source string) bool {
	_, d := transform.Compile(source, "repl.ts")
	if d == nil {
		return false
	}
	// The parser ran past the input: at its end, or (for a template
	// literal or a comment, which the wrapper's closing line then falls
	// into) on a line after the last one that holds anything.
	lines := len(transform.SplitLines(strings.TrimRight(source, " \t\r\n")))
	return strings.Contains(strings.ToLower(d.Message), "end of file") || d.Line > lines
}

// interactive reads snippets from the terminal in, with line editing and
// history, until Ctrl-D or Ctrl-C at the prompt, or until ctx ends. The
// terminal is in raw mode only while a line is read: a run prints in the
// terminal's normal mode, where Ctrl-C interrupts the run, not the repl
// (the run ends with a CanceledError, printed as any error; a run stopped
// in the middle usually ends its session, and the next run says that it
// starts a new one).
func (a *app) interactive(ctx context.Context, s *codeexec.Session, in *os.File) (int, error) {
	fd := int(in.Fd())
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, a.stdout}, "> ")
	fmt.Fprintln(a.stdout, "codeexec repl: state carries from one snippet to the next. Ctrl-D ends it.")
	code := exitOK
	for n := 1; ctx.Err() == nil; n++ {
		source, err := readSnippet(t, fd)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(a.stdout)
			return code, nil
		}
		if err != nil {
			return 0, fmt.Errorf("read from the terminal: %w", err)
		}
		if strings.TrimSpace(source) == "" {
			n--
			continue
		}
		runCtx, interrupt := context.WithCancel(ctx)
		restore := a.whileInterrupted(interrupt)
		res := a.runSnippet(runCtx, s, source, n)
		restore()
		interrupt()
		if res.Error != nil {
			code = exitFailed
		}
	}
	return exitFailed, nil
}

// readSnippet reads lines until they make a complete snippet, with the
// terminal in raw mode meanwhile.
func readSnippet(t *term.Terminal, fd int) (string, error) {
	state, err := term.MakeRaw(fd)
	if err != nil {
		return "", err
	}
	defer func() { _ = term.Restore(fd, state) }()
	var b strings.Builder
	t.SetPrompt("> ")
	for {
		line, err := t.ReadLine()
		if err != nil && !errors.Is(err, term.ErrPasteIndicator) {
			if b.Len() > 0 && errors.Is(err, io.EOF) {
				// Ctrl-C or Ctrl-D in a continued input drops it.
				return "", nil
			}
			return "", err
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if !incomplete(b.String()) {
			return b.String(), nil
		}
		t.SetPrompt("... ")
	}
}
