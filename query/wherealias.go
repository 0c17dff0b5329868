package query

import "cmp"

// WHERE may name a SELECT item by its alias, as DuckDB's does: SELECT
// value * 2 AS v2 ... WHERE v2 > 100 tests value * 2. Only a name that
// is no column of the stream reads an alias (a column's own name comes
// first, then an alias, then a series label, as in GROUP BY), and only
// an item computed from the row alone (no aggregate, no window: WHERE
// runs before them).

// whereAliases returns condition e with each column it names that is an
// alias of such an item read as the item's value.
func whereAliases(st *Statement, fields *fieldSet, e Expr) Expr {
	if st.whereItems != nil {
		c := *st
		c.Items, c.whereItems = st.whereItems, nil
		st = &c
	}
	if !hasRowAlias(st) {
		return e
	}
	sub := func(c *ColRef) *Arith { // the alias's value; nil for none
		if c == nil {
			return nil
		}
		if x := rowAliasRefs(st, fields, &Arith{Col: c, Pos: c.Pos}); x.Col == nil || x.Col.Name != c.Name {
			return x
		}
		return nil
	}
	// refs is a with its aliases read, or nil when it names none: a node
	// left alone keeps its identity (a subquery's values are found by
	// it).
	refs := func(a *Arith) *Arith {
		if a == nil {
			return nil
		}
		if r := rowAliasRefs(st, fields, a); r.String() != a.String() {
			return r
		}
		return nil
	}
	return mapConds(e, func(e Expr) Expr {
		switch x := e.(type) {
		case *Compare:
			if a := sub(x.Col); a != nil {
				return &ArithCompare{L: a, R: &Arith{Lit: x.Lit, Pos: x.Lit.Pos}, Op: x.Op, Pos: x.Col.Pos}
			}
		case *IsNull:
			if a := sub(x.Col); a != nil {
				return &ExprMatch{X: a, Null: true, Neg: x.Neg, Pos: x.Col.Pos}
			}
		case *Like:
			if a := sub(x.Col); a != nil {
				return &ExprMatch{X: a, Pattern: x.Pattern, Neg: x.Neg, Pos: x.Pos}
			}
		case *Regex:
			if a := sub(x.Col); a != nil {
				return &ExprMatch{X: a, Re: x.Re, Neg: x.Neg, Pos: x.Col.Pos}
			}
		case *In:
			a := sub(x.Col)
			if x.X != nil {
				a = refs(x.X)
			}
			if a == nil {
				return e
			}
			if x.Sub != nil || x.X != nil {
				// In place: a subquery's values are found by the node
				// (inValues); read again, it names no alias.
				x.X, x.Col = a, &ColRef{Name: a.String(), Pos: x.Col.Pos}
				return x
			}
			return inChain(a, x.Lits, x.Neg)
		case *ArithCompare:
			l, r := refs(x.L), refs(x.R)
			if l == nil && r == nil {
				return e
			}
			c := *x
			c.L, c.R = cmp.Or(l, x.L), cmp.Or(r, x.R)
			return &c
		case *ExprMatch:
			if a := refs(x.X); a != nil {
				c := *x
				c.X = a
				return &c
			}
		}
		return e
	})
}

// hasRowAlias reports whether some SELECT item computed from the row
// alone has an alias.
func hasRowAlias(st *Statement) bool {
	for _, it := range st.Items {
		if it.Alias != "" && (it.Col != nil || it.Expr != nil && !it.Expr.hasAgg() && !it.Expr.hasWin()) {
			return true
		}
	}
	return false
}

// inChain is x [NOT] IN (lits) as x = a OR x = b ... (x != a AND ...),
// as an IN list of arithmetic is.
func inChain(x *Arith, lits []*Lit, neg bool) Expr {
	var out Expr
	for _, l := range lits {
		v := &Arith{Lit: l, Pos: l.Pos}
		var e Expr = &ArithCompare{L: x, R: v, Op: "=", Pos: l.Pos}
		if neg {
			e = &ArithCompare{L: x, R: v, Op: "!=", Pos: l.Pos}
		}
		out = inChainAdd(out, e, neg)
	}
	return out
}
