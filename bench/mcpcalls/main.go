// Command mcpcalls times code_execution calls of the 30-line benchmark
// snippet (bench/benchdata) from a client of the official Go MCP SDK to
// one MCP server started over stdio: the harness for comparing two builds
// of `codeexec mcp` (or any server of such a tool) call by call.
//
//	go run ./bench/mcpcalls [-n 2500] [-warmup 300] -- bin/codeexec mcp --root DIR --isolation none
//
// It makes warmup unmeasured calls, then n measured ones, one after
// another, in one codeexec session as bench/nodecompare does
// (bench/internal/mcpcall), and prints the median and 90th percentile of
// the calls and the server's CPU time (user and system, its children's
// included once it has waited for them) over all its calls, from the
// operating system's accounting of the process when it has exited. The
// root the snippet reads (README.md and main.go) must exist; a call that
// fails stops it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codeexec/codeexec/bench/benchdata"
	"github.com/codeexec/codeexec/bench/internal/mcpcall"
)

func main() {
	n := flag.Int("n", 2500, "measured calls")
	warmup := flag.Int("warmup", 300, "unmeasured calls first")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mcpcalls [-n calls] [-warmup calls] -- command [args...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *n < 1 || *warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*n, *warmup, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mcpcalls:", err)
		os.Exit(1)
	}
}

func run(n, warmup int, command []string) error {
	ctx := context.Background()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "mcpcalls"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	caller := mcpcall.Caller{CS: cs}
	call := func() error { return caller.Call(ctx, benchdata.Snippet30) }
	var t benchdata.Timer
	for i := range warmup + n {
		if i < warmup {
			err = call()
		} else {
			t.Time(func() { err = call() })
		}
		if err != nil {
			_ = cs.Close()
			return fmt.Errorf("call %d: %w", i+1, err)
		}
	}
	if err := cs.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	fmt.Printf("%d calls: median %v, p90 %v", n, t.Median().Round(time.Microsecond), t.P90().Round(time.Microsecond))
	if ps := cmd.ProcessState; ps != nil {
		cpu := ps.UserTime() + ps.SystemTime()
		fmt.Printf("; server CPU %v a call (%v over %d calls)", (cpu / time.Duration(warmup+n)).Round(time.Microsecond), cpu.Round(time.Millisecond), warmup+n)
	}
	fmt.Println()
	return nil
}
