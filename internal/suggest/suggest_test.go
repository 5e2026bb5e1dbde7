package suggest

import "testing"

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"run", "run", 10, 0},
		{"", "run", 10, 3},
		{"rnu", "run", 10, 1},
		{"timeuot", "timeout", 10, 1},
		{"rum", "run", 10, 1},
		{"ru", "run", 10, 1},
		{"schmea", "schema", 10, 1},
		{"reed", "read", 2, 1},
		{"gerp", "grep", 2, 1},
		{"kitten", "sitting", 10, 3},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3}, // more than the limit: limit+1
		{"abc", "", 2, 3},
		{"a", "abcd", 2, 3},
		{"ca", "abc", 10, 3}, // optimal string alignment: no edit of a swapped pair
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
		if got := Distance(tt.b, tt.a, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.b, tt.a, tt.limit, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	candidates := []string{"read", "write", "edit", "bash", "grep", "ls", "find", "console", "JSON", "gh.search_issues", "gh.read", "__codeexecCheckStack", "Math"}
	tests := []struct{ name, want string }{
		{"reed", "read"},                      // one letter changed
		{"gerp", "grep"},                      // two letters swapped
		{"grepp", "grep"},                     // a letter added
		{"consle", "console"},                 // a letter dropped
		{"Read", "read"},                      // case
		{"json", "JSON"},                      // case
		{"search_issues", "gh.search_issues"}, // a namespaced tool
		{"readFile", "read"},                  // a candidate that begins the name at a word boundary
		{"bash_run", "bash"},
		{"write2", "write"},
		{"writes", "write"},
		{"reader", "read"}, // two edits on a name of 5 letters or more
		{"readr", "read"},  // one edit
		{"ready", "read"},  // one edit
		{"rad", "read"},    // one edit on a three-letter name
		{"reading", ""},    // three edits, and not at a word boundary
		{"lsDir", "ls"},    // a two-letter candidate at a boundary
		{"x", ""},          // too short for edits
		{"ld", ""},         // two letters: only case or namespace
		{"glob", ""},       // nothing close
		{"fnid", "find"},   // a swap
		{"codeexecCheckStack", ""},
		{"mathh", "Math"}, // case and an added letter: two edits, 5 letters
	}
	for _, tt := range tests {
		if got := Closest(tt.name, candidates); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	// Case and underscores aside; a namespaced candidate matches by its
	// last part exactly.
	if got := Closest("searchIssues", []string{"search_issues", "gh.search_issues"}); got != "search_issues" {
		t.Errorf("searchIssues: %q", got)
	}
	if got := Closest("searchIssue", []string{"search_issues", "gh.search_issues"}); got != "search_issues" {
		t.Errorf("searchIssue: %q", got)
	}
	if got := Closest("searchIssues", []string{"gh.search_issues"}); got != "" {
		t.Errorf("searchIssues, namespaced: %q", got)
	}
}
