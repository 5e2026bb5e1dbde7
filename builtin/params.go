package builtin

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// params reads a call's decoded JSON arguments. The registry has validated
// them against the tool's schema already; these accessors still check types,
// because numbers may arrive as float64, int64 or json.Number.
type params struct {
	tool string
	m    map[string]any
}

// str returns the string param name and whether it was given.
func (p params) str(name string) (string, bool, error) {
	v, ok := p.m[name]
	if !ok || v == nil {
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", false, fmt.Errorf("%s: %s must be a string, got %T", p.tool, name, v)
	}
	return s, true, nil
}

// required returns the string param name, or an error if it is missing.
func (p params) required(name string) (string, error) {
	s, ok, err := p.str(name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%s: missing required parameter %s", p.tool, name)
	}
	return s, nil
}

// boolean returns the boolean param name (false when absent).
func (p params) boolean(name string) (bool, error) {
	v, ok := p.m[name]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s: %s must be true or false, got %T", p.tool, name, v)
	}
	return b, nil
}

// number returns the numeric param name and whether it was given.
func (p params) number(name string) (float64, bool, error) {
	v, ok := p.m[name]
	if !ok || v == nil {
		return 0, false, nil
	}
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case int32:
		f = float64(n)
	case json.Number:
		x, err := n.Float64()
		if err != nil {
			return 0, false, fmt.Errorf("%s: %s must be a number, got %q", p.tool, name, n)
		}
		f = x
	default:
		return 0, false, fmt.Errorf("%s: %s must be a number, got %T", p.tool, name, v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, fmt.Errorf("%s: %s must be a finite number", p.tool, name)
	}
	return f, true, nil
}

// maxWhole is the largest whole number a parameter may be: 2**53-1, JS's
// Number.MAX_SAFE_INTEGER, past which a number no longer stands for one
// integer (or the largest int, where int has 32 bits).
const maxWhole = min(1<<53-1, math.MaxInt)

// integer returns the integer param name, whether it was given, and an error
// if it is not a whole number, is below min, or is above maxWhole. The value
// is the number the snippet passed, never clamped, so that a message that
// quotes it (a step id, an offset past the end) says what the snippet said.
func (p params) integer(name string, min int) (int, bool, error) {
	f, ok, err := p.number(name)
	if err != nil || !ok {
		return 0, ok, err
	}
	if f != math.Trunc(f) {
		return 0, false, fmt.Errorf("%s: %s must be a whole number, got %s", p.tool, name, jsNumber(f))
	}
	if f < float64(min) {
		return 0, false, fmt.Errorf("%s: %s must be at least %d, got %s", p.tool, name, min, jsNumber(f))
	}
	if f > maxWhole {
		return 0, false, fmt.Errorf("%s: %s must be at most %d, got %s", p.tool, name, maxWhole, jsNumber(f))
	}
	return int(f), true, nil
}

// jsNumber formats a finite f as JavaScript's String(f) does: in decimal
// notation from 1e-6 to below 1e21 (5000000000, not 5e+09), in exponent
// notation otherwise (1e+300, 1e-7), the shortest digits that read back as f.
func jsNumber(f float64) string {
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	return strings.NewReplacer("e+0", "e+", "e-0", "e-").Replace(s)
}
