package goja

import (
	"errors"
	"testing"
)

// TestAllocationCheck checks that each operation asks the allocation check
// (codeexec patch) before it allocates, with the size it is about to
// allocate, and that a refusal stops the script uncatchably with the
// check's error.
func TestAllocationCheck(t *testing.T) {
	errRefused := errors.New("refused")
	cases := []struct {
		name, src string
		min       int64 // the size asked about is at least this
	}{
		{"repeat", `"ab".repeat(2 ** 40)`, 1 << 41},
		{"repeat of a non-ascii string", `"é".repeat(2 ** 30)`, 1 << 31},
		{"padStart", `"x".padStart(2 ** 31)`, 1 << 31},
		{"padEnd", `"x".padEnd(2 ** 31, "é")`, 1 << 32},
		{"concat", `const s = "x".repeat(60000); s.concat(s, s)`, 180000},
		{"plus", `const s = "x".repeat(60000); s + s`, 120000},
		{"template literal", "const s = 'x'.repeat(60000); `${s}${s}`", 120000},
		{"ArrayBuffer", `new ArrayBuffer(3e9)`, 3e9},
		{"Uint8Array", `new Uint8Array(3e9)`, 3e9},
		{"Float64Array", `new Float64Array(2 ** 31)`, 1 << 34},
		{"typed array slice", `new Uint8Array(70000).map(x => x)`, 70000},
		{"fill of a sparse array", `new Array(1e9).fill(0)`, 16e9},
		{"Array.from of an array-like", `Array.from({ length: 1e9 })`, 16e9},
		{"join's separators", `Array(1e9).join("ab")`, 2e9},
		{"join's output", `const s = "x".repeat(60000); [s, s].join("")`, 120000},
		{"JSON.stringify's output", `const s = "x".repeat(60000); JSON.stringify([s, s])`, 120000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New()
			var asked int64
			r.SetAllocationCheck(func(n int64) error {
				if n < AllocationCheckThreshold {
					t.Errorf("asked about %d bytes, below the threshold", n)
				}
				asked = max(asked, n)
				if n >= c.min {
					return errRefused
				}
				return nil
			})
			_, err := r.RunString(`let caught = false; try { ` + c.src + ` } catch (e) { caught = true }`)
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Value() != errRefused {
				t.Fatalf("got %v (largest size asked: %d), want an InterruptedError with the check's error", err, asked)
			}
			// The VM goes on serving.
			r.SetAllocationCheck(nil)
			if v, err := r.RunString(`caught`); err != nil || v.ToBoolean() {
				t.Fatalf("caught = %v, %v: want false (uncatchable)", v, err)
			}
		})
	}
}

// TestAllocationCheckSmall checks that small allocations are not checked
// and that an approving check changes no result.
func TestAllocationCheckSmall(t *testing.T) {
	r := New()
	calls := 0
	r.SetAllocationCheck(func(int64) error { calls++; return nil })
	v, err := r.RunString(`let s = ""; for (let i = 0; i < 100; i++) s += "ab"; [s.length, "x".repeat(10).padEnd(20, "y"), new Uint8Array(100).length, [1, 2].join("-"), JSON.stringify({a: [1]})].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), `200,xxxxxxxxxxyyyyyyyyyy,100,1-2,{"a":[1]}`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if calls != 0 {
		t.Errorf("the check was called %d times for small allocations", calls)
	}
	v, err = r.RunString(`"ab".repeat(1e5).length + new Uint8Array(1e5).length`)
	if err != nil || v.ToInteger() != 3e5 {
		t.Errorf("got %v, %v; want 300000", v, err)
	}
	if calls != 2 {
		t.Errorf("the check was called %d times, want 2", calls)
	}
}
