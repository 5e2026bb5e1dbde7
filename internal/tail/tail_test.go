package tail

import (
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		writes []string
		want   string
		total  int64
	}{
		{"nothing", 4, nil, "", 0},
		{"fits", 10, []string{"ab", "cd"}, "abcd", 4},
		{"exactly full", 4, []string{"ab", "cd"}, "abcd", 4},
		{"keeps the tail across writes", 4, []string{"abc", "def", "g"}, "defg", 7},
		{"one write larger than max", 3, []string{"abcdefgh"}, "fgh", 8},
		{"many small writes compact", 3, strings.Split("abcdefghijklmnop", ""), "nop", 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(tt.max)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := string(b.Bytes()); got != tt.want {
				t.Errorf("Bytes() = %q, want %q", got, tt.want)
			}
			if got := b.Total(); got != tt.total {
				t.Errorf("Total() = %d, want %d", got, tt.total)
			}
			if cap := 2 * tt.max; len(b.buf) > cap {
				t.Errorf("kept %d bytes, more than 2*max", len(b.buf))
			}
		})
	}
}

func TestHead(t *testing.T) {
	tests := []struct {
		name     string
		max      int
		writes   []string
		want     string
		overflow bool
	}{
		{"nothing", 4, nil, "", false},
		{"fits", 10, []string{"ab", "cd"}, "abcd", false},
		{"exactly full", 4, []string{"ab", "cd"}, "abcd", false},
		{"keeps the head across writes", 4, []string{"abc", "def", "g"}, "abcd", true},
		{"one write larger than max", 3, []string{"abcdefgh"}, "abc", true},
		{"writes after full", 2, []string{"ab", "c", "d"}, "ab", true},
		{"zero max", 0, []string{"a"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fulls := 0
			h := NewHead(tt.max, func() { fulls++ })
			for _, w := range tt.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := h.String(); got != tt.want {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
			wantFulls := 0
			if tt.overflow {
				wantFulls = 1
			}
			if h.Overflowed() != tt.overflow || fulls != wantFulls {
				t.Errorf("Overflowed() = %v and full called %d times, want %v and %d", h.Overflowed(), fulls, tt.overflow, wantFulls)
			}
		})
	}
}
