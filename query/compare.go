package query

import (
	"fmt"
	"math"
	"strings"
)

// Comparisons of expressions: WHERE value * 2 > limit, abs(v - 50) < 5,
// a > b, series = key; HAVING max(value) > 2 * avg(value). A comparison
// of one column with one literal stays a Compare, which bounds and
// prunes the scan; an ArithCompare is tested row by row on the blocks
// the other conditions leave.

// ArithCompare is arithmetic op arithmetic (Op one of = != < <= > >=).
// Each side is numeric arithmetic as in SELECT, or both are one column
// of the same kind (text, bool): series = key.
type ArithCompare struct {
	L, R *Arith
	Op   string
	Pos  int // the operator's
	// text: the condition as written when this compare stands for it
	// (a correlated x IN (SELECT ...)), so that names keep their text
	text string
	// bare: L alone is the condition, a bool value (WHERE coalesce(ok,
	// false)), compared with true; the error to give when L is no bool
	bare string
}

func (*ArithCompare) exprNode() {}

func (e *ArithCompare) String() string {
	if e.text != "" {
		return e.text
	}
	if e.L.exists || e.L.Corr != nil && e.L.Corr.Exists { // EXISTS (...) = 1
		return e.L.String()
	}
	side := func(a *Arith) string {
		if a.cond != nil { // (v > 1) = true
			return "(" + a.String() + ")"
		}
		return a.String()
	}
	return side(e.L) + " " + e.Op + " " + side(e.R)
}

var cmpOps = map[string]bool{"=": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

func isPunct(t token, set ...string) bool {
	if t.kind != tPunct {
		return false
	}
	for _, s := range set {
		if t.text == s {
			return true
		}
	}
	return false
}

func isArithOp(t token) bool {
	return isPunct(t, "+", "-", "*", "/", "//", "%", "||", "^", "**", "->", "->>")
}

// closing returns the index of the ")" matching the "(" at i, or of the
// end of the statement when none does.
func (p *parser) closing(i int) int {
	depth := 0
	for ; p.toks[i].kind != tEOF; i++ {
		switch {
		case isPunct(p.toks[i], "("):
			depth++
		case isPunct(p.toks[i], ")"):
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return i
}

// tok returns token i, or the final EOF token past the end.
func (p *parser) tok(i int) token { return p.toks[min(i, len(p.toks)-1)] }

// operandEnd returns the index of the token after the operand at i: a
// parenthesised group, a call, a negated operand, or one token.
func (p *parser) operandEnd(i int) int {
	t := p.toks[i]
	switch {
	case t.kind == tEOF:
		return i
	case isPunct(t, "-"):
		return p.operandEnd(i + 1)
	case isPunct(t, "("):
		return p.closing(i) + 1
	case t.kind == tIdent && isPunct(p.tok(i+1), "("):
		return p.closing(i+1) + 1
	}
	return i + 1
}

// arithAt reports whether the comparison side starting at token i is
// arithmetic rather than one column (left side) or one literal (right
// side, the other side already read as a column or a literal): a
// numeric function, a negated column, an operand followed by + - * /,
// a parenthesised expression followed by an operator (on the left a
// parenthesis otherwise groups conditions) and, on the right, a column.
// Strings, durations, now(), true, false and null are literals.
func (p *parser) arithAt(i int, right bool) bool {
	t := p.toks[i]
	switch {
	case t.kind == tDuration: // 1h + time is arithmetic
		return isArithOp(p.tok(i + 1))
	case t.kind == tString: // 'a' || s is text arithmetic, as is 'a' tested ('a_b' LIKE s, 'x' IN (s, t))
		n := p.tok(i + 1)
		if isKw(n, "not") {
			n = p.tok(i + 2)
		}
		return isPunct(p.tok(i+1), "||", "->", "->>") || !right && (isKw(n, "like") || isKw(n, "ilike") || isKw(n, "in") || isKw(n, "similar"))
	case t.kind == tEOF:
		return false
	case isKw(t, "now") && isPunct(p.tok(i+1), "(") && isPunct(p.tok(i+2), ")"):
		// now() - 1h is a time literal; now() - time is arithmetic
		return isArithOp(p.tok(i+3)) && p.tok(i+4).kind != tDuration
	case t.kind == tIdent && (isKw(t, "now") || isKw(t, "true") || isKw(t, "false") || isKw(t, "null")):
		return false
	case t.kind == tIdent && isPunct(p.tok(i+1), "(") && jsonAggregates[strings.ToLower(t.text)] != "":
		return true // json_group_array(x): text arithmetic on an aggregate (jsonagg.go)
	case t.kind == tIdent && isPunct(p.tok(i+1), "(") && (isCast(t) || numFuncs[strings.ToLower(t.text)] || timeFuncs[strings.ToLower(t.text)] != "" || textFuncOK(t.text) || truncFuncs[strings.ToLower(t.text)] || isKw(t, "date_part") || isKw(t, "extract")):
		return true
	case isKw(t, "case") && !isPunct(p.tok(i+1), "("):
		return true
	case t.kind == tIdent && isPunct(p.tok(i+1), "(") && winFuncs[strings.ToLower(t.text)]:
		return true // to say where a window function may go
	case t.kind == tIdent && isPunct(p.tok(i+1), "(") && aggregates[strings.ToLower(t.text)] && isKw(p.tok(p.closing(i+1)+1), "over"):
		return true // avg(v) OVER (): the same
	case isPunct(t, "-") && p.tok(i+1).kind != tInt && p.tok(i+1).kind != tFloat:
		return true
	case right && t.kind == tIdent && isPunct(p.tok(i+1), "(") && aggregates[strings.ToLower(t.text)]:
		return true // HAVING max(v) <> min(v): an aggregate is a value
	case p.aggConds > 0 && t.kind == tIdent && isPunct(p.tok(i+1), "(") && aggregates[strings.ToLower(t.text)]:
		return true // CASE WHEN count(*) > 10 in an item: arithmetic on an aggregate
	case isPunct(t, "("):
		if right || isKw(p.tok(i+1), "select") { // (SELECT ...): a value, never a condition
			return true
		}
		after := p.tok(p.closing(i) + 1)
		if isKw(after, "is") { // (v + 1) IS NULL, (v > 1) IS TRUE: a value tested
			return true
		}
		if isKw(after, "in") || isKw(after, "between") || isKw(after, "like") || isKw(after, "ilike") || isKw(after, "not") || p.similarAt(p.closing(i)+1) {
			return !p.condInside(i) // (v + 1) IN (2, 3); (a = 1 OR b = 2) NOT ... groups
		}
		return isArithOp(after) || after.kind == tPunct && cmpOps[after.text]
	case right && (t.kind == tIdent || t.kind == tQuoted) && !isPunct(p.tok(i+1), "("):
		return true
	case t.kind == tIdent && isPunct(p.tok(i+1), "(") && !reserved[strings.ToLower(t.text)] && !aggregates[strings.ToLower(t.text)]:
		return true // a call of no function: arithmetic, which says so
	}
	return isArithOp(p.tok(p.operandEnd(i)))
}

// condInside reports whether the parentheses opening at token i hold a
// condition: a comparison, AND, OR, NOT, IN, LIKE, BETWEEN, IS or EXISTS
// outside any inner parentheses.
func (p *parser) condInside(i int) bool {
	end := p.closing(i)
	for j, depth := i+1, 0; j < end; j++ {
		t := p.toks[j]
		switch {
		case isPunct(t, "("):
			depth++
		case isPunct(t, ")"):
			depth--
		case depth > 0:
		case t.kind == tPunct && cmpOps[t.text]:
			return true
		case t.kind == tIdent && condWords[strings.ToLower(t.text)], p.similarAt(j):
			return true
		}
	}
	return false
}

// condWords are the words only a condition holds outside parentheses.
var condWords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "like": true, "ilike": true, "between": true, "is": true, "exists": true}

// arithCompare parses arithmetic op arithmetic. One column against one
// number is a Compare, as written the other way round.
func (p *parser) arithCompare() Expr {
	l := p.arith()
	if m := p.exprMatch(l); m != nil {
		return m
	}
	op := p.peek()
	if op.kind != tPunct || !cmpOps[op.text] {
		msg := fmt.Sprintf("expected a comparison after %s, found %s", l.String(), op.describe())
		if !p.condEnds(op) {
			p.fail(op.pos, "%s", msg)
		}
		yes := &Arith{Lit: &Lit{Kind: LitBool, Bool: true, Pos: op.pos}, Pos: op.pos}
		return &ArithCompare{L: l, R: yes, Op: "=", Pos: l.Pos, text: l.String(), bare: msg}
	}
	p.advance()
	o := op.text
	if o == "<>" {
		o = "!="
	}
	if p.quantifiedAt(p.i) { // x > ALL (SELECT ...) (quantified.go)
		return p.quantified(l, o, op.pos)
	}
	r := p.arith()
	return p.comparison(l, o, r, op.pos)
}

// comparison is l o r (o at pos): a Compare when one side is a column
// and the other a literal, else an ArithCompare.
func (p *parser) comparison(l *Arith, o string, r *Arith, pos int) Expr {
	if !p.having && p.aggConds == 0 {
		for _, side := range []*Arith{l, r} {
			if c := side.firstAgg(); c != nil {
				p.failAggregate(c.Pos, c.Func)
			}
		}
	}
	if lit := r.literal(); l.Col != nil && lit != nil {
		return &Compare{Col: l.Col, Op: o, Lit: lit}
	}
	if lit := l.literal(); r.Col != nil && lit != nil {
		return &Compare{Col: r.Col, Op: flipped[o], Lit: lit}
	}
	return &ArithCompare{L: l, R: r, Op: o, Pos: pos}
}

// literal returns a as a literal when it is a number or a negated one.
func (a *Arith) literal() *Lit {
	switch {
	case a.Lit != nil:
		return a.Lit
	case a.Op == 'n' && a.L.Lit != nil:
		l := *a.L.Lit
		switch {
		case l.Kind == LitInt && l.Int != math.MinInt64:
			l.Int = -l.Int
		case l.Kind == LitFloat:
			l.Float = -l.Float
		default:
			return nil
		}
		l.Pos = a.Pos
		return &l
	}
	return nil
}

// firstAgg returns the first aggregate call in a, or nil.
func (a *Arith) firstAgg() *Call {
	if a.Agg != nil {
		return a.Agg
	}
	if a.Win != nil {
		return a.Win.firstAgg()
	}
	for _, x := range a.parts() {
		if c := x.firstAgg(); c != nil {
			return c
		}
	}
	for _, w := range a.Whens { // CASE WHEN count(*) > 10 (aggcase.go)
		if c := condFirstAgg(w.Cond); c != nil {
			return c
		}
	}
	return nil
}

// sameKindPair returns the kind of two plain columns of one kind that
// are compared as they are, not as numbers: text (series, key, string
// fields), or bool; ok false otherwise.
func sameKindPair(kl, kr colKind) (colKind, bool) {
	text := func(k colKind) bool { return k == kSeries || k == kKey || k == kString }
	switch {
	case text(kl) && text(kr):
		return kString, true
	case kl == kBool && kr == kBool:
		return kBool, true
	}
	return 0, false
}

// compileArithCompare plans e on the rows of the scan; neg pushes a NOT
// down (a null side still fails).
func (p *plan) compileArithCompare(e *ArithCompare, neg bool) (pred, error) {
	op := e.Op
	if neg {
		op = negOp[op]
	}
	if e.L.Col != nil && e.R.Col != nil {
		kl, err := p.column(e.L.Col)
		if err != nil {
			return nil, err
		}
		kr, err := p.column(e.R.Col)
		if err != nil {
			return nil, err
		}
		if k, ok := sameKindPair(kl, kr); ok {
			if k == kBool && op != "=" && op != "!=" {
				return nil, p.errAt(e.Pos, "bools compare only with = and !=")
			}
			return &pairPred{l: e.L.Col.Name, r: e.R.Col.Name, kl: kl, kr: kr, kind: k, op: op}, nil
		}
	}
	l, err := p.rawArith(e.L)
	if err != nil {
		return nil, err
	}
	r, err := p.rawArith(e.R)
	if err != nil {
		return nil, err
	}
	p.timeSides(e, l, r)
	if err := p.sameSide(e, l, r); err != nil {
		return nil, err
	}
	return &arithPred{l: l, r: r, op: op}, nil
}

// timeSides reads a time in quotes compared with an instant as one:
// date_trunc('day', time) = '2024-01-02'.
func (p *plan) timeSides(e *ArithCompare, l, r *arithPlan) {
	if l.ts {
		p.textAsTime(e.R, r)
	}
	if r.ts {
		p.textAsTime(e.L, l)
	}
}

// sameSide refuses a comparison of text with a number.
func (p *plan) sameSide(e *ArithCompare, l, r *arithPlan) error {
	if e.bare != "" && l.kind != kBool { // WHERE v * 2
		return p.errAt(e.Pos, "%s", e.bare)
	}
	if (l.kind == kString) != (r.kind == kString) || (l.kind == kBool) != (r.kind == kBool) {
		return p.errAt(e.Pos, "type mismatch: %s compares %s with %s", e.String(), kindWord(l.kind), kindWord(r.kind))
	}
	return nil
}

func kindWord(k colKind) string {
	switch k {
	case kString:
		return "text"
	case kBool:
		return "a bool"
	}
	return "a number"
}

// arithPred compares two arithmetic expressions on each row: as int64
// when both are, else as float64 (IEEE: NaN fails all but !=).
type arithPred struct {
	l, r *arithPlan
	op   string
}

func (p *arithPred) eval(b *batch, sel []int32) []int32 {
	m, n := &b.vecs, len(sel)
	defer m.release(m.mark())
	lp, rp, op := p.l, p.r, p.op
	x, y := lp.vec(b, sel), rp.vec(b, sel)
	if x.scalar && y.scalar { // no column: the same for every row
		if holds(op, lp, rp, scalarValue(x), scalarValue(y)) {
			return sel
		}
		return nil
	}
	if x.scalar { // 5 < value: value > 5
		x, y, lp, rp, op = y, x, rp, lp, flipped[op]
	}
	if y.scalar && y.null != nil {
		return nil
	}
	keep := m.nulls(n) // as the verdicts
	if lp.kind == kString {
		keepWhere(op, x.strs, y.strs, y.scalar, keep)
	} else if lp.kind == kFloat || rp.kind == kFloat {
		keepWhere(op, m.floatsOf(x, lp.kind), m.floatsOf(y, rp.kind), y.scalar, keep)
	} else {
		keepWhere(op, x.ints, y.ints, y.scalar, keep)
	}
	out := make([]int32, 0, n)
	for i, r := range sel {
		if keep[i] && !x.isNull(i) && !y.isNull(i) {
			out = append(out, r)
		}
	}
	return out
}

// scalarValue is the value of a scalar vec.
func scalarValue(v vec) value {
	switch {
	case v.null != nil && v.null[0]:
		return nullValue
	case v.floats != nil:
		return fv(v.floats[0])
	case v.strs != nil: // split_part('a/b', '/', 1) = 'a'
		return value{s: v.strs[0]}
	}
	return value{i: v.ints[0]}
}

// holds compares x (of l) with y (of r); a null fails.
func holds(op string, l, r *arithPlan, x, y value) bool {
	switch {
	case x.null || y.null:
		return false
	case l.kind == kString:
		return cmpHolds(op, strings.Compare(x.s, y.s))
	case l.kind == kFloat || r.kind == kFloat:
		return floatHolds(op, num(l.kind, x), num(r.kind, y))
	}
	return cmpHolds(op, cmp3(x.i, y.i))
}

// pairPred compares two text or two bool columns of each row.
type pairPred struct {
	l, r   string
	kl, kr colKind
	kind   colKind
	op     string
}

func (p *pairPred) eval(b *batch, sel []int32) []int32 {
	return filterRows(sel, func(r int32) bool {
		x, y := b.valueAt(p.l, p.kl, r), b.valueAt(p.r, p.kr, r)
		return !x.null && !y.null && cmpHolds(p.op, compareValues(p.kind, x, y))
	})
}

// havingArithCompare compiles e on a result row: its columns and
// aggregates name the result's columns (an aggregate by its text, when
// selected).
func (p *plan) havingArithCompare(e *ArithCompare) (rowPred, error) {
	leaf := p.resultLeaf
	op := e.Op
	e = &ArithCompare{L: p.resultRefs(e.L), R: p.resultRefs(e.R), Op: e.Op, Pos: e.Pos}
	if e.L.Col != nil && e.R.Col != nil || e.L.Agg != nil && e.R.Agg != nil {
		var l, r arithPlan
		if err := leaf(e.L, &l); err != nil {
			return nil, err
		}
		if err := leaf(e.R, &r); err != nil {
			return nil, err
		}
		if k, ok := sameKindPair(l.in, r.in); ok {
			if k == kBool && op != "=" && op != "!=" {
				return nil, p.errAt(e.Pos, "bools compare only with = and !=")
			}
			return func(row []value) bool {
				x, y := row[l.idx], row[r.idx]
				return !x.null && !y.null && cmpHolds(op, compareValues(k, x, y))
			}, nil
		}
	}
	l, err := p.compileArith(e.L, leaf)
	if err != nil {
		return nil, err
	}
	r, err := p.compileArith(e.R, leaf)
	if err != nil {
		return nil, err
	}
	p.timeSides(e, l, r)
	if err := p.sameSide(e, l, r); err != nil {
		return nil, err
	}
	return func(row []value) bool {
		get := func(a *arithPlan) value { return row[a.idx] }
		return holds(op, l, r, l.eval(get), r.eval(get))
	}, nil
}

// resultLeaf plans a leaf of arithmetic on a result row: a column, or
// an aggregate by its text.
func (p *plan) resultLeaf(a *Arith, ap *arithPlan) error {
	c := a.Col
	if a.Agg != nil {
		c = &ColRef{Name: a.Agg.String(), Pos: a.Pos}
	}
	i, k, err := p.resultCol(c)
	ap.idx, ap.in = i, k
	return err
}

// resultRefs returns a with each computed part that names a column of
// the result (HAVING hour(time) > 20 after GROUP BY hour(time)) read
// from that column.
func (p *plan) resultRefs(a *Arith) *Arith {
	if a == nil || a.Col != nil || a.Agg != nil || a.Lit != nil {
		return a
	}
	name := a.String()
	for _, o := range p.out {
		if o.name == name && !o.hidden {
			return &Arith{Col: &ColRef{Name: name, Pos: a.Pos}, Pos: a.Pos}
		}
	}
	return a.withChildren(p.resultRefs)
}
