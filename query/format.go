package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// printf(format, x, ...) and format(format, x, ...) write values into
// text as DuckDB's do: printf with C's directives (%d %i %u %x %X %o %b
// %c of integers, %f %F %e %E %g %G %a of floats, %s of text, bools
// and times; flags - + space 0 # and ',' for thousands; width and
// precision, * for a width given as an argument, %2$s for an argument by
// number, %% for a percent sign), format with {fmt}'s replacement
// fields ({} the next argument, {1} one by number, {:spec} with
// [[fill]align][sign][#][0][width][.precision][type], ',' first for
// thousands, {{ and }} for braces). Each directive wants its kind of
// value, as in DuckDB: %d of a float, %s of a number or {:f} of an
// integer is an error, found when the query is planned (the format is
// text written out). A NULL argument makes the result NULL. Times print
// as DuckDB prints a TIMESTAMP (2024-01-02 03:04:05.5), floats in
// format's {} as their shortest text (0.1, 100.0, 1e+20), NaN and the
// infinities as nan, inf and -inf.

// compileFormat plans printf(format, ...) or format(format, ...): the
// format is parsed and checked against the arguments' kinds once.
func (p *plan) compileFormat(a *Arith, ap *arithPlan) error {
	f := ap.args[0]
	switch {
	case f.lit == nil:
		return p.errAt(a.Args[0].Pos, "%s() wants its format as text written out, not %s: it is checked once per query", a.Func, a.Args[0].String())
	case f.lit.null:
		v := nullValue
		*ap = arithPlan{kind: kString, lit: &v, hid: -1}
		return nil
	}
	fp, err := parseFormat(a.Func, f.lit.s, len(ap.args)-1)
	if err == nil {
		args := make([]fmtArg, len(ap.args)-1)
		for i, x := range ap.args[1:] {
			if l := a.Args[i+1].Lit; l != nil && l.Typed { // TIMESTAMP '2024-01-02': a time
				p.textAsTime(a.Args[i+1], x)
			}
			args[i] = fmtArg{kind: x.kind, ts: x.ts, null: x.nullLit()}
		}
		err = fp.check(args)
	}
	if err != nil {
		return p.errAt(a.Args[0].Pos, "%s(): %v", a.Func, err)
	}
	f.pf = fp
	return nil
}

// fmtPiece is a run of text of a format, or one directive.
type fmtPiece struct {
	text     string // the text (arg < 0)
	arg      int    // the argument formatted, 0 the first after the format; -1: text
	widthArg int    // printf's %*d: the argument holding the width; -1: none
	fill     rune
	align    byte // '<', '>', '^'; 0: the kind's own
	sign     byte // '+', ' '; 0: a minus sign only
	alt      bool // '#'
	zero     bool // '0': zeros after the sign
	group    bool // ',': thousands separated
	left     bool // printf's '-'
	width    int
	prec     int  // -1: none
	verb     byte // 0: format's {} without a type
	at       int  // the directive's byte offset in the format
}

// fmtPlan is a format parsed for printf (C directives) or format
// ({fmt} fields).
type fmtPlan struct {
	printf bool
	pieces []fmtPiece
}

// maxFmtWidth bounds a directive's width and precision (and a width
// taken from an argument).
const maxFmtWidth = 10_000

// parseFormat parses a format of fn ("printf" or "format") for n
// arguments after it.
func parseFormat(fn, f string, n int) (*fmtPlan, error) {
	fp := &fmtPlan{printf: fn == "printf"}
	var err error
	if fp.printf {
		err = fp.parsePrintf(f)
	} else {
		err = fp.parseFmt(f)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range fp.pieces {
		if p.width > maxFmtWidth || p.prec > maxFmtWidth {
			return nil, fmt.Errorf("the directive at byte %d asks for %d characters, past the limit of %d", p.at+1, max(p.width, p.prec), maxFmtWidth)
		}
		for _, a := range []int{p.arg, p.widthArg} {
			if a >= n {
				return nil, fmt.Errorf("the format refers to argument %d at byte %d, and %d follow it", a+1, p.at+1, n)
			}
		}
	}
	return fp, nil
}

func (fp *fmtPlan) text(s string) {
	if s != "" {
		fp.pieces = append(fp.pieces, fmtPiece{text: s, arg: -1, widthArg: -1})
	}
}

// parsePrintf parses C's %[n$][flags][width|*][.precision][length]verb.
func (fp *fmtPlan) parsePrintf(f string) error {
	next := 0
	for i := 0; i < len(f); {
		j := strings.IndexByte(f[i:], '%')
		if j < 0 {
			fp.text(f[i:])
			break
		}
		fp.text(f[i : i+j])
		i += j
		at := i
		i++
		if i < len(f) && f[i] == '%' {
			fp.text("%")
			i++
			continue
		}
		p := fmtPiece{arg: -1, widthArg: -1, prec: -1, fill: ' ', at: at}
		if k := digitsEnd(f, i); k > i && k < len(f) && f[k] == '$' { // %2$s
			n, _ := strconv.Atoi(f[i:k])
			if n < 1 {
				return fmt.Errorf("argument number %s at byte %d: they count from 1", f[i:k], at+1)
			}
			p.arg, i = n-1, k+1
		}
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '-':
				p.left = true
			case '+':
				p.sign = '+'
			case ' ':
				if p.sign == 0 {
					p.sign = ' '
				}
			case '0':
				p.zero = true
			case '#':
				p.alt = true
			case ',':
				p.group = true
			default:
				break flags
			}
		}
		if i < len(f) && f[i] == '*' {
			p.widthArg, next, i = next, next+1, i+1
		} else {
			k := digitsEnd(f, i)
			p.width = atoiCapped(f[i:k])
			i = k
		}
		if i < len(f) && f[i] == '.' {
			k := digitsEnd(f, i+1)
			p.prec = atoiCapped(f[i+1 : k])
			i = k
		}
		for i < len(f) && strings.IndexByte("hlLjzt", f[i]) >= 0 { // lengths: one int64 whatever they say
			i++
		}
		if i == len(f) {
			return fmt.Errorf("the format ends inside the directive at byte %d", at+1)
		}
		p.verb = f[i]
		if strings.IndexByte("diuxXobcsfFeEgGaA", p.verb) < 0 {
			return fmt.Errorf("unknown directive %%%c at byte %d (want one of d i u x X o b c s f F e E g G a A)", p.verb, i+1)
		}
		i++
		if p.arg < 0 {
			p.arg, next = next, next+1
		}
		fp.pieces = append(fp.pieces, p)
	}
	return nil
}

// atoiCapped reads digits, at most maxFmtWidth+1 (refused later); 0
// for none.
func atoiCapped(d string) int {
	n := 0
	for _, c := range []byte(d) {
		n = min(n*10+int(c-'0'), maxFmtWidth+1)
	}
	return n
}

func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// parseFmt parses {fmt}'s fields: {[n][:spec]}, {{ and }}.
func (fp *fmtPlan) parseFmt(f string) error {
	next, auto, manual := 0, false, false
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '}' && i+1 < len(f) && f[i+1] == '}', c == '{' && i+1 < len(f) && f[i+1] == '{':
			sb.WriteByte(c)
			i++
			continue
		case c == '}':
			return fmt.Errorf("a '}' without its '{' at byte %d (write }} for a brace)", i+1)
		case c != '{':
			sb.WriteByte(c)
			continue
		}
		fp.text(sb.String())
		sb.Reset()
		end := strings.IndexByte(f[i:], '}')
		if end < 0 {
			return fmt.Errorf("a '{' without its '}' at byte %d (write {{ for a brace)", i+1)
		}
		field := f[i+1 : i+end]
		p := fmtPiece{widthArg: -1, prec: -1, fill: ' ', at: i}
		id, spec, hasSpec := strings.Cut(field, ":")
		if id == "" {
			p.arg, next, auto = next, next+1, true
		} else {
			n, err := strconv.Atoi(id)
			if err != nil || n < 0 || strings.IndexFunc(id, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
				return fmt.Errorf("field {%s} at byte %d: want {}, {n} or {:spec}", field, i+1)
			}
			p.arg, manual = n, true
		}
		if auto && manual {
			return fmt.Errorf("field {%s} at byte %d: {} and {n} cannot mix in one format", field, i+1)
		}
		if hasSpec {
			if err := p.parseSpec(spec); err != nil {
				return fmt.Errorf("field {%s} at byte %d: %w", field, i+1, err)
			}
		}
		fp.pieces = append(fp.pieces, p)
		i += end
	}
	fp.text(sb.String())
	return nil
}

// parseSpec parses [,][[fill]align][sign][#][0][width][.precision][type].
func (p *fmtPiece) parseSpec(s string) error {
	if strings.HasPrefix(s, ",") {
		p.group, s = true, s[1:]
	}
	if r, n := utf8.DecodeRuneInString(s); n < len(s) && strings.IndexByte("<>^", s[n]) >= 0 {
		p.fill, p.align, s = r, s[n], s[n+1:]
	} else if s != "" && strings.IndexByte("<>^", s[0]) >= 0 {
		p.align, s = s[0], s[1:]
	}
	if s != "" && (s[0] == '+' || s[0] == ' ' || s[0] == '-') {
		if s[0] != '-' {
			p.sign = s[0]
		}
		s = s[1:]
	}
	if strings.HasPrefix(s, "#") {
		p.alt, s = true, s[1:]
	}
	if strings.HasPrefix(s, "0") {
		p.zero, s = true, s[1:]
	}
	k := digitsEnd(s, 0)
	p.width = atoiCapped(s[:k])
	s = s[k:]
	if strings.HasPrefix(s, ".") {
		k := digitsEnd(s, 1)
		if k == 1 {
			return fmt.Errorf("a '.' without the precision's digits")
		}
		p.prec = atoiCapped(s[1:k])
		s = s[k:]
	}
	switch {
	case len(s) == 1 && strings.IndexByte("dxXobBsfFeEgG", s[0]) >= 0:
		p.verb = s[0]
	case s != "":
		return fmt.Errorf("unknown type %q (want one of d x X o b B s f F e E g G)", s)
	}
	return nil
}

// fmtArg is what check knows of an argument: its kind, whether it is
// an instant, whether it is the NULL literal.
type fmtArg struct {
	kind     colKind
	ts, null bool
}

func (a fmtArg) isText() bool {
	return a.kind == kString || a.kind == kSeries || a.kind == kKey || a.kind == kOp || a.kind == kTime || a.ts
}
func (a fmtArg) isInt() bool { return isIntKind(a.kind) && !a.isText() }

func (a fmtArg) name() string {
	switch {
	case a.isText() && (a.ts || a.kind == kTime):
		return "a time"
	case a.isText():
		return "text"
	case a.isInt():
		return "an integer"
	case a.kind == kFloat:
		return "a float"
	case a.kind == kBool:
		return "a bool"
	}
	return "a " + a.kind.String()
}

// check reports the first directive of fp that cannot format its
// argument, as DuckDB refuses it.
func (fp *fmtPlan) check(args []fmtArg) error {
	for _, p := range fp.pieces {
		if p.arg < 0 {
			continue
		}
		if w := p.widthArg; w >= 0 && !args[w].null && !args[w].isInt() {
			return fmt.Errorf("%%* at byte %d takes its width from argument %d, %s: it wants an integer", p.at+1, w+1, args[w].name())
		}
		a := args[p.arg]
		if a.null {
			continue
		}
		isInt, isBool, isFloat := a.isInt(), a.kind == kBool, a.kind == kFloat
		var ok bool
		switch {
		case fp.printf && p.verb == 's':
			ok = a.isText() || isBool
		case fp.printf && p.verb == 'c':
			ok = isInt
		case fp.printf && strings.IndexByte("diuxXob", p.verb) >= 0:
			ok = isInt || isBool
		case fp.printf:
			ok = isFloat
		case p.verb == 0:
			ok = true
		case p.verb == 's':
			ok = a.isText()
		case strings.IndexByte("dxXobB", p.verb) >= 0:
			ok = isInt || isBool
		default:
			ok = isFloat
		}
		if !ok {
			verb := "{:" + string(p.verb) + "}"
			if fp.printf {
				verb = "%" + string(p.verb)
			}
			return fmt.Errorf("%s at byte %d cannot format argument %d, %s", verb, p.at+1, p.arg+1, a.name())
		}
		if fp.printf {
			continue
		}
		numeric := isInt || isFloat || isBool && p.verb != 0
		switch {
		case !numeric && (p.sign != 0 || p.alt || p.zero || p.group):
			return fmt.Errorf("the field at byte %d formats %s: signs, #, 0 and ',' are for numbers", p.at+1, a.name())
		case (isInt || isBool) && p.prec >= 0:
			return fmt.Errorf("the field at byte %d formats an integer: it takes no precision", p.at+1)
		}
	}
	return nil
}

// render writes the values (kinds of args) into the format.
func (fp *fmtPlan) render(args []*arithPlan, v []value) string {
	var sb strings.Builder
	for _, p := range fp.pieces {
		if p.arg < 0 {
			sb.WriteString(p.text)
			continue
		}
		if p.widthArg >= 0 {
			w := v[p.widthArg].i
			if w < 0 { // C: a negative width is a left-justified one
				p.left, w = true, -w
			}
			p.width = int(min(w, maxFmtWidth))
		}
		x, a := v[p.arg], args[p.arg]
		if fp.printf {
			sb.WriteString(p.printf(x, a))
		} else {
			sb.WriteString(p.format(x, a))
		}
	}
	return sb.String()
}

// timeText is an instant as DuckDB prints a TIMESTAMP.
func timestampText(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05.999999999")
}

// printf formats x (of plan a) as C's printf does.
func (p fmtPiece) printf(x value, a *arithPlan) string {
	switch {
	case p.verb == 's':
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
		return pad(s, p.width, p.left, ' ')
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
		return p.aligned(s, '<')
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
