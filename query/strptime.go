package query

import (
	"strings"
	"time"
)

// strptime(s, 'format') reads a time written in format, strftime's
// directives read back: %Y (a year of 4 digits), %y (2: 69-99 the 1900s,
// else the 2000s), %m, %d, %e, %H, %I with %p (AM, PM), %M, %S, %f (1 to
// 9 digits of a second), %j (the day of the year), %b and %B (a month by
// name), %a and %A (a weekday by name, not checked), %z (Z, +hh, +hhmm
// or +hh:mm), %Z (UTC, GMT or Z), %F (%Y-%m-%d), %T (%H:%M:%S), %s (Unix
// seconds), %% (a %); a space matches any run of spaces, any other
// character itself. Text that does not fit gives NULL, as CAST does.

// strptime returns the instant s writes in format; ok is false when s
// does not fit it, or names no valid date.
func strptime(s, format string) (ns int64, ok bool) {
	year, month, day, yday := 1970, 1, 1, 0
	hour, minute, sec, frac := 0, 0, 0, 0
	pm, half := false, false // %p seen and PM; %I seen
	offset := 0              // seconds east of UTC
	epoch, isEpoch := int64(0), false
	i := 0
	num := func(min, max int) (int, bool) { // min to max digits
		n, j := 0, i
		for j < len(s) && j-i < max && s[j] >= '0' && s[j] <= '9' {
			n = n*10 + int(s[j]-'0')
			j++
		}
		if j-i < min {
			return 0, false
		}
		i = j
		return n, true
	}
	name := func(names []string) (int, bool) { // an index of names, by their first 3 letters or all
		for k, n := range names {
			for _, w := range []string{n, n[:min(3, len(n))]} {
				if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
					i += len(w)
					return k, true
				}
			}
		}
		return 0, false
	}
	format = strings.NewReplacer("%F", "%Y-%m-%d", "%T", "%H:%M:%S", "%D", "%m/%d/%y", "%c", "%Y-%m-%d %H:%M:%S", "%x", "%Y-%m-%d", "%X", "%H:%M:%S",
		"%-d", "%d", "%-m", "%m", "%-H", "%H", "%-I", "%I", "%-M", "%M", "%-S", "%S", "%-j", "%j").Replace(format)
	for f := 0; f < len(format); f++ {
		c := format[f]
		switch {
		case c == ' ':
			if i == len(s) || s[i] != ' ' {
				return 0, false
			}
			for i < len(s) && s[i] == ' ' {
				i++
			}
			continue
		case c != '%' || f+1 == len(format):
			if i == len(s) || s[i] != c {
				return 0, false
			}
			i++
			continue
		}
		f++
		var good bool
		switch format[f] {
		case 'Y':
			neg := i < len(s) && s[i] == '-'
			if neg {
				i++
			}
			year, good = num(4, 4)
			if neg {
				year = -year
			}
		case 'y':
			year, good = num(2, 2)
			if year < 69 {
				year += 2000
			} else {
				year += 1900
			}
		case 'm':
			month, good = num(1, 2)
		case 'd':
			day, good = num(1, 2)
		case 'e':
			if i < len(s) && s[i] == ' ' {
				i++
			}
			day, good = num(1, 2)
		case 'j':
			yday, good = num(1, 3)
			good = good && yday >= 1 && yday <= 366
		case 'H':
			hour, good = num(1, 2)
		case 'I':
			hour, good = num(1, 2)
			half, good = true, good && hour >= 1 && hour <= 12
		case 'M':
			minute, good = num(1, 2)
		case 'S':
			sec, good = num(1, 2)
		case 'f':
			start := i
			frac, good = num(1, 9)
			for k := i - start; k < 9; k++ {
				frac *= 10
			}
		case 'p':
			var k int
			k, good = name([]string{"AM", "PM"})
			pm = k == 1
		case 'b', 'h', 'B':
			month, good = name([]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"})
			month++
		case 'a', 'A':
			_, good = name([]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"})
		case 'z':
			offset, good = zoneOffset(s, &i)
		case 'Z':
			_, good = name([]string{"UTC", "GMT"})
			if !good && i < len(s) && s[i] == 'Z' {
				i, good = i+1, true
			}
		case 's':
			neg := i < len(s) && s[i] == '-'
			if neg {
				i++
			}
			start := i
			for i < len(s) && i-start < 12 && s[i] >= '0' && s[i] <= '9' {
				epoch = epoch*10 + int64(s[i]-'0')
				i++
			}
			good, isEpoch = i > start, true
			if neg {
				epoch = -epoch
			}
		case '%':
			good = i < len(s) && s[i] == '%'
			i++
		default: // another letter: itself, as strftime writes it
			good = len(s)-i >= 2 && s[i:i+2] == format[f-1:f+1]
			i += 2
		}
		if !good {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	if isEpoch {
		if epoch > 9223372036 || epoch < -9223372036 {
			return 0, false
		}
		return epoch * 1e9, true
	}
	if half {
		hour %= 12
		if pm {
			hour += 12
		}
	} else if pm && hour < 12 {
		hour += 12
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 60 {
		return 0, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, frac, time.UTC)
	if yday > 0 {
		t = time.Date(year, 1, yday, hour, minute, sec, frac, time.UTC)
		if t.Year() != year {
			return 0, false
		}
	} else if t.Day() != day { // 31 February
		return 0, false
	}
	t = t.Add(-time.Duration(offset) * time.Second)
	if t.Year() < 1678 || t.Year() > 2261 { // beyond int64 nanoseconds
		return 0, false
	}
	return t.UnixNano(), true
}

// zoneOffset reads Z, +hh, +hhmm or +hh:mm at s[*i]: seconds east of UTC.
func zoneOffset(s string, i *int) (int, bool) {
	if *i < len(s) && s[*i] == 'Z' {
		*i++
		return 0, true
	}
	if *i == len(s) || s[*i] != '+' && s[*i] != '-' {
		return 0, false
	}
	sign := 1
	if s[*i] == '-' {
		sign = -1
	}
	j := *i + 1
	digits := func(n int) (int, bool) {
		if len(s)-j < n {
			return 0, false
		}
		v := 0
		for k := range n {
			c := s[j+k]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		j += n
		return v, true
	}
	h, ok := digits(2)
	if !ok || h > 23 {
		return 0, false
	}
	m := 0
	if j < len(s) && s[j] == ':' {
		j++
		if m, ok = digits(2); !ok {
			return 0, false
		}
	} else if len(s)-j >= 2 && s[j] >= '0' && s[j] <= '9' {
		if m, ok = digits(2); !ok {
			return 0, false
		}
	}
	if m > 59 {
		return 0, false
	}
	*i = j
	return sign * (h*3600 + m*60), true
}
