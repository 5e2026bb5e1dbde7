//go:build !unix || aix

package main

import (
	"context"
	"fmt"
)

// lockFile cannot lock on this system: it says so with errLockUnsupported,
// and the --state check for a concurrent change is all there is.
func lockFile(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	return nil, fmt.Errorf("lock %s: %w", path, errLockUnsupported)
}
