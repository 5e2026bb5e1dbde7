package jsglobals

import (
	"slices"
	"testing"
)

// TestLists checks that the groups are disjoint, that Names and
// ReservedNames are sorted unions of them, and that callers get copies.
func TestLists(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	groups := map[string][]string{"builtins": builtins, "sandbox": sandbox, "engine": engine, "lazy": lazy, "inherited": inherited, "elsewhere": elsewhere}
	for g, list := range groups {
		for _, n := range list {
			if other, dup := seen[n]; dup {
				t.Errorf("%q is in both %s and %s", n, other, g)
			}
			seen[n] = g
		}
	}
	all := ReservedNames()
	if !slices.IsSorted(all) || len(all) != len(seen) {
		t.Errorf("ReservedNames has %d names (sorted %v), want the %d of the groups", len(all), slices.IsSorted(all), len(seen))
	}
	ns := Names()
	if !slices.IsSorted(ns) || len(ns) != len(seen)-len(elsewhere) {
		t.Errorf("Names has %d names (sorted %v), want %d", len(ns), slices.IsSorted(ns), len(seen)-len(elsewhere))
	}
	for n, g := range seen {
		if !Reserved(n) {
			t.Errorf("Reserved(%q) = false", n)
		}
		if want := g != "elsewhere"; Has(n) != want {
			t.Errorf("Has(%q) = %v, want %v", n, Has(n), want)
		}
	}
	for _, n := range []string{"", "read", "object", "Console", "fetchUrl", "json"} {
		if Has(n) || Reserved(n) {
			t.Errorf("%q: Has %v, Reserved %v; want neither", n, Has(n), Reserved(n))
		}
	}
	for _, l := range [][]string{Names(), Lazy(), ReservedNames()} {
		l[0] = "mutated"
	}
	if Names()[0] == "mutated" || Lazy()[0] == "mutated" || ReservedNames()[0] == "mutated" {
		t.Error("a returned slice is shared")
	}
}
