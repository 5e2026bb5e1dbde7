//go:build linux

package isolation

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

func spinPipe(t *testing.T, spin func() bool) (*spinReader, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return &spinReader{f: r, spin: spin}, w
}

func TestSpinReaderReadsAndEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		spin func() bool
	}{
		{"never spins", nil},
		{"spins", func() bool { return true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sr, w := spinPipe(t, tc.spin)
			want := bytes.Repeat([]byte("frame "), 20000) // over a pipe buffer
			go func() {
				for i := 0; i < len(want); i += 7000 {
					_, _ = w.Write(want[i:min(i+7000, len(want))])
					time.Sleep(100 * time.Microsecond)
				}
				w.Close()
			}()
			got, err := io.ReadAll(sr)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("read %d bytes, err %v; want %d bytes and EOF", len(got), err, len(want))
			}
		})
	}
}

// A reader that parked while no call waited must not see kick's deadline
// as an error, and must go on to read what comes next.
func TestSpinReaderKick(t *testing.T) {
	var waiting atomic.Bool
	sr, w := spinPipe(t, waiting.Load)
	done := make(chan error, 1)
	buf := make([]byte, 16)
	go func() {
		n, err := sr.Read(buf)
		if err == nil && string(buf[:n]) != "answer" {
			err = errors.New("read " + string(buf[:n]))
		}
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !sr.parked.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the reader never parked")
		}
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		waiting.Store(true)
		sr.kick()
		time.Sleep(5 * time.Millisecond) // spins, parks again
	}
	if _, err := w.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Read after kicks: %v", err)
	}
}

// Kicks racing with reads lose no byte and surface no error.
func TestSpinReaderKickRace(t *testing.T) {
	var waiting atomic.Bool
	sr, w := spinPipe(t, waiting.Load)
	const n = 2000
	go func() {
		for i := range n {
			waiting.Store(i%3 != 0)
			sr.kick()
			_, _ = w.Write([]byte{byte(i)})
			if i%50 == 0 {
				time.Sleep(200 * time.Microsecond)
			}
		}
		w.Close()
	}()
	got, err := io.ReadAll(sr)
	if err != nil || len(got) != n {
		t.Fatalf("read %d bytes, err %v; want %d and EOF", len(got), err, n)
	}
	for i, b := range got {
		if b != byte(i) {
			t.Fatalf("byte %d is %d, want %d", i, b, byte(i))
		}
	}
}

// A deadline its user set is reported, not taken for a kick.
func TestSpinReaderUserDeadline(t *testing.T) {
	sr, _ := spinPipe(t, func() bool { return true })
	if err := sr.f.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := sr.Read(make([]byte, 8))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read = %v, want os.ErrDeadlineExceeded", err)
	}
}
