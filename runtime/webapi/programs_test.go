package webapi

import "testing"

// TestWebapiPreludesCompile compiles every embedded prelude.
func TestWebapiPreludesCompile(t *testing.T) {
	t.Parallel()
	for name, prg := range webapiPrograms {
		if prg() == nil {
			t.Errorf("%s did not compile", name)
		}
	}
}
