// Command codeexec runs TypeScript snippets whose tools are async functions,
// prints the system-prompt block that documents those functions, and lists
// the tools and the code_execution tool definition for each provider, and
// serves code_execution over MCP.
//
//	codeexec run [flags] FILE|-     run a file, or stdin
//	codeexec repl [flags]           run snippets in one session
//	codeexec prompt [flags]         print the system-prompt block
//	codeexec tools [--json]         list tools with signatures
//	codeexec schema --provider P    print the code_execution tool definition
//	codeexec mcp [--http ADDR]      serve code_execution over MCP (stdio or HTTP)
//	codeexec version
//
// Exit codes: 0 success, 1 the snippet failed (exception, timeout, limit),
// 2 usage or configuration error, 3 the source does not compile.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/codeexec/codeexec"
	// Its init starts the worker of a run early; see its doc.
	_ "github.com/codeexec/codeexec/cmd/codeexec/internal/early"
	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/workerproc"
)

func main() {
	// A process-isolation worker is this same binary, started again: it
	// serves the runs its pool sends and exits here.
	codeexec.Main()
	os.Exit(mainExit())
}

// mainExit runs the CLI against the real process and its terminal, and
// returns its exit code, once the worker package early started is gone
// (taken by the run's pool, or discarded here).
func mainExit() int {
	code := runProcess(isTerminal, openTTY)
	workerproc.Discard()
	return code
}

// runProcess runs the CLI against the real process, with the given ways to
// tell a terminal and to open one for questions (nil: there is none; the
// golden scripts run so, whatever terminal the tests were started from).
func runProcess(terminal func(any) bool, tty func() (io.ReadWriteCloser, error)) int {
	// SIGINT and SIGTERM cancel the command (see app.signalled); a
	// second one, or signalGrace after the first, ends the process.
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(interrupts)
	return (&app{
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		terminal:   terminal,
		openTTY:    tty,
		interrupts: interrupts,
		exitNow:    exitNow,
	}).main(context.Background(), os.Args[1:])
}

// exitNow ends the process at once with the exit code of sig, after
// killing every process codeexec started (bash commands, tools, MCP
// servers, workers) and what they left behind: a run that did not stop
// when it was cancelled is abandoned.
func exitNow(sig os.Signal, why string) {
	fmt.Fprintf(os.Stderr, "codeexec: %s: exiting without waiting for the run\n", why)
	procgroup.KillAll()
	os.Exit(signalExitCode(sig))
}

// isTerminal reports whether v, a stdin, stdout or stderr, is a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// openTTY opens the process's controlling terminal for --confirm's
// questions (not stdin, which may hold the snippet).
func openTTY() (io.ReadWriteCloser, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if !term.IsTerminal(int(f.Fd())) {
		f.Close()
		return nil, errors.New("/dev/tty is not a terminal")
	}
	return f, nil
}
