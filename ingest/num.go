package ingest

import (
	"errors"
	"math"
	"strconv"
)

// parseInt parses a decimal integer literal ([-+]?[0-9]+) without
// allocating on failure, as strconv does for its error.
func parseInt(p []byte) (int64, bool) {
	q := p
	if len(q) > 0 && (q[0] == '-' || q[0] == '+') {
		q = q[1:]
	}
	if len(q) == 0 || len(q) > 19 {
		return 0, false
	}
	if len(q) < 19 {
		// at most 18 digits: no overflow
		var n int64
		for _, c := range q {
			d := c - '0'
			if d > 9 {
				return 0, false
			}
			n = n*10 + int64(d)
		}
		if p[0] == '-' {
			n = -n
		}
		return n, true
	}
	for _, c := range q {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(bstr(p), 10, 64)
	return i, err == nil
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a float literal as strconv.ParseFloat does, through
// fastFloat when it can.
func parseFloat(p []byte) (float64, error) {
	if f, ok := fastFloat(p); ok {
		return f, nil
	}
	return strconv.ParseFloat(bstr(p), 64)
}

// fastFloat parses a plain decimal ([-+]?[0-9]+(\.[0-9]+)?) whose digits
// make an integer below 2^53: that integer and the power of ten are
// exact float64s, so their IEEE quotient is the correctly rounded value,
// the one strconv returns. It reports false for any other text.
func fastFloat(p []byte) (float64, bool) {
	q := p
	neg := false
	if len(q) > 0 && (q[0] == '-' || q[0] == '+') {
		neg = q[0] == '-'
		q = q[1:]
	}
	var m uint64
	digits, frac, dot := 0, 0, -1
	for i, c := range q {
		if d := c - '0'; d <= 9 {
			m = m*10 + uint64(d)
			digits++
			if digits > 15 {
				return 0, false // m may reach 2^53
			}
			continue
		}
		if c == '.' && dot < 0 && i > 0 {
			dot = i
			continue
		}
		return 0, false
	}
	if digits == 0 || dot == len(q)-1 {
		return 0, false
	}
	if dot >= 0 {
		frac = len(q) - dot - 1
	}
	f := float64(m) / exactPow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// numberValue parses the text of a number field (a JSON number, a CSV
// cell) as a float64. Only numbers are numbers: digits with an optional
// sign, point and exponent, and the spellings of NaN and the infinities
// that programs write (NaN, nan, Inf, inf, Infinity, each infinity with
// a sign), not every text strconv takes: a CSV name "Nan" or a code "INF"
// stays text, where strconv would make them NaN and +Inf. A number past
// float64's range is ±Inf (0 below it), as Python's and JavaScript's JSON
// readers take it, not text.
func numberValue(p []byte) (float64, bool) {
	if f, ok := fastFloat(p); ok {
		return f, true
	}
	if !decimalSyntax(p) && !specialFloat(p) {
		return 0, false // hex floats, underscores, "infinity", "Nan"...
	}
	f, err := strconv.ParseFloat(bstr(p), 64)
	return f, err == nil || errors.Is(err, strconv.ErrRange)
}

// decimalSyntax reports whether p is [-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?.
func decimalSyntax(p []byte) bool {
	i := 0
	if i < len(p) && (p[i] == '-' || p[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		return i - j
	}
	n := digits()
	if i < len(p) && p[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(p) && (p[i] == 'e' || p[i] == 'E') {
		i++
		if i < len(p) && (p[i] == '-' || p[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(p)
}

// specialFloat reports whether p spells NaN or an infinity as programs
// write them (Go, Python, NumPy, JavaScript, Prometheus).
func specialFloat(p []byte) bool {
	switch string(p) {
	case "NaN", "nan", "-nan", "Inf", "+Inf", "-Inf", "inf", "+inf", "-inf", "Infinity", "+Infinity", "-Infinity":
		return true
	}
	return false
}

// appendFloatText appends f as text the way a number column turned to
// text shows it: without an exponent from 1e-4 up to 1e21 (1234567.5,
// not 1.2345675e+06), with the fewest digits that read back as f.
func appendFloatText(dst []byte, f float64) []byte {
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// boolText reads a CSV cell that is a bool: true, True, TRUE, false,
// False or FALSE (spreadsheets write the upper case). Not 1, 0, t, f, yes
// or no, which are as often numbers or text.
func boolText(p []byte) (v, ok bool) {
	switch string(p) {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}
