// Package hostile holds codeexec's hostile test suite: snippets a confused
// or manipulated model might write to hurt the host (CPU and memory
// exhaustion, stack overflows, output floods, tool abuse, escape attempts,
// file-tool and bash abuse, malformed input). Each case checks the specific
// error it must end with, that the host lives on, and that no goroutine,
// child process or file outside the tools' root is left behind. The package
// has no code of its own; its tests run every case in each isolation mode,
// so they build and run on Linux only, where process isolation works.
package hostile
