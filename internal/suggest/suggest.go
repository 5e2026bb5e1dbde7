// Package suggest measures how far apart two names are, and picks the name
// a mistyped one most likely means: for the "did you mean" of a mistyped
// flag or command (cmd/codeexec), of an undefined name in a snippet
// (runtime), and of an unknown tool given to callTool (bindings).
package suggest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Distance is the optimal string alignment distance between a and b: the
// fewest insertions, deletions, substitutions and swaps of two adjacent
// bytes that turn a into b, no substring edited twice ("ca" to "abc" is
// 3). It returns limit+1 as soon as the distance is known to exceed
// limit, so that comparing a name with many far ones stays cheap.
func Distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// prev2, prev and cur are rows i-2, i-1 and i of the usual table.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

// Closest returns the candidate that name most likely misspells, or
// "" when none is close. From the closest kind of match: a namespaced
// candidate whose last part is name ("search" for "gh.search"); the same
// name but for case and underscores ("searchIssues" for
// "search_issues"); one edit away (a letter added, dropped, changed, or
// two swapped), or one but for case and underscores; two edits away, for
// names of five characters or more; a candidate that begins name at a
// word boundary ("read" for "readFile", "bash" for "bash_run"). Ties go
// to the shorter candidate, then the first in byte order. Names of two
// characters or fewer only match by namespace or case, and candidates
// starting with "__" (the sandbox's hidden helpers) never do.
func Closest(name string, candidates []string) string {
	best, bestRank := "", 0
	for _, c := range candidates {
		if c == name || strings.HasPrefix(c, "__") {
			continue
		}
		rank := matchRank(name, c)
		if rank == 0 {
			continue
		}
		if best == "" || rank < bestRank || rank == bestRank && (len(c) < len(best) || len(c) == len(best) && c < best) {
			best, bestRank = c, rank
		}
	}
	return best
}

// matchRank ranks how closely candidate c matches name: 1 is the closest,
// 0 no match (see closestName).
func matchRank(name, c string) int {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		if c[i+1:] == name {
			return 1
		}
		return 0
	}
	switch {
	case strings.EqualFold(c, name), len(name) > 2 && squash(c) == squash(name):
		return 2
	case len(name) <= 2:
		return 0
	}
	switch d := Distance(name, c, 2); {
	case d == 1, Distance(squash(name), squash(c), 1) == 1:
		return 3
	case d == 2 && len(name) >= 5:
		return 4
	}
	if len(c) >= 2 && len(name) > len(c) && strings.HasPrefix(name, c) {
		if r, _ := utf8.DecodeRuneInString(name[len(c):]); unicode.IsUpper(r) || r == '_' || unicode.IsDigit(r) {
			return 5
		}
	}
	return 0
}

// squash folds case and drops underscores, so that searchIssues and
// search_issues compare equal.
func squash(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
