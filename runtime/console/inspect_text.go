package console

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/runtime/internal/js"
)

// This file renders primitives (strings with Node's quoting and escapes,
// numbers as JavaScript prints them), measures text in UTF-16 units and
// terminal columns, and breaks entries over lines as Node does.

// --- primitives ------------------------------------------------------------------

func (in *inspector) formatPrimitive(v goja.Value) string {
	switch {
	case !js.Defined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	case goja.IsString(v):
		return in.formatString(v.String())
	case goja.IsBigInt(v):
		return v.String() + "n"
	}
	if s, ok := v.(*goja.Symbol); ok {
		return js.SymbolString(s)
	}
	switch x := v.Export().(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return formatNumber(x)
	}
	return v.String()
}

func (in *inspector) formatString(value string) string {
	trailer := ""
	length := jsLen(value)
	if length > in.opts.maxStringLength {
		remaining := length - in.opts.maxStringLength
		value = cutUTF16(value, in.opts.maxStringLength)
		length = in.opts.maxStringLength
		trailer = "... " + strconv.Itoa(remaining) + " more character" + plural(remaining)
	}
	if !in.opts.compactTrue && length > 16 && length > in.opts.breakLength-in.indentationLvl-4 {
		var parts []string
		for rest := value; rest != ""; {
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				parts = append(parts, quote(rest))
				break
			}
			parts = append(parts, quote(rest[:i+1]))
			rest = rest[i+1:]
		}
		return strings.Join(parts, " +\n"+strings.Repeat(" ", in.indentationLvl+2)) + trailer
	}
	return quote(value) + trailer
}

func formatNumber(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return js.NumberString(f)
}

// quote renders s as Node's strEscape does: single quotes unless s contains
// one, then double quotes, then backticks; control characters, the quote
// and the backslash escaped.
func quote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		switch {
		case strings.IndexByte(s, '"') < 0:
			q = '"'
		case strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	writeEscaped(&b, s, q == '\'')
	b.WriteByte(q)
	return b.String()
}

// escapeKey escapes a symbol description or non-enumerable key as Node's
// strEscapeSequencesReplacer does (control characters, ' and \).
func escapeKey(s string) string {
	var b strings.Builder
	writeEscaped(&b, s, true)
	return b.String()
}

func writeEscaped(b *strings.Builder, s string, escapeSingle bool) {
	const hexDigits = "0123456789ABCDEF"
	for _, r := range s {
		switch {
		case r == '\'' && escapeSingle:
			b.WriteString(`\'`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&15])
		default:
			b.WriteRune(r)
		}
	}
}

// --- line breaking ----------------------------------------------------------------

func (in *inspector) reduceToSingleString(output []string, base string, braces [2]string, extrasType, recurseTimes int, value *goja.Object) string {
	in.checkDone()
	if !in.opts.compactTrue {
		if in.opts.compact >= 1 {
			entries := len(output)
			if extrasType == kArrayExtrasType && entries > 6 {
				output = in.groupArrayElements(output, value)
			}
			if in.currentDepth-recurseTimes < in.opts.compact && entries == len(output) {
				start := len(output) + in.indentationLvl + jsLen(braces[0]) + jsLen(base) + 10
				if in.isBelowBreakLength(output, start, base) {
					joined := strings.Join(output, ", ")
					if !strings.Contains(joined, "\n") {
						b := ""
						if base != "" {
							b = base + " "
						}
						return b + braces[0] + " " + joined + " " + braces[1]
					}
				}
			}
		}
		indentation := "\n" + strings.Repeat(" ", in.indentationLvl)
		b := ""
		if base != "" {
			b = base + " "
		}
		return b + braces[0] + indentation + "  " + strings.Join(output, ","+indentation+"  ") + indentation + braces[1]
	}
	if in.isBelowBreakLength(output, 0, base) {
		b := ""
		if base != "" {
			b = " " + base
		}
		return braces[0] + b + " " + strings.Join(output, ", ") + " " + braces[1]
	}
	indentation := strings.Repeat(" ", in.indentationLvl)
	ln := " "
	if base != "" || jsLen(braces[0]) != 1 {
		b := ""
		if base != "" {
			b = " " + base
		}
		ln = b + "\n" + indentation + "  "
	}
	return braces[0] + ln + strings.Join(output, ",\n"+indentation+"  ") + " " + braces[1]
}

func (in *inspector) isBelowBreakLength(output []string, start int, base string) bool {
	totalLength := len(output) + start
	if totalLength+len(output) > in.opts.breakLength {
		return false
	}
	for _, o := range output {
		totalLength += jsLen(o)
		if totalLength > in.opts.breakLength {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

func (in *inspector) groupArrayElements(output []string, value *goja.Object) []string {
	totalLength := 0
	maxLength := 0
	outputLength := len(output)
	if in.opts.maxArrayLength < len(output) {
		// This makes sure the "... n more items" part is not taken into account.
		outputLength--
	}
	const separatorSpace = 2 // a comma and a space
	dataLen := make([]int, outputLength)
	for i := 0; i < outputLength; i++ {
		n := getStringWidth(output[i])
		dataLen[i] = n
		totalLength += n + separatorSpace
		if maxLength < n {
			maxLength = n
		}
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+in.indentationLvl < in.opts.breakLength &&
		(float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6) {
		const approxCharHeights = 2.5
		averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
		biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
		columns := min(
			int(jsRound(math.Sqrt(approxCharHeights*biasedMax*float64(outputLength))/biasedMax)),
			(in.opts.breakLength-in.indentationLvl)/actualMax,
			in.opts.compact*4,
			15,
		)
		if columns <= 1 {
			return output
		}
		var tmp []string
		maxLineLength := make([]int, 0, columns)
		for i := 0; i < columns; i++ {
			lineMaxLength := 0
			for j := i; j < len(output); j += columns {
				if j < outputLength && dataLen[j] > lineMaxLength {
					lineMaxLength = dataLen[j]
				}
			}
			maxLineLength = append(maxLineLength, lineMaxLength+separatorSpace)
		}
		padStart := true
		if value != nil {
			for i := 0; i < len(output); i++ {
				var v goja.Value
				if in.isTypedArray(value) {
					v = value.Get(strconv.Itoa(i))
				} else {
					d := in.ownDescriptor(value, propKey{name: strconv.Itoa(i)})
					v = d.value
					if !d.exists {
						v = value.Get(strconv.Itoa(i))
					}
				}
				if v == nil || !(goja.IsNumber(v) || goja.IsBigInt(v)) {
					padStart = false
					break
				}
			}
		}
		for i := 0; i < outputLength; i += columns {
			maxI := min(i+columns, outputLength)
			var str strings.Builder
			j := i
			for ; j < maxI-1; j++ {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j]
				str.WriteString(pad(output[j]+", ", padding, padStart))
			}
			if padStart {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j] - separatorSpace
				str.WriteString(pad(output[j], padding, true))
			} else {
				str.WriteString(output[j])
			}
			tmp = append(tmp, str.String())
		}
		if in.opts.maxArrayLength < len(output) {
			tmp = append(tmp, output[outputLength])
		}
		output = tmp
	}
	return output
}

// jsRound is JavaScript's Math.round.
func jsRound(f float64) float64 { return math.Floor(f + 0.5) }

func pad(s string, width int, start bool) string {
	n := width - jsLen(s)
	if n <= 0 {
		return s
	}
	if start {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

// --- string measures --------------------------------------------------------------

// jsLen returns the length of s in UTF-16 code units, as JavaScript's
// String.prototype.length.
func jsLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 {
			n++
			continue
		}
		if c >= 0xF0 {
			n += 2
			i += 3
			continue
		}
		if c >= 0xE0 {
			i += 2
		} else if c >= 0xC0 {
			i++
		}
		n++
	}
	return n
}

// cutUTF16 returns the prefix of s that is n UTF-16 code units long (or
// shorter, not to split a surrogate pair).
func cutUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// getStringWidth returns the number of terminal columns s takes, as Node's
// getStringWidth (full-width characters count two, zero-width ones none).
func getStringWidth(s string) int {
	width := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c == 0x1b {
				// Skip an ANSI escape sequence.
				if j := ansiEnd(s, i); j > i {
					i = j
					continue
				}
			}
			if c >= 32 && c != 0x7f {
				width++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case isFullWidth(r):
			width += 2
		case !isZeroWidth(r):
			width++
		}
	}
	return width
}

func ansiEnd(s string, i int) int {
	if i+1 >= len(s) || s[i+1] != '[' {
		return i
	}
	for j := i + 2; j < len(s); j++ {
		c := s[j]
		if c >= 0x40 && c <= 0x7e {
			return j + 1
		}
	}
	return i
}

func isZeroWidth(r rune) bool {
	return r <= 0x1F || (r >= 0x7F && r <= 0x9F) || (r >= 0x300 && r <= 0x36F) ||
		(r >= 0x200B && r <= 0x200F) || (r >= 0x20D0 && r <= 0x20FF) ||
		(r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xFE20 && r <= 0xFE2F) ||
		(r >= 0xE0100 && r <= 0xE01EF)
}

func isFullWidth(r rune) bool {
	return r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
		(r >= 0x2e80 && r <= 0x3247 && r != 0x303f) ||
		(r >= 0x3250 && r <= 0x4dbf) || (r >= 0x4e00 && r <= 0xa4c6) ||
		(r >= 0xa960 && r <= 0xa97c) || (r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe10 && r <= 0xfe19) ||
		(r >= 0xfe30 && r <= 0xfe6b) || (r >= 0xff01 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1b000 && r <= 0x1b001) ||
		(r >= 0x1f200 && r <= 0x1f251) || (r >= 0x1f300 && r <= 0x1f64f) ||
		(r >= 0x20000 && r <= 0x3fffd))
}

// isJSSpace reports JavaScript white space and line terminators.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
