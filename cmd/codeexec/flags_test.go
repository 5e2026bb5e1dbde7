package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string // a substring of the error; "" for none
	}{
		{"1", 1, ""},
		{"536870912", 512 << 20, ""},
		{"10B", 10, ""},
		{"64KiB", 64 << 10, ""},
		{"512MiB", 512 << 20, ""},
		{"2GiB", 2 << 30, ""},
		{"1KB", 1000, ""},
		{"5MB", 5e6, ""},
		{"2GB", 2e9, ""},
		{"1mib", 1 << 20, ""},
		{"1kb", 1000, ""},
		{" 3 KiB ", 3 << 10, ""},
		{"0", 0, "want a positive size in bytes"},
		{"-1KiB", 0, "want a positive size in bytes"},
		{"1.5GiB", 0, `got "1.5GiB"`},
		{"lots", 0, `got "lots"`},
		{"", 0, `got ""`},
		{"MiB", 0, `got "MiB"`},
		{"1TiB", 0, `got "1TiB"`},
		{"512M", 0, `unit "M" is ambiguous: write 512MiB (powers of 1024) or 512MB (powers of 1000)`},
		{"4k", 0, `unit "k" is ambiguous: write 4KiB`},
		{"9223372036854775807", 1<<63 - 1, ""},
		{"9223372036854775808", 0, "want a positive size"},
		{"8589934592GiB", 0, `size "8589934592GiB" is too large`},
	}
	for _, tt := range tests {
		got, err := parseBytes(tt.in)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("parseBytes(%q): %v", tt.in, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("parseBytes(%q) = %d, %v; want an error containing %q", tt.in, got, err, tt.err)
		case got != tt.want:
			t.Errorf("parseBytes(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for _, n := range []int64{1, 1000, 1 << 10, 1536, 1 << 20, 512 << 20, 3 << 30, 1e9} {
		s := formatBytes(n)
		back, err := parseBytes(s)
		if err != nil || back != n {
			t.Errorf("formatBytes(%d) = %q, which reads back as %d, %v", n, s, back, err)
		}
	}
	for n, want := range map[int64]string{1 << 20: "1MiB", 1536: "1536", 1 << 10: "1KiB", 1e9: "1000000000"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestByteSizeFlag(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	small := bytesFlag(fs, "small", 1<<20, "")
	big := bytesFlag(fs, "big", int64(512<<20), "")
	if got := fs.Lookup("small").DefValue; got != "1MiB" {
		t.Errorf("default shown as %q, want 1MiB", got)
	}
	if err := fs.Parse([]string{"--small", "64KiB", "--big=3GB"}); err != nil {
		t.Fatal(err)
	}
	if *small != 64<<10 || *big != 3e9 {
		t.Errorf("small %d, big %d; want %d, %d", *small, *big, 64<<10, int64(3e9))
	}
	err := fs.Parse([]string{"--small", "64K"})
	if err == nil || !strings.Contains(flagError(fs, err).Error(), `--small: unit "K" is ambiguous`) {
		t.Errorf("--small 64K: %v", err)
	}
}

func TestSuggest(t *testing.T) {
	flags := []string{"eval", "timeout", "tool-timeout", "max-output", "max-tool-calls", "memory-limit", "tools-dir", "json", "help"}
	tests := []struct {
		in         string
		candidates []string
		want       []string
	}{
		{"rnu", commands, []string{"run"}},
		{"ru", commands, []string{"run"}},
		{"tool", commands, []string{"tools"}},
		{"verison", commands, []string{"version"}},
		{"frobnicate", commands, nil},
		{"r", commands, nil},  // one letter is no basis for a guess
		{"x", commands, nil},  // nor is a letter that matches nothing
		{"ls", commands, nil}, // two edits from nothing
		{"timeuot", flags, []string{"timeout"}},
		{"jsno", flags, []string{"json"}},
		{"memory", flags, []string{"memory-limit"}}, // the one name it begins
		{"max", flags, nil},                         // begins two names
		{"tools", flags, []string{"tools-dir"}},
		{"max-outptu", flags, []string{"max-output"}},
		{"hlep", flags, []string{"help"}},
		{"ab", []string{"ax", "ay"}, []string{"ax", "ay"}}, // ties, in order
	}
	for _, tt := range tests {
		if got := closeNames(tt.in, tt.candidates); !slices.Equal(got, tt.want) {
			t.Errorf("closeNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOrList(t *testing.T) {
	tests := []struct {
		names  []string
		prefix string
		want   string
	}{
		{[]string{"run"}, "", `"run"`},
		{[]string{"a", "b"}, "--", "--a or --b"},
		{[]string{"a", "b", "c"}, "--", "--a, --b or --c"},
	}
	for _, tt := range tests {
		if got := orList(tt.names, tt.prefix); got != tt.want {
			t.Errorf("orList(%q, %q) = %q, want %q", tt.names, tt.prefix, got, tt.want)
		}
	}
}
