package builtin

import (
	"encoding/json"
	"testing"
)

// TestParamsInteger checks that integer gives the number the snippet passed,
// unclamped, and that every error quotes it as JavaScript writes it.
func TestParamsInteger(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		want    int
		wantErr string
	}{
		{"small", 3.0, 3, ""},
		{"int64", int64(7), 7, ""},
		{"json number", json.Number("12"), 12, ""},
		{"past int32", float64(1 << 40), 1 << 40, ""},
		{"five billion", 5e9, 5000000000, ""},
		{"largest safe integer", float64(1<<53 - 1), 1<<53 - 1, ""},
		{"at the minimum", 1.0, 1, ""},
		{"fraction", 1.5, 0, "t: n must be a whole number, got 1.5"},
		{"large fraction", 1234567890.5, 0, "t: n must be a whole number, got 1234567890.5"},
		{"tiny fraction", 1e-7, 0, "t: n must be a whole number, got 1e-7"},
		{"below the minimum", 0.0, 0, "t: n must be at least 1, got 0"},
		{"far below the minimum", -5e9, 0, "t: n must be at least 1, got -5000000000"},
		{"past the safe integers", float64(1 << 53), 0, "t: n must be at most 9007199254740991, got 9007199254740992"},
		{"huge", 1e300, 0, "t: n must be at most 9007199254740991, got 1e+300"},
		{"huge json number", json.Number("1e21"), 0, "t: n must be at most 9007199254740991, got 1e+21"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := params{"t", map[string]any{"n": tc.v}}.integer("n", 1)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("integer(%v) = %d, %v, %v; want error %q", tc.v, got, ok, err, tc.wantErr)
				}
				return
			}
			if err != nil || !ok || got != tc.want {
				t.Fatalf("integer(%v) = %d, %v, %v; want %d", tc.v, got, ok, err, tc.want)
			}
		})
	}
}
