package query

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Arith is an arithmetic SELECT item: numbers, columns (raw queries) or
// aggregates and grouped columns (aggregate queries) combined with + - *
// /, parentheses and numeric functions: value * 100, max(value) -
// min(value), round(avg(value), 2).
type Arith struct {
	Op   byte   // '+', '-', '*', '/'; 'n' negates L; 'f' applies Func to L (and R, round's digits); 0 for a leaf
	Func string // 'f': abs, round, floor, ceil, sqrt, ln, log10, exp
	L, R *Arith
	Col  *ColRef  // leaf: a column
	Agg  *Call    // leaf: an aggregate
	Win  *WinCall // leaf: a window function (in SELECT items only)
	Lit  *Lit     // leaf: an integer or a number
	Pos  int
	// Zone: a time part's clock (hour(time, 'Europe/Berlin')); nil: UTC.
	Zone *time.Location
	zone string
	Args []*Arith // 'f' of a text function (text.go): its arguments
	// Op 'c': CASE WHEN Whens[i].Cond THEN Whens[i].Then ... ELSE Else END
	Whens []CaseWhen
	Else  *Arith
	Trunc *Trunc // 'f' of date_trunc or time_bucket (trunc.go)
	// Part: a time part's unit as date_part or extract (partSyntax)
	// name it (timepart.go)
	Part, partSyntax string
	// Scalar: leaf (SELECT ...), a subquery of one value (scalar.go),
	// scalarText as written.
	Scalar     *Statement
	scalarText string
	// exists: Scalar is EXISTS (SELECT ...), 1 when it gives a row, else
	// 0. Corr: a correlated subquery (correlate.go), Args the outer
	// row's terms it is keyed by; scalarText as written.
	exists bool
	Corr   *Correlated
	// inTerm: this EXISTS stands for inTerm IN (SELECT ...), keyed by
	// the subquery's item too (correlate.go).
	inTerm *Arith
	// pipes: this concat is a || b || ..., written so
	pipes bool
	// arrow: this json_extract or json_extract_string is j -> p or
	// j ->> p, written so
	arrow string
	// noArgs: a call written without arguments (json_object()), given
	// one of its own, which it ignores
	noArgs bool
	// pow: power(L, R) written x ^ y or x ** y, the operator written
	pow string
	// cond: this CASE is the condition as a bool value (condvalue.go)
	cond Expr
	// castAs: this is CAST(castOf AS castAs) as written, computed another
	// way (round(CAST(x AS DOUBLE), s) for DECIMAL(p, s), date_trunc for
	// DATE: cast.go)
	castOf *Arith
	castAs string
}

// String is the item's text, the name of its column without AS: one
// space around each operator, parentheses where the order needs them.
func (a *Arith) String() string {
	var sb strings.Builder
	a.write(&sb, 0)
	return sb.String()
}

func precedence(op byte) int {
	switch op {
	case '+', '-':
		return 1
	case '*', '/', '%':
		return 2
	case 'n':
		return 3
	}
	return 5 // a leaf
}

// write writes a, parenthesised when its precedence is below min.
func (a *Arith) write(sb *strings.Builder, min int) {
	switch {
	case a.pipes:
		if min > 0 {
			sb.WriteString("(")
		}
		for i, x := range a.Args {
			if i > 0 {
				sb.WriteString(" || ")
			}
			x.write(sb, 1)
		}
		if min > 0 {
			sb.WriteString(")")
		}
		return
	case a.arrow != "":
		if min > 0 {
			sb.WriteString("(")
		}
		a.Args[0].write(sb, 1)
		sb.WriteString(" " + a.arrow + " ")
		a.Args[1].write(sb, 1)
		if min > 0 {
			sb.WriteString(")")
		}
		return
	case a.cond != nil:
		if min > 0 {
			sb.WriteString("(")
		}
		sb.WriteString(condText(a.cond))
		if min > 0 {
			sb.WriteString(")")
		}
		return
	case a.castAs != "":
		sb.WriteString("CAST(")
		a.castOf.write(sb, 0)
		sb.WriteString(" AS " + a.castAs + ")")
		return
	case a.Col != nil:
		sb.WriteString(a.Col.Name)
		return
	case a.Agg != nil:
		sb.WriteString(a.Agg.String())
		return
	case a.Win != nil:
		sb.WriteString(a.Win.String())
		return
	case a.Lit != nil:
		sb.WriteString(a.Lit.String())
		return
	case a.Scalar != nil || a.Corr != nil:
		sb.WriteString(a.scalarText)
		return
	case a.Op == 'c' || a.Op == 'f' && a.Args != nil:
		a.writeText(sb)
		return
	case a.Op == 'f' && a.Trunc != nil:
		a.writeTrunc(sb)
		return
	case a.Op == 'f' && a.partSyntax != "":
		a.writePart(sb)
		return
	case a.Op == 'f' && chainFuncs[a.Func]:
		sb.WriteString(a.Func + "(")
		for x := a; ; x = x.R {
			x.L.write(sb, 0)
			sb.WriteString(", ")
			if x.R.Op != 'f' || x.R.Func != a.Func { // (associative: written flat)
				x.R.write(sb, 0)
				break
			}
		}
		sb.WriteByte(')')
		return
	case a.Op == 'f' && a.Func == "power" && a.pow != "": // a ^ b
		if min > 2 {
			sb.WriteByte('(')
		}
		a.L.write(sb, 3)
		sb.WriteString(" " + a.pow + " ")
		a.R.write(sb, 3)
		if min > 2 {
			sb.WriteByte(')')
		}
		return
	case a.Op == 'f' && a.Func == "intdiv": // a // b
		if min > 2 {
			sb.WriteByte('(')
		}
		a.L.write(sb, 2)
		sb.WriteString(" // ")
		a.R.write(sb, 3)
		if min > 2 {
			sb.WriteByte(')')
		}
		return
	case a.Op == 'f':
		name := a.Func
		if name == "logb" { // log(b, x)
			name = "log"
		}
		sb.WriteString(name + "(")
		a.L.write(sb, 0)
		if a.R != nil {
			sb.WriteString(", ")
			a.R.write(sb, 0)
		}
		if a.Zone != nil {
			sb.WriteString(", '" + a.zone + "'")
		}
		sb.WriteByte(')')
		return
	case a.Op == 'n':
		if min > 3 {
			sb.WriteByte('(')
		}
		sb.WriteByte('-')
		a.L.write(sb, 4) // -(a + b), -(-a)
		if min > 3 {
			sb.WriteByte(')')
		}
		return
	}
	prec := precedence(a.Op)
	if prec < min {
		sb.WriteByte('(')
	}
	a.L.write(sb, prec)
	sb.WriteString(" " + string(a.Op) + " ")
	// a - (b - c), a / (b * c) and a % (b % c) keep their parentheses
	a.R.write(sb, prec+1)
	if prec < min {
		sb.WriteByte(')')
	}
}

// arith parses an expression of terms joined by + and -.
func (p *parser) arith() *Arith {
	l := p.arithSum()
	// text concatenation, below + and - (as in PostgreSQL), and JSON's
	// j -> path and j ->> path with it, from the left (as in DuckDB)
	for isPunct(p.peek(), "||", "->", "->>") {
		t := p.advance()
		r := p.arithSum()
		switch {
		case t.text != "||":
			fn := "json_extract"
			if t.text == "->>" {
				fn = "json_extract_string"
			}
			l = &Arith{Op: 'f', Func: fn, Args: []*Arith{l, r}, Pos: t.pos, arrow: t.text}
		case l.pipes && l.Op == 'f':
			l.Args = append(l.Args, r)
		default:
			l = &Arith{Op: 'f', Func: "concat", Args: []*Arith{l, r}, Pos: t.pos, pipes: true}
		}
	}
	return l
}

// arithSum parses terms joined by + and -.
func (p *parser) arithSum() *Arith {
	l := p.arithTerm()
	for {
		t := p.peek()
		if t.kind != tPunct || t.text != "+" && t.text != "-" {
			return l
		}
		p.advance()
		l = &Arith{Op: t.text[0], L: l, R: p.arithTerm(), Pos: t.pos}
	}
}

// arithTerm parses powers joined by *, / and %.
func (p *parser) arithTerm() *Arith {
	l := p.arithPower()
	for {
		t := p.peek()
		if t.kind != tPunct || t.text != "*" && t.text != "/" && t.text != "%" && t.text != "//" {
			return l
		}
		p.advance()
		if t.text == "//" { // DuckDB's integer division (mathfuncs.go)
			l = &Arith{Op: 'f', Func: "intdiv", L: l, R: p.arithPower(), Pos: t.pos}
			continue
		}
		l = &Arith{Op: t.text[0], L: l, R: p.arithPower(), Pos: t.pos}
	}
}

// arithPower parses x ^ y and x ** y, power(x, y): above * and /, and
// from the right (2 ^ 3 ^ 2 is 2 ^ 9); a negation binds tighter (-2 ^ 2
// is 4, as in PostgreSQL and DuckDB).
func (p *parser) arithPower() *Arith {
	l := p.arithFactor()
	if t := p.peek(); isPunct(t, "^", "**") {
		p.advance()
		return &Arith{Op: 'f', Func: "power", L: l, R: p.arithPower(), Pos: t.pos, pow: t.text}
	}
	return l
}

// arithFactor parses a number, a column, an aggregate, a negation or a
// parenthesised expression.
func (p *parser) arithFactor() *Arith {
	t := p.peek()
	switch {
	case t.kind == tPunct && t.text == "(" && isKw(p.tok(p.i+1), "select"):
		return p.scalarSub()
	case t.kind == tPunct && t.text == "(":
		p.advance()
		a := p.valueOrCond() // (v > 1)::int: a condition's value
		p.expectPunct(")")
		return a
	case isKw(t, "columns") && isPunct(p.tok(p.i+1), "("):
		return p.columnsOperand()
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && textTests[strings.ToLower(t.text)] != nil:
		return p.textTestValue(t) // starts_with(s, 'a') as a value
	case isKw(t, "true") || isKw(t, "false"):
		p.advance()
		return &Arith{Lit: &Lit{Kind: LitBool, Bool: isKw(t, "true"), Pos: t.pos}, Pos: t.pos}
	case t.kind == tPunct && t.text == "-" && p.tok(p.i+1).kind == tInt && p.tok(p.i+1).text == "9223372036854775808":
		return &Arith{Lit: p.literal(), Pos: t.pos} // the least int64, whose magnitude is none
	case t.kind == tPunct && t.text == "-":
		p.advance()
		return &Arith{Op: 'n', L: p.arithFactor(), Pos: t.pos}
	case t.kind == tInt || t.kind == tFloat:
		return &Arith{Lit: p.literal(), Pos: t.pos}
	case isKw(t, "null"): // a NULL of the kind the values around it have
		p.advance()
		return &Arith{Lit: &Lit{Kind: LitNull, Pos: t.pos}, Pos: t.pos}
	case t.kind == tString:
		return &Arith{Lit: &Lit{Kind: LitString, Str: p.advance().text, Typed: t.typed, Pos: t.pos}, Pos: t.pos}
	case isKw(t, "case") && !isPunct(p.tok(p.i+1), "("):
		p.advance()
		return p.caseExpr(t)
	case isKw(t, "grouping") && isPunct(p.tok(p.i+1), "("):
		return p.groupingCall()
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && isCast(t):
		p.advance()
		return p.castCall(t)
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && textFuncOK(t.text):
		p.advance()
		return p.textCall(t)
	case t.kind == tDuration:
		p.advance()
		if n, ok := calendarMonths(t.text); ok { // time + INTERVAL 1 MONTH (months.go)
			return &Arith{Lit: &Lit{Kind: LitMonths, Int: int64(n), Str: t.text, Pos: t.pos}, Pos: t.pos}
		}
		return &Arith{Lit: &Lit{Kind: LitDuration, Int: p.duration(t), Str: t.text, Pos: t.pos}, Pos: t.pos}
	case isKw(t, "now") && isPunct(p.tok(p.i+1), "("):
		p.advance()
		p.expectPunct("(")
		p.expectPunct(")")
		return &Arith{Lit: &Lit{Kind: LitTime, Now: true, Pos: t.pos}, Pos: t.pos}
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && truncFuncs[strings.ToLower(t.text)]:
		p.advance()
		return p.truncCall(t)
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && (isKw(t, "date_part") || isKw(t, "extract")):
		p.advance()
		return p.partCall(t)
	case t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" && winFuncs[strings.ToLower(t.text)]:
		switch {
		case p.qualify:
			return p.qualifyWindow(p.winCall(), t.pos)
		case !p.inItem:
			p.failWindow(t.pos, strings.ToLower(t.text)+"()")
		}
		return &Arith{Win: p.winCall(), Pos: t.pos}
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && timeFuncs[strings.ToLower(t.text)] != "":
		p.advance()
		return p.timeCall(t)
	case isKw(t, "if") && isPunct(p.tok(p.i+1), "("):
		p.advance()
		return p.ifCall(t)
	case t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" && numFuncs[strings.ToLower(t.text)]:
		p.advance()
		p.advance()
		a := &Arith{Op: 'f', Func: strings.ToLower(t.text), L: p.valueOrCond(), Pos: t.pos}
		if a.Func == "mod" { // mod(x, y) is x % y
			p.expectPunct(",")
			m := &Arith{Op: '%', L: a.L, R: p.arith(), Pos: t.pos}
			p.expectPunct(")")
			return m
		}
		if f := funcAliases[a.Func]; f != "" {
			a.Func = f
		}
		if chainFuncs[a.Func] {
			p.expectPunct(",")
			a.R = p.chainRest(a.Func, t.pos)
			return a
		}
		if a.Func == "nullif" || a.Func == "power" || twoArgFuncs[a.Func] {
			p.expectPunct(",")
			a.R = p.valueOrCond()
		}
		if a.Func == "log10" && strings.EqualFold(t.text, "log") && p.acceptPunct(",") { // log(b, x): x's logarithm to base b
			a.Func, a.R = "logb", p.valueOrCond()
		}
		if (a.Func == "round" || a.Func == "trunc") && p.acceptPunct(",") {
			d := p.peek()
			neg := p.acceptPunct("-")
			if n := p.peek(); n.kind != tInt {
				p.fail(n.pos, "%s wants a whole number of digits, found %s", a.Func, n.describe())
			}
			a.R = &Arith{Lit: p.literal(), Pos: d.pos}
			if neg {
				a.R.Lit.Int = -a.R.Lit.Int
			}
		}
		p.expectPunct(")")
		return a
	case t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && jsonAggregates[strings.ToLower(t.text)] != "":
		c := p.call() // string_agg of the rows' JSON, bracketed (jsonagg.go)
		if o := p.peek(); p.startsOver() {
			p.fail(o.pos, "%s() is an aggregate, not a window function", strings.ToLower(t.text))
		}
		return &Arith{Op: 'f', Func: jsonAggregates[strings.ToLower(t.text)], Args: []*Arith{{Agg: c, Pos: t.pos}}, Pos: t.pos}
	case t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(":
		c := p.call()
		if o := p.peek(); p.startsOver() {
			if w := p.aggWindow(c, o); !p.inItem { // in QUALIFY
				return p.qualifyWindow(w, t.pos)
			} else {
				return &Arith{Win: w, Pos: t.pos}
			}
		}
		return &Arith{Agg: c, Pos: t.pos}
	}
	return &Arith{Col: p.colRef(), Pos: t.pos}
}

// numFuncs are the numeric functions of arithmetic.
var numFuncs = map[string]bool{"abs": true, "round": true, "floor": true, "ceil": true, "sqrt": true, "ln": true, "log10": true, "exp": true, "coalesce": true,
	"epoch": true, "epoch_ms": true, "epoch_us": true, "epoch_ns": true, "to_timestamp": true, "greatest": true, "least": true, "nullif": true,
	"ceiling": true, "trunc": true, "sign": true, "log": true, "log2": true, "cbrt": true, "power": true, "pow": true,
	"ifnull": true, "mod": true, "if": true,
	// mathfuncs.go
	"sin": true, "cos": true, "tan": true, "cot": true, "asin": true, "acos": true, "atan": true, "degrees": true, "radians": true,
	"isnan": true, "isinf": true, "isfinite": true, "even": true, "atan2": true, "gcd": true, "lcm": true,
	// durations.go: spans of a number of units
	"to_days": true, "to_hours": true, "to_minutes": true, "to_seconds": true, "to_milliseconds": true, "to_microseconds": true}

// funcAliases are other names of numeric functions: PostgreSQL's and
// DuckDB's.
var funcAliases = map[string]string{"ceiling": "ceil", "log": "log10", "pow": "power", "ifnull": "coalesce"}

// chainFuncs take two or more arguments, as a chain of pairs:
// coalesce(a, b, c) is coalesce(a, coalesce(b, c)).
var chainFuncs = map[string]bool{"coalesce": true, "greatest": true, "least": true}

// chainRest parses the arguments of chain function fn after its first
// and the comma.
func (p *parser) chainRest(fn string, pos int) *Arith {
	a := p.valueOrCond()
	if p.acceptPunct(",") {
		return &Arith{Op: 'f', Func: fn, L: a, R: p.chainRest(fn, pos), Pos: pos}
	}
	p.expectPunct(")")
	return a
}

// apply computes function fn of x (of kind k) with round's digits d: an
// integer stays one under abs, round (without digits), floor and ceil;
// a result that is not a finite number (sqrt(-1), ln(0)) is NULL.
func apply(fn string, k colKind, x value, d int64, hasD bool) value {
	if fn == "add_months" {
		return monthsLater(x.i, d)
	}
	if epochFuncs[fn] {
		return applyEpoch(fn, k, x)
	}
	if u := spanUnits[fn]; u != 0 {
		return spanOf(k, x, u)
	}
	if k != kFloat {
		switch fn {
		case "abs":
			if x.i == math.MinInt64 {
				return nullValue
			}
			if x.i < 0 {
				return value{i: -x.i}
			}
			return x
		case "round", "floor", "ceil", "trunc":
			if !hasD {
				return x
			}
			return roundInt(fn, x.i, d) // an integer, as DuckDB's (funcKind)
		case "sign":
			return value{i: int64(cmp3(x.i, 0))}
		}
		x = fv(float64(x.i))
	}
	var f float64
	switch fn {
	case "abs":
		f = math.Abs(x.fl())
	case "round":
		f = math.Round(x.fl())
		if hasD && d >= 0 {
			p := math.Pow(10, float64(d))
			f = math.Round(x.fl()*p) / p
		} else if hasD { // to tens, hundreds...: exact for integers
			q := math.Pow(10, float64(-d))
			f = math.Round(x.fl()/q) * q
		}
	case "floor":
		f = math.Floor(x.fl())
	case "ceil":
		f = math.Ceil(x.fl())
	case "sqrt":
		f = math.Sqrt(x.fl())
	case "ln":
		f = math.Log(x.fl())
	case "log10":
		f = math.Log10(x.fl())
	case "exp":
		f = math.Exp(x.fl())
	case "trunc":
		f = math.Trunc(x.fl())
		if hasD {
			f = truncDigits(x.fl(), d)
		}
	case "sign":
		f = x.fl()
		if f == f { // NaN stays
			f = float64(cmpFloat(f, 0))
		}
	case "log2":
		f = math.Log2(x.fl())
	case "cbrt":
		f = math.Cbrt(x.fl())
	default:
		if v, ok := applyMath(fn, x.fl()); ok {
			return v
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if !math.IsNaN(x.fl()) && !math.IsInf(x.fl(), 0) || fn == "sqrt" || fn == "ln" || fn == "log10" || fn == "log2" {
			return nullValue
		}
	}
	return fv(f)
}

// funcKind is the kind of fn's result for an argument of kind k.
func funcKind(fn string, k colKind, hasD bool) colKind {
	switch fn {
	case "abs", "floor", "ceil", "sign":
		return k
	case "round", "trunc":
		if !hasD || k != kFloat { // of an integer, to digits: an integer
			return k
		}
	case "isnan", "isinf", "isfinite":
		return kBool
	case "epoch_ms", "epoch_us", "epoch_ns", "to_timestamp":
		return kInt
	}
	if spanUnits[fn] != 0 {
		return kInt
	}
	if timeFuncs[fn] != "" {
		return kInt
	}
	return kFloat
}

// arithPlan is a checked Arith: its kind (kInt or kFloat) and, at each
// leaf, where its value comes from.
type arithPlan struct {
	// skipNulls: concat(...) leaves its NULL arguments out (a || NULL is
	// NULL), as DuckDB and PostgreSQL have it
	skipNulls bool
	op        byte
	fn        string       // op 'f'
	args      []*arithPlan // a text function's arguments; CASE's values (THENs, then ELSE)
	conds     []pred       // CASE's conditions
	// groupConds: a CASE's conditions on an aggregate query's result
	// row (aggcase.go)
	groupConds []*groupCond
	part       bool // fn is a time part
	spanPart   bool // of a span (spanPart), not of an instant
	// hasCase: a CASE is in it, so it is computed on rows of a batch
	// (vec), never a row at a time (eval)
	hasCase bool
	// reads: the one text column the expression reads ("": none,
	// mixedRead: other columns too, or a CASE); dictCol: reads, for a
	// computed expression, whose dictionary it may be computed over
	// (dictVec)
	reads   string
	dictCol string
	loc     *time.Location // a time part's zone
	bk      *bucketer      // date_trunc, time_bucket: the bucket's start
	// ts: the int64 is an instant (time, min(time), time + 1h,
	// date_trunc(...)), output as a timestamp and compared with times
	ts   bool
	l, r *arithPlan
	kind colKind
	lit  *value // a number
	src  string // raw queries: the column
	in   colKind
	hid  int // aggregate queries: the hidden leaf's index among them (-1: none)
	idx  int // aggregate queries: the leaf's column in the row
	// re: regexp_extract's and regexp_replace's pattern, compiled from
	// the literal this plan is (regexp.go)
	re *regexp.Regexp
	// pf: printf's and format's format, parsed from the literal this
	// plan is (format.go)
	pf *fmtPlan
	// jsonPath: a JSON function's path, parsed from the literal this
	// plan is (json.go)
	jsonPath *jsonPath
	// dur: an int64 that is a span of time in nanoseconds (time - time,
	// a duration literal, sums and multiples of them): output as a
	// duration (durations.go)
	dur bool
	// json: the text this plan computes is JSON (json_extract, to_json,
	// json_object...): written into JSON as it is, not as a string
	json bool
	// volatile: a function whose every call differs (random, uuid):
	// computed for each row, never once for a batch or a dictionary
	volatile bool
	// look: op 'l', a correlated subquery's table for this run, looked
	// up by args (lookup.go)
	look *lookupTable
}

// isIntKind: the kinds arithmetic takes as int64 (time as nanoseconds
// since the epoch).
func isIntKind(k colKind) bool { return k == kInt || k == kSeq || k == kTime || k == kDuration }

// eval computes the expression for one row; get returns a leaf's value.
// NULL in, NULL out; so is a division by zero and an int64 overflow.
func (a *arithPlan) eval(get func(*arithPlan) value) value {
	switch {
	case a.lit != nil:
		return *a.lit
	case a.op == 'c' && a.groupConds != nil:
		return a.evalGroupCase(get)
	case a.op == 'c':
		panic("query: CASE evaluated a row at a time") // outValue takes vec for it
	case a.look != nil:
		vals := make([]value, len(a.args))
		for i, x := range a.args {
			vals[i] = x.eval(get)
		}
		var key []byte
		return a.lookup(vals, &key)
	case a.args != nil:
		vals := make([]value, len(a.args))
		for i, x := range a.args {
			if vals[i] = x.eval(get); vals[i].null && !a.skipNulls {
				return nullValue
			}
		}
		v, ok := textValue(a.fn, a.args, vals)
		if !ok {
			return nullValue
		}
		return v
	case a.op == 0:
		v := get(a)
		if !v.null && a.kind == kFloat && isIntKind(a.in) {
			v = fv(float64(v.i))
		}
		return v
	}
	if pairFuncs[a.fn] {
		return a.pair(a.l.eval(get), a.r.eval(get))
	}
	l := a.l.eval(get)
	if l.null {
		return nullValue
	}
	if a.op == 'f' {
		var d int64
		if a.r != nil {
			d = a.r.lit.i
		}
		if a.spanPart {
			return value{i: spanPart(a.fn, l.i)}
		}
		if a.part {
			return value{i: timePart(a.fn, l.i, a.loc)}
		}
		if a.bk != nil {
			return value{i: a.bk.key(l.i)}
		}
		return apply(a.fn, a.l.kind, l, d, a.r != nil)
	}
	if a.op == 'n' {
		if a.kind == kFloat {
			return fv(-num(a.l.kind, l))
		}
		if l.i == math.MinInt64 {
			return nullValue
		}
		return value{i: -l.i}
	}
	r := a.r.eval(get)
	if r.null {
		return nullValue
	}
	if a.kind == kFloat {
		x, y := num(a.l.kind, l), num(a.r.kind, r)
		switch a.op {
		case '+':
			return fv(x + y)
		case '-':
			return fv(x - y)
		case '*':
			return fv(x * y)
		case '%':
			if y == 0 {
				return nullValue
			}
			return fv(math.Mod(x, y))
		}
		if y == 0 {
			return nullValue
		}
		return fv(x / y)
	}
	v, ok := intOp(a.op, l.i, r.i)
	if !ok {
		return nullValue
	}
	return value{i: v}
}

// intOp computes x op y (+, -, * or %: the remainder, with x's sign)
// in int64; ok is false on overflow and for % 0.
func intOp(op byte, x, y int64) (int64, bool) {
	switch op {
	case '%':
		if y == 0 {
			return 0, false
		}
		if y == -1 { // MinInt64 % -1 traps
			return 0, true
		}
		return x % y, true
	case '+':
		if y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y {
			return 0, false
		}
		return x + y, true
	case '-':
		if y < 0 && x > math.MaxInt64+y || y > 0 && x < math.MinInt64+y {
			return 0, false
		}
		return x - y, true
	}
	// '*'
	if x != 0 && ((x*y)/x != y || x == -1 && y == math.MinInt64 || y == -1 && x == math.MinInt64) {
		return 0, false
	}
	return x * y, true
}

// compileArith checks a against the query's columns: leaf returns a
// leaf's kind and fills in where its value comes from.
func (p *plan) compileArith(a *Arith, leaf func(a *Arith, ap *arithPlan) error) (*arithPlan, error) {
	ap, err := p.compileArithNode(a, leaf)
	if err != nil {
		return nil, err
	}
	ap.reads = ap.columnRead()
	if ap.op != 0 && ap.lit == nil && ap.reads != mixedRead && ap.reads != "" {
		ap.dictCol = ap.reads
	}
	return ap, nil
}

func (p *plan) compileArithNode(a *Arith, leaf func(a *Arith, ap *arithPlan) error) (*arithPlan, error) {
	if a.Corr != nil {
		return p.compileLookup(a, leaf)
	}
	if a.Scalar != nil {
		x, err := p.scalarArith(a)
		if err != nil {
			return nil, err
		}
		return p.compileArithNode(x, leaf)
	}
	if ap, ok, err := p.compileMonths(a, leaf); ok {
		return ap, err
	}
	ap := &arithPlan{op: a.Op, hid: -1}
	switch {
	case a.Lit != nil:
		switch a.Lit.Kind {
		case LitInt:
			ap.kind, ap.lit = kInt, &value{i: a.Lit.Int}
		case LitFloat:
			f := fv(a.Lit.Float)
			ap.kind, ap.lit = kFloat, &f
		case LitString:
			ap.kind, ap.lit = kString, &value{s: a.Lit.Str}
		case LitDuration:
			ap.kind, ap.lit, ap.dur = kInt, &value{i: a.Lit.Int}, true
		case LitTime:
			t, err := p.timeOf(a.Lit)
			if err != nil {
				return nil, err
			}
			ap.kind, ap.lit, ap.ts = kInt, &value{i: t}, true
		case LitNull:
			ap.kind, ap.lit = kInt, &nullValue
		case LitBool:
			ap.kind, ap.lit = kBool, &value{}
			if a.Lit.Bool {
				ap.lit = &value{i: 1}
			}
		default:
			return nil, p.errAt(a.Pos, "arithmetic takes numbers, found %s", litKindName(a.Lit.Kind))
		}
		return ap, nil
	case a.Win != nil && !p.windowLeaves:
		return nil, p.errAt(a.Pos, windowPlace, a.Win.Func+"()")
	case a.Col != nil || a.Agg != nil || a.Win != nil:
		if err := leaf(a, ap); err != nil {
			return nil, err
		}
		if ap.in == kSeries || ap.in == kKey || ap.in == kString {
			ap.kind = kString
			return ap, nil
		}
		if ap.in == kOp && p.rowArith && a.Col != nil { // a row's op, as its name
			ap.in, ap.kind = kString, kString
			return ap, nil
		}
		if ap.in == kBool { // a bool field: a value as a condition's is
			ap.kind = kBool
			return ap, nil
		}
		if !isIntKind(ap.in) && ap.in != kFloat {
			what := "column " + strconv.Quote(a.String())
			if a.Agg != nil {
				what = a.String()
			}
			return nil, p.errAt(a.Pos, "type mismatch: arithmetic on %s of type %s (want a number)", what, ap.in)
		}
		ap.kind, ap.ts = kInt, ap.in == kTime || ap.in == kInt && a.Col != nil && p.fields.instant(a.Col.Name)
		ap.dur = ap.in == kDuration || ap.in == kInt && a.Col != nil && p.fields.duration(a.Col.Name)
		if ap.in == kFloat {
			ap.kind = kFloat
		}
		return ap, nil
	}
	if a.Op == 'c' {
		ap.hasCase = true
		return ap, p.compileCase(a, ap, leaf)
	}
	if a.Args != nil {
		err := p.compileText(a, ap, leaf)
		for _, x := range ap.args {
			ap.hasCase = ap.hasCase || x.hasCase
		}
		return ap, err
	}
	var err error
	if ap.l, err = p.compileArith(a.L, leaf); err != nil {
		return nil, err
	}
	ap.kind, ap.hasCase = ap.l.kind, ap.l.hasCase
	if a.Op == 'f' && pairFuncs[a.Func] {
		ap.fn = a.Func
		if ap.r, err = p.compileArith(a.R, leaf); err != nil {
			return nil, err
		}
		ap.hasCase = ap.hasCase || ap.r.hasCase
		ap.l.takeKind(ap.r)
		ap.r.takeKind(ap.l)
		ap.kind = ap.l.kind
		if ap.l.ts != ap.r.ts && a.Func != "coalesce" { // greatest(time, '2024-01-02')
			p.textAsTime(a.L, ap.l)
			p.textAsTime(a.R, ap.r)
			ap.kind = ap.l.kind
		}
		switch {
		case (a.Func == "power" || mathPairs[a.Func]) && (ap.l.kind == kString || ap.r.kind == kString || ap.l.kind == kBool || ap.r.kind == kBool):
			if a.pow != "" {
				return nil, p.errAt(a.Pos, "type mismatch: %s takes numbers: %s", a.pow, a.String())
			}
			return nil, p.errAt(a.Pos, "type mismatch: %s() takes numbers", a.Func)
		case (a.Func == "gcd" || a.Func == "lcm") && (ap.l.kind != kInt || ap.r.kind != kInt):
			return nil, p.errAt(a.Pos, "type mismatch: %s() takes integers", a.Func)
		case a.Func == "gcd" || a.Func == "lcm":
			ap.kind = kInt
		case a.Func == "intdiv":
			if ap.l.kind != kInt || ap.r.kind != kInt {
				ap.kind = kFloat // DuckDB's // of floats is their quotient
			}
		case a.Func == "power" || a.Func == "atan2" || a.Func == "logb":
			ap.kind = kFloat
		case (ap.l.kind == kString) != (ap.r.kind == kString) || (ap.l.kind == kBool) != (ap.r.kind == kBool):
			return nil, p.errAt(a.Pos, "type mismatch: %s() takes all text, all bools or all numbers", a.Func)
		case ap.r.kind == kFloat && a.Func != "nullif": // nullif(x, y) is x or null
			ap.kind = kFloat
		}
		ap.ts = ap.kind == kInt && ap.l.ts && (ap.r.ts || a.Func == "nullif")
		ap.dur = ap.kind == kInt && ap.l.dur && (ap.r.dur || a.Func == "nullif")
		return ap, nil
	}
	if a.Op != 'n' && a.Op != 'f' {
		if ap.r, err = p.compileArith(a.R, leaf); err != nil {
			return nil, err
		}
		if a.Op == '+' || a.Op == '-' { // '2024-01-02' + 1d, time - '2024-01-02'
			if a.L.typedTime() { // TIMESTAMP '2024-01-03' - TIMESTAMP '2024-01-01'
				p.textAsTime(a.L, ap.l)
			}
			if a.R.typedTime() {
				p.textAsTime(a.R, ap.r)
			}
			if ap.r.ts || a.R.isDuration() {
				p.textAsTime(a.L, ap.l)
			}
			if ap.l.ts || a.L.isDuration() {
				p.textAsTime(a.R, ap.r)
			}
			ap.kind = ap.l.kind
		}
	}
	if a.Op == 'f' && (timeFuncs[a.Func] != "" || a.Trunc != nil || sinceEpoch[a.Func]) {
		p.textAsTime(a.L, ap.l) // hour('2024-01-02T03:04:05Z')
		ap.kind = ap.l.kind
	}
	if a.Trunc != nil && a.castAs != "" && ap.l.kind != kInt {
		return nil, p.errAt(a.Pos, "CAST to %s wants a time, not a %s (a time in text: '2024-01-02'::%s)", a.castAs, ap.l.kind, a.castAs)
	}
	if err := p.number(a.L, ap.l); err != nil {
		return nil, err
	}
	if a.Op == 'n' {
		ap.dur = ap.l.dur
		return ap, nil
	}
	if a.Op == 'f' {
		ap.fn, ap.loc, ap.part = a.Func, a.Zone, timeFuncs[a.Func] != ""
		if ap.part && ap.l.dur { // hour(max(time) - min(time)): the span's hours
			if !spanParts[a.Func] {
				return nil, p.errAt(a.Pos, "a span has days, hours, minutes, seconds and their fractions, not %s (date_part of %s)", strings.ToLower(a.Func), a.L.String())
			}
			if a.Zone != nil {
				return nil, p.errAt(a.Pos, "a span is on no clock: %s() of %s takes no time zone", a.Func, a.L.String())
			}
			ap.spanPart = true
		}
		if (ap.part || a.Trunc != nil || sinceEpoch[a.Func]) && ap.l.kind != kInt {
			return nil, p.errAt(a.Pos, "%s() wants a time (time, or int64 nanoseconds since the epoch), not a %s", a.Func, ap.l.kind)
		}
		if a.Trunc != nil {
			ap.bk, ap.kind, ap.ts = a.Trunc.bucketer(a.Zone), kInt, true
			return ap, nil
		}
		if a.R != nil {
			ap.r = &arithPlan{kind: kInt, lit: &value{i: a.R.Lit.Int}, hid: -1}
		}
		ap.kind, ap.ts = funcKind(a.Func, ap.l.kind, a.R != nil), a.Func == "to_timestamp"
		ap.dur = a.Func == "abs" && ap.l.dur && ap.kind == kInt || spanUnits[a.Func] != 0
		if a.Func == "epoch_ms" && !ap.l.ts && !ap.l.dur && ap.l.in != kTime { // DuckDB's epoch_ms(BIGINT): milliseconds to an instant
			ap.fn, ap.ts = "epoch_ms_instant", true
		}
		if (a.Func == "epoch_ms" || a.Func == "epoch_us") && ap.l.dur { // whole units of a span: toward zero
			ap.fn = a.Func + "_span"
		}
		return ap, nil
	}
	if err := p.number(a.R, ap.r); err != nil {
		return nil, err
	}
	ap.hasCase = ap.hasCase || ap.r.hasCase
	if a.Op == '/' || ap.r.kind == kFloat {
		ap.kind = kFloat // division is exact: 7 / 2 is 3.5
	}
	switch {
	case ap.kind != kInt:
	case a.Op == '+': // time + 1h; time + time is no instant
		ap.ts = ap.l.ts != ap.r.ts
		ap.dur = ap.l.dur && ap.r.dur
	case a.Op == '-': // time - 1h; time - time is a span
		ap.ts = ap.l.ts && !ap.r.ts
		ap.dur = ap.l.ts && ap.r.ts || ap.l.dur && ap.r.dur
	case a.Op == '*': // 2 * 1h
		ap.dur = ap.l.dur != ap.r.dur && !ap.l.ts && !ap.r.ts
	}
	return ap, nil
}

// typedTime reports whether a is a typed time literal (TIMESTAMP
// '2024-01-02', '2024-01-02'::DATE).
func (a *Arith) typedTime() bool { return a.Lit != nil && a.Lit.Kind == LitString && a.Lit.Typed }

// isDuration reports whether a is a duration literal.
func (a *Arith) isDuration() bool { return a.Lit != nil && a.Lit.Kind == LitDuration }

// textAsTime plans x, planned as xp, as an instant when it is a text
// literal: a time in quotes next to a time or a duration. A literal
// that is no time stays text (and is refused as such).
func (p *plan) textAsTime(x *Arith, xp *arithPlan) {
	if x.Lit == nil || x.Lit.Kind != LitString {
		return
	}
	if t, ok := parseTime(x.Lit.Str); ok {
		xp.kind, xp.lit, xp.ts = kInt, &value{i: t}, true
	}
}

// outKind is the kind of the column that holds a's values: a timestamp
// for an instant.
func (a *arithPlan) outKind() colKind {
	switch {
	case a.ts && a.kind == kInt:
		return kTime
	case a.dur && a.kind == kInt:
		return kDuration
	}
	return a.kind
}

// number refuses x (planned as xp) where a number is wanted.
func (p *plan) number(x *Arith, xp *arithPlan) error {
	if xp.kind == kBool {
		return p.errAt(x.Pos, "type mismatch: arithmetic on %s, a bool (as a number: CAST(%s AS INT))", x.String(), x.String())
	}
	if xp.kind != kString {
		return nil
	}
	what := strconv.Quote(x.String())
	switch {
	case x.Col != nil:
		what = "column " + what
	case x.Agg != nil:
		what = x.String()
	}
	return p.errAt(x.Pos, "type mismatch: arithmetic on %s of type string (want a number)", what)
}

// leaves calls f on each leaf of a column or aggregate.
func (a *arithPlan) leaves(f func(*arithPlan)) {
	switch {
	case a.lit != nil:
	case a.op == 0:
		f(a)
	case a.op == 'c' || a.args != nil:
		for _, x := range a.args {
			x.leaves(f)
		}
		for _, c := range a.groupConds {
			c.leaves(f)
		}
	default:
		a.l.leaves(f)
		if a.r != nil {
			a.r.leaves(f)
		}
	}
}

// hasAgg reports whether a has an aggregate.
func (a *Arith) hasAgg() bool { return a.firstAgg() != nil }

// hasWin reports whether a has a window function.
func (a *Arith) hasWin() bool {
	if a.Win != nil {
		return true
	}
	return slices.ContainsFunc(a.parts(), (*Arith).hasWin)
}

// parts returns a's operands: L and R, a text function's arguments, a
// CASE's values.
func (a *Arith) parts() []*Arith {
	var out []*Arith
	for _, x := range []*Arith{a.L, a.R, a.Else} {
		if x != nil {
			out = append(out, x)
		}
	}
	out = append(out, a.Args...)
	for _, w := range a.Whens {
		out = append(out, w.Then)
	}
	return out
}

// withChildren returns a copy of a with f applied to its operands (L,
// R, Else and Args; f takes nil to nil).
func (a *Arith) withChildren(f func(*Arith) *Arith) *Arith {
	y := *a
	y.L, y.R, y.Else = f(a.L), f(a.R), f(a.Else)
	y.Args = nil
	for _, z := range a.Args {
		y.Args = append(y.Args, f(z))
	}
	return &y
}

// rawArith plans arithmetic on the columns of a raw query.
func (p *plan) rawArith(a *Arith) (*arithPlan, error) {
	prev := p.rowArith
	p.rowArith = true
	defer func() { p.rowArith = prev }()
	return p.compileArith(a, func(a *Arith, ap *arithPlan) error {
		if a.Agg != nil { // (isAggregate makes this an aggregate query)
			return p.errAt(a.Pos, "an aggregate needs an aggregate query")
		}
		k, err := p.column(a.Col)
		if err != nil {
			return err
		}
		ap.src, ap.in = a.Col.Name, k
		return nil
	})
}

// value computes the output column c (a column or arithmetic on
// columns) for row r of b.
func (b *batch) outValue(c *outCol, r int32) value {
	if c.win != nil || c.post != nil {
		return nullValue // computed over the rows (applyWindows)
	}
	if c.expr == nil {
		return b.valueAt(c.src, c.kind, r)
	}
	if c.expr.hasCase { // its conditions run on rows of a batch
		defer b.vecs.release(b.vecs.mark())
		v := c.expr.vec(b, []int32{r})
		if v.isNull(0) {
			return nullValue
		}
		return v.at(0, c.expr.kind)
	}
	return c.expr.eval(func(l *arithPlan) value { return b.valueAt(l.src, l.in, r) })
}
