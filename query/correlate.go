package query

import (
	"slices"
	"strings"
)

// Correlated subqueries name the outer row's columns, qualified by the
// outer statement's source (qualify.go): each series' samples above
// its own mean,
//
//	SELECT time, series, value FROM cpu AS c
//	WHERE value > (SELECT avg(value) FROM cpu WHERE series = c.series)
//
// and EXISTS (SELECT ... WHERE key = c.key). The outer row's columns
// may appear only in equalities of the subquery's WHERE, one side
// inner, the other outer (series = c.series, date_trunc('day', time) =
// c.day). The subquery then runs once, not once a row: without those
// equalities, grouped by their inner terms (its keys); its result is a
// table from key to value that each outer row looks up by its outer
// terms (lookup.go). An aggregate's value for an outer row no group
// matches is the aggregate of no rows (count(*) is 0, avg NULL), which
// the subquery run over no rows gives; a subquery of rows (LIMIT 1)
// gives the first row of each key in its ORDER BY's order (DISTINCT ON);
// one without LIMIT 1 must give at most one row a key. EXISTS is 1 for
// an outer row whose key some inner row has, else 0 (so NOT EXISTS
// holds for an outer row whose key is NULL, as in SQL).

// Correlated is a correlated subquery, decorrelated.
type Correlated struct {
	// Sub gives the value (its first item, unless Exists) and the keys
	// (columns keyName(k)), one row a key; runCorrelated finds them by
	// name, as GROUP BY may put a key's column first.
	Sub *Statement
	// Empty gives the value of an outer row no key matches: the
	// aggregate subquery over no rows; nil for NULL (0 for EXISTS).
	Empty  *Statement
	Keys   int
	Exists bool
	// In: EXISTS standing for x IN (SELECT y ...), its last key y; a
	// NULL x gives NULL, not false, so that NOT IN does not hold either.
	In bool
	// inner are the keys' inner terms as written, for errors.
	inner []string
	pos   int
}

// correlateSubqueries decorrelates the subqueries of st (scope sc)
// that name st's columns, and refuses those that name them elsewhere
// than equalities of their WHERE.
func (p *parser) correlateSubqueries(st *Statement, sc scope) {
	outer := func(name string) string {
		for _, q := range sc.quals {
			if qualifiedBy(name, q) {
				return q
			}
		}
		return ""
	}
	mapEachCond(st, func(e Expr) Expr {
		if in, ok := e.(*In); ok && in.Sub != nil {
			if _, _, ok := deepOuterRef(in.Sub, outer); ok {
				return p.correlatedIn(in)
			}
		}
		return e
	})
	eachNode(st, nil, func(a *Arith) {
		if a.Scalar != nil {
			p.decorrelate(a, sc, outer)
		}
	})
}

// correlatedIn returns the condition x [NOT] IN (SELECT y ...) stands
// for when the subquery names the outer row's columns: x = (SELECT y
// ...) for an aggregate of one group (its value for the outer row's
// key, the aggregate of no rows without one), else EXISTS (SELECT ...)
// keyed by y besides the equalities, so that it holds when a row of the
// outer row's key has y = x. A NULL x is in no list and out of none, as
// with an IN of values.
func (p *parser) correlatedIn(in *In) Expr {
	q, pos := in.Sub, in.subPos
	switch {
	case in.tuple > 0:
		p.fail(pos, "%s IN (SELECT ...) may not name the outer row's columns: write EXISTS (SELECT ... WHERE ...)", in.Col.Name)
	case in.cmp != "":
		p.fail(pos, "%s may not name the outer row's columns: write EXISTS (SELECT ... WHERE ...)", quantText(in))
	case q.Union != nil:
		p.fail(pos, "a correlated subquery may not be a UNION: correlate each SELECT")
	case q.Star || len(q.Items) != 1:
		p.fail(pos, "IN (SELECT ...) selects one column")
	case q.Items[0].Win != nil || q.Items[0].Expr != nil && q.Items[0].Expr.hasWin():
		p.fail(q.Items[0].Pos, "a correlated IN (SELECT ...) selects no window function")
	case q.Limit >= 0 || q.Offset > 0:
		p.fail(pos, "a correlated IN (SELECT ...) takes no LIMIT or OFFSET: it is a set of values for each outer row")
	}
	x := in.X
	if x == nil {
		x = &Arith{Col: in.Col, Pos: in.Col.Pos}
	}
	sub := &Arith{Scalar: q, scalarText: in.subText, Pos: pos}
	// NOT IN is !=: false, as NOT (x IN ...) is, where x IN ... is NULL.
	op := map[bool]string{false: "=", true: "!="}[in.Neg]
	cond := &ArithCompare{L: x, Op: op, R: sub, Pos: pos, text: exprString(in)}
	if !isAggregate(q) || len(q.GroupBy) > 0 || q.Having != nil {
		sub.exists, sub.inTerm, sub.scalarText = true, x, x.String()+" IN "+in.subText
		cond.L, cond.R = sub, &Arith{Lit: &Lit{Kind: LitInt, Int: 1, Pos: pos}, Pos: pos}
	}
	return cond
}

// itemArith returns a select item's term as arithmetic.
func itemArith(it SelectItem) *Arith {
	switch {
	case it.Col != nil:
		return &Arith{Col: it.Col, Pos: it.Pos}
	case it.Agg != nil:
		return &Arith{Agg: it.Agg, Pos: it.Pos}
	}
	return it.Expr
}

// deepOuterRef returns the first column of st or of a statement in it
// that outer names (qualified by an outer statement's source).
func deepOuterRef(st *Statement, outer func(string) string) (string, int, bool) {
	var name string
	pos, found := 0, false
	eachCol(st, func(n string, at int) {
		if !found && outer(n) != "" {
			name, pos, found = n, at, true
		}
	})
	if found {
		return name, pos, true
	}
	for _, s := range subStatements(st) {
		if n, at, ok := deepOuterRef(s, outer); ok {
			return n, at, true
		}
	}
	return "", 0, false
}

// exprRefers reports whether condition e names an outer column.
func exprRefers(e Expr, outer func(string) string) bool {
	_, _, ok := deepOuterRef(&Statement{Where: e}, outer)
	return ok
}

// corrKey is an equality tying the subquery to the outer row.
type corrKey struct {
	inner, outer *Arith
}

// decorrelate turns the scalar or EXISTS subquery a, if it names the
// outer statement's columns, into a correlated one.
func (p *parser) decorrelate(a *Arith, sc scope, outer func(string) string) {
	q := a.Scalar
	var keys []corrKey
	var rest []Expr
	for _, c := range conjuncts(q.Where, nil) {
		if k, ok := p.corrEquality(c, outer); ok {
			keys = append(keys, k)
			continue
		}
		rest = append(rest, c)
	}
	// Everything else must be the subquery's own.
	probe := *q
	probe.Where = andOf(rest)
	if name, pos, ok := deepOuterRef(&probe, outer); ok {
		hint := ""
		for _, c := range rest {
			if x, ok := c.(*ArithCompare); ok && x.Op != "=" && x.Op != "!=" && exprRefers(c, outer) {
				hint = "; the nearest row before or after the outer one is an ASOF JOIN (FROM a ASOF JOIN b ON a.time >= b.time)"
			}
		}
		p.fail(pos, "%s names a column of the outer query outside an equality of the subquery's WHERE (series = %s.series); a correlated subquery is tied to the outer row by such equalities only%s", name, strings.SplitN(name, ".", 2)[0], hint)
	}
	if len(keys) == 0 {
		if a.inTerm != nil {
			p.fail(a.Pos, "IN (SELECT ...) names the outer query only inside a subquery of its own; tie it by an equality of its WHERE (series = o.series)")
		}
		return
	}
	// IN's value is a key too, after the equalities' (the grouped
	// subquery's own keys).
	tied := len(keys)
	if a.inTerm != nil {
		keys = append(keys, corrKey{inner: itemArith(q.Items[0]), outer: a.inTerm})
	}
	switch {
	case q.Union != nil:
		p.fail(a.Pos, "a correlated subquery may not be a UNION: correlate each SELECT")
	case q.Star && !a.exists:
		p.fail(a.Pos, "a subquery as a value selects one column, not *")
	case q.Offset > 0:
		p.fail(a.Pos, "a correlated subquery takes no OFFSET")
	}
	c := &Correlated{Keys: len(keys), Exists: a.exists, In: a.inTerm != nil, pos: a.Pos}
	sub := probe
	sub.Limit, sub.Offset, sub.OrderBy = -1, 0, nil
	var keyItems []SelectItem
	var keyGroups []GroupItem
	var innerTerms, outerTerms []*Arith
	tiedGroups := 0 // keyGroups of the equalities' keys
	for i, k := range keys {
		c.inner = append(c.inner, k.inner.String())
		innerTerms = append(innerTerms, k.inner)
		outerTerms = append(outerTerms, p.ownTerm(k.outer, sc))
		it := SelectItem{Expr: k.inner, Alias: keyName(i), Pos: k.inner.Pos}
		g := GroupItem{Expr: k.inner, Pos: k.inner.Pos}
		switch {
		case k.inner.Col != nil && k.inner.Col.Name == ColTime: // grouped by each instant
			it.Expr, it.Col = nil, k.inner.Col
			g = GroupItem{Bucket: 1, text: "time(1ns)", Pos: k.inner.Pos}
		case k.inner.Col != nil:
			it.Expr, it.Col = nil, k.inner.Col
			g.Expr, g.Col = nil, k.inner.Col
		case k.inner.Agg != nil && k.inner.Op == 0:
			it.Expr, it.Agg = nil, k.inner.Agg
		}
		keyItems = append(keyItems, it)
		if g.Bucket == 0 || !slices.ContainsFunc(keyGroups, func(o GroupItem) bool { return o.Bucket != 0 }) { // one time(1ns)
			keyGroups = append(keyGroups, g)
		}
		if i < tied {
			tiedGroups = len(keyGroups)
		}
	}
	agg := isAggregate(q)
	switch {
	case a.exists && a.inTerm != nil && agg:
		// IN over an aggregate of groups: a key's values are its groups'.
		if q.Qualify != nil {
			p.fail(a.Pos, "a correlated IN (SELECT ...) takes no QUALIFY")
		}
		sub.Star, sub.Items, sub.GroupBy = false, keyItems, append(keyGroups[:tiedGroups:tiedGroups], q.GroupBy...)
	case a.exists:
		if agg || q.Qualify != nil {
			p.fail(a.Pos, "EXISTS over an aggregate, grouped or QUALIFY subquery that names the outer query is not supported: EXISTS (SELECT ... WHERE <its column> = <yours>)")
		}
		if q.Limit == 0 {
			p.fail(a.Pos, "EXISTS over a subquery of LIMIT 0 is always false")
		}
		sub.Star, sub.Items, sub.GroupBy, sub.Having = false, keyItems, keyGroups, nil
	case len(q.Items) != 1:
		p.fail(a.Pos, "a subquery as a value selects one column; this one selects %d", len(q.Items))
	case agg && len(q.GroupBy) == 0:
		if q.Limit == 0 {
			p.fail(a.Pos, "a correlated subquery of LIMIT 0 has no value")
		}
		sub.Items = append([]SelectItem{q.Items[0]}, keyItems...)
		sub.GroupBy = keyGroups
		empty := *q
		empty.Where = andOf(append(rest, noRow(a.Pos)))
		c.Empty = &empty
	case q.Limit == 1 && !agg:
		sub.Items = append([]SelectItem{q.Items[0]}, keyItems...)
		sub.OrderBy = q.OrderBy
		p.distinctOn(&sub, innerTerms, a.Pos)
		sub.OrderBy = nil
	case q.Limit < 0:
		sub.Items = append([]SelectItem{q.Items[0]}, keyItems...)
		if agg {
			sub.GroupBy = append(keyGroups, q.GroupBy...)
		}
	default:
		p.fail(a.Pos, "a correlated subquery as a value takes LIMIT 1 (the first row of each outer row's match) or none")
	}
	c.Sub = &sub
	a.Scalar, a.Corr, a.Args = nil, c, outerTerms
}

// corrEquality reports whether condition e is inner = outer (either way
// round), an equality tying the subquery to the outer row.
func (p *parser) corrEquality(e Expr, outer func(string) string) (corrKey, bool) {
	c, ok := e.(*ArithCompare)
	if !ok || c.Op != "=" {
		return corrKey{}, false
	}
	lo, li := arithRefs(c.L, outer)
	ro, ri := arithRefs(c.R, outer)
	switch {
	case lo && !li && !ro && ri:
		return corrKey{inner: c.R, outer: c.L}, true
	case ro && !ri && !lo && li:
		return corrKey{inner: c.L, outer: c.R}, true
	}
	return corrKey{}, false
}

// arithRefs reports whether a names outer columns, and its own.
func arithRefs(a *Arith, outer func(string) string) (hasOuter, hasOwn bool) {
	st := &Statement{Items: []SelectItem{{Expr: a}}}
	eachCol(st, func(name string, _ int) {
		if outer(name) != "" {
			hasOuter = true
		} else {
			hasOwn = true
		}
	})
	for _, s := range subStatements(st) {
		if _, _, ok := deepOuterRef(s, outer); ok {
			hasOuter, hasOwn = true, true // a subquery in a key: neither side's alone
		}
	}
	return hasOuter, hasOwn
}

// ownTerm returns the outer term x as the outer statement reads it:
// c.series is series, unless the outer statement is a join (a.series).
func (p *parser) ownTerm(x *Arith, sc scope) *Arith {
	if !sc.strip {
		return x
	}
	q := sc.quals[0]
	return cloneArith(x, func(n string) string {
		if qualifiedBy(n, q) {
			return n[len(q)+1:]
		}
		return n
	})
}

// andOf joins conditions with AND; nil for none.
func andOf(es []Expr) Expr {
	var out Expr
	for _, e := range es {
		if e == nil { // none
			continue
		}
		if out == nil {
			out = e
		} else {
			out = &And{L: out, R: e}
		}
	}
	return out
}

// noRow is a condition no row meets: seq 0 (seqs start at 1).
func noRow(pos int) Expr {
	return &Compare{Col: &ColRef{Name: "seq", Pos: pos}, Op: "=", Lit: &Lit{Kind: LitInt, Int: 0, Pos: pos}}
}

// exists parses EXISTS (SELECT ...): 1 when the subquery gives a row,
// compared with 1.
func (p *parser) exists() Expr {
	t := p.advance()
	a := p.scalarSub()
	a.exists, a.scalarText, a.Pos = true, "EXISTS "+a.scalarText, t.pos
	one := &Arith{Lit: &Lit{Kind: LitInt, Int: 1, Pos: t.pos}, Pos: t.pos}
	return &ArithCompare{L: a, Op: "=", R: one, Pos: t.pos}
}
