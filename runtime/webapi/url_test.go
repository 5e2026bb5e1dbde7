package webapi

import "testing"

// TestParseWebURL checks the URL parser's serializations against node v20's
// URL (href of `new URL(input, base)`; "" when it throws).
func TestParseWebURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ input, base, want string }{
		{"https://EXAMPLE.com:443/a/../b/./c", "", "https://example.com/b/c"},
		{"http://example.com:80", "", "http://example.com/"},
		{"HTTP://user:p%40ss@host:8080/p?q#f", "", "http://user:p%40ss@host:8080/p?q#f"},
		{"http://[2001:DB8::0:1]:8080/", "", "http://[2001:db8::1]:8080/"},
		{"http://[::ffff:192.168.0.1]/", "", "http://[::ffff:c0a8:1]/"},
		{"http://192.168.0.257/", "", ""},
		{"http://0300.0250.0.1/", "", "http://192.168.0.1/"},
		{"http://bücher.example/", "", "http://xn--bcher-kva.example/"},
		{"http://münchen.de/straße", "", "http://xn--mnchen-3ya.de/stra%C3%9Fe"},
		{"https://a.org/x y?a b#c d", "", "https://a.org/x%20y?a%20b#c%20d"},
		{"https://a.org/?q='x'", "", "https://a.org/?q=%27x%27"},
		{"foo://a.org/?q='x'", "", "foo://a.org/?q='x'"},
		{"https:\\\\a.org\\b\\c", "", "https://a.org/b/c"},
		{"mailto:Someone@Example.com", "", "mailto:Someone@Example.com"},
		{"javascript:alert(1)", "", "javascript:alert(1)"},
		{"file:///C:/x/../y", "", "file:///C:/y"},
		{"file://localhost/etc", "", "file:///etc"},
		{"http://", "", ""},
		{"http://a b/", "", ""},
		{"http://a.org:99999/", "", ""},
		{"//x.org/p", "https://a.org/q", "https://x.org/p"},
		{"../../../up", "https://a.org/b/c/d", "https://a.org/up"},
		{"", "https://a.org/b?c#d", "https://a.org/b?c"},
		{"#new", "mailto:x@y", "mailto:x@y#new"},
		{"rel", "mailto:x@y", ""},
		{"http:rel", "http://a.org/b/c", "http://a.org/b/rel"},
		{"no-scheme", "", ""},
	}
	for _, tt := range tests {
		var base *webURL
		if tt.base != "" {
			var ok bool
			if base, ok = parseWebURL(tt.base, nil); !ok {
				t.Fatalf("base %q does not parse", tt.base)
			}
		}
		got := ""
		if u, ok := parseWebURL(tt.input, base); ok {
			got = u.href()
		}
		if got != tt.want {
			t.Errorf("URL(%q, %q) = %q, want %q", tt.input, tt.base, got, tt.want)
		}
	}
}
