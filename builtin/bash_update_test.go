//go:build unix

package builtin

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/codeexec/codeexec/registry"
)

// TestBashStreamsUpdates checks that bash reports its output as partial
// results while the command runs, in order, up to the output limit, and
// that the result still holds the whole output.
func TestBashStreamsUpdates(t *testing.T) {
	tests := []struct {
		name, command string
		limit         int
		updates       []string
		result        string
	}{
		{"two chunks", "echo one; sleep 0.2; echo two >&2", 0, []string{"one\n", "two\n"}, "one\ntwo\n"},
		{"over the limit", "printf 12345; sleep 0.2; printf 67890", 8,
			[]string{"12345", "[more output than the limit: the rest is in the result]"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil, func(o *Options) {
				if tt.limit > 0 {
					o.MaxOutputBytes = tt.limit
				}
			})
			var mu sync.Mutex
			var got []string
			res, err := e.tool(t, "bash").Execute(context.Background(), registry.Call{
				ID: "test", Params: map[string]any{"command": tt.command},
				OnUpdate: func(u registry.Result) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, u.Text())
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(got, "|") != strings.Join(tt.updates, "|") {
				t.Errorf("updates %q, want %q", got, tt.updates)
			}
			if tt.result != "" && res.Text() != tt.result {
				t.Errorf("result %q, want %q", res.Text(), tt.result)
			}
		})
	}
}
