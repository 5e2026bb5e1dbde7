package goja

// Catchable call-stack overflow (codeexec patch, see PATCH.md).
//
// Past SetMaxCallStackSize's limit, a call throws a *StackOverflowError,
// which no try/catch of the script sees: it ends the whole RunProgram or
// Callable call. V8 throws a RangeError there, which scripts catch (and
// code written for Node does, to probe recursion or to give up on deep
// input). An embedder that wanted that behaviour had to instrument every
// function of the script with a depth check of its own, which costs calls
// dearly in an interpreter.
//
// With the RangeError, calls of native functions have a little room past
// the limit (nativeOverflowRoom frames), so that a catch handler running
// at the limit can still call them (a native that formats the error for
// the embedder, console.log) instead of throwing again; what they call
// of the script's functions is held to the limit.

// SetStackOverflowRangeError makes a call that would pass the limit set by
// SetMaxCallStackSize throw a RangeError with the given message, which the
// script can catch like any other exception, instead of the uncatchable
// *StackOverflowError; "" (the default) restores the *StackOverflowError.
// The error is the engine's own RangeError whatever the script did to the
// global one. NativeDepthErrorMessage is V8's message.
// Like the other Set* methods, it may only be called from the vm goroutine
// or when the vm is not running.
func (r *Runtime) SetStackOverflowRangeError(message string) {
	r.vm.stackOverflowMessage = message
}

// nativeOverflowRoom is how many frames of native calls may pass the
// limit with the RangeError on.
const nativeOverflowRoom = 64

// pushNativeCtx is pushCtx for the call of a native function.
func (vm *vm) pushNativeCtx() {
	if n := len(vm.callStack); n > vm.maxCallStackSize && (vm.stackOverflowMessage == "" || n-nativeOverflowRoom > vm.maxCallStackSize) {
		vm.stackOverflow()
	}
	vm.callStack = append(vm.callStack, context{})
	vm.saveCtx(&vm.callStack[len(vm.callStack)-1])
}

// stackOverflow throws what a call past maxCallStackSize throws.
func (vm *vm) stackOverflow() {
	if vm.stackOverflowMessage != "" {
		panic(vm.r.newError(vm.r.getRangeError(), vm.stackOverflowMessage))
	}
	ex := &StackOverflowError{}
	ex.stack = vm.captureStack(nil, 0)
	panic(ex)
}
