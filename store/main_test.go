package store

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// runThenStop runs the tests, then stops the redis-server they started,
// before goleak looks for goroutines left behind.
type runThenStop struct{ m *testing.M }

func (r runThenStop) Run() int {
	code := r.m.Run()
	redisServer.stop()
	return code
}

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(runThenStop{m})
}

// redisServer is one redis-server for the whole package, started by the
// first test that needs it; each test keeps to its own key prefix.
var redisServer redisProc

type redisProc struct {
	once sync.Once
	cmd  *exec.Cmd
	url  string
	err  error
	skip string
	// stopped is closed when the server has exited.
	stopped chan struct{}
}

// stop ends the server, if one was started, and waits for it.
func (r *redisProc) stop() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Signal(os.Interrupt)
	select {
	case <-r.stopped:
	case <-time.After(10 * time.Second):
		r.cmd.Process.Kill()
		<-r.stopped
	}
}

// redisURL returns the URL of the package's redis-server, starting it if
// needed. Without redis-server the test is skipped, but fails under
// CI=true (.ci/run installs Debian's redis-server package).
func redisURL(t testing.TB) string {
	t.Helper()
	redisServer.once.Do(startRedis)
	if redisServer.skip != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s under CI=true (.ci/run installs Debian's redis-server package)", redisServer.skip)
		}
		t.Skipf("%s (apt-get install redis-server); under CI=true this test fails instead", redisServer.skip)
	}
	if redisServer.err != nil {
		t.Fatal(redisServer.err)
	}
	return redisServer.url
}

var redisPrefixes atomic.Int64

// redisOptions returns opts with a key prefix no other test uses.
func redisOptions(opts Options) Options {
	opts.KeyPrefix = fmt.Sprintf("test%d:", redisPrefixes.Add(1))
	return opts
}

func startRedis() {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		redisServer.skip = "redis-server is not installed"
		return
	}
	// A port that was free a moment ago may be taken when redis-server
	// binds it: then it exits, and another port is tried.
	for attempt := 0; attempt < 3; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			redisServer.err = err
			return
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
		if err := cmd.Start(); err != nil {
			redisServer.err = fmt.Errorf("start redis-server: %v", err)
			return
		}
		exited := make(chan struct{})
		var out bytes.Buffer // read only after the process exited
		cmd.Stdout, cmd.Stderr = &out, &out
		go func() { cmd.Wait(); close(exited) }()
		url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		if err := waitRedis(url, exited); err != nil {
			cmd.Process.Kill()
			<-exited
			redisServer.err = fmt.Errorf("%v; its output: %s", err, out.Bytes())
			continue
		}
		redisServer.cmd, redisServer.url, redisServer.err = cmd, url, nil
		redisServer.stopped = exited
		return
	}
}

// waitRedis pings url until the server answers, it exits, or 20 s pass.
func waitRedis(url string, exited <-chan struct{}) error {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return err
	}
	opts.DisableIdentity = true
	c := redis.NewClient(opts)
	defer c.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server at %s exited before it answered: %v", url, err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server at %s did not answer within 20s: %v", url, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
