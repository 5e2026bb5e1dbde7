// Package runtime runs a TypeScript or JavaScript snippet in a fresh goja VM:
// it strips types with esbuild, wraps the snippet so that top-level await
// and return work, drives an event loop with timers and asynchronous host
// work, captures console output, enforces limits, and reports errors at
// their positions in the original source. It knows nothing about tools:
// a Setup function (see package bindings) installs globals through Env.
//
// This package is the engine's core: Run and Options (runtime.go), the
// timers and process.nextTick over the event loop (globals.go,
// timeout.go, macrotask.go), the sandbox globals and the return value
// (globals.go), the hardening against hostile code and the limits
// (harden.go), errors mapped to the snippet's positions (errors.go) and
// the Result (result.go). The rest is in focused packages below it, which
// know nothing of runs:
//
//   - runtime/transform compiles a snippet for goja (esbuild, the wrapper,
//     the nesting check), finds its Features (which additions a run
//     installs for it) and maps positions back to it;
//   - runtime/eventloop orders timers, immediates and completed host work
//     as Node's event loop does;
//   - runtime/console ports Node's console and util.inspect;
//   - runtime/webapi installs the web globals (URL, Intl, TextEncoder,
//     crypto, ...);
//   - runtime/convert copies values between the VM and Go (ExportJSON,
//     ParseJSON, ImportJSON) and deep-copies them (structuredClone).
//
// The names of the globals a run has are listed in package
// internal/jsglobals.
package runtime
