package main

import (
	"context"
	"fmt"
	"slices"
)

// The synopsis and about text of each command, printed by COMMAND --help.
const (
	runSynopsis = `  codeexec run [flags] FILE|-
  codeexec run [flags] -e CODE`
	runAbout = `Run a TypeScript or JavaScript snippet from FILE, from stdin ('-'), or from
--eval, with the tools bound as async functions. Console output streams to
stdout and stderr; a returned value is then printed as console.log would.
With --pause FILE, a call that needs input (a --confirm approval, a
--caller-tools tool) pauses the run: its state goes to FILE, and
'codeexec resume FILE' goes on (see codeexec resume --help).
Exit codes: 0 success, 1 the snippet failed, 2 usage error, 3 compile error,
4 the run paused.
SIGINT (Ctrl-C) or SIGTERM stops the run; a second one, or 5s without the
run stopping (native code it cannot interrupt), ends codeexec at once with
exit code 130 (SIGINT) or 143 (SIGTERM).`

	promptSynopsis = `  codeexec prompt [flags]`
	promptAbout    = `Print the system-prompt block that tells a model how to call the tools
from a snippet. It documents exactly the tools that run, given the same tool
flags, binds.`

	toolsSynopsis = `  codeexec tools [flags]`
	toolsAbout    = `List the tools a snippet can call, with their call signatures and where
they come from.`

	schemaSynopsis = `  codeexec schema --provider NAME [flags]`
	schemaAbout    = `Print the code_execution tool definition, in the function-calling format of
the provider NAME.`

	versionSynopsis = `  codeexec version`
	versionAbout    = `Print the version of codeexec.`

	helpSynopsis = `  codeexec help [COMMAND]`
	helpAbout    = `Print the usage of codeexec, or of COMMAND (the same as codeexec COMMAND --help).`
)

// durationHelp says what a duration flag accepts; it ends every flag usage
// that takes DUR.
const durationHelp = "DUR is a duration such as 500ms, 30s, 2m or 1m30s.\n"

// version implements `codeexec version`.
func (a *app) version(args []string) error {
	fs := a.newFlagSet("version", versionSynopsis, versionAbout)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version", "version takes no arguments, got %q", fs.Args())
	}
	_, err := fmt.Fprintf(a.stdout, "codeexec %s\n", version)
	return err
}

// help implements `codeexec help [COMMAND]`: the top-level usage, or the
// usage COMMAND --help prints.
func (a *app) help(ctx context.Context, args []string) error {
	fs := a.newFlagSet("help", helpSynopsis, helpAbout)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		_, err := fmt.Fprint(a.stdout, usage)
		return err
	case 1:
	default:
		return usagef("help", "help takes one command, got %q", fs.Args())
	}
	cmd := fs.Arg(0)
	if !slices.Contains(commands, cmd) {
		return unknownCommand(cmd)
	}
	_, err := a.command(ctx, cmd, []string{"--help"})
	return err
}
