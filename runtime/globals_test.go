package runtime

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/codeexec/codeexec/internal/jsglobals"
)

// TestGlobalsMatchList checks the engine's list of globals (package
// jsglobals, which also decides the names a tool may not take) against the
// global object of a fresh run with no tools: every name on its prototype
// chain (its own properties, the lazily built web globals on its prototype,
// Object.prototype's) is listed, every listed name is there, and every
// lazily built global really resolves. The snippet mentions groupBy,
// withResolvers and toLocaleString, and reads an error's stack, so that
// the additions installed only for the snippets that use them are
// installed too.
func TestGlobalsMatchList(t *testing.T) {
	t.Parallel()
	res := mustRun(t, `
const before = Object.getOwnPropertyNames(globalThis);
const names = new Set<string>();
for (let o: object | null = globalThis; o !== null; o = Object.getPrototypeOf(o)) {
  for (const n of Object.getOwnPropertyNames(o)) names.add(n);
}
if (!Object.groupBy || !Map.groupBy || !Promise.withResolvers || !(1).toLocaleString() || !new Error("x").stack) throw new Error("an addition is missing");
return { names: [...names].sort(), before };`, Options{})
	var got struct {
		Names  []string `json:"names"`
		Before []string `json:"before"`
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	want := jsglobals.Names()
	for _, n := range got.Names {
		if !jsglobals.Has(n) {
			t.Errorf("the global object has %q, which package jsglobals does not list", n)
		}
	}
	for _, n := range want {
		if !slices.Contains(got.Names, n) {
			t.Errorf("package jsglobals lists %q, which the global object lacks", n)
		}
	}
	// The lazy globals resolve, and only on first access become own
	// properties (Intl excepted: toLocaleString needs it at start).
	lazy := jsglobals.Lazy()
	check := mustRun(t, `
const lazy: string[] = `+mustJSON(t, lazy)+`;
const own = (n: string) => Object.prototype.hasOwnProperty.call(globalThis, n);
const ownBefore = lazy.filter(own);
const unresolved = lazy.filter((n) => (globalThis as any)[n] === undefined);
return { ownBefore, unresolved, ownAfter: lazy.filter(own) };`, Options{})
	var lz struct {
		OwnBefore, Unresolved, OwnAfter []string
	}
	if err := json.Unmarshal(check.Value, &lz); err != nil {
		t.Fatalf("value %s: %v", check.Value, err)
	}
	if len(lz.OwnBefore) != 0 || len(lz.Unresolved) != 0 || !slices.Equal(lz.OwnAfter, lazy) {
		t.Errorf("lazy globals: own before access %v, unresolved %v, own after access %v; want none, none, %v", lz.OwnBefore, lz.Unresolved, lz.OwnAfter, lazy)
	}
	for _, n := range got.Before {
		if slices.Contains(lazy, n) && n != "Intl" {
			t.Errorf("lazy global %q was built before the snippet used it", n)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGetterInReturnValue checks that a getter that throws (or never
// returns) in the returned value is reported as the snippet's error, not
// as an internal error of codeexec.
func TestGetterInReturnValue(t *testing.T) {
	t.Parallel()
	e := mustFail(t, `return { get x() { throw new Error("getter") } };`, Options{})
	if e.Kind == KindInternal {
		t.Errorf("BUG: a throwing getter in the return value is an internal error: %s", e)
	}
}
