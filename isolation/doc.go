// Package isolation runs snippets in worker processes, so that nothing a
// snippet does can hurt the host: a run that exhausts memory, overflows
// the engine's stack or spins in native code past its deadline kills only
// its worker, and comes back as a run error naming the limit it hit.
//
// # The worker entry point
//
// A worker is the host's own executable, started again with an
// environment variable that says so. Every program that creates a Pool
// must therefore call Main first thing in main, before flags are parsed or
// anything is printed:
//
//	func main() {
//		isolation.Main() // serves its pool's runs and exits when started as a worker
//		// ... the program as usual
//	}
//
// (Main is `if isolation.IsWorker() { os.Exit(isolation.ServeWorker()) }`.)
// Tests that use a Pool do the same in TestMain, before m.Run, since the
// test binary is then the worker. A program that forgets it gets an error
// from Run saying the worker did not start, not a recursive fork: a worker
// refuses to create pools of its own.
//
// # What a worker is
//
// A worker serves runs one at a time, each in a fresh VM (a new
// runtime.Runtime: no global, prototype, timer or promise of one run
// reaches the next), up to Options.MaxRunsPerWorker, and serves only runs
// with the same tools. It is retired (killed and reaped; the pool starts
// a replacement in the background) after a run that hit a limit, was
// cancelled or failed internally, after a crash or a protocol error, once
// it holds more than Options.MaxWorkerHeap after a run, and at its last
// run; MaxRunsPerWorker 1 gives every run a worker of its own. What does
// outlive a run in a worker is Go-level state: the compile cache, locale
// data built on first use, the warmed-up engine; and a run on a reused
// worker shares its memory limit with what the worker holds.
//
// A worker sets its own limits first thing: a hard cap on its address
// space (RLIMIT_AS: what it has mapped at start plus Options.MemoryLimit,
// since the Go runtime alone reserves over a GiB of untouched address
// space, plus 64 MiB for the stacks of the threads the runtime starts
// later), a GC target below it, a Go stack limit, and one P (GOMAXPROCS
// 1). Its environment is minimal (see Options.Env). It runs each snippet
// with runtime.Run; its tool functions, bound by package
// bindings from the host's tool descriptions, send every call to the parent
// over the protocol pipes as the snippet makes it, and the parent starts it
// through its caller (toolcall.Start), concurrently, and answers. The
// caller is normally a codeexec Runner's call accounting: limits, trace and
// events are kept in the parent, never trusted to the worker. Console
// output streams to the parent as it is printed; the result comes back as
// data. A tool result with a finalizer (registry.Result.OnDelivered) is
// finalized in the parent when the worker acknowledges that the snippet
// got it, before the parent reads the run's next call, and with false if
// no such acknowledgement comes before the run ends.
//
// A Session (Pool.NewSession) is the exception: its first run takes a
// fresh worker that then serves every run of that session, one at a time,
// in one VM (a runtime.Session), and nothing else; it is discarded when
// the session is closed or a run kills it. The worker's memory limit then
// bounds the whole session.
//
// The parent enforces the wall clock itself: at the run's timeout plus
// KillGrace, or when the caller's context ends, it kills the worker's
// process group. A worker that dies is described by its exit status and
// the head of its stderr, which is kept (bounded) for that and never shown:
// the result carries one line, never the Go runtime's dump.
//
// # The protocol
//
// Frames on two inherited pipes (the worker's fds 3 and 4, so that its
// stdout and stderr stay free): a 4-byte big-endian length, then that many
// bytes, at most MaxFrameSize: a JSON message, or console output as it was
// printed, after one byte that names its stream. The messages are listed
// in protocol.go.
//
// Process isolation needs Linux; on other systems NewPool fails.
package isolation
