package early

import "testing"

func TestWantsWorker(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"run", "a.ts"}, true},
		{[]string{"run", "-e", "return 1", "--timeout", "5s"}, true},
		{[]string{"run", "--isolation", "process", "a.ts"}, true},
		{[]string{"run", "--isolation", "none", "a.ts"}, false},
		{[]string{"run", "--isolation=none", "a.ts"}, false},
		{[]string{"run", "--memory-limit", "64MiB", "a.ts"}, false},
		{[]string{"run", "--memory-limit=64MiB", "a.ts"}, false},
		{[]string{"run", "--help"}, false},
		{[]string{"run", "-h"}, false},
		{[]string{"run", "--", "--isolation", "none"}, true}, // after --, a file named so
		{[]string{"run", "--isolation"}, true},               // a usage error: the worker is discarded
		{[]string{"repl"}, false},
		{[]string{"prompt"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := WantsWorker(tt.args); got != tt.want {
			t.Errorf("WantsWorker(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
