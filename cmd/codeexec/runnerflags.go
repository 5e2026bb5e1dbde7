package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/external"
	"github.com/codeexec/codeexec/toolset"
	"github.com/codeexec/codeexec/tracing"
)

// runnerFlags are the flags that build a command's Runner, the limits and
// the isolation mode, and the tools it binds (the tool flags, and the time
// limit of a call to an executable tool): run, repl and mcp share them, so
// that each takes the same flags with the same defaults and checks.
type runnerFlags struct {
	tools toolFlags
	limitFlags
	maxConc    int
	mode       string
	memory     *int64
	workerRuns int
	fs         *pflag.FlagSet // what register defined the flags on
	// stateKey seals the state of a paused run (run and resume only).
	stateKey []byte
	// observer, when set, watches the Runner's runs (not a flag: what
	// the command wires, metrics and traces).
	observer codeexec.Observer
	// store is --store, for the commands that define it.
	store storeFlag
}

// register defines the flags on fs, the tool flags among them;
// isolationHelp is the --isolation flag's help, which says what a worker
// serves for the command.
func (rf *runnerFlags) register(fs *pflag.FlagSet, isolationHelp string) {
	rf.tools.register(fs)
	fs.DurationVar(&rf.tools.toolTimeout, "tool-timeout", external.DefaultCallTimeout, "time limit of one call to an executable tool, a `DUR`")
	rf.limitFlags.register(fs)
	fs.IntVar(&rf.maxConc, "max-concurrent-calls", codeexec.DefaultMaxConcurrentCalls, "the most tool calls (`N`) that run at once; more wait for a slot")
	fs.StringVar(&rf.mode, "isolation", "process", isolationHelp)
	rf.memory = bytesFlag(fs, "memory-limit", int64(codeexec.DefaultMemory), "memory limit of a run, in `BYTES`")
	fs.IntVar(&rf.workerRuns, "worker-runs", codeexec.DefaultMaxRunsPerWorker, "with --isolation process, the most runs (`N`) one worker process serves, each in a fresh VM, before it is replaced; "+
		"a run that hits a limit or is cancelled always retires its worker, and a session's worker serves its whole session. 1 gives every run a worker of its own (for mutually untrusting users)")
	rf.fs = fs
}

// check refuses values the flags cannot take, the tool flags' among them
// (see toolFlags.check).
func (rf *runnerFlags) check() error {
	if err := rf.limitFlags.check(); err != nil {
		return err
	}
	switch {
	case rf.maxConc <= 0:
		return fmt.Errorf("--max-concurrent-calls must be positive, got %d", rf.maxConc)
	case rf.mode != "process" && rf.mode != "none":
		return fmt.Errorf("--isolation must be process or none, got %q", rf.mode)
	case rf.workerRuns <= 0:
		return fmt.Errorf("--worker-runs must be positive, got %d", rf.workerRuns)
	case rf.mode == "none" && rf.fs != nil && rf.fs.Changed("worker-runs"):
		return errors.New("--worker-runs applies only to --isolation process")
	case rf.tools.toolTimeout <= 0:
		return fmt.Errorf("--tool-timeout must be positive, got %s", rf.tools.toolTimeout)
	}
	return rf.tools.check(rf.fs)
}

// tracing exports the traces of a command's runs over OTLP/HTTP when the
// OTEL_* variables say so (see package tracing): it makes the runs'
// observer the Tracer (a command with observers of its own adds them)
// and passes the trace on to the MCP servers used as tool sources. The
// returned stop flushes the traces at the command's end, telling warn
// what it could not export. Without the variables it returns a nil
// Tracer and a stop that does nothing.
func (a *app) tracing(ctx context.Context, rf *runnerFlags, warn func(error)) (*tracing.Tracer, func(), error) {
	tr, stop, err := tracing.FromEnv(ctx, version)
	if err != nil {
		return nil, nil, err
	}
	if tr == nil {
		return nil, func() {}, nil
	}
	rf.observer, rf.tools.mcpMeta = tr, tr.Meta
	return tr, func() {
		flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stop(flush); err != nil {
			warn(err)
		}
	}, nil
}

// warnTraces is the warn of tracing for the commands without a log.
func (a *app) warnTraces(err error) {
	fmt.Fprintf(a.stderr, "codeexec: warning: traces not exported: %v\n", err)
}

// startRunner builds the Runner the flags describe, with poolSize workers
// kept started, then registers the tools the flags bind into its registry:
// after the runner is built, so that its worker starts while the tools are
// built (a run sees the registry as it is when the run starts). With no
// pool (poolSize 0) it starts the next run's worker at once. session, when
// not nil, is called between the worker's start and the tools'
// registration, so that what it does (run loads its --state) overlaps the
// worker's start too; it gives the planning tools' session (nil: a new
// one). On success, close the toolset.Set and then the Runner (defer the
// Runner's Close first).
func (a *app) startRunner(ctx context.Context, rf *runnerFlags, poolSize int, session func() (*builtin.Session, error)) (*codeexec.Runner, *toolset.Set, error) {
	reg := registry.New()
	runner, err := rf.newRunner(reg, rf.tools.process(), poolSize)
	if err != nil {
		return nil, nil, err
	}
	if poolSize == 0 {
		runner.Prestart()
	}
	var s *builtin.Session
	if session != nil {
		if s, err = session(); err != nil {
			runner.Close()
			return nil, nil, err
		}
	}
	set, err := a.toolsInto(ctx, reg, &rf.tools, s)
	if err != nil {
		runner.Close()
		return nil, nil, err
	}
	return runner, set, nil
}

// newRunner builds the Runner the flags describe for reg, with process as
// what a snippet's process global shows and poolSize workers kept started
// in Process isolation.
func (rf *runnerFlags) newRunner(reg *registry.Registry, process codeexec.ProcessOptions, poolSize int) (*codeexec.Runner, error) {
	opts := codeexec.Options{
		Process:  process,
		StateKey: rf.stateKey,
		Observer: rf.observer,
		Store:    rf.store.st,
		Limits: codeexec.Limits{
			Timeout: rf.timeout, MaxCalls: rf.maxCalls, MaxConcurrentCalls: rf.maxConc,
			MaxOutputBytes: *rf.maxOutput, Memory: *rf.memory,
		},
	}
	if rf.mode == "none" {
		opts.Isolation = codeexec.InProcess
	} else {
		opts.Isolation, opts.Pool.Size, opts.Pool.MaxRunsPerWorker = codeexec.Process, poolSize, rf.workerRuns
	}
	runner, err := codeexec.New(reg, opts)
	if err != nil && opts.Isolation == codeexec.Process {
		return nil, fmt.Errorf("process isolation: %w (--isolation none runs in this process)", err)
	}
	return runner, err
}

// limitFlags are the flags of the limits the prompt states (see
// promptgen.Limits): run, repl and mcp run with them, and prompt states
// them, so that the prompt a harness renders says what its runs allow.
type limitFlags struct {
	timeout   time.Duration
	maxCalls  int
	maxOutput *int
}

func (lf *limitFlags) register(fs *pflag.FlagSet) {
	fs.DurationVar(&lf.timeout, "timeout", codeexec.DefaultTimeout, "wall-clock limit of a run, a `DUR`")
	fs.IntVar(&lf.maxCalls, "max-tool-calls", codeexec.DefaultMaxCalls, "the most tool calls (`N`) a run may make")
	lf.maxOutput = bytesFlag(fs, "max-output", codeexec.DefaultMaxOutputBytes, "limit of each of stdout and stderr, and of the printed value and error, in `BYTES`: "+
		"beyond it the head and the tail are kept, with a notice between of what was cut (plain mode and --json alike)")
}

// check refuses limits that are not positive.
func (lf *limitFlags) check() error {
	switch {
	case lf.timeout <= 0:
		return fmt.Errorf("--timeout must be positive, got %s", lf.timeout)
	case lf.maxCalls <= 0:
		return fmt.Errorf("--max-tool-calls must be positive, got %d", lf.maxCalls)
	}
	return nil
}

// prompt returns the limits as the prompt states them.
func (lf *limitFlags) prompt() *promptgen.Limits {
	return &promptgen.Limits{Timeout: lf.timeout, MaxCalls: lf.maxCalls, MaxOutputBytes: *lf.maxOutput}
}
