package query

import (
	"strings"
	"unicode"
)

// Text functions of characters (runes), as PostgreSQL and DuckDB have
// them: left(s, n) and right(s, n) (a negative n: all but the last or
// first -n), lpad(s, n[, fill]) and rpad (to n characters, fill repeated,
// a space by default; a longer s is cut to n), repeat(s, n), reverse(s),
// ltrim(s) and rtrim(s) (white space). A result longer than maxTextLen
// is NULL: a query's text does not grow without bound.

// maxTextLen bounds the bytes of a padded or repeated text.
const maxTextLen = 1 << 20

// padValue computes text function fn of v.
func padValue(fn string, v []value) (value, bool) {
	s := v[0].s
	switch fn {
	case "reverse":
		r := []rune(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return value{s: string(r)}, true
	case "ltrim":
		if len(v) > 1 { // ltrim(s, chars): any of chars
			return value{s: strings.TrimLeft(s, v[1].s)}, true
		}
		return value{s: strings.TrimLeftFunc(s, unicode.IsSpace)}, true
	case "rtrim":
		if len(v) > 1 {
			return value{s: strings.TrimRight(s, v[1].s)}, true
		}
		return value{s: strings.TrimRightFunc(s, unicode.IsSpace)}, true
	case "repeat":
		n := v[1].i
		if n <= 0 || s == "" {
			return value{s: ""}, true
		}
		if n > int64(maxTextLen/len(s)) {
			return nullValue, false
		}
		return value{s: strings.Repeat(s, int(n))}, true
	}
	r, n := []rune(s), v[1].i
	switch fn {
	case "left", "right":
		k := int64(len(r))
		switch {
		case n >= 0:
			k = min(n, k)
		default:
			k = max(k+n, 0) // all but the last (first) -n
		}
		if fn == "left" {
			return value{s: string(r[:k])}, true
		}
		return value{s: string(r[int64(len(r))-k:])}, true
	}
	// lpad, rpad
	fill := " "
	if len(v) > 2 {
		fill = v[2].s
	}
	switch {
	case n <= 0:
		return value{s: ""}, true
	case n <= int64(len(r)):
		return value{s: string(r[:n])}, true
	case fill == "":
		return value{s: s}, true
	case n > maxTextLen:
		return nullValue, false
	}
	f := []rune(fill)
	pad := make([]rune, 0, n-int64(len(r)))
	for i := 0; int64(len(pad)) < n-int64(len(r)); i++ {
		pad = append(pad, f[i%len(f)])
	}
	if fn == "lpad" {
		return value{s: string(pad) + s}, true
	}
	return value{s: s + string(pad)}, true
}
