package procgroup

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestUnsupportedError(t *testing.T) {
	t.Parallel()
	err := unsupportedError("windows")
	if !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("%v does not wrap errors.ErrUnsupported", err)
	}
	for _, want := range []string{"which windows lacks", "needs process groups (Linux, macOS or another Unix system)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

// uncomparable is a writer whose dynamic type cannot be compared with ==.
type uncomparable []byte

func (u uncomparable) Write(p []byte) (int, error) { return len(p), nil }

func TestSameWriter(t *testing.T) {
	t.Parallel()
	var a, b bytes.Buffer
	tests := []struct {
		name string
		x, y io.Writer
		want bool
	}{
		{"same", &a, &a, true},
		{"different", &a, &b, false},
		{"nil and nil", nil, nil, true},
		{"one nil", &a, nil, false},
		{"uncomparable", uncomparable{}, uncomparable{}, false},
	}
	for _, tt := range tests {
		if got := sameWriter(tt.x, tt.y); got != tt.want {
			t.Errorf("%s: sameWriter = %v, want %v", tt.name, got, tt.want)
		}
	}
}
