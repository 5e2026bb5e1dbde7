package webapi

import (
	"unicode"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/rivo/uniseg"
)

// segmentBounds splits s at the UAX #29 boundaries of granularity
// ("grapheme", "word" or "sentence") with github.com/rivo/uniseg, a
// maintained implementation of the Unicode text segmentation rules that
// golang.org/x/text does not export. It returns each segment as its
// start and end in UTF-16 code units (JavaScript string indices) and, for
// words, whether it is word-like: it has a letter or a number, as ICU's
// word break rule status says of words, numbers, kana and ideographs (not
// of spaces, punctuation or emoji, variation selectors included).
func segmentBounds(s, granularity string) (starts, ends []int, wordLike []bool) {
	pos, state := 0, -1
	for rest := s; len(rest) > 0; {
		var seg string
		switch granularity {
		case "word":
			seg, rest, state = uniseg.FirstWordInString(rest, state)
		case "sentence":
			seg, rest, state = uniseg.FirstSentenceInString(rest, state)
		default:
			seg, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		}
		n, like := 0, false
		for _, r := range seg {
			n += utf16.RuneLen(r)
			like = like || unicode.In(r, unicode.L, unicode.N)
		}
		starts, ends, wordLike = append(starts, pos), append(ends, pos+n), append(wordLike, like)
		pos += n
	}
	return starts, ends, wordLike
}

// segment(input, granularity) returns the segments of input as a flat
// array of [start, end, isWordLike] triples (see segmentBounds).
func (n *intlNatives) segment(c goja.FunctionCall) goja.Value {
	starts, ends, like := segmentBounds(c.Argument(0).String(), c.Argument(1).String())
	out := make([]any, 0, 3*len(starts))
	for i := range starts {
		out = append(out, starts[i], ends[i], like[i])
	}
	return n.w.vm.NewArray(out...)
}
