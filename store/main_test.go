package store

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/codeexec/codeexec/internal/redistest"
)

// runThenStop runs the tests, then stops the redis-server they started,
// before goleak looks for goroutines left behind.
type runThenStop struct{ m *testing.M }

func (r runThenStop) Run() int {
	code := r.m.Run()
	if redisServer.s != nil {
		redisServer.s.Stop()
	}
	return code
}

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(runThenStop{m})
}

// redisServer is one redis-server for the whole package, started by the
// first test that needs it; each test keeps to its own key prefix.
var redisServer struct {
	once sync.Once
	s    *redistest.Server
	err  error
}

// redisURL returns the URL of the package's redis-server, starting it if
// needed. Without redis-server the test is skipped, but fails under
// CI=true (.ci/run installs Debian's redis-server package).
func redisURL(t testing.TB) string {
	t.Helper()
	redisServer.once.Do(func() { redisServer.s, redisServer.err = redistest.Launch() })
	redistest.Check(t, redisServer.err)
	return redisServer.s.URL
}

var redisPrefixes atomic.Int64

// redisOptions returns opts with a key prefix no other test uses.
func redisOptions(opts Options) Options {
	opts.KeyPrefix = fmt.Sprintf("test%d:", redisPrefixes.Add(1))
	return opts
}
