package webapi

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/language"
)

// Dates in the locales of intl_datedata.go: a format picks a CLDR pattern
// for its options (the default numeric date and time, dateStyle and
// timeStyle, and the common field combinations) and renders it as parts,
// which formatToParts returns as they are. Options no pattern covers fall
// back to the en-US formatter of intl.go.

// dateLocale is the date data of one locale.
type dateLocale struct {
	monthsLong, monthsShort, daysLong, daysShort []string
	// monthsAlone are the long names of a month shown alone, when they
	// differ from monthsLong (zh).
	monthsAlone                 []string
	am, pm, zoneLong, zoneShort string
	// Patterns: ymd is the default numeric date, ymd2 the one with
	// 2-digit month and day; hms and hm the times; dt joins a date {1}
	// and a time {0}.
	ymd, ymd2, hms, hm, dt             string
	yMMMd, MMMd, MMMMd, yMMMM, yMMM, y string
	dateStyles, timeStyles, styleJoins []string // full, long, medium, short
}

// dateLocaleDefaults maps a bare language to the locale whose data it uses.
var dateLocaleDefaults = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "ja": "ja-JP", "zh": "zh-CN", "pt": "pt-BR", "hi": "hi-IN",
		"it": "it-IT", "nl": "nl-NL", "sv": "sv-SE", "ko": "ko-KR", "ru": "ru-RU", "pl": "pl-PL",
	}
})

// lookupDateLocale returns the date data for a requested tag, or nil.
func lookupDateLocale(tag string) (*dateLocale, string) {
	if tag == "" {
		return dateLocales()["en-US"], "en-US"
	}
	t, err := language.Parse(tag)
	if err != nil {
		return nil, ""
	}
	base, _ := t.Base()
	if r, conf := t.Region(); conf == language.Exact {
		name := base.String() + "-" + r.String()
		if dl, ok := dateLocales()[name]; ok {
			return dl, name
		}
		return nil, ""
	}
	if name, ok := dateLocaleDefaults()[base.String()]; ok {
		return dateLocales()[name], name
	}
	return nil, ""
}

// datePart is one part of a formatted date, as formatToParts returns it.
type datePart struct{ typ, value string }

var styleIndex = map[string]int{"full": 0, "long": 1, "medium": 2, "short": 3}

// localeParts formats t with the locale's patterns, reporting false when
// no pattern covers the options.
func (f *dateFormat) localeParts(t time.Time) ([]datePart, bool) {
	dl := f.dl
	if dl == nil || f.era != "" || f.fractionalSecondDigits > 0 {
		return nil, false
	}
	if f.dateStyle != "" || f.timeStyle != "" {
		var date, tm string
		if f.dateStyle != "" {
			date = dl.dateStyles[styleIndex[f.dateStyle]]
		}
		if f.timeStyle != "" {
			tm = f.hourCycle(dl.timeStyles[styleIndex[f.timeStyle]], true)
		}
		join := ""
		if date != "" && tm != "" {
			join = dl.styleJoins[styleIndex[f.dateStyle]]
		}
		return f.render(t, date, tm, join)
	}
	date, ok := f.datePattern()
	if !ok {
		return nil, false
	}
	tm := ""
	if f.hour != "" || f.minute != "" || f.second != "" {
		switch {
		case f.hour != "" && f.minute != "" && f.second != "":
			tm = dl.hms
		case f.hour != "" && f.minute != "" && f.second == "":
			tm = dl.hm
		default:
			return nil, false
		}
		tm = f.hourCycle(tm, false)
		if f.hour == "2-digit" {
			tm = twoDigitHour(tm)
		}
	}
	if f.timeZoneName != "" {
		if tm == "" || (f.timeZoneName != "short" && f.timeZoneName != "long") || !isUTC(t) {
			return nil, false
		}
		if f.timeZoneName == "long" {
			tm += " zzzz"
		} else {
			tm += " z"
		}
	}
	join := ""
	if date != "" && tm != "" {
		join = dl.dt
	}
	return f.render(t, date, tm, join)
}

// patternFields returns p's pattern letters, with every quoted literal
// blanked out (same length), so that searching it finds fields only.
func patternFields(p string) string {
	b := []byte(p)
	quoted := false
	for i, c := range b {
		if c == '\'' {
			quoted = !quoted
			b[i] = ' '
		} else if quoted {
			b[i] = ' '
		}
	}
	return string(b)
}

// fieldRun returns the start and end of the first run of c among p's
// fields, or -1, -1.
func fieldRun(p string, c byte) (int, int) {
	i := strings.IndexByte(patternFields(p), c)
	if i < 0 {
		return -1, -1
	}
	j := i
	for j < len(p) && p[j] == c {
		j++
	}
	return i, j
}

// twoDigitHour writes the hour field of a time pattern with two digits.
func twoDigitHour(p string) string {
	for _, c := range []byte("hH") {
		if i, j := fieldRun(p, c); i >= 0 {
			return p[:i] + string([]byte{c, c}) + p[j:]
		}
	}
	return p
}

// hourCycle adapts a time pattern to an explicit hour12 option. A style's
// pattern keeps its hour's width ("HH" becomes "hh", as ICU does); the
// field options' become "h".
func (f *dateFormat) hourCycle(p string, keepWidth bool) string {
	if !f.hour12Set {
		return p
	}
	fields := patternFields(p)
	twelve := strings.Contains(fields, "h")
	switch {
	case f.hour12 && !twelve:
		if i, j := fieldRun(p, 'H'); i >= 0 {
			h := "h"
			if keepWidth {
				h = strings.Repeat("h", j-i)
			}
			p = p[:i] + h + p[j:]
			fields = patternFields(p)
		}
		if !strings.Contains(fields, "a") {
			i := strings.LastIndex(fields, "s")
			if i < 0 {
				i = strings.LastIndex(fields, "m")
			}
			if i >= 0 {
				// After the field and a quoted unit that follows it
				// ("ss 's'").
				rest := p[i+1:]
				if t := strings.TrimLeft(rest, " "); strings.HasPrefix(t, "'") {
					if k := strings.IndexByte(t[1:], '\''); k >= 0 {
						i += len(rest) - len(t) + k + 2
					}
				}
				p = p[:i+1] + " a" + p[i+1:]
			}
		}
	case !f.hour12 && twelve:
		if i := strings.Index(fields, " a"); i >= 0 {
			p = p[:i] + p[i+2:]
		}
		if i, j := fieldRun(p, 'h'); i >= 0 {
			p = p[:i] + "HH" + p[j:]
		}
	}
	return p
}

// datePattern returns the pattern of the date fields, "" when there are
// none.
func (f *dateFormat) datePattern() (string, bool) {
	dl := f.dl
	w, y, m, d := f.weekday, f.year, f.month, f.day
	switch {
	case w == "" && y == "" && m == "" && d == "":
		return "", true
	case y == "" && m == "" && d == "":
		switch w {
		case "long":
			return "EEEE", true
		case "short":
			return "EEE", true
		}
	case (m == "numeric" || m == "2-digit") && y != "" && d != "" && w == "":
		p := dl.ymd
		if m == "2-digit" || d == "2-digit" {
			p = dl.ymd2
		}
		if y == "2-digit" {
			p = strings.Replace(p, "y", "yy", 1)
		}
		return p, true
	case m == "long" && y == "numeric" && d == "numeric" && w == "long":
		return dl.dateStyles[0], true
	case w != "":
		return "", false
	case m == "long" && y == "numeric" && d == "numeric":
		return dl.dateStyles[1], true
	case m == "short" && y == "numeric" && d == "numeric":
		return dl.yMMMd, true
	case m == "short" && y == "" && d == "numeric":
		return dl.MMMd, true
	case m == "long" && y == "" && d == "numeric":
		return dl.MMMMd, true
	case m == "long" && y == "numeric" && d == "":
		return dl.yMMMM, true
	case m == "short" && y == "numeric" && d == "":
		return dl.yMMM, true
	case y == "numeric" && m == "" && d == "":
		return dl.y, true
	case m == "long" && y == "" && d == "":
		return "LLLL", true
	}
	return "", false
}

func isUTC(t time.Time) bool {
	name, offset := t.Zone()
	return offset == 0 && (name == "UTC" || name == "GMT" || name == "")
}

// render joins the date and time patterns with join ("{1}" the date,
// "{0}" the time) and renders them as parts.
func (f *dateFormat) render(t time.Time, date, tm, join string) ([]datePart, bool) {
	pattern := date + tm
	if join != "" {
		pattern = strings.Replace(strings.Replace(join, "{1}", date, 1), "{0}", tm, 1)
	}
	var parts []datePart
	lit := func(s string) {
		if n := len(parts); n > 0 && parts[n-1].typ == "literal" {
			parts[n-1].value += s
			return
		}
		parts = append(parts, datePart{"literal", s})
	}
	dl := f.dl
	rs := []rune(pattern)
	for i := 0; i < len(rs); {
		c := rs[i]
		if c == '\'' {
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			lit(string(rs[i+1 : j]))
			i = j + 1
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			lit(string(c))
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		n := j - i
		i = j
		switch c {
		case 'y':
			if n == 2 {
				parts = append(parts, datePart{"year", twoDigits(t.Year() % 100)})
			} else {
				parts = append(parts, datePart{"year", strconv.Itoa(t.Year())})
			}
		case 'M':
			switch n {
			case 1:
				parts = append(parts, datePart{"month", strconv.Itoa(int(t.Month()))})
			case 2:
				parts = append(parts, datePart{"month", twoDigits(int(t.Month()))})
			case 3:
				parts = append(parts, datePart{"month", dl.monthsShort[t.Month()-1]})
			default:
				parts = append(parts, datePart{"month", dl.monthsLong[t.Month()-1]})
			}
		case 'L':
			names := dl.monthsAlone
			if names == nil {
				names = dl.monthsLong
			}
			parts = append(parts, datePart{"month", names[t.Month()-1]})
		case 'd':
			if n == 2 {
				parts = append(parts, datePart{"day", twoDigits(t.Day())})
			} else {
				parts = append(parts, datePart{"day", strconv.Itoa(t.Day())})
			}
		case 'E':
			if n >= 4 {
				parts = append(parts, datePart{"weekday", dl.daysLong[t.Weekday()]})
			} else {
				parts = append(parts, datePart{"weekday", dl.daysShort[t.Weekday()]})
			}
		case 'H', 'h':
			h := t.Hour()
			if c == 'h' {
				h %= 12
				if h == 0 {
					h = 12
				}
			}
			if n == 2 {
				parts = append(parts, datePart{"hour", twoDigits(h)})
			} else {
				parts = append(parts, datePart{"hour", strconv.Itoa(h)})
			}
		case 'm':
			if n == 2 {
				parts = append(parts, datePart{"minute", twoDigits(t.Minute())})
			} else {
				parts = append(parts, datePart{"minute", strconv.Itoa(t.Minute())})
			}
		case 's':
			if n == 2 {
				parts = append(parts, datePart{"second", twoDigits(t.Second())})
			} else {
				parts = append(parts, datePart{"second", strconv.Itoa(t.Second())})
			}
		case 'a':
			p := dl.am
			if t.Hour() >= 12 {
				p = dl.pm
			}
			parts = append(parts, datePart{"dayPeriod", p})
		case 'z':
			var name string
			switch {
			case isUTC(t) && n >= 4:
				name = dl.zoneLong
			case isUTC(t):
				name = dl.zoneShort
			case f.dl == dateLocales()["en-US"]:
				name = f.zoneName(t, n >= 4)
			default:
				return nil, false
			}
			parts = append(parts, datePart{"timeZoneName", name})
		default:
			return nil, false
		}
	}
	return parts, true
}
