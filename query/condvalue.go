package query

// A condition stands as a bool value where a value goes (SELECT v > 50
// AS hot, (s LIKE 'a%')::int, CASE WHEN ... THEN v > 1 END): true where
// the row meets it, false where it meets NOT it, NULL where neither (a
// NULL compared), as SQL's three-valued logic has it. It is CASE WHEN
// cond THEN true WHEN NOT cond THEN false END, written as the condition.

// condFollows reports whether token t, after a value, continues it into
// a condition: a comparison, a match, IS, IN, LIKE, BETWEEN, AND or OR.
func (p *parser) condFollows(i int) bool {
	t := p.tok(i)
	switch {
	case t.kind == tPunct:
		return cmpOps[t.text] || t.text == "=~" || t.text == "!~"
	case isKw(t, "not"):
		n := p.tok(i + 1)
		return isKw(n, "in") || isKw(n, "like") || isKw(n, "ilike") || isKw(n, "between") || p.similarAt(i+1)
	case p.similarAt(i):
		return true
	}
	for _, kw := range []string{"is", "in", "like", "ilike", "between", "and", "or"} {
		if isKw(t, kw) {
			return true
		}
	}
	return false
}

// valueOrCond parses a value, or a condition as a bool value when one
// follows the value's start (NOT, a comparison, ...).
func (p *parser) valueOrCond() *Arith {
	start := p.i
	if t := p.peek(); isKw(t, "not") || isKw(t, "exists") && isPunct(p.tok(p.i+1), "(") || p.tupleInAt(p.i) {
		return p.condValue()
	}
	a := p.arith()
	if !p.condFollows(p.i) {
		return a
	}
	p.i = start
	return p.condValue()
}

// condValue parses a condition as a bool value.
func (p *parser) condValue() *Arith {
	defer p.itemAggConds()()
	t := p.peek()
	having := p.having
	p.having = false // on the row's columns, as CASE's conditions
	p.inCondValue++
	defer func() { p.having = having; p.inCondValue-- }()
	return boolValue(p.orExpr(), t.pos)
}

// boolValue is cond as a bool value (at pos).
func boolValue(cond Expr, pos int) *Arith {
	lit := func(b bool) *Arith { return &Arith{Lit: &Lit{Kind: LitBool, Bool: b, Pos: pos}, Pos: pos} }
	return &Arith{Op: 'c', Pos: pos, cond: cond,
		Whens: []CaseWhen{{Cond: cond, Then: lit(true)}, {Cond: &Not{cond}, Then: lit(false)}}}
}

// textTestValue parses DuckDB's text test at t (starts_with(s, 'a'),
// ...) as a bool value.
func (p *parser) textTestValue(t token) *Arith {
	having := p.having
	p.having = false
	p.inCondValue++
	defer func() { p.having = having; p.inCondValue-- }()
	return boolValue(p.textTest(t), t.pos)
}
