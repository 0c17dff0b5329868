package query

import "slices"

// GROUP BY ROLLUP (a, b), CUBE (a, b) and GROUPING SETS ((a, b), (a),
// ()) group the rows by several sets of terms in one query: ROLLUP by
// (a, b), (a) and (), CUBE by every subset, GROUPING SETS by those
// listed. Plain terms beside them are in every set (GROUP BY time(1h),
// ROLLUP (series)). The statement becomes the UNION ALL of one SELECT a
// set, in the sets' order, sharing one scan (sharedscan.go): each groups
// by its set, and a term it does not group by is NULL in its rows (in
// the items, and in expressions of it outside aggregates), of the
// term's type; WHERE reads the items as written (whereItems). grouping(a, ...) is, per
// row, the bits of the terms not grouped by, the first the highest:
// grouping(a, b) is 0 for (a, b), 1 for (a), 3 for (). ORDER BY, LIMIT
// and OFFSET apply to all the rows; HAVING to each set's groups.

// maxGroupingSets bounds the sets of a statement: each is a SELECT
// that aggregates the rows (over one shared scan, sharedscan.go).
const maxGroupingSets = 64

// groupList parses GROUP BY's list: terms (columns, expressions,
// positions, time buckets), ROLLUP (...), CUBE (...) and GROUPING SETS
// (...). Without the last three it is st.GroupBy; with them, every
// combination of one choice of each element is a set of st.groupingSets.
func (p *parser) groupList(st *Statement) {
	var elems [][][]GroupItem // per element, its choices of terms
	sets := false
	for {
		t := p.peek()
		switch {
		case (isKw(t, "rollup") || isKw(t, "cube")) && isPunct(p.tok(p.i+1), "("):
			p.advance()
			p.advance()
			terms := p.groupTerms(st)
			p.expectPunct(")")
			if isKw(t, "rollup") {
				elems = append(elems, rollupSets(terms))
			} else {
				if len(terms) > 6 {
					p.fail(t.pos, "CUBE of %d terms makes %d grouping sets; at most %d", len(terms), 1<<len(terms), maxGroupingSets)
				}
				elems = append(elems, cubeSets(terms))
			}
			sets = true
		case isKw(t, "grouping") && isKw(p.tok(p.i+1), "sets"):
			p.advance()
			p.advance()
			p.expectPunct("(")
			var choices [][]GroupItem
			for {
				if p.acceptPunct("(") {
					var set []GroupItem
					if !isPunct(p.peek(), ")") {
						set = p.groupTerms(st)
					}
					p.expectPunct(")")
					choices = append(choices, set)
				} else {
					choices = append(choices, []GroupItem{p.groupTerm(st)})
				}
				if !p.acceptPunct(",") {
					break
				}
			}
			p.expectPunct(")")
			elems = append(elems, choices)
			sets = true
		default:
			g := p.groupTerm(st)
			st.GroupBy = append(st.GroupBy, g)
			elems = append(elems, [][]GroupItem{{g}})
		}
		if !p.acceptPunct(",") {
			break
		}
	}
	if !sets {
		return
	}
	all := [][]GroupItem{nil}
	for _, e := range elems {
		var next [][]GroupItem
		for _, prefix := range all {
			for _, c := range e {
				next = append(next, append(append([]GroupItem(nil), prefix...), c...))
			}
		}
		if all = next; len(all) > maxGroupingSets {
			p.fail(st.streamPos, "GROUP BY makes more than %d grouping sets: each aggregates the rows; group by fewer", maxGroupingSets)
		}
	}
	st.GroupBy, st.groupingSets = nil, all
}

// groupTerm parses one term of GROUP BY: a position or a term.
func (p *parser) groupTerm(st *Statement) GroupItem {
	if t := p.peek(); t.kind == tInt {
		p.advance()
		return p.groupPosition(st, t)
	}
	return p.groupItem()
}

// groupTerms parses terms separated by commas, none a time bucket (a
// bucket goes in every set: beside ROLLUP, not in it).
func (p *parser) groupTerms(st *Statement) []GroupItem {
	var out []GroupItem
	for {
		g := p.groupTerm(st)
		if g.Bucket != 0 || g.Months != 0 {
			p.fail(g.Pos, "%s in ROLLUP, CUBE or GROUPING SETS is not supported: put it beside them, in every set (GROUP BY time(1h), ROLLUP (series))", g.text)
		}
		out = append(out, g)
		if !p.acceptPunct(",") {
			return out
		}
	}
}

// rollupSets are ROLLUP's sets: every prefix of terms, longest first.
func rollupSets(terms []GroupItem) [][]GroupItem {
	var out [][]GroupItem
	for n := len(terms); n >= 0; n-- {
		out = append(out, terms[:n:n])
	}
	return out
}

// cubeSets are CUBE's sets: every subset of terms, in order from all to
// none (the first term's presence the highest bit).
func cubeSets(terms []GroupItem) [][]GroupItem {
	n := len(terms)
	var out [][]GroupItem
	for mask := 1<<n - 1; mask >= 0; mask-- {
		var set []GroupItem
		for i, g := range terms {
			if mask&(1<<(n-1-i)) != 0 {
				set = append(set, g)
			}
		}
		out = append(out, set)
	}
	return out
}

// groupKey names a term: its column, or its expression's text.
func groupKey(g *GroupItem) string {
	if g.Col != nil {
		return g.Col.Name
	}
	if g.Expr != nil {
		return g.Expr.String()
	}
	return g.text
}

// groupingCall parses grouping(term, ...): a term is a column or an
// expression, as in GROUP BY; the call is read as a text function's.
func (p *parser) groupingCall() *Arith { return p.textCall(p.advance()) }

// expandGroupingSets makes st, once read (from token start), the UNION
// ALL of its grouping sets, and sets its grouping() calls.
func (p *parser) expandGroupingSets(st *Statement, start int) {
	sets := st.groupingSets
	if sets == nil {
		if !callsGrouping(st, nil) {
			return
		}
		if st.GroupBy != nil {
			sets = [][]GroupItem{st.GroupBy}
		}
		p.setGrouping(st, sets, nil)
		return
	}
	pos := p.toks[start].pos
	switch {
	case st.Fill != nil:
		p.fail(st.Fill.Pos, "FILL with ROLLUP, CUBE or GROUPING SETS is not supported")
	case st.Qualify != nil:
		p.fail(st.qualifyPos, "QUALIFY with ROLLUP, CUBE or GROUPING SETS is not supported: filter in a query around it")
	}
	for _, it := range st.Items {
		if it.Win != nil || it.Expr != nil && it.Expr.hasWin() {
			p.fail(it.Pos, "window functions with ROLLUP, CUBE or GROUPING SETS are not supported: compute them in a query around it")
		}
	}
	// Every term of any set, by key.
	var terms []GroupItem
	seen := map[string]bool{}
	for _, set := range sets {
		for _, g := range set {
			if k := groupKey(&g); !seen[k] {
				seen[k] = true
				terms = append(terms, g)
			}
		}
	}
	// A term no item selects is returned before the items, as GROUP BY
	// returns it, by every SELECT (NULL where it is rolled up): so that
	// each gives the same columns.
	var extra []SelectItem
	for _, g := range terms {
		k := groupKey(&g)
		it := SelectItem{Col: g.Col, Expr: g.Expr, Pos: g.Pos}
		switch {
		case g.Bucket != 0 || g.Months != 0: // time(1h): the column time
			k, it.Col = ColTime, &ColRef{Name: ColTime, Pos: g.Pos}
		case g.Col != nil:
			it.Expr = nil
		}
		if !slices.ContainsFunc(st.Items, func(it SelectItem) bool { return selectsTerm(&it, k) }) {
			extra = append(extra, it)
		}
	}
	items := append(extra, st.Items...)
	branches := make([]*Statement, len(sets))
	poss := make([]int, len(sets))
	for i, set := range sets {
		b := *st
		b.Explain, b.Analyze, b.With, b.OrderBy, b.Limit, b.Offset, b.groupingSets = false, false, nil, nil, -1, 0, nil
		b.GroupBy, b.whereItems = set, st.Items
		in := map[string]bool{}
		for _, g := range set {
			in[groupKey(&g)] = true
		}
		var rolled []GroupItem
		for _, g := range terms {
			if !in[groupKey(&g)] {
				rolled = append(rolled, g)
			}
		}
		b.Items = make([]SelectItem, len(items))
		for j, it := range items {
			b.Items[j] = rollItem(it, rolled)
		}
		p.setGrouping(&b, [][]GroupItem{set}, rolled)
		branches[i], poss[i] = &b, pos
	}
	if len(branches) == 1 {
		b := branches[0]
		b.Explain, b.Analyze, b.With, b.OrderBy, b.Limit, b.Offset = st.Explain, st.Analyze, st.With, st.OrderBy, st.Limit, st.Offset
		*st = *b
		return
	}
	*st = Statement{Explain: st.Explain, Analyze: st.Analyze, With: st.With, Union: branches, unionPos: poss, Stream: "(union)", streamPos: pos,
		OrderBy: st.OrderBy, Limit: st.Limit, Offset: st.Offset}
}

// selectsTerm reports whether item it is the GROUP BY term keyed k: by
// its alias, its column or its expression.
func selectsTerm(it *SelectItem, k string) bool {
	return it.Alias == k || it.Col != nil && it.Col.Name == k || it.Expr != nil && it.Expr.String() == k
}

// rollItem returns item it in a set that does not group by the
// terms rolled: each of them, outside aggregates, is a NULL of its type;
// the item keeps its name.
func rollItem(it SelectItem, rolled []GroupItem) SelectItem {
	if len(rolled) == 0 || it.Agg != nil {
		return it
	}
	name := it.Name()
	for _, g := range rolled {
		if selectsTerm(&it, groupKey(&g)) {
			x := it.Expr
			if x == nil && it.Col != nil {
				x = &Arith{Col: it.Col, Pos: it.Pos}
			}
			return SelectItem{Expr: nullOfTerm(x, it.Pos), Alias: name, Pos: it.Pos}
		}
	}
	if it.Expr == nil {
		return it
	}
	it.Expr = rollArith(it.Expr, rolled)
	if it.Alias == "" {
		it.Alias = name
	}
	return it
}

// rollArith returns a with each rolled term outside aggregates a NULL of
// its type.
func rollArith(a *Arith, rolled []GroupItem) *Arith {
	if a == nil || a.Agg != nil || a.Lit != nil || a.Scalar != nil || a.Op == 'f' && a.Func == "grouping" {
		return a
	}
	for _, g := range rolled {
		k := groupKey(&g)
		if a.Col != nil && a.Col.Name == k || a.Col == nil && a.String() == k {
			return nullOfTerm(a, a.Pos)
		}
	}
	if a.Col != nil {
		return a
	}
	y := a.withChildren(func(x *Arith) *Arith { return rollArith(x, rolled) })
	if a.Whens != nil {
		y.Whens = make([]CaseWhen, len(a.Whens))
		for i, w := range a.Whens {
			y.Whens[i] = CaseWhen{Cond: w.Cond, Then: rollArith(w.Then, rolled)}
		}
	}
	return y
}

// nullOfTerm is a NULL of the type of term x: its first value of no
// row (an aggregate, so that the set's other terms stay its groups').
func nullOfTerm(x *Arith, pos int) *Arith {
	c := &Call{Func: "first", Pos: pos, Filter: noRow(pos)}
	if x.Col != nil && x.Op == 0 {
		c.Arg = &ColRef{Name: x.Col.Name, Pos: pos}
	} else {
		c.Arg, c.Expr = &ColRef{Name: x.String(), Pos: pos}, x
	}
	return &Arith{Agg: c, Pos: pos}
}

// setGrouping replaces the grouping() calls of st's items and HAVING
// with their value in the set (sets[0] the terms grouped by, rolled
// those not); without a set (no GROUP BY) grouping() is an error, as it
// is anywhere else.
func (p *parser) setGrouping(st *Statement, sets [][]GroupItem, rolled []GroupItem) {
	in := map[string]bool{}
	for _, set := range sets {
		for _, g := range set {
			in[groupKey(&g)] = true
		}
	}
	out := map[string]bool{}
	for _, g := range rolled {
		out[groupKey(&g)] = true
	}
	var set func(a *Arith) *Arith
	set = func(a *Arith) *Arith {
		if a == nil || a.Lit != nil || a.Scalar != nil || a.Agg != nil {
			return a
		}
		if a.Op == 'f' && a.Func == "grouping" {
			if sets == nil {
				p.fail(a.Pos, "grouping() goes with GROUP BY")
			}
			bits := int64(0)
			for _, x := range a.Args {
				k := x.String()
				if x.Col != nil && x.Op == 0 {
					k = x.Col.Name
				}
				switch {
				case out[k]:
					bits = bits<<1 | 1
				case in[k]:
					bits <<= 1
				default:
					p.fail(x.Pos, "grouping(%s): %s is no term of GROUP BY", x.String(), x.String())
				}
			}
			return &Arith{Lit: &Lit{Kind: LitInt, Int: bits, Pos: a.Pos}, Pos: a.Pos}
		}
		if a.Col != nil {
			return a
		}
		y := a.withChildren(set)
		if a.Whens != nil {
			y.Whens = make([]CaseWhen, len(a.Whens))
			for i, w := range a.Whens {
				y.Whens[i] = CaseWhen{Cond: p.setGroupingExpr(w.Cond, set), Then: set(w.Then)}
			}
		}
		return y
	}
	for i := range st.Items {
		if x := st.Items[i].Expr; x != nil && callsGrouping(nil, x) {
			if st.Items[i].Alias == "" {
				st.Items[i].Alias = st.Items[i].Name()
			}
			st.Items[i].Expr = set(x)
		}
	}
	st.Having = p.setGroupingExpr(st.Having, set)
	// Anywhere else it is an error.
	eachNode(st, nil, func(a *Arith) {
		if a.Op == 'f' && a.Func == "grouping" {
			p.fail(a.Pos, "grouping() goes in the SELECT items and HAVING of a grouped query")
		}
	})
}

// setGroupingExpr applies set to the arithmetic of condition e.
func (p *parser) setGroupingExpr(e Expr, set func(*Arith) *Arith) Expr {
	return mapConds(e, func(e Expr) Expr {
		switch x := e.(type) {
		case *ArithCompare:
			c := *x
			c.L, c.R = set(x.L), set(x.R)
			return &c
		case *ExprMatch:
			c := *x
			c.X = set(x.X)
			return &c
		}
		return e
	})
}

// callsGrouping reports whether st's clauses (or a, when st is nil)
// call grouping().
func callsGrouping(st *Statement, a *Arith) bool {
	if st == nil {
		st = &Statement{Items: []SelectItem{{Expr: a}}}
	}
	found := false
	eachNode(st, nil, func(x *Arith) { found = found || x.Op == 'f' && x.Func == "grouping" })
	return found
}
