//go:build !unix

package procfs

import "os"

// ReadFile returns the whole content of the file at path: os.ReadFile,
// where there is no /proc to read.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
