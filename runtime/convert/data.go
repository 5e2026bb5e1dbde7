package convert

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// dataSink builds the Go data json.Unmarshal into an any would make of the
// JSON text jsonSink writes for the same walk: map[string]any, []any
// (never nil), float64, string, bool and nil.
//
// Its size is an estimate of that JSON text's length, and a lower bound
// on it: strings and keys count their bytes and quotes (escapes are not
// counted), every number counts one byte (a BigInt its digits), and
// punctuation and null, true and false count exactly. So ExportData
// refuses a value as too large only when ExportJSON would too; ExportJSON
// may refuse a value ExportData accepts when escapes or long numbers
// carry it over the bound.
type dataSink struct {
	root  any
	stack []frame
	comma bool // as for jsonSink, to count the commas JSON would write
	est   int
	// err is what json.Unmarshal would report of the text: a BigInt
	// beyond float64's range. The walk goes on, as Unmarshal does, so that
	// an error of the walk takes precedence, as it did before Unmarshal.
	err error
}

// frame is an array (obj nil) or an object being built, with the key its
// next value goes under.
type frame struct {
	arr []any
	obj map[string]any
	key string
}

// put stores a finished value where it belongs.
func (s *dataSink) put(v any) {
	if s.comma {
		s.est++
	}
	s.comma = true
	n := len(s.stack)
	if n == 0 {
		s.root = v
		return
	}
	if f := &s.stack[n-1]; f.obj != nil {
		f.obj[f.key] = v
	} else {
		f.arr = append(f.arr, v)
	}
}

func (s *dataSink) null() { s.est += 4; s.put(nil) }

func (s *dataSink) boolean(b bool) {
	if b {
		s.est += 4
	} else {
		s.est += 5
	}
	s.put(b)
}

func (s *dataSink) integer(i int64) { s.est++; s.put(float64(i)) }

func (s *dataSink) number(f float64) {
	s.est++
	if f == 0 {
		f = 0 // JSON has no -0
	}
	s.put(f)
}

func (s *dataSink) bigint(text string) {
	s.est += len(text)
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if s.err == nil {
			s.err = &json.UnmarshalTypeError{Value: "number " + text, Type: reflect.TypeFor[float64](), Offset: int64(s.est)}
		}
		s.put(nil)
		return
	}
	s.put(f)
}

func (s *dataSink) str(v string) { s.est += len(v) + 2; s.put(validUTF8(v)) }

func (s *dataSink) beginArray() {
	if s.comma {
		s.est++
	}
	s.est += 2
	s.stack = append(s.stack, frame{arr: []any{}})
	s.comma = false
}

func (s *dataSink) beginObject() {
	if s.comma {
		s.est++
	}
	s.est += 2
	s.stack = append(s.stack, frame{obj: map[string]any{}})
	s.comma = false
}

func (s *dataSink) key(k string) {
	if s.comma {
		s.est++
	}
	s.est += len(k) + 3
	s.stack[len(s.stack)-1].key = validUTF8(k)
	s.comma = false
}

func (s *dataSink) endArray()  { s.end() }
func (s *dataSink) endObject() { s.end() }

// end pops the innermost array or object and stores it in its parent.
func (s *dataSink) end() {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.comma = false // begin counted the comma before this value
	if f.obj != nil {
		s.put(f.obj)
	} else {
		s.put(f.arr)
	}
}

func (s *dataSink) size() int { return s.est }

// validUTF8 returns s as encoding/json's round trip leaves it: each byte
// that is not part of valid UTF-8 becomes U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// ExportData copies v out of the VM as the Go data that json.Unmarshal
// into an any would make of ExportJSON's text for v, in one walk:
// map[string]any for objects, []any (never nil) for arrays, float64 for
// numbers and BigInts (-0 as 0), string (each byte of invalid UTF-8 as
// U+FFFD), bool, and nil for null. The rules are ExportJSON's, and so are
// the errors (what a getter, toJSON method or Proxy trap throws, an
// interrupt, a value nested too deeply), with one difference: the 64 MB
// bound applies to an estimate of the JSON text's length that never
// exceeds it, so ExportData refuses a value as too large only when
// ExportJSON would too, not always when it would. A BigInt beyond
// float64's range is a *json.UnmarshalTypeError, as json.Unmarshal
// reports it (its Offset is approximate). The data is the caller's: it
// shares nothing with the VM. Loop goroutine only.
func ExportData(vm *goja.Runtime, v goja.Value) (any, error) {
	s := &dataSink{}
	if _, isObj := v.(*goja.Object); isObj {
		if err := export(vm, v, s); err != nil {
			return nil, err
		}
	} else {
		primitive(v, s) // most arguments: no walk state needed
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.root, nil
}
