// Package tail is the one way codeexec caps output: it keeps the end
// (Buffer) or the beginning (Head) of a stream of bytes in bounded memory,
// the head of a listing in whole lines (Lines), and cuts a text to a byte
// budget at a line or rune boundary (Prefix, Suffix), for the output of
// commands, tools and worker processes; Size says a byte count as the
// notices of capped output do.
package tail

import "sync"

// Buffer is an io.Writer that keeps only the last Max bytes written (in at
// most 2*Max bytes of memory) and counts everything written. It is safe for
// concurrent use.
type Buffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64
}

// New returns a Buffer that keeps the last max bytes.
func New(max int) *Buffer { return &Buffer{max: max} }

// Write keeps the tail of p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += int64(len(p))
	q := p
	if len(q) > b.max {
		q = q[len(q)-b.max:]
	}
	if len(b.buf)+len(q) > 2*b.max {
		keep := b.max - len(q)
		copy(b.buf, b.buf[len(b.buf)-keep:])
		b.buf = b.buf[:keep]
	}
	b.buf = append(b.buf, q...)
	return len(p), nil
}

// Bytes returns a copy of the kept bytes: the last min(Max, Total) written.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf
	if len(s) > b.max {
		s = s[len(s)-b.max:]
	}
	return append([]byte(nil), s...)
}

// Total is the number of bytes written, kept or not.
func (b *Buffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// Text returns the kept bytes as text and whether bytes were dropped before
// them; when they were, the text starts at the boundary.
func (b *Buffer) Text(at Boundary) (string, bool) {
	b.mu.Lock()
	kept := b.buf[max(len(b.buf)-b.max, 0):]
	s, cut := string(kept), b.total > int64(len(kept))
	b.mu.Unlock()
	if cut {
		s = alignStart(s, at)
	}
	return s, cut
}
