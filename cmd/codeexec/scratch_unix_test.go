//go:build unix && !aix

package main

import (
	"testing"
)

func TestScratchDrain(t *testing.T) {
	f := startFleet(t, 3)
	f.testDrain(t)
}

func init() {
	println("init")
}
