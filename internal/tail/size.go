package tail

import (
	"strconv"
	"strings"
)

// Size formats a byte count for a person or a model, as the notices of
// capped output say it: "1 byte", "812 bytes", "50 KiB", "3.2 MiB", "1
// GiB" (one decimal, dropped when it is zero).
func Size(n int64) string {
	switch {
	case n == 1:
		return "1 byte"
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1<<20:
		return oneDecimal(float64(n)/(1<<10)) + " KiB"
	case n < 1<<30:
		return oneDecimal(float64(n)/(1<<20)) + " MiB"
	}
	return oneDecimal(float64(n)/(1<<30)) + " GiB"
}

// oneDecimal formats f with one decimal, without a trailing ".0".
func oneDecimal(f float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0")
}
