package webapi

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file parses URLs the way the WHATWG URL standard (and so Node's URL
// class) does for the cases snippets meet: special schemes with default
// ports, host lowercasing, IPv4 and IPv6 normalization, punycode for
// non-ASCII hosts, dot segments, percent-encoding of each component, and
// relative references against a base. It is pure: no host state is read.

// webURL is a parsed URL.
type webURL struct {
	scheme             string
	username, password string
	host               string
	hasHost            bool
	port               string
	path               []string // path segments; opaque holds the path otherwise
	opaque             string
	isOpaque           bool
	query, fragment    string
	hasQuery, hasFrag  bool
}

var specialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

func isSpecialScheme(s string) bool {
	_, ok := specialPorts[s]
	return ok
}

func (u *webURL) special() bool { return isSpecialScheme(u.scheme) }

// pathname serializes the path.
func (u *webURL) pathname() string {
	if u.isOpaque {
		return u.opaque
	}
	if len(u.path) == 0 {
		return ""
	}
	return "/" + strings.Join(u.path, "/")
}

func (u *webURL) href() string {
	var b strings.Builder
	b.WriteString(u.scheme + ":")
	if u.hasHost {
		b.WriteString("//")
		if u.username != "" || u.password != "" {
			b.WriteString(u.username)
			if u.password != "" {
				b.WriteString(":" + u.password)
			}
			b.WriteByte('@')
		}
		b.WriteString(u.host)
		if u.port != "" {
			b.WriteString(":" + u.port)
		}
	} else if !u.isOpaque && len(u.path) > 1 && u.path[0] == "" {
		b.WriteString("/.")
	}
	b.WriteString(u.pathname())
	if u.hasQuery {
		b.WriteString("?" + u.query)
	}
	if u.hasFrag {
		b.WriteString("#" + u.fragment)
	}
	return b.String()
}

func (u *webURL) origin() string {
	if u.special() && u.scheme != "file" {
		o := u.scheme + "://" + u.host
		if u.port != "" {
			o += ":" + u.port
		}
		return o
	}
	if u.scheme == "blob" && u.isOpaque {
		if inner, ok := parseWebURL(u.opaque, nil); ok && (inner.scheme == "http" || inner.scheme == "https") {
			return inner.origin()
		}
	}
	return "null"
}

// components returns the parts URL's JavaScript side keeps: href,
// protocol, username, password, hostname, port, pathname, search (with its
// "?" when there is a query), hash (likewise) and origin.
func (u *webURL) components() []any {
	search, hash := "", ""
	if u.hasQuery {
		search = "?" + u.query
	}
	if u.hasFrag {
		hash = "#" + u.fragment
	}
	return []any{u.href(), u.scheme + ":", u.username, u.password, u.host, u.port, u.pathname(), search, hash, u.origin()}
}

// Percent-encode sets of the URL standard.
func inC0Set(c byte) bool       { return c < 0x20 || c > 0x7e }
func inFragmentSet(c byte) bool { return inC0Set(c) || strings.IndexByte(" \"<>`", c) >= 0 }
func inQuerySet(c byte) bool    { return inC0Set(c) || strings.IndexByte(" \"#<>", c) >= 0 }
func inSpecialQuerySet(c byte) bool {
	return inQuerySet(c) || c == '\''
}
func inPathSet(c byte) bool     { return inQuerySet(c) || strings.IndexByte("?`{}^", c) >= 0 }
func inUserinfoSet(c byte) bool { return inPathSet(c) || strings.IndexByte("/:;=@[\\]|", c) >= 0 }

func percentEncode(s string, set func(byte) bool) string {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// percentDecodeBytes decodes %XX sequences, leaving malformed ones as they
// are.
func percentDecodeBytes(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			out = append(out, byte(v))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// toValidUTF8 replaces each invalid byte with U+FFFD.
func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		sb.WriteRune(r)
		b = b[size:]
	}
	return sb.String()
}

// formDecode decodes one name or value of application/x-www-form-urlencoded.
func formDecode(s string) string {
	return toValidUTF8(percentDecodeBytes(strings.ReplaceAll(s, "+", " ")))
}

// formEncode encodes one name or value for application/x-www-form-urlencoded.
func formEncode(s string) string {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// parseWebURL parses input against base (nil for none).
func parseWebURL(input string, base *webURL) (*webURL, bool) {
	input = strings.TrimFunc(input, func(r rune) bool { return r <= 0x20 })
	input = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, input)

	scheme, rest, hasScheme := splitScheme(input)
	if !hasScheme {
		if base == nil {
			return nil, false
		}
		if base.isOpaque {
			if strings.HasPrefix(input, "#") {
				u := *base
				u.fragment, u.hasFrag = percentEncode(input[1:], inFragmentSet), true
				return &u, true
			}
			return nil, false
		}
		return parseRelative(input, base)
	}
	u := &webURL{scheme: scheme}
	if u.special() {
		if base != nil && base.scheme == scheme && !startsWithSlash(rest, true) {
			return parseRelative(rest, base)
		}
		if scheme == "file" {
			return parseFile(rest, base)
		}
		return parseAuthorityAndRest(u, strings.TrimLeft(rest, "/\\"))
	}
	if strings.HasPrefix(rest, "//") {
		return parseAuthorityAndRest(u, rest[2:])
	}
	if strings.HasPrefix(rest, "/") {
		return parsePathQueryFragment(u, rest)
	}
	// An opaque path (mailto:, data:, javascript:...).
	path, query, frag, hasQ, hasF := splitQueryFragment(rest)
	u.isOpaque = true
	u.opaque = percentEncode(path, inC0Set)
	if hasQ {
		u.query, u.hasQuery = percentEncode(query, inQuerySet), true
	}
	if hasF {
		u.fragment, u.hasFrag = percentEncode(frag, inFragmentSet), true
	}
	return u, true
}

// splitScheme returns the lowercased scheme and what follows its colon.
func splitScheme(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), s[i+1:], true
		default:
			return "", s, false
		}
	}
	return "", s, false
}

func startsWithSlash(s string, special bool) bool {
	return strings.HasPrefix(s, "/") || (special && strings.HasPrefix(s, "\\"))
}

// splitQueryFragment splits s at its first '?' and the first '#' after it.
func splitQueryFragment(s string) (path, query, frag string, hasQ, hasF bool) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s, frag, hasF = s[:i], s[i+1:], true
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s, query, hasQ = s[:i], s[i+1:], true
	}
	return s, query, frag, hasQ, hasF
}

func parseAuthorityAndRest(u *webURL, s string) (*webURL, bool) {
	end := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '/' || c == '?' || c == '#' || (c == '\\' && u.special()) {
			end = i
			break
		}
	}
	auth, rest := s[:end], s[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		userinfo := auth[:at]
		auth = auth[at+1:]
		user, pass, _ := strings.Cut(userinfo, ":")
		u.username = percentEncode(user, inUserinfoSet)
		u.password = percentEncode(pass, inUserinfoSet)
	}
	hostPart, port := auth, ""
	if i := strings.LastIndexByte(auth, ':'); i >= 0 && i > strings.LastIndexByte(auth, ']') {
		hostPart, port = auth[:i], auth[i+1:]
	}
	host, ok := parseHost(hostPart, u.special())
	if !ok || (u.special() && host == "") {
		return nil, false
	}
	u.host, u.hasHost = host, true
	if port != "" {
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return nil, false
			}
		}
		n, err := strconv.Atoi(port)
		if err != nil || n > 65535 {
			return nil, false
		}
		port = strconv.Itoa(n)
		if specialPorts[u.scheme] == port {
			port = ""
		}
	}
	u.port = port
	if u.host == "" && (u.username != "" || u.password != "" || u.port != "") {
		return nil, false
	}
	return parsePathQueryFragment(u, rest)
}

// parsePathQueryFragment parses an absolute path (or nothing) with its query
// and fragment into u.
func parsePathQueryFragment(u *webURL, s string) (*webURL, bool) {
	path, query, frag, hasQ, hasF := splitQueryFragment(s)
	u.path = resolvePath(nil, path, u.special())
	if u.special() && len(u.path) == 0 {
		u.path = []string{""}
	}
	if hasQ {
		set := inQuerySet
		if u.special() {
			set = inSpecialQuerySet
		}
		u.query, u.hasQuery = percentEncode(query, set), true
	}
	if hasF {
		u.fragment, u.hasFrag = percentEncode(frag, inFragmentSet), true
	}
	return u, true
}

// resolvePath appends the segments of path to base, resolving "." and "..".
func resolvePath(base []string, path string, special bool) []string {
	if path == "" {
		return base
	}
	if special {
		path = strings.ReplaceAll(path, "\\", "/")
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	out := append([]string(nil), base...)
	for i, seg := range segs {
		last := i == len(segs)-1
		switch strings.ToLower(seg) {
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, percentEncode(seg, inPathSet))
		}
	}
	return out
}

func parseRelative(input string, base *webURL) (*webURL, bool) {
	u := &webURL{scheme: base.scheme}
	special := u.special()
	switch {
	case strings.HasPrefix(input, "//") || (special && len(input) >= 2 && strings.Trim(input[:2], "/\\") == ""):
		if u.scheme == "file" {
			return parseFile(input, base)
		}
		return parseAuthorityAndRest(u, strings.TrimLeft(input, "/\\")[0:])
	}
	u.username, u.password, u.host, u.hasHost, u.port = base.username, base.password, base.host, base.hasHost, base.port
	path, query, frag, hasQ, hasF := splitQueryFragment(input)
	switch {
	case startsWithSlash(input, special):
		u.path = resolvePath(nil, path, special)
	case path == "":
		u.path = append([]string(nil), base.path...)
		if !hasQ {
			u.query, u.hasQuery = base.query, base.hasQuery
		}
	default:
		dir := base.path
		if len(dir) > 0 {
			dir = dir[:len(dir)-1]
		}
		u.path = resolvePath(dir, "/"+path, special)
	}
	if special && len(u.path) == 0 {
		u.path = []string{""}
	}
	if hasQ {
		set := inQuerySet
		if special {
			set = inSpecialQuerySet
		}
		u.query, u.hasQuery = percentEncode(query, set), true
	}
	if hasF {
		u.fragment, u.hasFrag = percentEncode(frag, inFragmentSet), true
	}
	return u, true
}

// parseFile parses what follows "file:".
func parseFile(rest string, base *webURL) (*webURL, bool) {
	u := &webURL{scheme: "file", hasHost: true}
	switch {
	case len(rest) >= 2 && strings.Trim(rest[:2], "/\\") == "":
		s := rest[2:]
		end := len(s)
		for i := 0; i < len(s); i++ {
			if strings.IndexByte("/\\?#", s[i]) >= 0 {
				end = i
				break
			}
		}
		host, ok := parseHost(s[:end], true)
		if !ok {
			return nil, false
		}
		if host == "localhost" {
			host = ""
		}
		u.host = host
		return parsePathQueryFragment(u, s[end:])
	case startsWithSlash(rest, true):
		return parsePathQueryFragment(u, rest)
	case base != nil && base.scheme == "file":
		return parseRelative(rest, base)
	}
	return parsePathQueryFragment(u, "/"+rest)
}

// parseHost parses and serializes a host.
func parseHost(s string, special bool) (string, bool) {
	if strings.HasPrefix(s, "[") {
		if !strings.HasSuffix(s, "]") {
			return "", false
		}
		return parseIPv6(s[1 : len(s)-1])
	}
	if !special {
		for i := 0; i < len(s); i++ {
			if strings.IndexByte(" #/:<>?@[\\]^|", s[i]) >= 0 {
				return "", false
			}
		}
		return percentEncode(s, inC0Set), true
	}
	domain := toValidUTF8(percentDecodeBytes(s))
	ascii, ok := domainToASCII(domain)
	if !ok || ascii == "" {
		return ascii, ok && ascii == ""
	}
	for i := 0; i < len(ascii); i++ {
		c := ascii[i]
		if c <= 0x20 || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", false
		}
	}
	if ip, isIP, ok := parseIPv4(ascii); isIP {
		return ip, ok
	}
	return ascii, true
}

// domainToASCII lowercases and normalizes a domain, encoding non-ASCII
// labels with punycode.
func domainToASCII(domain string) (string, bool) {
	domain = norm.NFC.String(strings.ToLower(domain))
	labels := strings.Split(domain, ".")
	for i, l := range labels {
		ascii := true
		for j := 0; j < len(l); j++ {
			if l[j] >= 0x80 {
				ascii = false
				break
			}
		}
		if !ascii {
			p, ok := punycodeEncode(l)
			if !ok {
				return "", false
			}
			labels[i] = "xn--" + p
		}
	}
	return strings.Join(labels, "."), true
}

// parseIPv4 recognizes a host whose last label is a number as IPv4 (with
// hex and octal parts, as browsers do).
func parseIPv4(s string) (string, bool, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if _, ok := ipv4Number(last); !ok {
		return "", false, false
	}
	if len(parts) > 4 {
		return "", true, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", true, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", true, false
		}
	}
	if nums[len(nums)-1] >= 1<<(8*(5-len(nums))) {
		return "", true, false
	}
	ip := nums[len(nums)-1]
	for i, n := range nums[:len(nums)-1] {
		ip += n << (8 * (3 - i))
	}
	return strconv.FormatUint(ip>>24, 10) + "." + strconv.FormatUint(ip>>16&255, 10) + "." +
		strconv.FormatUint(ip>>8&255, 10) + "." + strconv.FormatUint(ip&255, 10), true, true
}

func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// parseIPv6 parses and serializes an IPv6 address as the URL standard does
// (lowercase hex, the longest run of two or more zero pieces compressed).
func parseIPv6(s string) (string, bool) {
	var pieces [8]uint16
	n, compress := 0, -1
	i := 0
	if strings.HasPrefix(s, "::") {
		i, compress = 2, 0
	} else if strings.HasPrefix(s, ":") {
		return "", false
	}
	for i < len(s) {
		if n == 8 {
			return "", false
		}
		if s[i] == ':' {
			if compress != -1 {
				return "", false
			}
			i++
			compress = n
			continue
		}
		j := i
		for j < len(s) && j-i < 4 && isHex(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '.' {
			// An embedded IPv4 address.
			if n > 6 {
				return "", false
			}
			ip, isIP, ok := parseIPv4(s[i:])
			if !isIP || !ok || strings.Count(s[i:], ".") != 3 {
				return "", false
			}
			var b [4]uint64
			for k, p := range strings.Split(ip, ".") {
				b[k], _ = strconv.ParseUint(p, 10, 8)
			}
			pieces[n] = uint16(b[0]<<8 | b[1])
			pieces[n+1] = uint16(b[2]<<8 | b[3])
			n += 2
			break
		}
		if j == i {
			return "", false
		}
		v, _ := strconv.ParseUint(s[i:j], 16, 16)
		pieces[n] = uint16(v)
		n++
		i = j
		if i < len(s) {
			if s[i] != ':' || i+1 == len(s) {
				return "", false
			}
			i++
			if i < len(s) && s[i] == ':' {
				if compress != -1 {
					return "", false
				}
				compress = n
				i++
			}
		}
	}
	if compress != -1 {
		swaps := n - compress
		copy(pieces[8-swaps:], pieces[compress:n])
		for k := compress; k < 8-swaps; k++ {
			pieces[k] = 0
		}
	} else if n != 8 {
		return "", false
	}
	// Find the longest run of zeros (length >= 2) to compress.
	best, bestLen := -1, 1
	for k := 0; k < 8; {
		if pieces[k] != 0 {
			k++
			continue
		}
		start := k
		for k < 8 && pieces[k] == 0 {
			k++
		}
		if k-start > bestLen {
			best, bestLen = start, k-start
		}
	}
	var b strings.Builder
	b.WriteByte('[')
	for k := 0; k < 8; k++ {
		if k == best {
			if k == 0 {
				b.WriteString("::")
			} else {
				b.WriteByte(':')
			}
			k += bestLen - 1
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(pieces[k]), 16))
		if k != 7 {
			b.WriteByte(':')
		}
	}
	b.WriteByte(']')
	return b.String(), true
}

// punycodeEncode encodes a label with RFC 3492's Punycode.
func punycodeEncode(label string) (string, bool) {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		initialBias, initialN        = 72, 128
	)
	runes := []rune(label)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := rune(initialN), 0, initialBias
	adapt := func(delta, numPoints int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / numPoints
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	digit := func(d int) byte {
		if d < 26 {
			return byte('a' + d)
		}
		return byte('0' + d - 26)
	}
	for h < len(runes) {
		m := rune(0x7fffffff)
		for _, r := range runes {
			if r >= n && r < m {
				m = r
			}
		}
		if int(m-n) > (1<<31-1-delta)/(h+1) {
			return "", false
		}
		delta += int(m-n) * (h + 1)
		n = m
		for _, r := range runes {
			if r < n {
				delta++
			}
			if r == n {
				q := delta
				for k := base; ; k += base {
					t := k - bias
					if t < tmin {
						t = tmin
					} else if t > tmax {
						t = tmax
					}
					if q < t {
						break
					}
					out = append(out, digit(t+(q-t)%(base-t)))
					q = (q - t) / (base - t)
				}
				out = append(out, digit(q))
				bias = adapt(delta, h+1, h == b)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return string(out), true
}
