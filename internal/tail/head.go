package tail

import "sync"

// Head is an io.Writer that keeps the first Max bytes written and discards
// the rest. It never fails, so that a writer is drained to its end; the
// first time it discards, it calls the full function given to NewHead. It
// is safe for concurrent use.
type Head struct {
	mu       sync.Mutex
	max      int
	buf      []byte
	overflow bool
	full     func()
}

// NewHead returns a Head that keeps the first max bytes and calls full
// (when not nil) once, on the first write past them.
func NewHead(max int, full func()) *Head { return &Head{max: max, full: full} }

// Write keeps what fits of p; it never fails.
func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	room := h.max - len(h.buf)
	h.buf = append(h.buf, p[:min(max(room, 0), len(p))]...)
	first := len(p) > room && !h.overflow
	if len(p) > room {
		h.overflow = true
	}
	h.mu.Unlock()
	if first && h.full != nil {
		h.full()
	}
	return len(p), nil
}

// Bytes returns a copy of the kept bytes.
func (h *Head) Bytes() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]byte(nil), h.buf...)
}

// Len returns how many bytes are kept.
func (h *Head) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.buf)
}

// String returns the kept bytes as a string.
func (h *Head) String() string { return string(h.Bytes()) }

// Overflowed reports whether more than Max bytes were written.
func (h *Head) Overflowed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.overflow
}

// Text returns the kept bytes as text and whether bytes were dropped after
// them; when they were, the text ends at the boundary.
func (h *Head) Text(at Boundary) (string, bool) {
	h.mu.Lock()
	s, cut := string(h.buf), h.overflow
	h.mu.Unlock()
	if cut {
		s = alignEnd(s, at)
	}
	return s, cut
}
