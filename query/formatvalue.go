package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Writing one value by a directive of printf or format (format.go):
// numbers in their bases and notations, signs, prefixes, thousands,
// padding and alignment.

// timestampText is an instant as DuckDB prints a TIMESTAMP.
func timestampText(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05.999999999")
}

// asText is x (of plan a: text, a time or a bool) as text, cut to the
// precision's characters.
func (p fmtPiece) asText(x value, a *arithPlan) string {
	s := x.s
	switch {
	case a.ts || a.kind == kTime:
		s = timestampText(x.i)
	case a.kind == kBool:
		s = strconv.FormatBool(x.i != 0)
	}
	if p.prec >= 0 && utf8.RuneCountInString(s) > p.prec {
		s = string([]rune(s)[:p.prec])
	}
	return s
}

// printf formats x (of plan a) as C's printf does.
func (p fmtPiece) printf(x value, a *arithPlan) string {
	switch {
	case p.verb == 's':
		return pad(p.asText(x, a), p.width, p.left, ' ')
	case a.kind == kFloat:
		return p.printfFloat(x.fl())
	}
	n := x.i
	verb := p.verb
	switch verb {
	case 'i', 'u':
		verb = 'd'
	case 'c':
		return pad(string(rune(n)), p.width, p.left, ' ')
	}
	// C's %u %x %o read the bits as unsigned: %x of -1 is ffffffffffffffff
	neg, prefix, body := intBody(n, verb, p.alt, p.verb != 'd' && p.verb != 'i')
	if p.prec >= 0 && len(body) < p.prec { // %.3d: at least that many digits
		body = strings.Repeat("0", p.prec-len(body)) + body
	}
	if p.group && verb == 'd' {
		body = grouped(body)
	}
	return p.assemble(signOf(neg, p.sign)+prefix, body, true)
}

// printfFloat formats f by C's %f %e %g %a (and their capitals).
func (p fmtPiece) printfFloat(f float64) string {
	upper := p.verb >= 'A' && p.verb <= 'Z'
	if math.IsNaN(f) || math.IsInf(f, 0) {
		s := special(f, upper)
		neg := strings.HasPrefix(s, "-")
		return p.assembleNoZero(signOf(neg, p.sign), strings.TrimPrefix(s, "-"))
	}
	prec := p.prec
	if prec < 0 {
		prec = 6
	}
	flag := ""
	if p.alt {
		flag = "#" // a point always; %g's zeros kept
	}
	var body string
	switch v := p.verb | 0x20; v {
	case 'f', 'e':
		body = fmt.Sprintf("%"+flag+".*"+string(v), prec, math.Abs(f))
	case 'g':
		body = fmt.Sprintf("%"+flag+".*g", max(prec, 1), math.Abs(f))
	case 'a':
		pr := -1
		if p.prec >= 0 {
			pr = p.prec
		}
		body = hexFloat(math.Abs(f), pr)
	}
	if upper {
		body = strings.ToUpper(body)
	}
	if p.group && p.verb|0x20 == 'f' {
		body = groupedNumber(body)
	}
	return p.assemble(signOf(math.Signbit(f), p.sign), body, true)
}

// hexFloat is C's %a of f >= 0: 0x1.8p+1.
func hexFloat(f float64, prec int) string {
	s := strconv.FormatFloat(f, 'x', prec, 64) // 0x1.8p+01
	i := strings.IndexByte(s, 'p')
	exp := strings.TrimLeft(s[i+2:], "0")
	if exp == "" {
		exp = "0"
	}
	return s[:i+2] + exp
}

// format formats x (of plan a) as a {fmt} field does.
func (p fmtPiece) format(x value, a *arithPlan) string {
	fa := fmtArg{kind: a.kind, ts: a.ts}
	if fa.isText() || a.kind == kBool && p.verb == 0 {
		return p.aligned(p.asText(x, a), '<')
	}
	var neg bool
	var prefix, body string
	if a.kind == kFloat {
		f := x.fl()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			s := special(f, p.verb >= 'A' && p.verb <= 'Z')
			neg = strings.HasPrefix(s, "-")
			return p.aligned(signOf(neg, p.sign)+strings.TrimPrefix(s, "-"), '>')
		}
		neg, body = math.Signbit(f), p.fmtFloat(math.Abs(f))
	} else {
		verb := p.verb
		if verb == 0 {
			verb = 'd'
		}
		neg, prefix, body = intBody(x.i, verb, p.alt, false)
	}
	if p.group {
		body = groupedNumber(body)
	}
	sign := signOf(neg, p.sign) + prefix
	if p.align == 0 && p.zero {
		return p.assemble(sign, body, true)
	}
	return p.aligned(sign+body, '>')
}

// fmtFloat is f >= 0 by the field's type and precision.
func (p fmtPiece) fmtFloat(f float64) string {
	prec := p.prec
	switch p.verb {
	case 0:
		if prec <= 0 { // the shortest text that reads back
			return string(appendFloatRepr(nil, f))
		}
		return generalFloat(f, prec)
	}
	if prec < 0 {
		prec = 6
	}
	flag := ""
	if p.alt {
		flag = "#" // a point always; g's zeros kept
	}
	v := p.verb | 0x20
	if v == 'g' {
		prec = max(prec, 1)
	}
	s := fmt.Sprintf("%"+flag+".*"+string(v), prec, f)
	if p.verb == 'E' || p.verb == 'G' {
		s = strings.ToUpper(s)
	}
	return s
}

// generalFloat is {fmt}'s {:.p} of f >= 0: p significant digits, with
// an exponent below 1e-4 or from 10^p on (its zeros kept), else without
// trailing zeros and with a point (100.0).
func generalFloat(f float64, p int) string {
	e := strconv.FormatFloat(f, 'e', p-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= p {
		return e
	}
	s := strconv.FormatFloat(f, 'f', p-1-exp, 64)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if strings.IndexByte(s, '.') < 0 {
		s += ".0"
	}
	return s
}

// intBody is n's digits in verb's base and, with alt, the base's
// prefix (0x, 0X, 0b, 0B, 0); the magnitude's, or with unsigned n's
// bits read as unsigned.
func intBody(n int64, verb byte, alt, unsigned bool) (neg bool, prefix, body string) {
	u := uint64(n)
	if n < 0 && !unsigned {
		neg, u = true, -u
	}
	switch verb {
	case 'x', 'X':
		body, prefix = strconv.FormatUint(u, 16), "0x"
	case 'o':
		body, prefix = strconv.FormatUint(u, 8), "0"
		alt = alt && u != 0
	case 'b', 'B':
		body, prefix = strconv.FormatUint(u, 2), "0"+string(verb)
	default:
		return neg, "", strconv.FormatUint(u, 10)
	}
	if verb == 'X' {
		body, prefix = strings.ToUpper(body), "0X"
	}
	if !alt {
		prefix = ""
	}
	return neg, prefix, body
}

func signOf(neg bool, sign byte) string {
	switch {
	case neg:
		return "-"
	case sign != 0:
		return string(sign)
	}
	return ""
}

// special is NaN or an infinity as C and {fmt} print them.
func special(f float64, upper bool) string {
	s := "inf"
	switch {
	case math.IsNaN(f):
		s = "nan"
	case f < 0:
		s = "-inf"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// grouped puts a comma between each three digits of a run of digits.
func grouped(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var sb strings.Builder
	head := len(digits) % 3
	if head > 0 {
		sb.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(digits[i : i+3])
	}
	return sb.String()
}

// groupedNumber groups the integer digits of a number's text (1234.5,
// 1e+20, 0xff: only a leading run of decimal digits).
func groupedNumber(s string) string {
	k := digitsEnd(s, 0)
	if k < len(s) && (s[k] == 'x' || s[k] == 'X' || s[k] == 'b' || s[k] == 'B') {
		return s
	}
	return grouped(s[:k]) + s[k:]
}

// assemble pads sign+body to the width: with zeros after the sign when
// zeros asks (and not left-justified), else with spaces.
func (p fmtPiece) assemble(sign, body string, zeros bool) string {
	n := utf8.RuneCountInString(sign) + utf8.RuneCountInString(body)
	switch {
	case n >= p.width:
		return sign + body
	case zeros && p.zero: // DuckDB's printf: before '-' too
		return sign + strings.Repeat("0", p.width-n) + body
	case p.left:
		return sign + body + strings.Repeat(" ", p.width-n)
	}
	return strings.Repeat(" ", p.width-n) + sign + body
}

// assembleNoZero is assemble without zeros (nan, inf).
func (p fmtPiece) assembleNoZero(sign, body string) string { return p.assemble(sign, body, false) }

// aligned pads s to the width with the fill, by the alignment (or def).
func (p fmtPiece) aligned(s string, def byte) string {
	n := utf8.RuneCountInString(s)
	if n >= p.width {
		return s
	}
	align, fill := p.align, string(p.fill)
	if align == 0 {
		align = def
	}
	gap := p.width - n
	switch align {
	case '<':
		return s + strings.Repeat(fill, gap)
	case '^':
		return strings.Repeat(fill, gap/2) + s + strings.Repeat(fill, gap-gap/2)
	}
	return strings.Repeat(fill, gap) + s
}

// pad pads s with c to width, on the right when left.
func pad(s string, width int, left bool, c byte) string {
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s
	}
	if left {
		return s + strings.Repeat(string(c), width-n)
	}
	return strings.Repeat(string(c), width-n) + s
}
