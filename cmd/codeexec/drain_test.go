package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/store"
)

// TestDrainGrace checks the grace of mcp's drain as the flags give it:
// the run's --timeout unless --drain-grace says otherwise, and only with
// --http.
func TestDrainGrace(t *testing.T) {
	tests := []struct {
		args    []string
		addr    string
		want    time.Duration
		wantErr string
	}{
		{nil, "127.0.0.1:0", 45 * time.Second, ""},
		{[]string{"--drain-grace", "2m"}, "127.0.0.1:0", 2 * time.Minute, ""},
		{[]string{"--drain-grace", "0s"}, "127.0.0.1:0", 0, ""},
		{[]string{"--drain-grace", "-1s"}, "127.0.0.1:0", 0, "--drain-grace must not be negative, got -1s"},
		{[]string{"--drain-grace", "2m"}, "", 0, "--drain-grace applies only to --http"},
		{nil, "", 45 * time.Second, ""},
	}
	for _, tc := range tests {
		fs := pflag.NewFlagSet("mcp", pflag.ContinueOnError)
		given := fs.Duration("drain-grace", 0, drainGraceHelp)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		got, err := drainGrace(fs, tc.addr, *given, 45*time.Second)
		if errText(err) != tc.wantErr || got != tc.want {
			t.Errorf("%v with --http %q: %v, %v; want %v, %q", tc.args, tc.addr, got, err, tc.want, tc.wantErr)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestHelpStatesDrainBound checks that mcp's help states the time after
// which a signal ends a draining server by itself, as signalled computes
// it from what the drain asks for (allowDrain).
func TestHelpStatesDrainBound(t *testing.T) {
	bound := drainTime(0) + defaultSignalGrace
	if want := bound.String() + " more than the grace, ends it at once"; !strings.Contains(mcpAbout, want) {
		t.Errorf("mcp's help does not say %q", want)
	}
}

// TestReadiness checks the readiness check of mcp --http: ready when the
// store answers (or there is none) and a trivial run succeeds; else not
// ready, with the reason "store" or "runner".
func TestReadiness(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open, err := store.Open(ctx, "memory:", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	closed, err := store.Open(ctx, "memory:", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	runner, err := codeexec.New(nil, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	stopped, err := codeexec.New(nil, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stopped.Close()
	tests := []struct {
		name   string
		st     store.Store
		runner *codeexec.Runner
		reason string // "" for ready
	}{
		{"no store", nil, runner, ""},
		{"a store that answers", open, runner, ""},
		{"a store that does not", closed, runner, "store"},
		{"a closed runner", open, stopped, "runner"},
		{"both", closed, stopped, "store"},
	}
	for _, tc := range tests {
		err := readiness(tc.st, tc.runner)(ctx)
		var nr *mcp.NotReadyError
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%s: %v, want ready", tc.name, err)
		case tc.reason != "" && (!errors.As(err, &nr) || nr.Reason != tc.reason):
			t.Errorf("%s: %v, want not ready: %s", tc.name, err, tc.reason)
		}
	}
}
