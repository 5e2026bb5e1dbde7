//go:build !linux

package isolation

import (
	"strings"
	"testing"
)

// TestNewPoolRefuses checks that, without Linux, NewPool fails with an
// error that says process isolation needs it.
func TestNewPoolRefuses(t *testing.T) {
	p, err := NewPool(Options{})
	if err == nil || !strings.Contains(err.Error(), "only supported on Linux") {
		t.Fatalf("NewPool = %v, %v; want an error saying isolation needs Linux", p, err)
	}
}
