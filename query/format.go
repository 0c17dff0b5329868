package query

import (
	"fmt"
	"strings"
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
