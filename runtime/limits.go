package runtime

import (
	"fmt"
	"time"
)

// Defaults for the zero fields of Limits.
const (
	DefaultTimeout            = 30 * time.Second
	DefaultMemory             = 512 << 20
	DefaultMaxStackDepth      = 10000
	DefaultMaxOutputBytes     = 1 << 20
	DefaultMaxSourceBytes     = 1 << 20
	DefaultMaxCalls           = 1000
	DefaultMaxConcurrentCalls = 16
	DefaultMaxResultBytes     = 64 << 20
	DefaultCancelGrace        = 2 * time.Second
)

// DefaultMaxNesting bounds how deeply brackets may nest in a snippet (and in
// code given to eval when it is allowed). goja's and esbuild's recursive
// parsers overflow the Go stack, killing the process, at depths in the
// hundreds of thousands; real code stays far below this.
const DefaultMaxNesting = 1000

// Limits bound one run: this struct is the only place a limit is declared.
// The engine (Run) enforces the time, memory, stack, output, source and
// nesting limits; whoever dispatches the run's host calls enforces the
// call, concurrency and result limits (package codeexec does, in both of
// its isolation modes). The same value crosses to an isolated worker as
// JSON, as is. A zero field takes its default (the Default constants); a
// negative one is refused by WithDefaults.
type Limits struct {
	// Timeout bounds the run's wall-clock time, tool calls included; at
	// the timeout, calls in flight are cancelled.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Memory bounds the run's memory in bytes; past it the run ends with
	// a *LimitError that unwraps to ErrMemoryLimit. Run enforces it with a
	// watchdog that ends a run whose live heap grew this much since it
	// started (see watchHeap), and with the engine's allocation check,
	// which refuses an allocation of known size past the remaining budget
	// (see allocationCheck). In a process of its own it is a guard, not a
	// hard bound: a native operation whose output is only found as it
	// grows (replaceAll, split) can still get past it. In an isolated
	// worker it is the worker's whole memory: the watchdog ends a run once
	// the worker's live heap passes half of it (Options.HeapCeiling), and
	// the kernel caps the worker's address space at it.
	Memory int64 `json:"memory,omitempty"`
	// MaxStackDepth bounds the JavaScript call stack, in frames: past it
	// the snippet gets a RangeError it can catch, as in Node (see
	// stack.go); uncaught, it ends the run as this limit.
	MaxStackDepth int `json:"maxStackDepth,omitempty"`
	// MaxOutputBytes bounds each of stdout and stderr, the printed value
	// and the error's message and stack: beyond it the head and the tail
	// are kept with a notice between (see Bound), and Result.Truncated is
	// set.
	MaxOutputBytes int `json:"maxOutputBytes,omitempty"`
	// MaxSourceBytes bounds the snippet's size, checked before anything
	// else.
	MaxSourceBytes int `json:"maxSourceBytes,omitempty"`
	// MaxNesting bounds how deeply brackets nest in the snippet, checked
	// before parsing (see DefaultMaxNesting).
	MaxNesting int `json:"maxNesting,omitempty"`
	// MaxCalls bounds the tool calls of a run; the call past it ends the
	// run with a *LimitError. Enforced by the run's call dispatcher.
	MaxCalls int `json:"maxCalls,omitempty"`
	// MaxConcurrentCalls bounds the tool calls running at once; more wait
	// for a slot. Enforced by the run's call dispatcher.
	MaxConcurrentCalls int `json:"maxConcurrentCalls,omitempty"`
	// MaxResultBytes bounds one tool result (its text, image data and
	// details as JSON): a larger one is refused before the snippet's value
	// (or, isolated, the frame to the worker) is built from it, and the
	// call fails with an error naming the limit. Enforced by the run's
	// call dispatcher.
	MaxResultBytes int `json:"maxResultBytes,omitempty"`
	// CancelGrace is how long a finished run waits for cancelled tool
	// calls to return before it gives up on them.
	CancelGrace time.Duration `json:"cancelGrace,omitempty"`
}

// WithDefaults returns l with every zero field set to its default. It
// fails, naming every negative field, when there is one.
func (l Limits) WithDefaults() (Limits, error) {
	var bad []string
	duration := func(name string, v *time.Duration, def time.Duration) {
		if *v < 0 {
			bad = append(bad, fmt.Sprintf("%s is %s", name, *v))
		} else if *v == 0 {
			*v = def
		}
	}
	size := func(name string, v *int, def int) {
		if *v < 0 {
			bad = append(bad, fmt.Sprintf("%s is %d", name, *v))
		} else if *v == 0 {
			*v = def
		}
	}
	duration("Timeout", &l.Timeout, DefaultTimeout)
	if l.Memory < 0 {
		bad = append(bad, fmt.Sprintf("Memory is %d", l.Memory))
	} else if l.Memory == 0 {
		l.Memory = DefaultMemory
	}
	size("MaxStackDepth", &l.MaxStackDepth, DefaultMaxStackDepth)
	size("MaxOutputBytes", &l.MaxOutputBytes, DefaultMaxOutputBytes)
	size("MaxSourceBytes", &l.MaxSourceBytes, DefaultMaxSourceBytes)
	size("MaxNesting", &l.MaxNesting, DefaultMaxNesting)
	size("MaxCalls", &l.MaxCalls, DefaultMaxCalls)
	size("MaxConcurrentCalls", &l.MaxConcurrentCalls, DefaultMaxConcurrentCalls)
	size("MaxResultBytes", &l.MaxResultBytes, DefaultMaxResultBytes)
	duration("CancelGrace", &l.CancelGrace, DefaultCancelGrace)
	if len(bad) > 0 {
		return l, fmt.Errorf("negative limits: %v", bad)
	}
	return l, nil
}
