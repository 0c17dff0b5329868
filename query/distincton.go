package query

// SELECT DISTINCT ON (x, ...) keeps one row of each distinct x: the
// first in ORDER BY's order (then time, seq), as PostgreSQL and DuckDB
// have it: SELECT DISTINCT ON (series) series, time, value FROM cpu
// ORDER BY series, time DESC is each series' latest sample. It is
// QUALIFY row_number() OVER (PARTITION BY x, ... ORDER BY <the ORDER
// BY>) = 1, with that window hidden.

// distinctOnTerms parses DISTINCT ON (x, ...) and returns its terms and
// where it starts.
func (p *parser) distinctOnTerms() ([]*Arith, int) {
	t := p.advance()
	p.advance() // ON
	p.advance() // (
	restore := p.noWindows()
	defer restore()
	var on []*Arith
	for {
		on = append(on, p.arith())
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	return on, t.pos
}

// distinctOn makes st, read whole, keep the first row of each distinct
// value of the terms on.
func (p *parser) distinctOn(st *Statement, on []*Arith, pos int) {
	if st.Qualify != nil {
		p.fail(pos, "DISTINCT ON with QUALIFY is not supported: keep the rows with a subquery, then the first of each")
	}
	if st.Star {
		p.fail(pos, "SELECT DISTINCT ON (...) * is not supported: name the columns")
	}
	var order []OverOrder
	for _, o := range st.OrderBy {
		order = append(order, OverOrder{Expr: p.orderTerm(st, o), Desc: o.Desc, Nulls: o.Nulls})
	}
	w := &WinCall{Func: "row_number", Over: &Over{Partition: on, Order: order}, Pos: pos}
	st.Items = append(st.Items, SelectItem{Win: w, Hidden: true, Pos: pos})
	st.Qualify, st.qualifyPos = &Compare{Col: &ColRef{Name: w.String(), Pos: pos}, Op: "=", Lit: &Lit{Kind: LitInt, Int: 1, Pos: pos}}, pos
}

// orderTerm returns what ORDER BY item o of st orders by, as arithmetic:
// its expression, the item at its position or of its alias, or the
// column it names.
func (p *parser) orderTerm(st *Statement, o OrderItem) *Arith {
	if o.Expr != nil {
		return o.Expr
	}
	for i, it := range st.Items {
		if o.Index == i+1 || o.Index == 0 && it.Alias != "" && it.Alias == o.Name {
			switch {
			case it.Expr != nil:
				return it.Expr
			case it.Agg != nil:
				return &Arith{Agg: it.Agg, Pos: o.Pos}
			case it.Col != nil:
				return &Arith{Col: it.Col, Pos: o.Pos}
			case it.Win != nil:
				p.fail(o.Pos, "DISTINCT ON cannot order by a window function's result")
			}
		}
	}
	if o.Index > 0 {
		p.fail(o.Pos, "ORDER BY %d: the SELECT has %d columns", o.Index, len(st.Items))
	}
	return &Arith{Col: &ColRef{Name: o.Name, Pos: o.Pos}, Pos: o.Pos}
}
