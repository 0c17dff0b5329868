package query

import "regexp"

// CASE over aggregates: in a SELECT item of an aggregate query a CASE
// (and if(), and a condition standing as a value) may test aggregates
// and grouped columns: CASE WHEN count(*) > 10 THEN 'big' ELSE 'small'
// END, sum(v) / CASE WHEN count(*) = 0 THEN NULL ELSE count(*) END,
// max(v) > 100 AS hot. Its conditions are tested on each group's row of
// the result, once the aggregates are computed, as three-valued logic
// has it (a NULL compared is unknown; WHEN takes only true); they may
// compare, test IS [NOT] NULL, match text (LIKE, ILIKE, =~), test IN
// lists, and combine with AND, OR and NOT.

// itemAggConds lets the conditions parsed until the returned function
// runs test aggregates, when the parser is in a SELECT item.
func (p *parser) itemAggConds() func() {
	if !p.inItem && p.aggConds == 0 {
		return func() {}
	}
	p.aggConds++
	return func() { p.aggConds-- }
}

// noAggConds leaves a CASE's conditions for an aggregate's arguments,
// which are the row's.
func (p *parser) noAggConds() func() {
	n := p.aggConds
	p.aggConds = 0
	return func() { p.aggConds = n }
}

// condFirstAgg returns the first aggregate condition e tests, if any.
func condFirstAgg(e Expr) *Call {
	switch x := e.(type) {
	case *And:
		return cmpOrCall(condFirstAgg(x.L), condFirstAgg(x.R))
	case *Or:
		return cmpOrCall(condFirstAgg(x.L), condFirstAgg(x.R))
	case *Not:
		return condFirstAgg(x.X)
	case *ArithCompare:
		return cmpOrCall(x.L.firstAgg(), x.R.firstAgg())
	case *ExprMatch:
		return x.X.firstAgg()
	case *In:
		if x.X != nil {
			return x.X.firstAgg()
		}
	}
	return nil
}

func cmpOrCall(a, b *Call) *Call {
	if a != nil {
		return a
	}
	return b
}

// groupCond is a condition of a CASE over aggregates, planned: tested on
// a result row through its leaves' values (get).
type groupCond struct {
	op   byte // '&', '|', '!'; 'c' compare; 'n' IS NULL; 'm' a text match (re); 'i' IN (SELECT ...), ANY, ALL
	re   *regexp.Regexp
	l, r *groupCond
	cmp  string // 'c': the comparison
	x, y *arithPlan
	neg  bool // 'n': IS NOT NULL
	// 'i': where the subquery's condition holds, and where its NOT does
	// (arithInSet: a constPred, or a pred that tells a value's outcome)
	in [2]pred
}

// test is the condition's three-valued truth: known false when it is
// neither true nor NULL.
func (g *groupCond) test(get func(*arithPlan) value) (truth, known bool) {
	switch g.op {
	case '&':
		lt, lk := g.l.test(get)
		if lk && !lt {
			return false, true
		}
		rt, rk := g.r.test(get)
		if rk && !rt {
			return false, true
		}
		return true, lk && rk
	case '|':
		lt, lk := g.l.test(get)
		if lk && lt {
			return true, true
		}
		rt, rk := g.r.test(get)
		if rk && rt {
			return true, true
		}
		return false, lk && rk
	case '!':
		t, k := g.l.test(get)
		return !t, k
	case 'n':
		return g.x.eval(get).null != g.neg, true
	case 'i':
		v := g.x.eval(get)
		for k, pr := range g.in {
			switch h := pr.(type) {
			case constPred:
				if h {
					return k == 0, true
				}
			case interface{ holds(value) bool }:
				if h.holds(v) {
					return k == 0, true
				}
			}
		}
		return false, false
	case 'm':
		v := g.x.eval(get)
		if v.null {
			return false, false
		}
		return g.re.MatchString(v.s) != g.neg, true
	}
	x, y := g.x.eval(get), g.y.eval(get)
	if x.null || y.null {
		return false, false
	}
	return holds(g.cmp, g.x, g.y, x, y), true
}

// leaves calls f on the leaves of the condition's values.
func (g *groupCond) leaves(f func(*arithPlan)) {
	for _, c := range []*groupCond{g.l, g.r} {
		if c != nil {
			c.leaves(f)
		}
	}
	for _, x := range []*arithPlan{g.x, g.y} {
		if x != nil {
			x.leaves(f)
		}
	}
}

// compileGroupCond plans condition e of a CASE over aggregates, its
// leaves (aggregates, grouped columns) planned by leaf.
func (p *plan) compileGroupCond(e Expr, leaf func(a *Arith, ap *arithPlan) error) (*groupCond, error) {
	both := func(op byte, l, r Expr) (*groupCond, error) {
		lc, err := p.compileGroupCond(l, leaf)
		if err != nil {
			return nil, err
		}
		rc, err := p.compileGroupCond(r, leaf)
		if err != nil {
			return nil, err
		}
		return &groupCond{op: op, l: lc, r: rc}, nil
	}
	switch x := e.(type) {
	case *And:
		return both('&', x.L, x.R)
	case *Or:
		return both('|', x.L, x.R)
	case *Not:
		c, err := p.compileGroupCond(x.X, leaf)
		if err != nil {
			return nil, err
		}
		return &groupCond{op: '!', l: c}, nil
	case *Compare: // a grouped column against a literal
		return p.compileGroupCond(&ArithCompare{L: &Arith{Col: x.Col, Pos: x.Col.Pos}, R: &Arith{Lit: x.Lit, Pos: x.Lit.Pos}, Op: x.Op, Pos: x.Col.Pos}, leaf)
	case *IsNull:
		return p.compileGroupCond(&ExprMatch{X: &Arith{Col: x.Col, Pos: x.Col.Pos}, Null: true, Neg: x.Neg, Pos: x.Col.Pos}, leaf)
	case *ArithCompare:
		l, err := p.compileArith(x.L, leaf)
		if err != nil {
			return nil, err
		}
		r, err := p.compileArith(x.R, leaf)
		if err != nil {
			return nil, err
		}
		p.timeSides(x, l, r)
		if err := p.sameSide(x, l, r); err != nil {
			return nil, err
		}
		return &groupCond{op: 'c', cmp: x.Op, x: l, y: r}, nil
	case *Like:
		return p.compileGroupCond(&ExprMatch{X: &Arith{Col: x.Col, Pos: x.Col.Pos}, Pattern: x.Pattern, Neg: x.Neg, Pos: x.Pos}, leaf)
	case *Regex:
		return p.compileGroupCond(&ExprMatch{X: &Arith{Col: x.Col, Pos: x.Col.Pos}, Re: x.Re, Neg: x.Neg, Pos: x.Col.Pos}, leaf)
	case *In:
		if x.Sub == nil { // a list: x = a OR x = b ...
			a := x.X
			if a == nil {
				a = &Arith{Col: x.Col, Pos: x.Col.Pos}
			}
			return p.compileGroupCond(inChain(a, x.Lits, x.Neg), leaf)
		}
		// a subquery's values, a set looked up (insub.go, quantified.go)
		a := x.X
		if a == nil {
			a = &Arith{Col: x.Col, Pos: x.Col.Pos}
		}
		v, err := p.compileArith(a, leaf)
		if err != nil {
			return nil, err
		}
		g := &groupCond{op: 'i', x: v}
		for k := range g.in {
			if g.in[k], err = p.arithInSet(x, v, k == 1); err != nil {
				return nil, err
			}
		}
		return g, nil
	case *ExprMatch:
		v, err := p.compileArith(x.X, leaf)
		if err != nil {
			return nil, err
		}
		switch {
		case x.Null:
			return &groupCond{op: 'n', x: v, neg: x.Neg}, nil
		case v.kind != kString:
			return nil, p.errAt(x.Pos, "type mismatch: a pattern match on %s, a %s", x.X.String(), v.kind)
		case x.Re != nil:
			return &groupCond{op: 'm', x: v, re: x.Re, neg: x.Neg}, nil
		}
		return &groupCond{op: 'm', x: v, re: likeRegexp(x.Pattern), neg: x.Neg}, nil
	}
	return nil, p.errAt(p.st.streamPos, "a CASE over aggregates tests comparisons, IS [NOT] NULL, LIKE, =~, IN, ANY, ALL, AND, OR and NOT; %s is none of them", condText(e))
}

// compileGroupCase plans CASE a, whose conditions test aggregates or
// grouped columns, in an aggregate query's result.
func (p *plan) compileGroupCase(a *Arith, ap *arithPlan, leaf func(a *Arith, ap *arithPlan) error) error {
	ap.hasCase = false // computed a result row at a time (eval)
	for _, w := range a.Whens {
		c, err := p.compileGroupCond(w.Cond, leaf)
		if err != nil {
			return err
		}
		ap.groupConds = append(ap.groupConds, c)
	}
	return p.caseValues(a, ap, leaf)
}

// evalGroupCase computes a CASE over aggregates for a result row.
func (a *arithPlan) evalGroupCase(get func(*arithPlan) value) value {
	for i, c := range a.groupConds {
		if t, k := c.test(get); t && k {
			return a.args[i].eval(get)
		}
	}
	if len(a.args) > len(a.groupConds) { // ELSE
		return a.args[len(a.args)-1].eval(get)
	}
	return nullValue
}
