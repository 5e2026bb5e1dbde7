// Package redistest starts Debian's redis-server on a free loopback port
// for the tests that need a real Redis: the store package's backend tests
// and the fleet test of `codeexec mcp`. Without redis-server a test skips
// with a message that says how to install it, except under CI=true (.ci/run
// installs Debian's redis-server package), where it fails.
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/codeexec/codeexec/internal/peertest"
)

// ErrNotInstalled is what Launch returns when redis-server is not on PATH.
var ErrNotInstalled = errors.New("redis-server is not installed")

// Server is a redis-server process that keeps nothing on disk (--save ""
// --appendonly no) and listens on a loopback port.
type Server struct {
	// URL is the server's redis:// URL, database 0.
	URL string
	// Port is the TCP port it listens on.
	Port int

	cmd *exec.Cmd
	// exited is closed when the process has exited.
	exited chan struct{}
}

// Launch starts a redis-server and returns once it answers a PING. A port
// that was free a moment ago may be taken when redis-server binds it: then
// it exits, and another port is tried, three times in all. Without
// redis-server on PATH the error is ErrNotInstalled.
func Launch() (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNotInstalled
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := peertest.FreePort()
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
		var out bytes.Buffer // read only after the process exited
		cmd.Stdout, cmd.Stderr = &out, &out
		dieWithParent(cmd)
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("start redis-server: %v", err)
		}
		s := &Server{URL: fmt.Sprintf("redis://127.0.0.1:%d/0", port), Port: port, cmd: cmd, exited: make(chan struct{})}
		go func() { cmd.Wait(); close(s.exited) }()
		if err := s.waitReady(); err != nil {
			cmd.Process.Kill()
			<-s.exited
			last = fmt.Errorf("%v; its output: %s", err, out.Bytes())
			continue
		}
		return s, nil
	}
	return nil, last
}

// Check reports err, Launch's error, to t: it skips t when redis-server is
// not installed (or fails it under CI=true) and fails it on any other
// error.
func Check(t testing.TB, err error) {
	t.Helper()
	switch {
	case errors.Is(err, ErrNotInstalled):
		peertest.Missing(t, err.Error()+" (apt-get install redis-server)")
	case err != nil:
		t.Fatal(err)
	}
}

// Start launches a redis-server for t alone and stops it when t ends
// (Check says what happens when it cannot start).
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := Launch()
	Check(t, err)
	t.Cleanup(s.Stop)
	return s
}

// Stop ends the server (SIGINT, then SIGKILL if it has not exited after
// 10 s) and waits for it. A second Stop does nothing.
func (s *Server) Stop() {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// waitReady pings the server until it answers, it exits, or 20 s pass
// (a liveness bound: it answers within milliseconds when it started).
func (s *Server) waitReady() error {
	opts, err := redis.ParseURL(s.URL)
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
		case <-s.exited:
			return fmt.Errorf("redis-server at %s exited before it answered: %v", s.URL, err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server at %s did not answer within 20s: %v", s.URL, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
