//go:build !linux

package main

// dropTypeahead leaves tty as it is: only Linux discards what was typed
// before the first question.
func dropTypeahead(tty any) bool { return false }
