package goja

// Native recursion limit (codeexec patch, see PATCH.md).
//
// Some operations recurse in Go without pushing a JavaScript frame, so
// SetMaxCallStackSize never sees them: forwarding through a Proxy without a
// trap (a prototype chain that loops through a Proxy recurses forever),
// getters and setters, toPrimitive's valueOf, toString and
// Symbol.toPrimitive calls, bound functions, JSON.stringify, the reviver
// walk of JSON.parse and Array.prototype.flat. Unbounded, they overflow the
// goroutine stack, which is a fatal error that kills the whole process.
//
// SetMaxNativeDepth bounds them with one counter per Runtime: each of those
// operations counts one level while it runs, and past the limit throws a
// RangeError the script can catch, as V8 does on a stack overflow. The
// walks of prototype chains that loop instead of recurse (instanceof,
// Object.prototype.isPrototypeOf, for-in) count the proxies they pass,
// since only a Proxy can make a prototype chain cyclic.

// NativeDepthErrorMessage is the message of the RangeError thrown when the
// limit set by SetMaxNativeDepth is exceeded.
const NativeDepthErrorMessage = "Maximum call stack size exceeded"

// SetMaxNativeDepth bounds how deeply the engine's own Go code may recurse
// without a JavaScript frame in between (see above). Past the limit a
// RangeError with NativeDepthErrorMessage is thrown, which the script can
// catch. 0, the default, means no limit.
// Like the other Set* methods, it may only be called from the vm goroutine
// or when the vm is not running, and should not be changed while a call
// into the runtime is in progress.
func (r *Runtime) SetMaxNativeDepth(limit int) {
	r.maxNativeDepth = limit
}

// enterNative counts one level of native recursion; the caller defers
// leaveNative when it returns normally.
func (r *Runtime) enterNative() {
	if r.maxNativeDepth <= 0 {
		return
	}
	if r.nativeDepth >= r.maxNativeDepth {
		panic(r.newError(r.getRangeError(), NativeDepthErrorMessage))
	}
	r.nativeDepth++
}

// leaveNative ends a level counted by enterNative.
func (r *Runtime) leaveNative() {
	if r.nativeDepth > 0 {
		r.nativeDepth--
	}
}

// protoWalk counts the proxies an iterative walk of a prototype chain
// passes; n is the walk's own count.
func (r *Runtime) protoWalk(o *Object, n *int) {
	if r.maxNativeDepth <= 0 {
		return
	}
	if _, ok := o.self.(*proxyObject); ok {
		*n++
		if *n > r.maxNativeDepth {
			panic(r.newError(r.getRangeError(), NativeDepthErrorMessage))
		}
	}
}
