//go:build race

package hostile

// dataMemory is the memory limit of a case about something else that moves
// a lot of data: a worker built with the race detector needs several times
// the memory to move it (the planning case's 35 MB of params).
const dataMemory = 1 << 30
