package console

import (
	"math"
	"testing"
)

// TestFormatHelpers checks the formatter's building blocks against
// JavaScript's (node v20's) results.
func TestFormatHelpers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {1e-7, "1e-7"}, {1e-6, "0.000001"}, {1.5e-10, "1.5e-10"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {-0.0000005, "-5e-7"}, {123456789.123, "123456789.123"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {0.1 + 0.2, "0.30000000000000004"},
		{math.NaN(), "NaN"}, {math.Inf(-1), "-Infinity"}, {2.5e-7, "2.5e-7"}, {123e-20, "1.23e-18"},
	} {
		if c.want == "0.30000000000000004" {
			a, b := 0.1, 0.2
			c.f = a + b // not folded into an exact constant
		}
		if got := formatNumber(c.f); got != c.want {
			t.Errorf("formatNumber(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"plain", "'plain'"}, {"it's", `"it's"`}, {`it's "x"`, "`it's \"x\"`"}, {"it's \"x\" ${y}", `'it\'s "x" ${y}'`},
		{"a\x00\x0b\x7f\u0085b", `'a\x00\x0B\x7F\x85b'`}, {"\b\t\n\f\r", `'\b\t\n\f\r'`}, {"é😀", "'é😀'"},
	} {
		if got := quote(c.in); got != c.want {
			t.Errorf("quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"42.9px", 42}, {"  -12.7", -12}, {"0x1F", 31}, {"1e21", 1}, {"", math.NaN()}, {"abc", math.NaN()}, {"+7", 7}} {
		if got := parseIntPrefix(c.in); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("parseInt(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"3.14abc", 3.14}, {".5e1", 5}, {"-Infinityx", math.Inf(-1)}, {"1e", 1}, {"e5", math.NaN()}, {" \n2", 2}, {"1e400", math.Inf(1)}} {
		if got := parseFloatPrefix(c.in); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("parseFloat(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		ms   float64
		want string
	}{{1.23456, "1.235ms"}, {0.0004, "0ms"}, {999.9999, "1000ms"}, {1500, "1.500s"}, {61234.5, "1:01.234 (m:ss.mmm)"}, {3723000, "1:02:03.000 (h:mm:ss.mmm)"}} {
		if got := formatTime(c.ms); got != c.want {
			t.Errorf("formatTime(%v) = %q, want %q", c.ms, got, c.want)
		}
	}
	for _, c := range []struct {
		s            string
		length, cols int
	}{{"abc", 3, 3}, {"é", 1, 1}, {"日本", 2, 4}, {"😀", 2, 2}, {"a\u0301", 2, 1}, {"\x1b[31mred\x1b[39m", 13, 3}} {
		if got := jsLen(c.s); got != c.length {
			t.Errorf("jsLen(%q) = %d, want %d", c.s, got, c.length)
		}
		if got := getStringWidth(c.s); got != c.cols {
			t.Errorf("getStringWidth(%q) = %d, want %d", c.s, got, c.cols)
		}
	}
}

// TestInspectUnit checks helpers of the formatter directly.
func TestInspectUnit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain", "'plain'"},
		{"it's", `"it's"`},
		{`it's "x"`, "`it's \"x\"`"},
		{"it's \"x\" `y`", `'it\'s "x" ` + "`y`'"},
		{"a\x01b", `'a\x01b'`},
		{"a\\b", `'a\\b'`},
	} {
		if got := quote(c.in); got != c.want {
			t.Errorf("quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want bool
	}{{"a", true}, {"_a1", true}, {"1a", false}, {"a-b", false}, {"", false}, {"ä", false}} {
		if got := isIdentifier(c.in); got != c.want {
			t.Errorf("isIdentifier(%q) = %v", c.in, got)
		}
	}
}
