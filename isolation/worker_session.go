package isolation

import (
	"context"
	"io"

	"github.com/codeexec/codeexec/runtime"
)

// serveSession serves the runs of one session, the first of which is
// first, in one runtime.Session (see serve), until the parent closes the
// pipe between two runs or the session ends: its done says why, and the
// worker exits.
func serveSession(c *childConn, in io.Reader, caller *remoteCaller, first *runRequest) int {
	sess := runtime.NewSession()
	defer sess.Close()
	return serve(c, in, caller, first, func(req *runRequest) (*runtime.Result, string) {
		res := sess.Run(context.Background(), req.Source, caller.options(req))
		if err := sess.Ended(); err != nil {
			return res, err.Error()
		}
		return res, ""
	})
}
