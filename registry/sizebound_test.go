package registry

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSizeBound: the bound checkResult takes instead of encoding a result
// (sizeBound of its content, plus 6 bytes a byte of its details' JSON) is
// never below the result's size as JSON, for the strings that take the
// most bytes to encode (escaped characters, invalid UTF-8, HTML
// characters json escapes), for no content and for many blocks, without
// and with details.
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
		for _, details := range []any{nil, worst, map[string]any{"<&>": []string{worst, "\u2028"}}, json.RawMessage(`{"a": "<>&\u2028",  "b" : [ 1, 2 ]}`), json.RawMessage(`"` + strings.Repeat("<&>", 100) + "\u2028\"")} {
			for _, isErr := range []bool{false, true} {
				r := Result{Content: content, Details: details, IsError: isErr}
				n, err := ResultSize(r)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := r.DetailsJSON()
				if err != nil {
					t.Fatal(err)
				}
				if b := sizeBound(r.Content) + 6*len(raw); b < n {
					t.Errorf("the bound %d is below the size %d of %+v", b, n, r)
				}
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
	// With details, whose JSON grows in the result when it is text with
	// characters json escapes.
	for _, details := range []any{map[string]any{"path": worst}, json.RawMessage(`{"path":"` + strings.Repeat("<&>", 100) + `"}`)} {
		r.Details = details
		n, _ = ResultSize(r)
		if raw, err := (Call{MaxResultBytes: n}).checkResult(r); err != nil || !strings.Contains(string(raw), `"path"`) {
			t.Errorf("a result with details of %d bytes at a limit of %d: %s, %v", n, n, raw, err)
		}
		if _, err := (Call{MaxResultBytes: n - 1}).checkResult(r); err == nil {
			t.Errorf("a result with details of %d bytes at a limit of %d was not refused", n, n-1)
		}
		if raw, err := (Call{MaxResultBytes: 1 << 20}).checkResult(r); err != nil || !strings.Contains(string(raw), `"path"`) {
			t.Errorf("a result with details far below the limit: %s, %v", raw, err)
		}
	}
}
