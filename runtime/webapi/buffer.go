package webapi

import (
	"encoding/base64"
	"encoding/hex"

	"github.com/dop251/goja"
)

// The byte work of Buffer (buffer.js): encoding a string into bytes and
// decoding bytes into a string for the encodings that are not a loop over
// UTF-16 code units (utf8, hex, base64, base64url), with Node's leniency.

// bufferNatives returns the natives buffer.js takes.
func (w *webGlobals) bufferNatives() *goja.Object {
	return w.natives(map[string]func(goja.FunctionCall) goja.Value{
		// encode(string, encoding) -> ArrayBuffer
		"encode": func(c goja.FunctionCall) goja.Value {
			return w.vm.ToValue(w.vm.NewArrayBuffer(bufferEncode(c.Argument(0).String(), c.Argument(1).String())))
		},
		// decode(view, encoding, start, end) -> string
		"decode": func(c goja.FunctionCall) goja.Value {
			b, ok := bufferBytes(w.vm, c.Argument(0))
			if !ok {
				return goja.Undefined()
			}
			start, end := int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger())
			start, end = max(0, min(start, len(b))), max(0, min(end, len(b)))
			if end < start {
				end = start
			}
			return w.vm.ToValue(bufferDecode(b[start:end], c.Argument(1).String()))
		},
	})
}

// bufferEncode encodes s (already a valid Go string: lone surrogates became
// U+FFFD, as Node's UTF-8 encoder makes them) as Node's Buffer.from(s, enc)
// does for utf8, hex, base64 and base64url.
func bufferEncode(s, enc string) []byte {
	switch enc {
	case "hex":
		// Node decodes pairs up to the first invalid one.
		n := 0
		for n+1 < len(s) && isHex(s[n]) && isHex(s[n+1]) {
			n += 2
		}
		b, _ := hex.DecodeString(s[:n])
		return b
	case "base64", "base64url":
		return lenientBase64(s)
	}
	return []byte(s)
}

// lenientBase64 decodes base64 or base64url as Node does: characters of
// neither alphabet are skipped, decoding stops at the first "=", and a
// trailing group of 2 or 3 characters gives 1 or 2 bytes.
func lenientBase64(s string) []byte {
	var clean []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			i = len(s)
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		}
	}
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	// Never fails: clean holds only the alphabet, its length is not 1
	// modulo 4, and non-strict decoding ignores trailing bits.
	b, _ := base64.RawStdEncoding.DecodeString(string(clean))
	return b
}

// bufferDecode decodes b as Node's buf.toString(enc) does for utf8, hex,
// base64 and base64url.
func bufferDecode(b []byte, enc string) string {
	switch enc {
	case "hex":
		return hex.EncodeToString(b)
	case "base64":
		return base64.StdEncoding.EncodeToString(b)
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b)
	}
	s, _ := decodeUTF8(b, false)
	return s
}
