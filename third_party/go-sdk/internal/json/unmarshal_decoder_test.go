// Copyright 2026 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

package json

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/segmentio/encoding/json"
)

// decoderUnmarshal is Unmarshal as a Decoder does it, reading data.
func decoderUnmarshal(data []byte, v any) error {
	if err := checkMaxDepth(data, defaultMaxDepth); err != nil {
		return err
	}
	return NewDecoder(bytes.NewReader(data)).Decode(v)
}

type caseSensitive struct {
	Name string          `json:"name"`
	Meta map[string]any  `json:"_meta,omitempty"`
	Raw  json.RawMessage `json:"raw,omitempty"`
}

// sameAsDecoder checks that Unmarshal of data into new values of the
// types of targets does what a Decoder does: the same error, or the same
// value.
func sameAsDecoder(t *testing.T, data []byte) {
	t.Helper()
	for _, target := range []func() any{
		func() any { return new(any) },
		func() any { return new(map[string]any) },
		func() any { return new(caseSensitive) },
		func() any { return new([]int) },
		func() any { return new(string) },
	} {
		got, want := target(), target()
		gotErr, wantErr := Unmarshal(data, got), decoderUnmarshal(data, want)
		switch {
		case (gotErr == nil) != (wantErr == nil):
			t.Errorf("Unmarshal(%q, %T) = %v, a Decoder %v", data, got, gotErr, wantErr)
		case gotErr != nil && gotErr.Error() != wantErr.Error():
			t.Errorf("Unmarshal(%q, %T): %q, a Decoder %q", data, got, gotErr, wantErr)
		case gotErr == nil && !reflect.DeepEqual(got, want):
			t.Errorf("Unmarshal(%q, %T) = %#v, a Decoder %#v", data, got, got, want)
		}
	}
}

// TestUnmarshalAsDecoder checks that Unmarshal, which decodes in place,
// does what it did through a Decoder: values, trailing bytes ignored, and
// errors (io.EOF for no value, io.ErrUnexpectedEOF for one cut short).
func TestUnmarshalAsDecoder(t *testing.T) {
	for _, in := range unmarshalSeeds {
		sameAsDecoder(t, []byte(in))
	}
	var v any
	if err := Unmarshal([]byte(" \n"), &v); !errors.Is(err, io.EOF) {
		t.Errorf("no value: %v, want io.EOF", err)
	}
}

// FuzzUnmarshalAsDecoder checks TestUnmarshalAsDecoder's promise on any
// input.
func FuzzUnmarshalAsDecoder(f *testing.F) {
	for _, in := range unmarshalSeeds {
		f.Add([]byte(in))
	}
	f.Fuzz(sameAsDecoder)
}

// TestUnmarshalCopies checks that a value decoded does not share memory
// with the input, as with a Decoder.
func TestUnmarshalCopies(t *testing.T) {
	data := []byte(`{"name":"abc","raw":{"x":1}}`)
	var v caseSensitive
	if err := Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = ' '
	}
	if v.Name != "abc" || string(v.Raw) != `{"x":1}` {
		t.Errorf("the value changed with its input: %+v", v)
	}
}

var unmarshalSeeds = []string{
	``, ` `, "\n\t", `null`, `{}`, `[]`, `1`, `"s"`, `true`,
	`{"name":"x"}`, `{"Name":"x"}`, `{"name":"x","_meta":{"a":[1,2]}}`,
	`{"raw":{"a":1}}`, `{"a":`, `{"a":"x`, `[1,2`, `"abc`, `nul`, `{"a":1 `,
	`{"a":1} x`, `{"a":1}}`, `{"a":tru}`, `12a`, `[1,2] [3]`, `{"a":1,}`,
	`{"name":"\u00e9\ud83d\ude00"}`, `"\ud800"`, "\"\x00\"", `{"a":1e400}`,
	`[[[[[[]]]]]]`, `{"name":1}`, `[1,"a",null]`,
}

// BenchmarkUnmarshal decodes a tools/call request's params, as the server
// does several times a request: in place (Unmarshal) and, as before,
// through a Decoder.
func BenchmarkUnmarshal(b *testing.B) {
	data := []byte(`{"name":"code_execution","arguments":{"code":"const a = await read(\"README.md\");\nreturn a.length"},"_meta":{"progressToken":1}}`)
	for _, bc := range []struct {
		name      string
		unmarshal func([]byte, any) error
	}{{"in-place", Unmarshal}, {"decoder", decoderUnmarshal}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v caseSensitive
				if err := bc.unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
