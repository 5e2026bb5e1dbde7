package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// TestMaxResultBytes checks that CallTool passes MaxResultBytes to the tool
// and refuses a larger result, measured as JSON, but not an error result.
func TestMaxResultBytes(t *testing.T) {
	text := strings.Repeat("x", 100)
	ok := registry.Result{Content: []registry.Content{registry.TextContent(text)}}
	size, err := registry.ResultSize(ok)
	if err != nil || size != len(`{"content":[{"type":"text","text":"`+text+`"}],"details":null,"isError":false}`) {
		t.Fatalf("ResultSize = %d, %v", size, err)
	}
	var seen int
	reg := registry.New()
	for _, tool := range []registry.Tool{
		{Name: "big", Description: "d", Parameters: map[string]any{"type": "object"}, Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
			seen = c.MaxResultBytes
			return ok, nil
		}},
		{Name: "fails", Description: "d", Parameters: map[string]any{"type": "object"}, Execute: func(context.Context, registry.Call) (registry.Result, error) {
			return registry.Result{}, errors.New(text)
		}},
	} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, tool string
		limit      int
		want       string
		isError    bool
	}{
		{"no limit", "big", 0, text, false},
		{"at the limit", "big", size, text, false},
		{"one byte over", "big", size - 1, "Tool big failed: the result is 170 bytes as JSON, over the limit of 169 bytes on a tool result", true},
		{"error results are not measured", "fails", 10, text, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := reg.CallTool(context.Background(), tt.tool, nil, registry.CallOptions{MaxResultBytes: tt.limit})
			if err != nil || res.IsError != tt.isError || res.Text() != tt.want {
				t.Fatalf("CallTool = %+v, %v; want isError %v, text %q", res, err, tt.isError, tt.want)
			}
			if tt.tool == "big" && seen != tt.limit {
				t.Fatalf("the tool saw MaxResultBytes %d, want %d", seen, tt.limit)
			}
		})
	}
	var tooLarge *registry.ResultTooLargeError
	if _, err := (registry.Call{MaxResultBytes: 10}).CheckResult(ok); !errors.As(err, &tooLarge) || tooLarge.Size != size || tooLarge.Limit != 10 {
		t.Fatalf("CheckResult = %v", err)
	}
	if _, err := (registry.Call{MaxResultBytes: 10}).CheckResult(registry.Result{Details: func() {}}); err == nil || !strings.Contains(err.Error(), "encode result") {
		t.Fatalf("CheckResult of unencodable details = %v", err)
	}
}

// countingDetails counts its encodings.
type countingDetails struct{ n *atomic.Int32 }

func (d countingDetails) MarshalJSON() ([]byte, error) {
	d.n.Add(1)
	return []byte(`{"a":1}`), nil
}

// TestCheckResultEncodesOnce checks that the result CheckResult returns
// carries its details as the JSON it measured, so that a tool that checks
// its result has its details encoded once on the way through CallTool,
// and that without a limit CheckResult changes nothing.
func TestCheckResultEncodesOnce(t *testing.T) {
	tests := []struct {
		name  string
		limit int
		want  any // the details CallTool returns
	}{
		{"with a limit", 1000, json.RawMessage(`{"a":1}`)},
		{"without a limit", 0, nil}, // the tool's own value
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			details := countingDetails{&n}
			reg := registry.New()
			err := reg.Register(registry.Tool{Name: "t", Description: "d", Parameters: map[string]any{"type": "object"},
				Execute: func(_ context.Context, c registry.Call) (registry.Result, error) {
					return c.CheckResult(registry.Result{Content: []registry.Content{registry.TextContent("x")}, Details: details})
				}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := reg.CallTool(context.Background(), "t", nil, registry.CallOptions{MaxResultBytes: tt.limit})
			if err != nil || res.IsError {
				t.Fatalf("CallTool = %+v, %v", res, err)
			}
			want := tt.want
			if want == nil {
				want = details
			}
			if !reflect.DeepEqual(res.Details, want) {
				t.Errorf("details = %#v, want %#v", res.Details, want)
			}
			if got, want := n.Load(), int32(min(tt.limit, 1)); got != want {
				t.Errorf("the details were encoded %d times, want %d", got, want)
			}
		})
	}
}
