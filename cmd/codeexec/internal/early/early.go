// Package early starts the worker of `codeexec run` while the rest of the
// program initializes: its init runs before the engine's, the compiler's
// and the schema libraries' (it imports nothing heavier than
// internal/workerproc, and Go initializes a package's dependencies first),
// which are most of the CLI's start, so the worker starts in parallel with
// them instead of after them. The pool of the run takes it (see
// workerproc.Take) when the run's options ask for the worker a pool with
// default options starts; main discards it otherwise (workerproc.Discard)
// before it exits.
package early

import (
	"os"
	"strings"

	"github.com/codeexec/codeexec/internal/workerproc"
)

func init() {
	if os.Getenv(workerproc.EnvWorker) != "" {
		return // this process is a worker
	}
	if WantsWorker(os.Args[1:]) {
		workerproc.Launch()
	}
}

// WantsWorker reports whether the command line args (without the
// program's name) will run a snippet in a worker with the default worker
// options: the run command, not in process isolation, not asking for help
// and with the default memory limit. A wrong answer only costs the early
// worker, which is then discarded, or the head start.
func WantsWorker(args []string) bool {
	if len(args) == 0 || args[0] != "run" {
		return false
	}
	for i, a := range args[1:] {
		switch {
		case a == "--":
			return true
		case a == "-h" || a == "--help" || a == "--isolation=none" || strings.HasPrefix(a, "--memory-limit"):
			return false
		case a == "--isolation" && i+2 < len(args) && args[i+2] == "none":
			return false
		}
	}
	return true
}
