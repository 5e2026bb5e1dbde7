// Package proctest reads the process table from /proc, for tests that check
// no process a run or a tool started is left behind, and the sizes in
// /proc/self/status, for tests that measure this process's memory.
package proctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/codeexec/codeexec/internal/procfs"
)

// Proc is what /proc says about one process.
type Proc struct {
	PID, PPID, PGID int
	// State is the one-letter state of /proc/PID/stat: R, S, D, Z, X, ...
	State string
	// Cmdline is the command line, arguments separated by spaces.
	Cmdline string
}

// Live reports whether the process is neither a zombie nor dead.
func (p Proc) Live() bool { return p.State != "Z" && p.State != "X" }

// Supported reports whether this system has a /proc to read.
func Supported() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// List returns every process that can be read now; processes that exit
// while it reads are left out.
func List() []Proc {
	entries, _ := os.ReadDir("/proc")
	var out []Proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := procfs.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		p := Proc{PID: pid, State: f[0]}
		p.PPID, _ = strconv.Atoi(f[1])
		p.PGID, _ = strconv.Atoi(f[2])
		if cmd, err := procfs.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil {
			p.Cmdline = strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))
		}
		out = append(out, p)
	}
	return out
}

// Where returns the processes of List for which keep is true.
func Where(keep func(Proc) bool) []Proc {
	var out []Proc
	for _, p := range List() {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}
