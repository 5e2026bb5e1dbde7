package procgroup

import (
	"os"
	"sync"
)

// The groups this process started, for telling the children it adopted as
// a child subreaper (see adopt_linux.go) from the ones it started.
var (
	// forking is held for reading from just before a leader is started
	// until it is registered, and for writing while a sweep reads the
	// process table and decides, so that no sweep mistakes a leader in
	// the making for an adopted process.
	forking sync.RWMutex

	// sweeping serialises the sweeps that end a Group's Wait, so that of
	// two groups ending together the second sees the first gone.
	sweeping sync.Mutex

	registry = struct {
		sync.Mutex
		// live holds every Group by its leader's pid, from Start until
		// the leader is reaped.
		live map[int]*Group
	}{live: map[int]*Group{}}
)

// register records g, whose leader just started.
func register(g *Group) {
	registry.Lock()
	registry.live[g.pid] = g
	registry.Unlock()
}

// unregister forgets g, whose leader was just reaped.
func unregister(g *Group) {
	registry.Lock()
	if registry.live[g.pid] == g {
		delete(registry.live, g.pid)
	}
	registry.Unlock()
}

// KillAll kills every Group this process started that has not been waited
// for yet, the processes that left those started with KillEscaped, and
// (as a child subreaper, on Linux) every process this process adopted:
// for a process about to exit without waiting for its commands (a second
// Ctrl-C). It neither waits for the pipes nor reaps the leaders.
func KillAll() {
	registry.Lock()
	groups := make([]*Group, 0, len(registry.live))
	for _, g := range registry.live {
		groups = append(groups, g)
	}
	registry.Unlock()
	for _, g := range groups {
		g.Kill()
		if g.killEscaped {
			killMarked(g.marker)
		}
	}
	sweep(nil)
}

// self is this process's pid.
var self = os.Getpid()
