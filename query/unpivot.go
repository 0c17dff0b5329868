package query

// UNPIVOT <source> ON x, y, ... [INTO NAME n VALUE v] [ORDER BY ...]
// [LIMIT n], as DuckDB has it: columns into rows. Each row of the source
// gives a row for each ON column whose value is not NULL, with the
// other columns, the column's name in n ("name") and its value in v
// ("value"; numbers of both kinds are floats); a stream's seq is left
// out, each of its rows being several. It is the UNION ALL of
//
//	SELECT * EXCLUDE (seq, x, y, ...), 'x' AS n, x AS v FROM <source> WHERE x IS NOT NULL
//
// for each ON column, so its rows come column by column. A subquery
// source becomes the union's WITH relation: it runs once.

// unpivotStmt parses the rest of UNPIVOT (at pos) into the union it is.
func (p *parser) unpivotStmt(st *Statement, pos int) {
	src := &Statement{Limit: -1}
	p.source(src)
	if src.Sub != nil && src.subAlias != "" {
		src.subAlias = "" // nothing refers to it
	}
	if t := p.peek(); !p.acceptKw("on") {
		p.fail(t.pos, "UNPIVOT wants ON <column>, ... after its source, found %s", t.describe())
	}
	var on []*ColRef
	for {
		c := p.colRef()
		for _, o := range on {
			if o.Name == c.Name {
				p.fail(c.Pos, "UNPIVOT ON names %s twice", c.Name)
			}
		}
		on = append(on, c)
		if !p.acceptPunct(",") {
			break
		}
	}
	name, value := "name", "value"
	if p.acceptKw("into") {
		for _, kw := range []string{"name", "value"} {
			p.expectKw(kw)
			t := p.advance()
			if t.kind != tIdent && t.kind != tQuoted {
				p.fail(t.pos, "expected a column name after %s, found %s", kw, t.describe())
			}
			if kw == "name" {
				name = t.text
			} else {
				value = t.text
			}
		}
		if name == value {
			p.fail(p.toks[p.i-1].pos, "UNPIVOT INTO NAME and VALUE want two names, not %s twice", name)
		}
	}
	exclude := on
	if src.Sub == nil { // a stream's: its seq names no row of the result
		exclude = append([]*ColRef{{Name: ColSeq, Pos: pos}}, on...)
	}
	var with []CTE
	if src.Sub != nil { // run once, read by each SELECT as a WITH relation is
		with = []CTE{{Name: "(subquery)", Pos: src.streamPos, St: src.Sub}}
		src.Sub = nil
	}
	u := &Statement{Stream: "(union)", streamPos: pos, Limit: -1}
	for _, c := range on {
		sel := *src
		sel.Items = []SelectItem{
			{Col: &ColRef{Name: "*", Pos: pos}, exclude: exclude, clash: []string{name, value}, Pos: pos},
			{Expr: &Arith{Lit: &Lit{Kind: LitString, Str: c.Name, Pos: c.Pos}, Pos: c.Pos}, Alias: name, Pos: c.Pos},
			{Col: c, Alias: value, Pos: c.Pos},
		}
		sel.Where = &ExprMatch{X: &Arith{Col: c, Pos: c.Pos}, Null: true, Neg: true, Pos: c.Pos}
		u.Union, u.unionPos = append(u.Union, &sel), append(u.unionPos, c.Pos)
	}
	*st = Statement{Explain: st.Explain, Analyze: st.Analyze, With: with, Union: u.Union, unionPos: u.unionPos, Stream: u.Stream, streamPos: pos, Limit: -1, unpivot: true}
	p.orderLimit(st)
}
