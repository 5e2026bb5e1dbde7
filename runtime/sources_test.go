package runtime

import (
	"testing"
)

// TestSourcesReplay checks that a run given the Sources of an earlier run
// reads the same clock and random values, and that a fresh run reads
// others.
func TestSourcesReplay(t *testing.T) {
	t.Parallel()
	const src = `const t0 = performance.now(); const d = Date.now(); const iso = new Date().toISOString();
const hr = process.hrtime.bigint() > 0n;
return [d, iso, performance.now() - t0, Math.random(), crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint8Array(4))), hr];`
	first := mustRun(t, src, Options{})
	if first.Sources == nil || len(first.Sources.Clock) == 0 {
		t.Fatalf("no sources recorded: %+v", first.Sources)
	}
	again := mustRun(t, src, Options{Sources: first.Sources})
	if string(again.Value) != string(first.Value) {
		t.Errorf("replayed run read %s, want %s", again.Value, first.Value)
	}
	if fresh := mustRun(t, src, Options{}); string(fresh.Value) == string(first.Value) {
		t.Errorf("a fresh run read the same values: %s", fresh.Value)
	}
	// Past the recorded readings the clock goes on, never back.
	short := *first.Sources
	short.Clock = []int64{first.Sources.Clock[0] + 1e18}
	res := mustRun(t, `return Date.now() <= Date.now()`, Options{Sources: &short})
	if string(res.Value) != "true" {
		t.Errorf("the clock went back past the replayed readings: %s", res.Value)
	}
}
