package procfs

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789"), 1000) // past the first buffer
	for _, tc := range []struct {
		name    string
		content []byte
	}{
		{"empty", nil},
		{"short", []byte("pid (comm) S 1 2 3")},
		{"long", big},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.content, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !bytes.Equal(got, tc.content) {
			t.Errorf("%s: ReadFile = %d bytes, %v; want %d bytes", tc.name, len(got), err, len(tc.content))
		}
	}
	missing := filepath.Join(dir, "missing")
	_, err := ReadFile(missing)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != missing {
		t.Errorf("ReadFile(missing) error = %v, want a *fs.PathError naming it that is fs.ErrNotExist", err)
	}
	if runtime.GOOS == "linux" {
		if b, err := ReadFile("/proc/self/stat"); err != nil || !strings.Contains(string(b), ")") {
			t.Errorf("/proc/self/stat reads %q, %v", b, err)
		}
	}
}
