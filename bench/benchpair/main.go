// Command benchpair compares two Go benchmarks as whole processes, in
// alternating rounds, by the CPU time (user and system) and the wall time
// each process takes per benchmark iteration: on a shared, noisy machine
// the ratio of two processes run one after the other moves less than
// either figure. Each round runs both, in turn first, so that neither is
// always the one that runs on a warm or a busy machine; it prints the
// median per iteration of each and the median and quartiles of the
// ratios B/A.
//
//	go test -c -o /tmp/t ./tracing
//	go run ./bench/benchpair -n 2000 -rounds 30 \
//	    /tmp/t 'BenchmarkRun/calls2/off$' /tmp/t 'BenchmarkRun/calls2/on$'
//
// Each side is a test binary and a -test.bench pattern that should match
// one benchmark; the binaries may differ (two builds of one benchmark).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/codeexec/codeexec/bench/benchdata"
)

func main() {
	n := flag.Int("n", 1000, "iterations of each benchmark a process (-test.benchtime Nx)")
	rounds := flag.Int("rounds", 20, "alternating rounds")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchpair [-n N] [-rounds R] BIN_A BENCH_A BIN_B BENCH_B")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 4 || *n < 1 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	sides := [2]side{{bin: flag.Arg(0), bench: flag.Arg(1)}, {bin: flag.Arg(2), bench: flag.Arg(3)}}
	var cpuRatios, wallRatios []float64
	for r := range *rounds {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		var got [2]sample
		for _, i := range order {
			s, err := sides[i].run(*n)
			if err != nil {
				fmt.Fprintln(os.Stderr, "benchpair:", err)
				os.Exit(1)
			}
			got[i] = s
			sides[i].cpu = append(sides[i].cpu, s.cpu)
		}
		cpuRatios = append(cpuRatios, got[1].cpu/got[0].cpu)
		wallRatios = append(wallRatios, got[1].wall/got[0].wall)
	}
	for i, s := range sides {
		fmt.Printf("%c: %s %s: CPU %.1f us an iteration (median)\n", 'A'+i, s.bin, s.bench, benchdata.Quantile(s.cpu, 0.5))
	}
	fmt.Printf("B/A CPU: median %.3f (quartiles %.3f-%.3f); wall: median %.3f (quartiles %.3f-%.3f); %d rounds of %d iterations\n",
		benchdata.Quantile(cpuRatios, 0.5), benchdata.Quantile(cpuRatios, 0.25), benchdata.Quantile(cpuRatios, 0.75),
		benchdata.Quantile(wallRatios, 0.5), benchdata.Quantile(wallRatios, 0.25), benchdata.Quantile(wallRatios, 0.75), *rounds, *n)
}

type side struct {
	bin, bench string
	cpu        []float64
}

// sample is one process's CPU and wall time an iteration, in microseconds.
type sample struct{ cpu, wall float64 }

func (s side) run(n int) (sample, error) {
	cmd := exec.Command(s.bin, "-test.run", "^$", "-test.bench", s.bench, "-test.benchtime", fmt.Sprintf("%dx", n))
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s -test.bench %s: %w", s.bin, s.bench, err)
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(n) }
	return sample{cpu: per(cpu), wall: per(wall)}, nil
}
