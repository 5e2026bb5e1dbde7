// Package hostile holds codeexec's hostile test suite: snippets a confused
// or manipulated model might write to hurt the host (CPU and memory
// exhaustion, stack overflows, output floods, tool abuse, escape attempts,
// file-tool and bash abuse, malformed input). Each case checks the one
// outcome it must end with (the limit that must stop it, the specific
// error, or the value), that the host lives on, and that no process it
// started and no file outside the tools' root is left behind; once every
// case has ended, no goroutine and no child process may be left. A case
// about the host's memory runs in a child process of its own, whose peak
// resident memory must stay below the case's memory limit plus a stated
// margin. The package has no code of its own; its tests run the cases in
// parallel, in each isolation mode, but for those whose outcome code that
// runs alike in both decides (the engine's hardening, the parsers, the
// file tools), which run in process only; every category of attack keeps
// cases in each mode.
package hostile
