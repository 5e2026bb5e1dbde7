package workerproc

import (
	"os"
	"slices"
	"testing"
	"time"
)

// TestMain makes the test binary, started as a worker (by Launch), a
// stand-in that waits to be killed.
func TestMain(m *testing.M) {
	if os.Getenv(EnvWorker) != "" {
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestEnv checks a worker's environment: TZ alone from this process, the
// marker, the memory limit and GOMAXPROCS, unless the base sets it.
func TestEnv(t *testing.T) {
	t.Setenv("TZ", "Europe/Paris")
	tests := []struct {
		base []string
		want []string
	}{
		{nil, []string{"TZ=Europe/Paris", EnvWorker + "=1", EnvMemory + "=1024", "GOMAXPROCS=1"}},
		{[]string{"A=b"}, []string{"A=b", EnvWorker + "=1", EnvMemory + "=1024", "GOMAXPROCS=1"}},
		{[]string{"GOMAXPROCS=4"}, []string{"GOMAXPROCS=4", EnvWorker + "=1", EnvMemory + "=1024"}},
	}
	for _, tt := range tests {
		if got := Env(tt.base, 1024); !slices.Equal(got, tt.want) {
			t.Errorf("Env(%q) = %q, want %q", tt.base, got, tt.want)
		}
	}
}
