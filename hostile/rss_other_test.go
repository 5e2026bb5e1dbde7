//go:build !linux

package hostile

// peakRSS reports that peak resident memory is not measured here: outside
// Linux, ru_maxrss has other units (bytes on macOS) and there is no VmHWM.
func peakRSS() (self, child int64, ok bool) {
	return 0, 0, false
}
