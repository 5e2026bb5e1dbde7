package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/registry"
)

// addStep commits a planning step to s as a run's call would.
func addStep(t *testing.T, s *builtin.Session, title string) {
	t.Helper()
	tools := map[string]registry.Tool{}
	for _, tool := range builtin.PlanningTools(s) {
		tools[tool.Name] = tool
	}
	name, params := "planning_add_step", map[string]any{"steps": []any{title}}
	if _, ok := s.Plan(); !ok {
		name, params = "planning_setup_plan", map[string]any{"objective": "o", "initial_steps": []any{title}}
	}
	res, err := tools[name].Execute(context.Background(), registry.Call{ID: "c", Params: params})
	res.Finalize(err == nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestStateSave checks that a --state save writes the session back only
// over the file it loaded: a file another writer changed, removed or
// created in the meantime fails the save with errStateChanged and is left
// as that writer left it, and a session that did not change writes nothing.
func TestStateSave(t *testing.T) {
	const saved = `{"version": 1, "plan": {"objective": "o", "status": "active", "steps": [{"step_id": 1, "title": "a", "status": "pending"}]}, "next_step_id": 2}`
	const other = `{"version": 1, "plan": null}`
	tests := []struct {
		name    string
		before  string // the file when the run loads it; "" for none
		change  bool   // the run adds a step
		between func(path string) error
		wantErr bool
		want    string // the file after the save; "" for none, "*" for the run's session
	}{
		{"changed session over the file it loaded", saved, true, nil, false, "*"},
		{"new file", "", true, nil, false, "*"},
		{"new file, nothing changed", "", false, nil, false, "*"},
		{"another writer changed the file", saved, true,
			func(p string) error { return os.WriteFile(p, []byte(other), 0o600) }, true, other},
		{"another writer removed the file", saved, true, os.Remove, true, ""},
		{"another writer created the file", "", true,
			func(p string) error { return os.WriteFile(p, []byte(other), 0o600) }, true, other},
		{"another writer rewrote the same bytes", saved, true,
			func(p string) error { return os.WriteFile(p, []byte(saved), 0o600) }, false, "*"},
		{"nothing changed, another writer changed the file", saved, false,
			func(p string) error { return os.WriteFile(p, []byte(other), 0o600) }, false, other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.json")
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			h, s, err := openState(context.Background(), path, func(string) { t.Error("waited for a lock nobody holds") })
			if err != nil {
				t.Fatal(err)
			}
			defer h.close()
			if tc.change {
				addStep(t, s, "mine")
			}
			if tc.between != nil {
				if err := tc.between(path); err != nil {
					t.Fatal(err)
				}
			}
			err = h.save(s)
			if tc.wantErr {
				want := "save --state " + path + ": another process changed the file since this run loaded it; this run's planning changes were not saved, and the file was left as it is"
				if !errors.Is(err, errStateChanged) || err.Error() != want {
					t.Fatalf("save = %v\nwant %s", err, want)
				}
			} else if err != nil {
				t.Fatalf("save: %v", err)
			}
			want := tc.want
			if want == "*" {
				b, err := encodeSession(s)
				if err != nil {
					t.Fatal(err)
				}
				want = string(b)
				if !tc.change && tc.before != "" {
					want = tc.before
				}
			}
			got, err := os.ReadFile(path)
			switch {
			case want == "" && !errors.Is(err, os.ErrNotExist):
				t.Errorf("the file exists (%v): %s", err, got)
			case want != "" && string(got) != want:
				t.Errorf("file = %s (%v)\nwant %s", got, err, want)
			}
			if strings.Contains(want, "mine") != (tc.change && !tc.wantErr) {
				t.Errorf("the run's step saved = %v, want %v", !tc.wantErr, tc.change)
			}
		})
	}
}

// TestStateCorruptNotLocked checks that a corrupt --state file fails the
// load, is left alone, and leaves no lock held.
func TestStateCorruptNotLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	const corrupt = `{"version": 1, "plan": {"steps": [{"step_id": "one"}]}`
	if err := os.WriteFile(path, []byte(corrupt), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openState(context.Background(), path, func(string) {}); err == nil || !strings.Contains(err.Error(), "the file was left unchanged") {
		t.Fatalf("openState = %v, want the corrupt file's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != corrupt {
		t.Errorf("the corrupt file became %s", b)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	h, _, err := openState(context.Background(), path, func(string) { t.Error("waited for the lock the failed load took") })
	if err != nil {
		t.Fatal(err)
	}
	h.close()
}
