package benchdata

import (
	"slices"
	"testing"
)

func TestQuantile(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		q    float64
		want float64
	}{
		{[]float64{3}, 0.5, 3},
		{[]float64{3, 1, 2}, 0.5, 2},
		{[]float64{4, 1, 3, 2}, 0.5, 2.5},
		{[]float64{4, 1, 3, 2}, 0.25, 1.75},
		{[]float64{4, 1, 3, 2}, 0, 1},
		{[]float64{4, 1, 3, 2}, 1, 4},
	} {
		in := slices.Clone(tc.xs)
		if got := Quantile(tc.xs, tc.q); got != tc.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.xs, tc.q, got, tc.want)
		}
		if !slices.Equal(in, tc.xs) {
			t.Errorf("Quantile changed its input: %v, was %v", tc.xs, in)
		}
	}
}
