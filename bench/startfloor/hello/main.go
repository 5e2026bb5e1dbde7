// Command hello prints a line: the static Go program bench/nodecompare
// measures the CLI's start against (issue 27's peer for it).
package main

import "os"

func main() { _, _ = os.Stdout.WriteString("hello\n") }
