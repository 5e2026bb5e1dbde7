//go:build race

package hostile

// raceEnabled reports whether the test binary was built with the race
// detector, which multiplies the memory a run takes.
const raceEnabled = true

// dataMemory is the memory limit of a case about something else that moves
// a lot of data: a worker built with the race detector needs several times
// the memory to move it (the planning case's 35 MB of params).
const dataMemory = 1 << 30

// raceSlowdown multiplies the liveness bound on a case's run (slowRun):
// the race detector makes a run several times slower.
const raceSlowdown = 3
