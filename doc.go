// Package codeexec runs TypeScript (or JavaScript) snippets that an LLM
// wrote, with the host's tools bound as async functions: the "code mode"
// pattern, where a model writes one snippet that loops, filters and
// aggregates instead of making ten tool calls, and only what the snippet
// prints or returns goes back to it.
//
// # Where to start
//
// Three steps: register tools, build a Runner, run.
//
//	reg := registry.New()
//	_ = reg.Register(tool)                  // package registry: Tool, CallTool, hooks
//	r, _ := codeexec.New(reg, codeexec.Options{Isolation: codeexec.InProcess})
//	defer r.Close()
//	res := r.Run(ctx, `return (await word_count("a b c")).words`, codeexec.RunOptions{})
//	answer := res.Text()                     // what the model should see
//
// Options.Isolation picks where snippets run: InProcess, or Process (each
// snippet in a worker process with a hard memory limit; the program must
// call Main first thing in main). Everything else is the same in
// both modes: the Limits, the hooks a registry runs for every call a
// snippet makes (a tool_call hook that denies a call stops it), the trace
// in Result.ToolCalls and the live Events.
//
// # Sessions
//
// Runner.NewSession returns a Session, whose runs share one global scope:
// what a snippet declares at its top level, or puts on globalThis, is there
// for the next snippet, as in Node's REPL (in Process isolation the
// session keeps one worker for its life). Options.Sessions bounds them
// (idle time, lifetime, how many live at once). See Session for what
// carries and what a failed run leaves. With Options.Store, sessions are
// data: each is the list of its runs with their call logs, kept in the
// store (package store: in memory, in a file, in Redis), so that any
// process with the same tools goes on with it (OpenSession), rebuilding
// it by replaying its runs without calling a tool again, and a run of a
// session can pause and be resumed anywhere.
//
// # The packages
//
// Imports point down: cmd/codeexec (the CLI) uses this package, which uses
// isolation (worker processes), bindings (tools as JavaScript functions),
// toolcall (the tool-call protocol: the Tools a run calls, the call
// accounting, the call log and the delivery contract), runtime (the engine: esbuild, goja, the event loop, limits, errors mapped
// to the TypeScript source, with the console, web APIs and data conversion
// in packages below it) and registry (tools, validation, CallTool, hooks).
// promptgen renders the system-prompt block from the same registry, and
// builtin holds the stock tools (read, write, edit, bash, grep, ls, find,
// the planning suite); registry/external makes executables into tools and
// registry/mcptools the tools of MCP servers. toolset, below this package,
// composes all of those (and the catalog tools of a large catalog) from
// one Config into a registry, as the CLI and its MCP face do. mcp, above
// this package, serves a Runner over MCP.
package codeexec
