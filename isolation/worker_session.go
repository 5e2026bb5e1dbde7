package isolation

import (
	"context"
	"io"
	"os"

	"github.com/codeexec/codeexec/runtime"
)

// serveSession serves the runs of one session, the first of which is
// first, in one runtime.Session, until the parent closes the pipe between
// two runs, or the session ends (its done says so, and the worker exits). One goroutine reads the pipe for the worker's life: it hands
// answers to the calls waiting for them and run requests to this loop. A
// pipe that breaks during a run leaves nobody to take its result: the
// worker exits at once, as after a single run.
func serveSession(c *childConn, in io.Reader, caller *remoteCaller, first *runRequest) int {
	runs := make(chan *runRequest)
	go func() {
		defer close(runs)
		for {
			m, err := readMessage(in)
			switch {
			case err != nil && caller.idle.Load():
				return
			case err != nil:
				os.Exit(exitParentGone)
			case m.Type == msgResult:
				caller.deliver(m)
			case m.Type == msgRun && m.Run != nil && caller.idle.Load():
				caller.idle.Store(false)
				runs <- m.Run
			default:
				os.Exit(exitParentGone)
			}
		}
	}()
	sess := runtime.NewSession()
	defer sess.Close()
	for req := first; ; {
		caller.setTools(req.Tools)
		res := sess.Run(context.Background(), req.Source, caller.options(req))
		caller.idle.Store(true)
		if err := sess.Ended(); err != nil {
			if c.sendEnded(res, err.Error()) != nil {
				return exitParentGone
			}
			return exitOK
		}
		if err := c.sendDone(res); err != nil {
			return exitParentGone
		}
		next, ok := <-runs
		if !ok {
			return exitOK
		}
		req = next
	}
}
