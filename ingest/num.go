package ingest

import "strconv"

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

// parseFloat parses a float literal as strconv.ParseFloat does. A plain
// decimal ([-+]?[0-9]+(\.[0-9]+)?) whose digits make an integer below
// 2^53 takes a fast path: that integer and the power of ten are exact
// float64s, so their IEEE quotient is the correctly rounded value,
// the one strconv returns.
func parseFloat(p []byte) (float64, error) {
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
				goto slow // m may reach 2^53
			}
			continue
		}
		if c == '.' && dot < 0 && i > 0 {
			dot = i
			continue
		}
		goto slow
	}
	if digits == 0 || dot == len(q)-1 {
		goto slow
	}
	if dot >= 0 {
		frac = len(q) - dot - 1
	}
	{
		f := float64(m) / exactPow10[frac]
		if neg {
			f = -f
		}
		return f, nil
	}
slow:
	return strconv.ParseFloat(bstr(p), 64)
}
