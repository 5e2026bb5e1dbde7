package suggest

import "testing"

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"run", "run", 10, 0},
		{"", "run", 10, 3},
		{"rnu", "run", 10, 1},
		{"timeuot", "timeout", 10, 1},
		{"rum", "run", 10, 1},
		{"ru", "run", 10, 1},
		{"schmea", "schema", 10, 1},
		{"reed", "read", 2, 1},
		{"gerp", "grep", 2, 1},
		{"kitten", "sitting", 10, 3},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3}, // more than the limit: limit+1
		{"abc", "", 2, 3},
		{"a", "abcd", 2, 3},
		{"ca", "abc", 10, 3}, // optimal string alignment: no edit of a swapped pair
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
		if got := Distance(tt.b, tt.a, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.b, tt.a, tt.limit, got, tt.want)
		}
	}
}
