// Package workerproc starts the processes of isolation's workers, and can
// start one early: before the program that will use it has initialized
// its heavier packages.
//
// It imports nothing heavier than the standard library, internal/procgroup
// and internal/tail, so that a package whose init calls Launch is
// initialized (Go initializes packages in dependency order, the
// dependencies' first) before the engine, the compiler and the schema
// libraries, whose initialization is most of a Go process's start: the
// worker then starts while its parent does. Package isolation adopts an
// early worker when it would have started the same one itself (see Take).
package workerproc

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/codeexec/codeexec/internal/procgroup"
	"github.com/codeexec/codeexec/internal/tail"
)

const (
	// EnvWorker marks a process as a worker ("1").
	EnvWorker = "CODEEXEC_WORKER"
	// EnvMemory is the worker's memory limit in bytes.
	EnvMemory = "CODEEXEC_WORKER_MEMORY"
	// DefaultMemoryLimit is a worker's memory limit unless its pool says
	// otherwise.
	DefaultMemoryLimit = 512 << 20
	// MaxProcs caps GOMAXPROCS in a worker (see package isolation).
	MaxProcs = 1
	// maxDump is how much of a worker's stderr is kept: the head, where a
	// Go crash names its cause.
	maxDump = 64 << 10
)

// Env returns a worker's environment: base (nil: TZ alone, when set),
// the worker's marker and memory limit, and GOMAXPROCS unless base sets
// it, so that the worker's Go runtime starts with its cap rather than
// reading the cgroup's CPU limit and setting up Ps it would drop.
func Env(base []string, memoryLimit int64) []string {
	env := base
	if env == nil {
		env = []string{}
		if tz, ok := os.LookupEnv("TZ"); ok {
			env = append(env, "TZ="+tz)
		}
	}
	env = append(env[:len(env):len(env)], EnvWorker+"=1", EnvMemory+"="+strconv.FormatInt(memoryLimit, 10))
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") }) {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(MaxProcs))
	}
	return env
}

// Proc is a started worker process: the leader of its own process group,
// with the protocol pipes as its fds 3 and 4 (the parent keeps ToChild
// and FromChild), its stdin and stdout on /dev/null and the head of its
// stderr captured in Stderr.
type Proc struct {
	Cmd       *exec.Cmd
	Group     *procgroup.Group
	ToChild   *os.File // the worker's fd 3
	FromChild *os.File // the worker's fd 4
	Stderr    *tail.Head

	exe string
	env []string
}

// Start starts exe as a worker with env. Until the Group reaps it, the
// worker's pid (and so its group id) stays reserved.
func Start(exe string, env []string) (*Proc, error) {
	toR, toW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		toR.Close()
		toW.Close()
		return nil, err
	}
	p := &Proc{ToChild: toW, FromChild: fromR, Stderr: tail.NewHead(maxDump, nil), exe: exe, env: env}
	// Once the group is killed, stderr is drained for at most
	// procgroup.DefaultPipeGrace.
	p.Cmd = &exec.Cmd{
		Path:       exe,
		Args:       []string{exe},
		Env:        env,
		Stderr:     p.Stderr,
		ExtraFiles: []*os.File{toR, fromW}, // fds 3 and 4
	}
	// A worker starts no process (the tools run in this one), so that a
	// long-lived worker never makes another group's sweep unsure whose an
	// adopted process is.
	g, err := procgroup.Start(context.Background(), p.Cmd, procgroup.Options{StartsNothing: true})
	// The parent keeps only its own ends, so that the worker's death is an
	// EOF on FromChild and an EPIPE on ToChild.
	toR.Close()
	fromW.Close()
	if err != nil {
		toW.Close()
		fromR.Close()
		return nil, err
	}
	p.Group = g
	return p, nil
}

// Discard kills the worker's process group, reaps the worker and closes
// the parent's pipe ends. It returns the reaping's error (see
// procgroup.Group.Wait); Cmd.ProcessState says how the worker ended.
func (p *Proc) Discard() error {
	p.Group.Kill()
	err := p.Group.Wait()
	p.ToChild.Close()
	p.FromChild.Close()
	return err
}

// early is the worker Launch started, until Take or Discard takes it.
var early struct {
	mu sync.Mutex
	p  *Proc
}

// Launch starts a worker early, with this executable and the environment
// of a pool with default options (Env(nil, DefaultMemoryLimit)), for Take
// to hand to the pool that needs it. A program calls it from an init
// function, only when it knows a run in a worker will follow; it must
// call Discard before it exits. A failure is ignored: the pool then
// starts its worker itself.
func Launch() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	p, err := Start(exe, Env(nil, DefaultMemoryLimit))
	if err != nil {
		return
	}
	early.mu.Lock()
	early.p = p
	early.mu.Unlock()
}

// Take returns the worker Launch started, if it is the one a pool with
// the executable exe and the environment env would start, and nil
// otherwise; it is returned once. The caller owns it.
func Take(exe string, env []string) *Proc {
	early.mu.Lock()
	defer early.mu.Unlock()
	p := early.p
	if p == nil || p.exe != exe || !slices.Equal(p.env, env) {
		return nil
	}
	early.p = nil
	return p
}

// Discard kills and reaps the worker Launch started, unless Take handed
// it out. It is safe to call when Launch was not.
func Discard() {
	early.mu.Lock()
	p := early.p
	early.p = nil
	early.mu.Unlock()
	if p != nil {
		_ = p.Discard()
	}
}
