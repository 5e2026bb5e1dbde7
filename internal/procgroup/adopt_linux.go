package procgroup

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/codeexec/codeexec/internal/procfs"
)

// subreaper makes this process a child subreaper, once: from then on, a
// process whose parent dies is reparented to the nearest living ancestor
// that is a subreaper — this process, for everything its commands start —
// instead of to init, whatever it did to its session, process group or
// environment. It reports whether this process is one.
var subreaper = sync.OnceValue(func() bool {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
})

// proc is what a sweep reads of a process in /proc/PID/stat.
type proc struct {
	pid, ppid, pgid int
	zombie          bool
	start           uint64 // clock ticks after boot
}

// readProc reads /proc/PID/stat.
func readProc(pid int) (proc, bool) {
	b, err := procfs.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid pgrp session ... starttime (field 22); comm
	// may hold spaces and parens.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	p := proc{pid: pid, zombie: f[0] == "Z" || f[0] == "X"}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, true
}

// readProcs reads every process in /proc.
func readProcs() []proc {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// startTime returns the start time of pid, a child not yet reaped.
func startTime(pid int) uint64 {
	p, _ := readProc(pid)
	return p.start
}

// pipeInodes returns the inodes of the pipes among files.
func pipeInodes(files []*os.File) []uint64 {
	var out []uint64
	for _, f := range files {
		// Not f.Fd(), which would make the pipe blocking, so that closing
		// it could no longer end a read.
		fi, err := f.Stat()
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			out = append(out, st.Ino)
		}
	}
	return out
}

// holdsPipe reports whether process pid has one of the pipes open.
func holdsPipe(pid int, inodes []uint64) bool {
	if len(inodes) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		link, err := os.Readlink(dir + e.Name())
		if err != nil || !strings.HasPrefix(link, "pipe:[") {
			continue
		}
		ino, err := strconv.ParseUint(strings.TrimSuffix(link[len("pipe:["):], "]"), 10, 64)
		if err != nil {
			continue
		}
		for _, i := range inodes {
			if i == ino {
				return true
			}
		}
	}
	return false
}

// markersOf returns the markerVar entries of pid's environment that are
// not in this process's own (which a command run by another codeexec
// inherits, and which says nothing about this process's groups).
func markersOf(pid int) []string {
	var out []string
	for _, m := range readMarkers(pid) {
		if !slices.Contains(inherited(), m) {
			out = append(out, m)
		}
	}
	return out
}

// inherited holds the markerVar entries of this process's environment.
var inherited = sync.OnceValue(func() []string { return readMarkers(self) })

// readMarkers returns the markerVar entries of pid's environment.
func readMarkers(pid int) []string {
	env, err := procfs.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil
	}
	var out []string
	for kv := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.HasPrefix(kv, []byte(markerVar+"=")) {
			out = append(out, string(kv))
		}
	}
	return out
}

// owner says whose an adopted process is, for a sweep of g.
type owner int

const (
	ownerOther   owner = iota // another group's, or nobody's we know
	ownerG                    // g's
	ownerUnclear              // g's or another live group's
)

// attribute says whose the adopted process p is: g's when it is in g's
// process group, carries g's marker or holds one of g's pipes; another
// group's when it is in that group's process group or carries another
// marker;
// otherwise, by its start time, g's when it started after g and after no
// other live group (others holds their start times, leaving out the
// groups already swept), unclear when it started after g and another,
// and nobody's we know when it started before g. g is nil for a sweep that
// takes everything.
func attribute(g *Group, p proc, live map[int]*Group, others []uint64) owner {
	if g == nil {
		return ownerG
	}
	if p.pgid == g.pid {
		return ownerG
	}
	if o, ok := live[p.pgid]; ok && o != g {
		return ownerOther
	}
	if ms := markersOf(p.pid); len(ms) > 0 {
		// Every group marks its processes, and a process keeps the
		// markers of every group it descends from.
		if slices.Contains(ms, g.marker) {
			return ownerG
		}
		return ownerOther
	}
	if holdsPipe(p.pid, g.inodes) {
		return ownerG
	}
	if p.start < g.start {
		return ownerOther
	}
	for _, start := range others {
		if start <= p.start {
			return ownerUnclear
		}
	}
	return ownerG
}

// sweep kills what g's commands left running that this process adopted as
// a subreaper (with everything those processes started) when g has
// KillEscaped, and the adopted processes that an earlier sweep left
// unclear and that only g could still own; it reaps every adopted process
// that has exited. With g nil it kills every adopted process. It repeats until nothing of g is left and two rounds in a row
// find nothing to kill or reap, for at most about two seconds: a process
// being killed may fork, and its children are adopted when it dies.
// Without the subreaper it does nothing.
func sweep(g *Group) {
	if !subreaper() {
		return
	}
	sweeping.Lock()
	defer sweeping.Unlock()
	if g != nil {
		registry.Lock()
		g.swept = true
		registry.Unlock()
	}
	myPgid := syscall.Getpgrp()
	pause := time.Millisecond
	for round, quiet := 0, 0; round < 200 && quiet < 2; round++ {
		var kill, reap []int
		busy := false

		forking.Lock()
		registry.Lock()
		live := make(map[int]*Group, len(registry.live))
		var others []uint64 // the start times of the other groups not swept
		for pid, o := range registry.live {
			live[pid] = o
			if o != g && !o.swept && !o.noChildren {
				others = append(others, o.start)
			}
		}
		registry.Unlock()
		procs := readProcs()
		children := map[int][]int{}
		for _, p := range procs {
			children[p.ppid] = append(children[p.ppid], p.pid)
			if g != nil && p.pgid == g.pid && p.pid != g.pid && !p.zombie {
				busy = true // a member of g's group still dying
			}
		}
		seen := map[int]bool{}
		for _, p := range procs {
			// Adopted: a child of this process that is no group's leader
			// and not one this process started outside of procgroup
			// (those stay in this process's own process group).
			if p.ppid != self || live[p.pid] != nil || p.pgid == myPgid {
				continue
			}
			if p.zombie {
				reap = append(reap, p.pid)
				continue
			}
			seen[p.pid] = true
			wasUnclear := unclear[p.pid] == p.start
			switch o := attribute(g, p, live, others); {
			case o == ownerG && (g == nil || g.killEscaped || wasUnclear):
				// A process left unclear may be a group's with
				// KillEscaped that has ended: the last of the groups
				// it may belong to kills it.
				kill = appendTree(kill, p.pid, children)
				delete(unclear, p.pid)
			case o == ownerUnclear && g.killEscaped:
				unclear[p.pid] = p.start
			}
		}
		for pid := range unclear {
			if !seen[pid] {
				delete(unclear, pid)
			}
		}
		forking.Unlock()

		for _, pid := range kill {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range reap {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		if busy || len(kill) > 0 || len(reap) > 0 {
			quiet = 0
		} else {
			quiet++
		}
		time.Sleep(pause)
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// unclear holds the adopted processes, by pid, with their start times,
// that a sweep of a group with KillEscaped found could be another live
// group's; guarded by sweeping.
var unclear = map[int]uint64{}

// appendTree appends pid and its descendants to pids.
func appendTree(pids []int, pid int, children map[int][]int) []int {
	pids = append(pids, pid)
	for _, c := range children[pid] {
		pids = appendTree(pids, c, children)
	}
	return pids
}
