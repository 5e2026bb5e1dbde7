//go:build !unix

package hostile

import "errors"

// mkfifo reports that there are no named pipes to make here.
func mkfifo(string) error {
	return errors.ErrUnsupported
}
