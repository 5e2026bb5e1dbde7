// Command codeexec runs TypeScript snippets whose tools are async functions,
// prints the system-prompt block that documents those functions, and lists
// the tools and the code_execution tool definition for each provider.
//
//	codeexec run [flags] FILE|-     run a file, or stdin
//	codeexec repl [flags]           run snippets in one session
//	codeexec prompt [flags]         print the system-prompt block
//	codeexec tools [--json]         list tools with signatures
//	codeexec schema --provider P    print the code_execution tool definition
//	codeexec version
//
// Exit codes: 0 success, 1 the snippet failed (exception, timeout, limit),
// 2 usage or configuration error, 3 the source does not compile.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/codeexec/codeexec/isolation"
)

func main() {
	// A process-isolation worker is this same binary, started again: it
	// serves one run and exits here.
	isolation.Main()
	os.Exit(mainExit())
}

// mainExit runs the CLI against the real process and returns its exit code.
func mainExit() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return (&app{
		stdin:  os.Stdin,
		stdout: os.Stdout,
		stderr: os.Stderr,
	}).main(ctx, os.Args[1:])
}
