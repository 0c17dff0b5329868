package query

import (
	"cmp"
	"strings"
)

// Quantified comparisons: x op ANY (SELECT ...) (SOME is ANY) and x op
// ALL (SELECT ...). The subquery runs first, as for IN (insub.go), and
// its distinct values are a set S; with SQL's logic, x op ANY S is true
// when x op y for some y of S, else NULL when S has a NULL or x is NULL,
// else false; x op ALL S is false when NOT x op y for some y, else NULL
// when S has a NULL or x is NULL, else true. Of no values ANY is false and
// ALL true, whatever x. So = ANY is IN and != ALL is NOT IN (parsed so);
// the others compare x with S's least or greatest value.

// quantifiedAt reports whether ANY, SOME or ALL (SELECT ...) starts at
// token i.
func (p *parser) quantifiedAt(i int) bool {
	q := p.tok(i)
	return (isKw(q, "any") || isKw(q, "some") || isKw(q, "all")) && isPunct(p.tok(i+1), "(") &&
		(isKw(p.tok(i+2), "select") || isKw(p.tok(i+2), "with"))
}

// quantified parses ANY|SOME|ALL (SELECT ...) after l o (at pos).
func (p *parser) quantified(l *Arith, o string, pos int) Expr {
	if !p.having && p.aggConds == 0 {
		if c := l.firstAgg(); c != nil {
			p.failAggregate(c.Pos, c.Func)
		}
	}
	q := p.advance()
	all := isKw(q, "all")
	open := p.expectPunct("(")
	in := &In{X: l, Col: &ColRef{Name: l.String(), Pos: l.Pos}}
	switch {
	case o == "=" && !all: // IN
	case o == "!=" && all: // NOT IN
		in.Neg = true
	default:
		in.cmp, in.all, in.cmpPos = o, all, pos
	}
	p.inSubquery(in, open)
	return in
}

// quantText is a quantified comparison as written, normalised.
func quantText(e *In) string {
	return e.X.String() + " " + e.cmp + " " + quantWord(e) + " " + e.subText
}

// quantWord is ANY or ALL (SOME is ANY).
func quantWord(e *In) string {
	if e.all {
		return "ALL"
	}
	return "ANY"
}

// quantPred holds for the rows where x cmp ANY|ALL the set is true (neg:
// false).
type quantPred struct {
	x        *arithPlan
	set      *arithInPred // membership, for = ALL and != ANY
	cmp      string
	all, neg bool
	n        int  // distinct values, NULL aside
	hasNull  bool // the set has a NULL
	lo, hi   *Lit // its least and greatest values
}

// compileQuantified plans e, a quantified comparison, of compiled x.
func (p *plan) compileQuantified(e *In, x *arithPlan, neg bool) (pred, error) {
	set, err := p.inSetOf(e, x)
	if err != nil {
		return nil, err
	}
	if x.kind == kBool && e.cmp != "=" && e.cmp != "!=" {
		return nil, p.errAt(e.cmpPos, "bools compare only with = and !=")
	}
	q := &quantPred{x: x, set: set, cmp: e.cmp, all: e.all, neg: neg, hasNull: set.hasNull}
	for _, l := range p.in.lits(e) {
		if l.Kind == LitNull {
			q.hasNull = true
			continue
		}
		q.n++
		if q.lo == nil || litCompare(l, q.lo) < 0 {
			q.lo = l
		}
		if q.hi == nil || litCompare(l, q.hi) > 0 {
			q.hi = l
		}
	}
	return q, nil
}

// litCompare orders two literals of one kind class: numbers by value,
// text by bytes, false before true.
func litCompare(a, b *Lit) int {
	switch {
	case a.Kind == LitString:
		return strings.Compare(a.Str, b.Str)
	case a.Kind == LitBool:
		return boolInt(a.Bool) - boolInt(b.Bool)
	case a.Kind == LitInt && b.Kind == LitInt:
		return cmp.Compare(a.Int, b.Int)
	}
	return cmp.Compare(litFloat(a), litFloat(b))
}

// compareTo orders x's value v (not NULL) against literal l.
func (q *quantPred) compareTo(v value, l *Lit) int {
	switch q.x.kind {
	case kString:
		return strings.Compare(v.s, l.Str)
	case kBool:
		return int(v.i) - boolInt(l.Bool)
	case kFloat:
		return cmp.Compare(v.fl(), litFloat(l))
	}
	if l.Kind == LitInt {
		return cmp.Compare(v.i, l.Int)
	}
	return cmp.Compare(float64(v.i), l.Float)
}

// some reports whether v op y for some y of the set.
func (q *quantPred) some(op string, v value) bool {
	if q.n == 0 {
		return false
	}
	switch op {
	case "=":
		return q.set.holds(v)
	case "!=":
		return q.n > 1 || !q.set.holds(v)
	case "<":
		return q.compareTo(v, q.hi) < 0
	case "<=":
		return q.compareTo(v, q.hi) <= 0
	case ">":
		return q.compareTo(v, q.lo) > 0
	}
	return q.compareTo(v, q.lo) >= 0 // >=
}

// holds reports whether the comparison is true for a row whose x is v
// (false, with neg).
func (q *quantPred) holds(v value) bool {
	var r truth
	switch {
	case q.n == 0 && !q.hasNull: // no values
		r = truthOf(q.all)
	case v.null:
		r = truthNull
	case q.all && q.some(negOp[q.cmp], v):
		r = truthFalse
	case !q.all && q.some(q.cmp, v):
		r = truthTrue
	case q.hasNull:
		r = truthNull
	default:
		r = truthOf(q.all)
	}
	return r == truthOf(!q.neg)
}

func (q *quantPred) eval(b *batch, sel []int32) []int32 {
	defer b.vecs.release(b.vecs.mark())
	v := q.x.vec(b, sel)
	return v.rowsWhere(sel, func(j int) bool { return q.holds(v.valueAt(j)) })
}

// truth is SQL's three-valued truth.
type truth uint8

const (
	truthFalse truth = iota
	truthTrue
	truthNull
)

func truthOf(b bool) truth {
	if b {
		return truthTrue
	}
	return truthFalse
}

// valueAt is row j of v as a value.
func (v *vec) valueAt(j int) value {
	switch {
	case v.isNull(j):
		return nullValue
	case v.strs != nil:
		return value{s: v.strs[j]}
	case v.floats != nil:
		return fv(v.floats[j])
	}
	return value{i: v.ints[j]}
}
