package tail

import "strings"

// Lines keeps the head of a listing: whole lines, joined with "\n", while
// they fit in a byte budget. Once a line does not fit, it and every later
// line are refused, so what is kept is always a prefix of the listing. It
// is not safe for concurrent use.
type Lines struct {
	max   int
	size  int
	lines []string
	full  bool
}

// NewLines returns a Lines that keeps at most max bytes, the "\n"s between
// lines included.
func NewLines(max int) *Lines { return &Lines{max: max} }

// Add keeps all of lines if they fit, or none of them, and reports which;
// lines that must stay together (a separator and the line it introduces)
// are added in one call.
func (l *Lines) Add(lines ...string) bool {
	if l.full {
		return false
	}
	n := 0
	for i, line := range lines {
		n += len(line)
		if len(l.lines)+i > 0 {
			n++ // the "\n" before it
		}
	}
	if l.size+n > l.max {
		l.full = true
		return false
	}
	l.size += n
	l.lines = append(l.lines, lines...)
	return true
}

// Len is the number of lines kept.
func (l *Lines) Len() int { return len(l.lines) }

// String returns the kept lines joined with "\n", without a final one.
func (l *Lines) String() string { return strings.Join(l.lines, "\n") }
