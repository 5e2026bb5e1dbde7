//go:build !race

package hostile

// raceEnabled reports whether the test binary was built with the race
// detector, which multiplies the memory a run takes.
const raceEnabled = false

// dataMemory is the memory limit of a case about something else that moves
// a lot of data: without the race detector, the suite's usual limit.
const dataMemory = memoryLimit

// raceSlowdown multiplies the liveness bound on a case's run (slowRun):
// without the race detector, 1.
const raceSlowdown = 1
