package query

import "strings"

// eachNode calls fe on every condition and fa on every arithmetic node
// of st's own clauses: WHERE, HAVING, QUALIFY, the items (aggregates'
// filters and arguments, windows' arguments and OVER), ORDER BY and
// GROUP BY terms, CASE conditions; parents before children. It does not
// go into subqueries (a scalar's or correlated one's statement, an IN's,
// FROM's), whose statements the caller takes as it needs. Either
// function may be nil.
func eachNode(st *Statement, fe func(Expr), fa func(*Arith)) {
	var expr func(e Expr)
	var arith func(a *Arith)
	call := func(c *Call) {
		if c != nil {
			expr(c.Filter)
			arith(c.Expr)
			arith(c.ByExpr)
			for _, k := range c.Then {
				arith(k.Expr)
			}
		}
	}
	win := func(w *WinCall) {
		if w == nil {
			return
		}
		arith(w.Arg)
		if w.Over != nil {
			for _, x := range w.Over.Partition {
				arith(x)
			}
			for _, k := range w.Over.Order {
				arith(k.Expr)
			}
		}
	}
	expr = func(e Expr) {
		if e == nil {
			return
		}
		if fe != nil {
			fe(e)
		}
		switch e := e.(type) {
		case *And:
			expr(e.L)
			expr(e.R)
		case *Or:
			expr(e.L)
			expr(e.R)
		case *Not:
			expr(e.X)
		case *ArithCompare:
			arith(e.L)
			arith(e.R)
		case *ExprMatch:
			arith(e.X)
		case *In:
			arith(e.X)
		}
	}
	arith = func(a *Arith) {
		if a == nil {
			return
		}
		if fa != nil {
			fa(a)
		}
		call(a.Agg)
		win(a.Win)
		for _, w := range a.Whens {
			expr(w.Cond)
		}
		for _, x := range a.parts() {
			arith(x)
		}
	}
	expr(st.Where)
	expr(st.Having)
	expr(st.Qualify)
	for _, it := range st.Items {
		call(it.Agg)
		win(it.Win)
		arith(it.Expr)
	}
	for _, o := range st.OrderBy {
		arith(o.Expr)
	}
	for _, g := range st.GroupBy {
		arith(g.Expr)
	}
}

// eachCol calls f on every column reference of st's own clauses (see
// eachNode), conditions' and aggregates' included, with the position it
// is written at; ORDER BY names are given as references too.
func eachCol(st *Statement, f func(name string, pos int)) {
	ref := func(c *ColRef) {
		if c != nil {
			f(c.Name, c.Pos)
		}
	}
	eachNode(st, func(e Expr) { exprCols(e, ref) }, func(a *Arith) {
		ref(a.Col)
		if a.Agg != nil && a.Agg.Expr == nil {
			ref(a.Agg.Arg)
		}
		if a.Agg != nil && a.Agg.ByExpr == nil {
			ref(a.Agg.By)
		}
		if a.Agg != nil {
			thenRefs(a.Agg, ref)
		}
	})
	for _, it := range st.Items {
		ref(it.Col)
		if c := it.Agg; c != nil {
			if c.Expr == nil {
				ref(c.Arg)
			}
			if c.ByExpr == nil {
				ref(c.By)
			}
			thenRefs(c, ref)
		}
	}
	for _, g := range st.GroupBy {
		ref(g.Col)
	}
	for _, o := range st.OrderBy {
		if o.Expr == nil && o.Index == 0 {
			f(o.Name, o.Pos)
		}
	}
}

// exprCols calls f on the column a condition node itself tests (not
// its children's).
func exprCols(e Expr, f func(*ColRef)) {
	switch e := e.(type) {
	case *Compare:
		f(e.Col)
	case *IsNull:
		f(e.Col)
	case *Like:
		f(e.Col)
	case *Regex:
		f(e.Col)
	case *In:
		if e.X == nil { // else its arithmetic's columns are its nodes'
			f(e.Col)
		}
	case *SeriesMatch:
		f(e.Col)
	}
}

// subStatements returns the statements nested in st: its FROM
// subquery, join sides, WITH relations and UNION members, and the
// subqueries of its clauses.
func subStatements(st *Statement) []*Statement {
	var out []*Statement
	add := func(s *Statement) {
		if s != nil {
			out = append(out, s)
		}
	}
	add(st.Sub)
	if st.Join != nil {
		add(st.Join.Left.St)
		add(st.Join.Right.St)
	}
	for _, c := range st.With {
		add(c.St)
	}
	for _, u := range st.Union {
		add(u)
	}
	eachNode(st, func(e Expr) {
		if in, ok := e.(*In); ok {
			add(in.Sub)
		}
	}, func(a *Arith) {
		add(a.Scalar)
		if a.Corr != nil {
			add(a.Corr.Sub)
			add(a.Corr.Empty)
		}
	})
	return out
}

// qualifiedBy reports whether name is written qualified by q (q.value).
func qualifiedBy(name, q string) bool {
	return q != "" && len(name) > len(q)+1 && strings.HasPrefix(name, q) && name[len(q)] == '.'
}

// mapEachCond replaces each condition of st's own clauses that is not an
// AND, OR or NOT by f's result: in WHERE, HAVING, QUALIFY, aggregates'
// filters and CASE conditions (not in subqueries).
func mapEachCond(st *Statement, f func(Expr) Expr) {
	st.Where, st.Having, st.Qualify = mapConds(st.Where, f), mapConds(st.Having, f), mapConds(st.Qualify, f)
	call := func(c *Call) {
		if c != nil {
			c.Filter = mapConds(c.Filter, f)
		}
	}
	for _, it := range st.Items {
		call(it.Agg)
	}
	eachNode(st, nil, func(a *Arith) {
		call(a.Agg)
		for i := range a.Whens {
			a.Whens[i].Cond = mapConds(a.Whens[i].Cond, f)
		}
	})
}

// thenRefs calls ref on the columns c's further ORDER BY terms name.
func thenRefs(c *Call, ref func(*ColRef)) {
	for _, k := range c.Then {
		if k.Expr == nil {
			ref(k.Col)
		}
	}
}
