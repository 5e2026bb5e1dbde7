package js

import "strings"

// Mentions reports whether a line of src, a snippet's lines, contains one
// of words: how the runtime's packages decide, from the source, which
// additions a run needs (a false positive only costs installing one).
func Mentions(src []string, words ...string) bool {
	for _, l := range src {
		for _, w := range words {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}
