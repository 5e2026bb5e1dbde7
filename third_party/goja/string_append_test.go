package goja

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// TestAppendStrings checks the strings + builds by appending in place
// (codeexec patch, see string_append.go): each is what a copy would give,
// whatever is appended after it to it or to its prefixes, in ASCII and
// UTF-16, by += and by templates, with more strings growing at once than
// there are buffers.
func TestAppendStrings(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"ascii", `let s = ""; for (let i = 0; i < 1000; i++) s += "ab"; s.length + ":" + s.slice(0, 4) + s.slice(-4)`, "2000:abababab"},
		{"template", "let s = ''; for (let i = 0; i < 500; i++) s += `r${i};`; s.length + ':' + s.slice(-8)", "2390:98;r499;"},
		{"branching", `let s = "x".repeat(300); s += "a"; s += "b"; const keep = s; const t = s + "c"; const u = s + "d"; s += "e";
			[keep.slice(-3), t.slice(-3), u.slice(-3), s.slice(-3)].join(",")`, "xab,abc,abd,abe"},
		{"older view", `let s = "y".repeat(300); s += "1"; const old = s; s += "2"; s += "3"; const o2 = old + "9"; [old.slice(-2), o2.slice(-3), s.slice(-3)].join(",")`, "y1,y19,123"},
		{"unicode piece", `let s = "z".repeat(300); s += "é"; s += "a"; s += "😀"; s += "b"; [s.length, s.slice(-6), s.codePointAt(302).toString(16)].join(",")`, "305,zéa😀b,1f600"},
		{"unicode chain", `let s = "ж".repeat(300); for (let i = 0; i < 400; i++) s += i % 2 ? "ы" : "q"; [s.length, s.slice(-4), s.charCodeAt(0).toString(16)].join(",")`, "700,qыqы,436"},
		{"substrings kept", `let s = "k".repeat(300); s += "abc"; const sub = s.substring(299, 303); s += "def"; const sub2 = s.substring(299); [sub, sub2].join(",")`, "kabc,kabcdef"},
		{"property keys", `let s = "p".repeat(300); s += "1"; const o = {}; o[s] = 1; s += "2"; o[s] = 2; const ks = Object.keys(o).map((k) => k.slice(-2)); ks.join(",")`, "p1,12"},
		{"past a million units", `let s = ""; for (let i = 0; i < 30000; i++) s += String(i % 10).repeat(100); [s.length, s.slice(-101, -99), s[1500000]].join(",")`, "3000000,89,0"},
		{"interleaved", `const ss = ["", "", "", "", "", ""]; for (let i = 0; i < 3000; i++) ss[i % 6] += String.fromCharCode(97 + (i % 6));
			ss.map((s) => s.length + s.slice(0, 2)).join(",")`, "500aa,500bb,500cc,500dd,500ee,500ff"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := New().RunString(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if v.String() != c.want {
				t.Fatalf("got %q, want %q", v.String(), c.want)
			}
		})
	}
}

// TestAppendStringsRandom appends random pieces (ASCII and not) to
// random earlier strings and checks every string against the same
// appends done on Go strings.
func TestAppendStringsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc", "é", "😀", "xyz", strings.Repeat("q", 300), "ж"}
	var js strings.Builder
	js.WriteString("const v = [\"" + strings.Repeat("s", 260) + "\"];\n")
	want := []string{strings.Repeat("s", 260)}
	for i := 0; i < 3000; i++ {
		from := len(want) - 1 - rng.Intn(min(len(want), 5))
		p := pieces[rng.Intn(len(pieces))]
		fmt.Fprintf(&js, "v.push(v[%d] + %q);\n", from, p)
		want = append(want, want[from]+p)
		if len(want[len(want)-1]) > 20000 {
			js.WriteString("v.push(v[0]);\n")
			want = append(want, want[0])
		}
	}
	js.WriteString("v")
	v, err := New().RunString(js.String())
	if err != nil {
		t.Fatal(err)
	}
	got := v.Export().([]interface{})
	for i, w := range want {
		if got[i] != w {
			t.Fatalf("string %d: %d bytes, want %d (%q...)", i, len(got[i].(string)), len(w), w[:20])
		}
	}
}

// TestAppendStringsLinear checks that appending n pieces allocates O(n)
// bytes, not the sum of every prefix: 4 times the appends allocate
// about 4 times the bytes (16 times, were each append a copy).
func TestAppendStringsLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		r := New()
		prg := MustCompile("a.js", fmt.Sprintf(`let s = ""; for (let i = 0; i < %d; i++) s += "ab"; s.length`, n), false)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := r.RunProgram(prg); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(20000), alloc(80000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Fatalf("80,000 appends allocated %d bytes, %.1f times what 20,000 did (%d): not linear", large, ratio, small)
	}
}
