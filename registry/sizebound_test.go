package registry

import (
	"strings"
	"testing"
)

// TestSizeBound: the bound checkResult takes instead of encoding a result
// without details is never below the result's size as JSON, for the
// strings that take the most bytes to encode (escaped characters, invalid
// UTF-8, HTML characters json escapes), for no content and for many blocks.
func TestSizeBound(t *testing.T) {
	worst := "\x00\x01\x1f\"\\<>&\u2028\u2029\xff\xfe" + strings.Repeat("\x00", 100)
	for _, content := range [][]Content{
		nil,
		{},
		{TextContent("")},
		{TextContent("plain")},
		{TextContent(worst)},
		{ImageContent(worst, worst), {Type: worst, Text: worst, Data: worst, MimeType: worst}},
		make([]Content, 1000),
	} {
		for _, isErr := range []bool{false, true} {
			r := Result{Content: content, IsError: isErr}
			n, err := ResultSize(r)
			if err != nil {
				t.Fatal(err)
			}
			if b := sizeBound(r.Content); b < n {
				t.Errorf("sizeBound = %d, below the size %d of %+v", b, n, r)
			}
		}
	}
	// At the limit: a result that does not fit is refused whether or not
	// the bound would let it through.
	r := TextResult(worst)
	n, _ := ResultSize(r)
	if _, err := (Call{MaxResultBytes: n}).checkResult(r); err != nil {
		t.Errorf("a result of %d bytes at a limit of %d: %v", n, n, err)
	}
	if _, err := (Call{MaxResultBytes: n - 1}).checkResult(r); err == nil {
		t.Errorf("a result of %d bytes at a limit of %d was not refused", n, n-1)
	}
}
