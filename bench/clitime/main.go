// Command clitime measures the wall time of a command, run repeatedly: the
// harness behind the CLI start-up numbers in docs/performance.md.
//
//	go run ./bench/clitime [-n 50] [-warmup 3] -- bin/codeexec run -e 'return 1'
//
// It runs the command warmup times unmeasured (to fill the page cache),
// then n times, one after another, and prints the median, the 10th and
// 90th percentiles and the fastest run. A run that fails stops it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 50, "measured runs")
	warmup := flag.Int("warmup", 3, "unmeasured runs first")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: clitime [-n runs] [-warmup runs] -- command [args...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || *n < 1 || *warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	times := make([]time.Duration, 0, *n)
	for i := range *warmup + *n {
		cmd := exec.Command(args[0], args[1:]...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		elapsed := time.Since(start)
		if err != nil {
			fmt.Fprintf(os.Stderr, "clitime: run %d: %v\n%s", i+1, err, out)
			os.Exit(1)
		}
		if i >= *warmup {
			times = append(times, elapsed)
		}
	}
	slices.Sort(times)
	pct := func(p int) time.Duration { return times[(len(times)-1)*p/100] }
	fmt.Printf("%d runs of %q: median %s, p10 %s, p90 %s, fastest %s\n",
		len(times), args, ms(pct(50)), ms(pct(10)), ms(pct(90)), ms(times[0]))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
