//go:build !race

package hostile

// dataMemory is the memory limit of a case about something else that moves
// a lot of data: without the race detector, the suite's usual limit.
const dataMemory = memoryLimit
