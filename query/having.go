package query

import (
	"regexp"
	"strings"
)

// rowPred tests a result row (HAVING).
type rowPred func(row []value) bool

// planHaving compiles HAVING against the result's columns p.out: a
// column is named by its output name (an alias, a group column, or an
// aggregate's text such as count(*)). Comparisons with literals and of
// expressions, IS NULL, LIKE and IN, combined with AND, OR and NOT, as
// in WHERE: a null fails every comparison and its negation (NOT is
// pushed down to the leaves).
func (p *plan) planHaving(e Expr) (rowPred, error) { return p.havingExpr(e, false) }

func (p *plan) havingExpr(e Expr, neg bool) (rowPred, error) {
	switch e := e.(type) {
	case *And:
		return p.havingBoth(e.L, e.R, neg, !neg)
	case *Or:
		return p.havingBoth(e.L, e.R, neg, neg)
	case *Not:
		return p.havingExpr(e.X, !neg)
	case *IsNull:
		i, _, err := p.resultCol(e.Col)
		if err != nil {
			return nil, err
		}
		return func(row []value) bool { return row[i].null != (e.Neg != neg) }, nil
	case *Compare:
		op := e.Op
		if neg {
			op = negOp[op]
		}
		return p.havingCompare(&Compare{Col: e.Col, Op: op, Lit: e.Lit})
	case *ArithCompare:
		op := e.Op
		if neg {
			op = negOp[op]
		}
		return p.havingArithCompare(&ArithCompare{L: e.L, R: e.R, Op: op, Pos: e.Pos})
	case *ExprMatch:
		return p.havingExprMatch(e, neg)
	case *Like:
		return p.havingMatch(e.Col, "LIKE", likeRegexp(e.Pattern), e.Neg != neg)
	case *Regex:
		return p.havingMatch(e.Col, "regular expression match", e.Re, e.Neg != neg)
	case *In:
		if e.X != nil { // count(*) + 1 IN (SELECT ...), (series, count(*)) IN (SELECT ...)
			return p.havingArithIn(e, neg)
		}
		i, _, err := p.resultCol(e.Col)
		if err != nil {
			return nil, err
		}
		var preds []rowPred
		for _, l := range p.in.lits(e) {
			c, err := p.havingCompare(&Compare{Col: e.Col, Op: "=", Lit: l})
			if err != nil {
				return nil, err
			}
			preds = append(preds, c)
		}
		out := e.Neg != neg
		none, all := p.in.outNone(e, out), p.in.outAll(e, out)
		return func(row []value) bool {
			if all {
				return true
			}
			if row[i].null || none {
				return false
			}
			for _, c := range preds {
				if c(row) {
					return !out
				}
			}
			return out
		}, nil
	case *SeriesMatch:
		return nil, p.errAt(e.Col.Pos, "%s does not take series selectors; filter series in WHERE", p.clause)
	}
	panic("query: unknown expression")
}

// havingMatch compiles a pattern match (what: LIKE, a regular
// expression) of the text column c.
func (p *plan) havingMatch(c *ColRef, what string, re *regexp.Regexp, neg bool) (rowPred, error) {
	i, k, err := p.resultCol(c)
	if err != nil {
		return nil, err
	}
	if k != kSeries && k != kKey && k != kString {
		return nil, p.errAt(c.Pos, "type mismatch: %s on %s column %q", what, k, c.Name)
	}
	return func(row []value) bool { return !row[i].null && re.MatchString(row[i].s) != neg }, nil
}

// havingBoth compiles l AND r (and: true) or l OR r, each side negated
// when neg is.
func (p *plan) havingBoth(le, re Expr, neg, and bool) (rowPred, error) {
	l, err := p.havingExpr(le, neg)
	if err != nil {
		return nil, err
	}
	r, err := p.havingExpr(re, neg)
	if err != nil {
		return nil, err
	}
	if and {
		return func(row []value) bool { return l(row) && r(row) }, nil
	}
	return func(row []value) bool { return l(row) || r(row) }, nil
}

// resultCol finds the result column c names: its index and kind. An
// aggregate's text also names it when the SELECT renamed it
// (count(*) AS n).
func (p *plan) resultCol(c *ColRef) (int, colKind, error) {
	name := c.Name
	for _, it := range p.st.Items {
		if it.Agg != nil && it.Agg.String() == name {
			name = it.Name()
		}
	}
	for i, o := range p.out {
		if o.name == name && (!o.hidden || o.win != nil && p.clause == "QUALIFY" || o.having && p.clause == "HAVING") { // QUALIFY's own windows are hidden, as are HAVING's aggregates
			if (o.win != nil || o.post != nil) && p.clause == "HAVING" {
				return 0, 0, p.errAt(c.Pos, "HAVING cannot use %s: window functions are computed after HAVING", name)
			}
			return i, o.kind, nil
		}
	}
	// QUALIFY of a raw query may test any column of the row, as DuckDB's
	// does: a hidden column of the result (QUALIFY ... AND hour(time) = 5).
	if p.clause == "QUALIFY" && p.agg == nil {
		if k, ok := kindOfCol(name, p.fields); ok {
			p.out = append(p.out, outCol{name: name, kind: k, nullable: !isBase(name), src: name, hidden: true})
			p.nd.add(name)
			return len(p.out) - 1, k, nil
		}
	}
	var names []string
	for _, o := range p.out {
		if !o.hidden {
			names = append(names, o.name)
		}
	}
	return 0, 0, p.errAt(c.Pos, "%s %s: not a column of the result (columns: %s); select it to test it", p.clause, c.Name, strings.Join(names, ", "))
}

// havingCompare compiles column op literal on a result row.
func (p *plan) havingCompare(e *Compare) (rowPred, error) {
	i, k, err := p.resultCol(e.Col)
	if err != nil {
		return nil, err
	}
	l, op := e.Lit, e.Op
	mismatch := p.errAt(l.Pos, "type mismatch: %s column %q compared with %s", k, e.Col.Name, litKindName(l.Kind))
	var want value
	switch {
	case l.Kind == LitNull:
		return nil, p.errAt(l.Pos, "comparison with NULL is never true: use %s IS NULL", e.Col.Name)
	case k == kTime:
		t, err := p.timeOf(l)
		if err != nil {
			return nil, err
		}
		want = value{i: t}
	case k == kSeq || k == kInt || k == kDuration:
		switch l.Kind {
		case LitInt, LitDuration: // a span in nanoseconds
			want = value{i: l.Int}
		case LitFloat: // an int column against a fraction: compare as floats
			return func(row []value) bool {
				return !row[i].null && floatHolds(op, float64(row[i].i), l.Float)
			}, nil
		default:
			return nil, mismatch
		}
	case k == kFloat:
		switch l.Kind {
		case LitInt:
			want = fv(float64(l.Int))
		case LitFloat:
			want = fv(l.Float)
		default:
			return nil, mismatch
		}
		return func(row []value) bool { return !row[i].null && floatHolds(op, row[i].fl(), want.fl()) }, nil
	case k == kSeries || k == kKey || k == kString:
		if l.Kind != LitString {
			return nil, mismatch
		}
		want = value{s: l.Str}
	case k == kBool:
		if l.Kind != LitBool || op != "=" && op != "!=" {
			return nil, mismatch
		}
		want = bv(l.Bool)
	case k == kOp:
		code, err := p.opCode(l)
		if err != nil {
			return nil, err
		}
		want = value{i: code}
	default:
		return nil, mismatch
	}
	return func(row []value) bool { return !row[i].null && cmpHolds(op, compareValues(k, row[i], want)) }, nil
}

// havingArithIn compiles x [NOT] IN (SELECT ...) of arithmetic x on the
// result's columns.
func (p *plan) havingArithIn(e *In, neg bool) (rowPred, error) {
	x, err := p.compileArith(p.resultRefs(e.X), p.resultLeaf)
	if err != nil {
		return nil, err
	}
	pr, err := p.arithInSet(e, x, neg)
	if err != nil {
		return nil, err
	}
	ip, ok := pr.(interface{ holds(value) bool }) // *arithInPred, *quantPred
	if !ok {
		all := bool(pr.(constPred))
		return func([]value) bool { return all }, nil
	}
	get := func(row []value) func(a *arithPlan) value {
		return func(a *arithPlan) value { return row[a.idx] }
	}
	return func(row []value) bool { return ip.holds(x.eval(get(row))) }, nil
}
