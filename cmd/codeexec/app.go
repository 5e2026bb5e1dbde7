package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/external"
	"github.com/codeexec/codeexec/registry/mcptools"
	"github.com/codeexec/codeexec/toolset"
)

// Exit codes of the CLI.
const (
	exitOK        = 0
	exitFailed    = 1 // the snippet threw, timed out or hit a limit
	exitUsage     = 2 // bad flags, arguments or configuration
	exitNoCompile = 3 // the source does not compile
)

// version is the CLI's version; release builds set it with -ldflags.
var version = "dev"

// app holds every process touch point, so tests can run the CLI in process.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// terminal reports whether f, one of stdin, stdout and stderr, is a
	// terminal (stderr: for the status line of a long run; stdin: for the
	// repl's line editing); nil means none is.
	terminal func(f any) bool
	// openTTY opens the terminal that --confirm asks on; nil, or an error,
	// means there is none.
	openTTY func() (io.ReadWriteCloser, error)
	// interrupts delivers Ctrl-C (SIGINT) and SIGTERM. SIGINT cancels the
	// command, or only what onInterrupt says while one is set (see main);
	// SIGTERM cancels the command. nil: none come.
	interrupts <-chan os.Signal
	// exitNow, when set, ends the process at once, killing what it
	// started, with the exit code of sig: what a second signal does
	// while the first has not taken effect, and the first one too once
	// signalGrace has passed (see signalled). nil: signals never end the
	// process by themselves.
	exitNow func(sig os.Signal, why string)

	mu          sync.Mutex
	onInterrupt func() // what an interrupt does instead, while set
	pending     bool   // a signal cancelled something that has not ended
	grace       *time.Timer
	// extraGrace is what the command may take beyond signalGrace to stop
	// after a signal (mcp --http's drain; see allowDrain).
	extraGrace time.Duration
}

// signalGrace is how long a signal may take to stop what it cancelled
// before the process ends by itself (native code that a cancellation
// cannot interrupt, such as a regular expression goja runs, spins on).
// A variable only so that the tests' CLI, spinning a CPU meanwhile, waits
// less (see TestMain); defaultSignalGrace is what `run --help` states.
var signalGrace = defaultSignalGrace

// defaultSignalGrace is signalGrace outside the tests.
const defaultSignalGrace = 5 * time.Second

// signalled does what sig does now. While a signal cancelled something
// that has not ended yet (the command, or the repl's run), another one
// ends the process at once; otherwise sig cancels the command (SIGTERM,
// or SIGINT without onInterrupt) or calls onInterrupt (SIGINT), and ends
// the process after signalGrace (and the command's extraGrace) unless
// what it cancelled ends first.
func (a *app) signalled(sig os.Signal, cancel context.CancelFunc) {
	a.mu.Lock()
	if a.pending && a.exitNow != nil {
		a.mu.Unlock()
		a.exitNow(sig, fmt.Sprintf("a second signal (%s)", signalName(sig)))
		return
	}
	f := a.onInterrupt
	if f == nil || sig == syscall.SIGTERM {
		f = cancel
	}
	a.pending = true
	if a.exitNow != nil {
		grace := signalGrace + a.extraGrace
		fmt.Fprintf(a.stderr, "codeexec: %s: stopping (a second signal, or %v, ends codeexec at once)\n", signalName(sig), grace)
		a.grace = time.AfterFunc(grace, func() {
			a.exitNow(sig, fmt.Sprintf("%s did not stop the run within %v", signalName(sig), grace))
		})
	}
	a.mu.Unlock()
	f()
}

// signalName names sig as the shell does.
func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// signalExitCode is the exit code of a process that sig ended, as the
// shell reports it: 128 plus the signal's number.
func signalExitCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
}

// whileInterrupted makes an interrupt call f instead of cancelling the
// command, until the returned function is called; by then what f
// cancels has ended, so a signal that cancelled it no longer counts as
// pending.
func (a *app) whileInterrupted(f func()) (restore func()) {
	a.mu.Lock()
	a.onInterrupt = f
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		a.onInterrupt = nil
		a.pending = false
		if a.grace != nil {
			a.grace.Stop()
			a.grace = nil
		}
		a.mu.Unlock()
	}
}

const usage = `codeexec runs TypeScript snippets whose tools are async functions.

Usage:
  codeexec run [flags] FILE|-     run a file, or stdin ('-')
  codeexec run [flags] -e CODE    run CODE
  codeexec resume FILE [flags]    go on with a run that paused (run --pause)
  codeexec repl [flags]           run snippets in one session (state carries)
  codeexec prompt [flags]         print the system-prompt block
  codeexec tools [flags]          list tools with signatures
  codeexec schema --provider P    print the code_execution tool definition
  codeexec mcp [--http ADDR]      serve code_execution over MCP (stdio or HTTP)
  codeexec version                print the version
  codeexec help [COMMAND]         print this, or the usage of COMMAND

Run 'codeexec COMMAND --help' for the flags of a command.
Exit codes: 0 success, 1 the snippet failed, 2 usage error, 3 compile error,
4 the run paused to wait for input (run --pause).
SIGINT (Ctrl-C) or SIGTERM stops the command (in the repl, Ctrl-C the run);
a second one, or 5s without it stopping, ends codeexec at once (130, 143).
`

// main dispatches to a command and returns the exit code.
func (a *app) main(ctx context.Context, args []string) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if a.interrupts != nil {
		// The signals are read until main returns, not only until the
		// command is cancelled: a second one must still be seen.
		returned := make(chan struct{})
		var reader sync.WaitGroup
		defer reader.Wait()
		defer close(returned)
		reader.Go(func() {
			for {
				select {
				case sig := <-a.interrupts:
					a.signalled(sig, cancel)
				case <-returned:
					return
				}
			}
		})
		defer func() {
			a.mu.Lock()
			if a.grace != nil {
				a.grace.Stop()
			}
			a.mu.Unlock()
		}()
	}
	if len(args) == 0 {
		fmt.Fprint(a.stderr, usage)
		return exitUsage
	}
	code, err := a.command(ctx, args[0], args[1:])
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		// Every error outside the snippet itself is a problem with the
		// command line or the configuration (tools, root, state file).
		fmt.Fprintf(a.stderr, "codeexec: %v\n", err)
		if ue := (*usageError)(nil); errors.As(err, &ue) {
			fmt.Fprintln(a.stderr, helpPointer(ue.cmd))
		}
		return exitUsage
	}
	return code
}

// command runs the command cmd with its arguments. It returns the exit
// code of a run, or an error for main to report (pflag.ErrHelp once the
// command printed its usage).
func (a *app) command(ctx context.Context, cmd string, args []string) (int, error) {
	switch cmd {
	case "run":
		return a.run(ctx, args)
	case "repl":
		return a.repl(ctx, args)
	case "resume":
		return a.resume(ctx, args)
	case "prompt":
		return exitOK, a.prompt(ctx, args)
	case "tools":
		return exitOK, a.listTools(ctx, args)
	case "schema":
		return exitOK, a.schema(ctx, args)
	case "mcp":
		return exitOK, a.mcpServe(ctx, args)
	case "version":
		return exitOK, a.version(args)
	case "--version":
		_, err := fmt.Fprintf(a.stdout, "codeexec %s\n", version)
		return exitOK, err
	case "help":
		return exitOK, a.help(ctx, args)
	case "-h", "--help":
		_, err := fmt.Fprint(a.stdout, usage)
		return exitOK, err
	}
	return exitUsage, unknownCommand(cmd)
}

// toolFlags are the flags that decide which tools exist; run, prompt, tools
// and schema share them so the prompt always matches what run binds.
type toolFlags struct {
	root          string
	noBuiltins    bool
	toolsDirs     []string
	schemaTimeout time.Duration
	toolTimeout   time.Duration // --tool-timeout: run, repl and mcp (see runnerFlags)
	mcpConfig     string
	mcpTimeout    time.Duration
	// mcpMeta, not a flag, is the _meta of calls to MCP servers (the
	// trace context, when codeexec mcp traces).
	mcpMeta func(context.Context) map[string]any
}

func (tf *toolFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&tf.root, "root", "", "`DIR` the built-in tools are confined to, which must exist (default: the working directory)")
	fs.BoolVar(&tf.noBuiltins, "no-builtins", false, "do not register the built-in tools (read, write, edit, bash, grep, ls, find, planning_*)")
	fs.StringArrayVar(&tf.toolsDirs, "tools-dir", nil, "`DIR` of executable tools, which must exist (repeatable; a later directory overrides an earlier one)")
	fs.DurationVar(&tf.schemaTimeout, "schema-timeout", external.DefaultSchemaTimeout, "time limit of each executable tool's TOOL --schema run at start, a `DUR`; a tool that takes longer is skipped with a warning")
	fs.StringVar(&tf.mcpConfig, "mcp-config", "", "`FILE` in the {\"mcpServers\": {...}} format of MCP clients: each server's tools are bound under a global named after it")
	fs.DurationVar(&tf.mcpTimeout, "mcp-timeout", mcptools.DefaultStartTimeout, "time limit of each MCP server's start and tool listing, a `DUR`")
}

// config is the toolset configuration the flags describe, with session
// as the planning tools' state (nil: a new one).
func (tf *toolFlags) config(session *builtin.Session) toolset.Config {
	return toolset.Config{
		NoBuiltins:    tf.noBuiltins,
		Builtins:      builtin.Options{Root: tf.root},
		Session:       session,
		ToolsDirs:     tf.toolsDirs,
		External:      external.Options{SchemaTimeout: tf.schemaTimeout, CallTimeout: tf.toolTimeout},
		MCPConfigFile: tf.mcpConfig,
		MCPOptions:    mcptools.ClientOptions{StartTimeout: tf.mcpTimeout, Meta: tf.mcpMeta},
	}
}

// configFlags are the flags of the toolset.Config fields they set, by the
// fields' names, for the errors about them.
var configFlags = map[string]string{
	"NoBuiltins":              "--no-builtins",
	"Builtins.Root":           "--root",
	"ToolsDirs":               "--tools-dir",
	"External.SchemaTimeout":  "--schema-timeout",
	"External.CallTimeout":    "--tool-timeout",
	"MCPConfigFile":           "--mcp-config",
	"MCPOptions.StartTimeout": "--mcp-timeout",
}

// flagOf names a toolset.Config field by its flag, or by the field's name
// when no flag sets it.
func flagOf(field string) string {
	if f, ok := configFlags[field]; ok {
		return f
	}
	return field
}

// tools builds the tools the flags describe into a new registry (see
// toolsInto).
func (a *app) tools(ctx context.Context, tf *toolFlags, session *builtin.Session) (*toolset.Set, error) {
	return a.toolsInto(ctx, registry.New(), tf, session)
}

// toolsInto builds the tools the flags describe with toolset.Open,
// registering into reg (which run hands its runner first, so that the
// worker starts while the tools are built): the built-ins (with the
// planning tools over session, or a new session when it is nil), the
// executable tools of --tools-dir, the MCP servers' tools and the catalog
// tools. The warnings go to stderr; an error about the configuration names
// the flags. The caller closes the set.
func (a *app) toolsInto(ctx context.Context, reg *registry.Registry, tf *toolFlags, session *builtin.Session) (*toolset.Set, error) {
	set, warnings, err := toolset.Open(ctx, reg, tf.config(session))
	for _, w := range warnings {
		if w.TimedOut {
			fmt.Fprintf(a.stderr, "codeexec: warning: %s (a tool that starts slowly needs a longer --schema-timeout)\n", w)
		} else {
			fmt.Fprintf(a.stderr, "codeexec: warning: %s\n", w)
		}
	}
	if ce := (*toolset.ConfigError)(nil); errors.As(err, &ce) {
		return nil, errors.New(ce.Message(flagOf))
	}
	return set, err
}

// newFlagSet returns the flag set of command name, which reports errors
// instead of exiting (parse it with a.parseFlags). Its usage, printed to
// stdout for --help or -h, is the synopsis, the about text, the flags, and
// what BYTES and DUR values look like when a flag takes them.
func (a *app) newFlagSet(name, synopsis, about string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(a.stderr)
	fs.Usage = func() {
		fmt.Fprintf(a.stdout, "Usage:\n%s\n\n%s\n", synopsis, about)
		if !fs.HasFlags() {
			return
		}
		fmt.Fprintf(a.stdout, "\nFlags:\n%s", fs.FlagUsagesWrapped(100))
		types := map[string]bool{}
		fs.VisitAll(func(f *pflag.Flag) { types[f.Value.Type()] = true })
		if types["BYTES"] || types["duration"] {
			fmt.Fprintln(a.stdout)
		}
		if types["BYTES"] {
			fmt.Fprint(a.stdout, bytesHelp)
		}
		if types["duration"] {
			fmt.Fprint(a.stdout, durationHelp)
		}
	}
	return fs
}

// run implements `codeexec run`.
func (a *app) run(ctx context.Context, args []string) (int, error) {
	fs := a.newFlagSet("run", runSynopsis, runAbout)
	var (
		eval      = fs.StringP("eval", "e", "", "run `CODE` given on the command line instead of a file")
		asJSON    = fs.Bool("json", false, "print one JSON object describing the run (console output is captured in it, not streamed)")
		stateFile = fs.String("state", "", "load the planning tools' session from `FILE` (if it exists) and save it back after the run")
		trace     = fs.Bool("trace", false, "print each tool call's start, partial updates and end on stderr as they happen")
		confirm   = fs.StringArray("confirm", nil, "ask on the terminal before each call of a tool matching `PATTERN` (a name or a glob such as write or everything.*; repeatable); with no terminal such calls are denied; with --pause they pause the run instead")
	)
	var pf pauseFlags
	pf.register(fs, "a call that needs input (--confirm, --caller-tools) pauses the run instead of asking: its state goes to `FILE`, what it waits for to stderr, and the exit code is 4; codeexec resume FILE goes on")
	var rf runnerFlags
	rf.register(fs, "where the snippet runs, a `MODE`: process (a worker process with a hard memory limit) or none (this process)")
	rf.store.register(fs, "", "the state of a run that pauses (the --pause FILE gets its handle)")
	if err := a.parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.Changed("eval") && strings.TrimSpace(*eval) == "" {
		return 0, usagef("run", "--eval: the code is empty")
	}
	source, filename, err := a.source(*eval, fs.Args())
	if err != nil {
		return 0, err
	}
	if err := rf.check(); err != nil {
		return 0, err
	}
	if err := checkPatterns("run", *confirm); err != nil {
		return 0, err
	}
	if pf.callerTools != "" && pf.file == "" {
		return 0, usagef("run", "--caller-tools needs --pause FILE: a call of a caller-served tool pauses the run")
	}
	if rf.store.url != "" && pf.file == "" {
		return 0, usagef("run", "--store needs --pause FILE: it keeps the state of a run that pauses")
	}
	if err := rf.store.open(ctx); err != nil {
		return 0, err
	}
	defer rf.store.close()
	if fs.Changed("state") {
		if err := checkStatePath(*stateFile); err != nil {
			return 0, err
		}
	}
	// The --state file is locked and its session loaded while the worker
	// starts; the lock is held until the session is saved back (see
	// heldState).
	var (
		state       *heldState
		loadSession func() (*builtin.Session, error)
	)
	if *stateFile != "" {
		loadSession = func() (*builtin.Session, error) {
			h, s, err := openState(ctx, *stateFile, func(lockPath string) {
				fmt.Fprintf(a.stderr, "codeexec: --state %s: waiting for another process that holds %s\n", *stateFile, lockPath)
			})
			state = h
			return s, err
		}
	}
	_, stopTracing, err := a.tracing(ctx, &rf, a.warnTraces)
	if err != nil {
		return 0, err
	}
	defer stopTracing()
	var (
		runner *codeexec.Runner
		set    *toolset.Set
	)
	if pf.file != "" {
		runner, set, err = a.pausingRunner(ctx, &rf, &pf, *confirm, loadSession)
	} else {
		runner, set, err = a.startRunner(ctx, &rf, 0, loadSession)
	}
	if state != nil {
		defer state.close()
	}
	if err != nil {
		return 0, err
	}
	defer runner.Close()
	defer set.Close()
	reg := set.Registry()
	ro, stderr, done := a.runOutput(filename, *asJSON, *trace, reg.Lookup)
	if len(*confirm) > 0 && pf.file == "" {
		c := &confirmer{patterns: *confirm, open: a.openTTY, stderr: stderr}
		reg.OnToolCall(c.hook(reg.Lookup))
		defer c.close()
	}
	res := runner.Run(ctx, source, ro)
	done()
	var saveErr error
	if state != nil && set.Session() != nil {
		saveErr = state.save(set.Session())
	}
	code, err := a.finish(ctx, res, *asJSON, pf.file, &rf.store)
	if saveErr != nil {
		// The run's result is printed above, but its planning changes
		// are lost: the run fails.
		return 0, errors.Join(saveErr, err)
	}
	return code, err
}

// printResult prints what a run gave in plain mode: its value on stdout,
// its error's report on stderr.
func (a *app) printResult(res *codeexec.Result) {
	if res.Value != nil {
		fmt.Fprintln(a.stdout, res.ValueText)
	}
	if res.Error != nil {
		fmt.Fprintln(a.stderr, res.Error.Report())
	}
}

// runOutput sets up where a run's output and events go: the console
// streams live (unless asJSON), --trace lines on stderr, and on a terminal
// a status line while a long run goes on. stderr is the writer they share,
// safe for concurrent use, for whatever else has to say something during
// the run. done stops the status line; call it when the run has returned,
// before printing its result.
func (a *app) runOutput(filename string, asJSON, trace bool, lookup func(string) (registry.Info, bool)) (ro codeexec.RunOptions, stderr io.Writer, done func()) {
	ro.Filename = filename
	done = func() {}
	stdout := a.stdout
	stderr = &lockedWriter{w: a.stderr}
	var handlers []func(codeexec.Event)
	if !asJSON && a.terminal != nil && a.terminal(a.stderr) {
		status := newStatusLine(stderr, lookup)
		stdout, stderr = status.writer(stdout), status.writer(stderr)
		handlers = append(handlers, status.event)
		done = status.close
	}
	if trace {
		handlers = append(handlers, (&tracer{w: stderr, lookup: lookup}).event)
	}
	if !asJSON {
		ro.Stdout, ro.Stderr = stdout, stderr
	}
	if len(handlers) > 0 {
		ro.OnEvent = func(e codeexec.Event) {
			for _, h := range handlers {
				h(e)
			}
		}
	}
	return ro, stderr, done
}

// source reads the snippet from -e, a file, or stdin ("-").
func (a *app) source(eval string, args []string) (source, filename string, err error) {
	switch {
	case eval != "" && len(args) > 0:
		return "", "", usagef("run", "run takes either --eval or a file, not both")
	case eval != "":
		return eval, "eval.ts", nil
	case len(args) == 0:
		return "", "", usagef("run", "run needs a file to run, '-' for stdin, or --eval CODE")
	case len(args) > 1:
		return "", "", usagef("run", "run takes one file, got %d arguments: %q", len(args), args)
	case args[0] == "-":
		b, err := io.ReadAll(a.stdin)
		if err != nil {
			return "", "", fmt.Errorf("read stdin: %w", err)
		}
		return string(b), "stdin.ts", nil
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return "", "", fmt.Errorf("read snippet: %v", err)
	}
	return string(b), args[0], nil
}

// writeJSON prints v indented, without escaping <, > and &.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// prompt implements `codeexec prompt`.
func (a *app) prompt(ctx context.Context, args []string) error {
	fs := a.newFlagSet("prompt", promptSynopsis, promptAbout)
	var tf toolFlags
	var lf limitFlags
	full := fs.Bool("full", false, "show whole tool descriptions, not only their first sentence")
	example := fs.Bool("example", false, "append an example snippet")
	session := fs.Bool("session", false, "say that state carries from one snippet to the next (for repl, and hosts that run snippets in a session)")
	strategy := fs.String("strategy", "", "add the mindset paragraph of a planning strategy, a `NAME`: "+strategyNames())
	var pf pauseFlags
	pf.registerCallerTools(fs)
	tf.register(fs)
	lf.register(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("prompt", "prompt takes no arguments, got %q", fs.Args())
	}
	var strat promptgen.Strategy
	if *strategy != "" {
		var err error
		if strat, err = promptgen.ParseStrategy(*strategy); err != nil {
			return usagef("prompt", "--strategy: %v", err)
		}
	}
	if err := lf.check(); err != nil {
		return err
	}
	if err := tf.check(fs); err != nil {
		return err
	}
	set, err := a.tools(ctx, &tf, nil)
	if err != nil {
		return err
	}
	defer set.Close()
	if err := pf.addCallerTools(set.Registry()); err != nil {
		return err
	}
	_, err = io.WriteString(a.stdout, promptgen.Render(set.Registry().Tools(), promptgen.Options{FullDescriptions: *full, Example: *example, Session: *session, Strategy: strat, Limits: lf.prompt()}))
	return err
}

// tools implements `codeexec tools`.
func (a *app) listTools(ctx context.Context, args []string) error {
	fs := a.newFlagSet("tools", toolsSynopsis, toolsAbout)
	var tf toolFlags
	asJSON := fs.Bool("json", false, "print the tools as a JSON array")
	var pf pauseFlags
	pf.registerCallerTools(fs)
	tf.register(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tools", "tools takes no arguments, got %q", fs.Args())
	}
	if err := tf.check(fs); err != nil {
		return err
	}
	set, err := a.tools(ctx, &tf, nil)
	if err != nil {
		return err
	}
	defer set.Close()
	if err := pf.addCallerTools(set.Registry()); err != nil {
		return err
	}
	infos := set.Registry().Tools()
	if *asJSON {
		if infos == nil {
			infos = []registry.Info{}
		}
		return writeJSON(a.stdout, infos)
	}
	if len(infos) == 0 {
		fmt.Fprintln(a.stdout, "(no tools)")
		return nil
	}
	for _, t := range infos {
		sig := t.CallSignature
		if sig == "" {
			sig = "(no call signature: not callable from snippets except through callTool)"
		}
		fmt.Fprintf(a.stdout, "%s\t%s\n\t%s\n", t.Name, promptgen.FirstSentence(t.Description), sig)
		if t.Source != "" {
			fmt.Fprintf(a.stdout, "\tsource: %s\n", t.Source)
		}
	}
	return nil
}

// schema implements `codeexec schema`.
func (a *app) schema(ctx context.Context, args []string) error {
	fs := a.newFlagSet("schema", schemaSynopsis, schemaAbout)
	var tf toolFlags
	provider := fs.String("provider", "", "`NAME` of the provider whose schema rules apply: "+providerNames())
	withTools := fs.Bool("with-tools", false, "append the tool function list to the definition's description")
	tf.register(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("schema", "schema takes no arguments, got %q", fs.Args())
	}
	if *provider == "" {
		return usagef("schema", "schema needs --provider (%s)", providerNames())
	}
	if err := tf.check(fs); err != nil {
		return err
	}
	p, err := promptgen.ParseProvider(*provider)
	if err != nil {
		return err
	}
	set, err := a.tools(ctx, &tf, nil)
	if err != nil {
		return err
	}
	defer set.Close()
	opts := promptgen.DefinitionOptions{}
	if *withTools {
		opts.Tools = set.Registry().Tools()
	}
	b, err := promptgen.DefinitionJSON(p, opts)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(b)
	return err
}

// strategyNames lists the planning strategies for --strategy's help.
func strategyNames() string { return joinNames(promptgen.Strategies()) }

// providerNames lists the providers for --provider's help and errors.
func providerNames() string { return joinNames(promptgen.Providers()) }

// joinNames joins names with ", ".
func joinNames[T ~string](names []T) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}
