package goja

import (
	"unsafe"
	"weak"
)

// Appending to strings (codeexec patch, see PATCH.md).
//
// goja's strings are immutable: an asciiString is a Go string, a
// unicodeString a []uint16, and a + b copies both. A loop that appends to
// a string (s += t, the way scripts build reports, CSV and markdown)
// therefore copies every prefix again: 200,000 one-character appends copy
// 20 GB. V8 builds a rope there.
//
// The + operator keeps, per Runtime, a few buffers with room to spare
// behind the strings it built by appending. When its left operand is the
// whole of one of them, as the last append left it (the same first byte
// in memory, the same length), the right operand is copied into the spare
// room and the result is a longer view of the same buffer: s += t then
// costs the length of t, and the buffer doubles when it is full, so n
// appends copy O(n) bytes in all. A string made from a buffer is never
// written to: a buffer records how much of it has been handed out
// (used), only bytes past that are written, and a left operand that is
// not all of it (an older, shorter view) is copied as before. The buffers
// are held weakly: one that no string uses any more is collected, and a
// weak pointer to it cannot be mistaken for a new allocation at the same
// address.
//
// A buffer is started only for a chain of appends: for a + whose left
// operand is the result of the + before (by address and length), so that
// a one-off concatenation does not allocate room it never uses.

// appendMin is the length (in code units) below which + copies as it
// always did: short strings are cheap to copy, and most strings are short.
const appendMin = 256

// appendSlots is how many buffers a Runtime keeps: appends to that many
// strings in turn (a report and its summary) stay linear.
const appendSlots = 4

// appendBuf is a buffer that + appends to: bytes for ASCII strings, or
// UTF-16 code units (the first one the BOM, as in every unicodeString).
type appendBuf struct {
	ascii weak.Pointer[byte]
	wide  weak.Pointer[uint16]
	// used is the length of the longest string made from the buffer,
	// capacity its size, both in its units.
	used, capacity int
}

// stringAppender is a Runtime's appending state.
type stringAppender struct {
	bufs [appendSlots]appendBuf
	next int // the slot a new buffer takes
	// lastData and lastLen identify the last long string that + made by
	// copying, to tell the start of a chain of appends; only compared,
	// never dereferenced.
	lastData uintptr
	lastLen  int
}

// addStrings returns a + b, as the + operator makes it.
func (r *Runtime) addStrings(a, b String) String {
	ap := &r.appender
	switch a := a.(type) {
	case asciiString:
		if len(a)+b.Length() < appendMin {
			break
		}
		bs, bu := devirtualizeString(b)
		if bu != nil {
			break
		}
		data := unsafe.StringData(string(a))
		if buf := ap.find(data, nil, len(a)); buf != nil {
			return r.appendASCII(buf, a, bs)
		}
		if uintptr(unsafe.Pointer(data)) == ap.lastData && len(a) == ap.lastLen {
			return r.appendASCII(nil, a, bs)
		}
	case unicodeString:
		if len(a)-1+b.Length() < appendMin {
			break
		}
		if buf := ap.find(nil, &a[0], len(a)); buf != nil {
			return r.appendWide(buf, a, b)
		}
		if uintptr(unsafe.Pointer(&a[0])) == ap.lastData && len(a) == ap.lastLen {
			return r.appendWide(nil, a, b)
		}
	}
	if r.allocCheck != nil {
		r.checkConcat(a, b)
	}
	res := a.Concat(b)
	ap.lastData, ap.lastLen = 0, 0
	switch s := res.(type) {
	case asciiString:
		if len(s) >= appendMin {
			ap.lastData, ap.lastLen = uintptr(unsafe.Pointer(unsafe.StringData(string(s)))), len(s)
		}
	case unicodeString:
		if len(s) > appendMin {
			ap.lastData, ap.lastLen = uintptr(unsafe.Pointer(&s[0])), len(s)
		}
	}
	return res
}

// find returns the buffer that starts at ascii (or wide) and whose used
// length is n, or nil.
func (ap *stringAppender) find(ascii *byte, wide *uint16, n int) *appendBuf {
	for i := range ap.bufs {
		buf := &ap.bufs[i]
		if buf.used != n {
			continue
		}
		if ascii != nil && buf.ascii.Value() == ascii || wide != nil && buf.wide.Value() == wide {
			return buf
		}
	}
	return nil
}

// slot returns buf, or, for nil, the slot a new buffer takes.
func (ap *stringAppender) slot(buf *appendBuf) *appendBuf {
	if buf != nil {
		return buf
	}
	buf = &ap.bufs[ap.next]
	ap.next = (ap.next + 1) % appendSlots
	return buf
}

// appendCapacity is the size of a new buffer for n units: twice n, and
// past a million units (where the room would be megabytes, and the
// allocation check may refuse twice what the string needs) a quarter more,
// as Go grows a large slice: growth stays geometric, so n appends still
// copy O(n) units.
func appendCapacity(n int) int {
	if n >= 1<<20 {
		return n + n/4
	}
	return max(2*n, 2*appendMin)
}

// appendASCII returns a + b, appended in place in buf when it has room,
// else copied into a new buffer that takes buf's slot (a new slot for nil).
func (r *Runtime) appendASCII(buf *appendBuf, a, b asciiString) String {
	n := len(a) + len(b)
	if buf != nil && n <= buf.capacity {
		mem := unsafe.Slice(unsafe.StringData(string(a)), buf.capacity)
		copy(mem[len(a):], b)
		buf.used = n
		return asciiString(unsafe.String(&mem[0], n))
	}
	c := appendCapacity(n)
	r.checkAlloc(int64(c))
	mem := make([]byte, c)
	copy(mem, a)
	copy(mem[len(a):], b)
	buf = r.appender.slot(buf)
	*buf = appendBuf{ascii: weak.Make(&mem[0]), used: n, capacity: c}
	return asciiString(unsafe.String(&mem[0], n))
}

// appendWide returns a + b for a unicodeString a, appended in place in
// buf when it has room, else copied into a new buffer that takes buf's
// slot (a new slot for nil).
func (r *Runtime) appendWide(buf *appendBuf, a unicodeString, b String) String {
	bs, bu := devirtualizeString(b)
	n := len(a) + len(bs)
	if bu != nil {
		n = len(a) + len(bu) - 1
	}
	var mem []uint16
	if buf != nil && n <= buf.capacity {
		mem = unsafe.Slice(&a[0], buf.capacity)
	} else {
		c := appendCapacity(n)
		r.checkAlloc(stringBytes(int64(c), false))
		mem = make([]uint16, c)
		copy(mem, a)
		buf = r.appender.slot(buf)
		*buf = appendBuf{wide: weak.Make(&mem[0]), capacity: c}
	}
	if bu != nil {
		copy(mem[len(a):], bu[1:])
	} else {
		for i := 0; i < len(bs); i++ {
			mem[len(a)+i] = uint16(bs[i])
		}
	}
	buf.used = n
	// Capped at its length: an append elsewhere (append on the slice)
	// must not write into the buffer's room.
	return unicodeString(mem[:n:n])
}
