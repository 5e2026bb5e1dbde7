package codeexec_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// memoryBombLimit is the memory limit of BenchmarkMemoryLimitEnd.
const memoryBombLimit = 128 << 20

// memoryBombs keep one more MiB at every step, as a string or as an array
// of 65,536 slots (16 bytes each in goja), and print the number of MiB
// they keep after each: from 128 (memoryBombLimit) on they are past their
// limit in either mode.
var memoryBombs = []struct{ name, src string }{
	{"strings", `const keep: string[] = [];
const chunk = "x".repeat(1 << 20);
for (let i = 1; ; i++) {
  keep.push(chunk + i);
  console.log(i);
}`},
	{"arrays", `const keep: number[][] = [];
for (let i = 1; ; i++) {
  keep.push(new Array(1 << 16).fill(i));
  console.log(i);
}`},
}

// crossWatch is a Stdout that notes how many MiB a memory bomb said it
// kept, and when it said it kept its limit.
type crossWatch struct {
	mu      sync.Mutex
	kept    int
	crossed time.Time
}

func (w *crossWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, line := range strings.Fields(string(p)) {
		if n, err := strconv.Atoi(line); err == nil && n > w.kept {
			w.kept = n
			if n == memoryBombLimit>>20 {
				w.crossed = time.Now()
			}
		}
	}
	return len(p), nil
}

// BenchmarkMemoryLimitEnd measures how long a snippet that keeps
// allocating holds its run (and, isolated, its worker) once it is past its
// memory limit: ms-past-limit is the time from the snippet keeping as
// many bytes as its limit to the run's end (0 when the limit ended it
// before it kept that much: a worker's limit counts the engine's own
// memory too, and goja's arrays take more than their slots),
// MiB-kept what it kept when it ended, ms-total the whole run. Each run
// must end with the memory-limit error.
func BenchmarkMemoryLimitEnd(b *testing.B) {
	for _, m := range []codeexec.Isolation{codeexec.InProcess, codeexec.Process} {
		for _, bomb := range memoryBombs {
			b.Run(m.String()+"/"+bomb.name, func(b *testing.B) {
				benchMemoryBomb(b, m, bomb.src)
			})
		}
	}
}

// benchMemoryBomb runs the memory bomb src in mode m, b.N times.
func benchMemoryBomb(b *testing.B, m codeexec.Isolation, src string) {
	r, err := codeexec.New(registry.New(), codeexec.Options{
		Isolation: m,
		Limits:    codeexec.Limits{Memory: memoryBombLimit, Timeout: time.Minute},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	var past, total time.Duration
	kept := 0
	for b.Loop() {
		w := &crossWatch{}
		start := time.Now()
		res := r.Run(context.Background(), src, codeexec.RunOptions{Stdout: w})
		end := time.Now()
		if res.Error == nil || res.Error.Kind != runtime.KindLimit || !strings.Contains(res.Error.Message, "memory limit of 128 MiB") {
			b.Fatalf("the run ended with %v, want the memory limit", res.Error)
		}
		total += end.Sub(start)
		kept += w.kept
		if !w.crossed.IsZero() {
			past += end.Sub(w.crossed)
		}
	}
	b.ReportMetric(float64(past.Milliseconds())/float64(b.N), "ms-past-limit")
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-total")
	b.ReportMetric(float64(kept)/float64(b.N), "MiB-kept")
	b.ReportMetric(0, "ns/op")
}
