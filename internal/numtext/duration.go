package numtext

import "strconv"

const nsPerDay = 24 * 60 * 60 * 1e9

// AppendDuration appends span ns as DuckDB writes an INTERVAL of days
// and time: whole days ("1 day", "2 days"), then the time of day
// hh:mm:ss with the fraction's digits that are not zero, the time left
// out after days when zero; each part negative when the span is.
func AppendDuration(dst []byte, ns int64) []byte {
	neg := ns < 0
	u := uint64(ns)
	if neg {
		u = -u
	}
	days, rest := u/nsPerDay, u%nsPerDay
	if days > 0 {
		if neg {
			dst = append(dst, '-')
		}
		dst = strconv.AppendUint(dst, days, 10)
		if days == 1 {
			dst = append(dst, " day"...)
		} else {
			dst = append(dst, " days"...)
		}
		if rest == 0 {
			return dst
		}
		dst = append(dst, ' ')
	}
	if neg {
		dst = append(dst, '-')
	}
	secs, frac := rest/1e9, rest%1e9
	two := func(n uint64) {
		dst = append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	two(secs / 3600)
	dst = append(dst, ':')
	two(secs / 60 % 60)
	dst = append(dst, ':')
	two(secs % 60)
	if frac > 0 {
		f := strconv.AppendUint(nil, frac+1e9, 10)[1:] // nine digits
		for f[len(f)-1] == '0' {
			f = f[:len(f)-1]
		}
		dst = append(dst, '.')
		dst = append(dst, f...)
	}
	return dst
}
