package peertest

import (
	"net"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

func TestProgram(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh here")
	}
	if got := Program(t, "sh", "dash"); got != sh {
		t.Errorf("Program(sh) = %q, want %q", got, sh)
	}
}

// TestFreePort checks that the port FreePort returns can be listened on.
func TestFreePort(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	if port <= 0 {
		t.Fatalf("FreePort = %d", port)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("listen on the free port %d: %v", port, err)
	}
	l.Close()
}

// TestMissing checks both outcomes of Missing, each under the
// environment that decides it, on a test of its own.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		ci                    string
		wantSkipped, wantFail bool
	}{
		{"", true, false},
		{"true", false, true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			var rec recorder
			done := make(chan struct{})
			go func() {
				defer close(done)
				Missing(&rec, "frob is not installed (apt-get install frob)")
			}()
			<-done
			if rec.skipped != tc.wantSkipped || rec.failed != tc.wantFail {
				t.Errorf("CI=%q: skipped %v, failed %v; want %v, %v", tc.ci, rec.skipped, rec.failed, tc.wantSkipped, tc.wantFail)
			}
		})
	}
}

// recorder is a testing.TB that records a skip or a failure; like
// testing's, both end the goroutine that called them.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(string, ...any) {
	r.skipped = true
	runtime.Goexit()
}

func (r *recorder) Fatalf(string, ...any) {
	r.failed = true
	runtime.Goexit()
}
