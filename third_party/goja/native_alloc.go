package goja

import "math"

// Allocation check (codeexec patch, see PATCH.md).
//
// A single native operation can allocate gigabytes at once
// ("ab".repeat(2 ** 40), new Uint8Array(3e9)): Interrupt cannot stop it,
// since it is checked between instructions, and Go's out-of-memory error is
// fatal to the whole process. SetAllocationCheck lets the embedder refuse
// such an allocation before it is made.

// AllocationCheckThreshold is the size in bytes below which an allocation
// is not checked (see SetAllocationCheck).
const AllocationCheckThreshold = 64 << 10

// SetAllocationCheck sets a function the runtime calls before an operation
// allocates a block whose size it knows in advance, of at least
// AllocationCheckThreshold bytes: String.prototype.repeat, padStart and
// padEnd, concat, string concatenation (+ and template literals),
// ArrayBuffer and typed arrays, Array.prototype.fill of missing elements,
// Array.from of an array-like;
// and, as their output grows, Array.prototype.join and JSON.stringify. If
// check returns an error, nothing is allocated and the script is stopped
// with that error as if by Interrupt: it cannot be caught, and RunProgram
// (or the Callable call) returns an *InterruptedError whose Value is the
// error. nil, the default, checks nothing.
// Like the other Set* methods, it may only be called from the vm goroutine
// or when the vm is not running.
func (r *Runtime) SetAllocationCheck(check func(bytes int64) error) {
	r.allocCheck = check
}

// checkAlloc asks the allocation check about an allocation of n bytes.
func (r *Runtime) checkAlloc(n int64) {
	if r.allocCheck == nil || n < AllocationCheckThreshold {
		return
	}
	if err := r.allocCheck(n); err != nil {
		v := &InterruptedError{iface: err}
		v.stack = r.vm.captureStack(nil, 0)
		panic(v)
	}
}

// checkGrowth checks the growth of an output buffer now n bytes long, at
// most once per doubling: *approved is the size approved so far. A growing
// buffer may need twice its length while it is copied.
func (r *Runtime) checkGrowth(approved *int64, n int64) {
	if r.allocCheck == nil || n <= *approved {
		return
	}
	want := mulBytes(n, 2)
	r.checkAlloc(want)
	*approved = want
}

// mulBytes returns a*b, or math.MaxInt64 when it overflows (a, b >= 0).
func mulBytes(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// stringBytes is the size in bytes of a string of n code units, ascii or
// not.
func stringBytes(n int64, ascii bool) int64 {
	if ascii {
		return n
	}
	return mulBytes(n, 2)
}

// valueBytes is the size of one element of an array's storage.
const valueBytes = 16

// checkConcat checks the concatenation of two strings.
func (r *Runtime) checkConcat(a, b String) {
	n := int64(a.Length()) + int64(b.Length())
	if n < AllocationCheckThreshold {
		return
	}
	_, aAscii := a.(asciiString)
	_, bAscii := b.(asciiString)
	r.checkAlloc(stringBytes(n, aAscii && bAscii))
}
