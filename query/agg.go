package query

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// aggPlan is the grouping and aggregates of an aggregate query.
type aggPlan struct {
	groups []groupSpec
	aggs   []aggSpec
	// outOf maps each output column to a group (g >= 0) or an
	// aggregate (a >= 0); both -1: arithmetic on the row's columns.
	outOf []struct{ g, a int }
	fill  *Fill // GROUP BY time(d) FILL(...); nil: none
}

// groupKind says what a GROUP BY term groups by.
type groupKind uint8

const (
	gBucket groupKind = iota // time(d)
	gColumn                  // series, key, op or a field
	gLabel                   // a label of the series name
	gExpr                    // arithmetic on the row's columns
)

type groupSpec struct {
	kind   groupKind
	name   string     // column or label
	bucket int64      // time(d): d
	bk     *bucketer  // time(d[, offset][, zone])
	expr   *arithPlan // gExpr
	out    colKind
}

// nullable reports whether the group's values may be null: a field's,
// or a computed one's.
func (g *groupSpec) nullable() bool {
	return g.kind == gExpr || g.kind == gColumn && !isBase(g.name)
}

// aggKey is a further ORDER BY term of string_agg, planned.
type aggKey struct {
	expr  *arithPlan // nil: the column arg
	arg   string
	in    colKind
	desc  bool
	nulls Nulls
}

type aggSpec struct {
	fn     string
	filter pred       // FILTER (WHERE ...): the rows it takes; nil: all
	expr   *arithPlan // avg(value * 2): the argument computed; nil: the column arg
	arg    string     // column, or expr's text; "" for count(*)
	in     colKind
	// arg_max, arg_min: what picks the row, as expr and arg pick the
	// value.
	by    *arithPlan
	byArg string
	byIn  colKind
	// string_agg(x ORDER BY by DESC NULLS FIRST, then...): by's
	// direction, and the further terms
	byDesc  bool
	byNulls Nulls
	then    []aggKey
	out     colKind
	q       float64
	sep     string // string_agg's separator
	extra   bool   // needsExtra(fn)
	// distinct: string_agg(DISTINCT x) takes each value once, at its
	// first row
	distinct bool
	name     string
}

// maxGroups caps the groups of an aggregate query (per worker and in
// total), bounding its memory: a few hundred bytes per group.
var maxGroups = 1 << 22 // a variable for tests

var errTooManyGroups = errors.New("query: too many groups (more than 4194304); use a wider time bucket, fewer GROUP BY terms or a narrower WHERE")

// maxQuantileValues caps the values quantile(), mad(), rate(),
// string_agg(), count(DISTINCT), mode() and entropy() hold for a whole
// query: they keep every value (every distinct one) of every group
// (quantile is exact; rate orders its samples by time at the end).
const maxQuantileValues = 1 << 24

var errTooManyValues = fmt.Errorf("query: quantile(), mad(), rate(), string_agg(), count(DISTINCT), mode() and entropy() hold every (distinct) value and this query exceeds %d; narrow the time range or the series", maxQuantileValues)

func (p *plan) planAggregate() error {
	st := p.st
	if st.Star {
		return p.errAt(st.streamPos, "SELECT * cannot be grouped: name the aggregates, e.g. SELECT avg(value)")
	}
	a := &aggPlan{}
	p.agg = a
	p.nd.add(ColTime) // buckets, first, last and rate order by time
	for _, g := range st.GroupBy {
		gs := groupSpec{bucket: g.Bucket}
		if g.Expr == nil && g.Col != nil {
			if c := groupColumnAlias(st, g.Col.Name, p.fields); c != nil {
				g.Col = &ColRef{Name: c.Name, Pos: g.Col.Pos}
			} else {
				g.Expr = groupAlias(st, g.Col.Name, p.fields)
			}
		}
		if g.Expr != nil {
			if c := g.Expr.firstAgg(); c != nil {
				return p.errAt(c.Pos, "GROUP BY takes values of the rows, not aggregates such as %s", c.String())
			}
			ap, err := p.rawArith(g.Expr)
			if err != nil {
				return err
			}
			gs.kind, gs.name, gs.expr, gs.out = gExpr, g.Expr.String(), ap, ap.outKind()
		} else if g.Bucket > 0 {
			gs.kind, gs.name, gs.out = gBucket, ColTime, kTime
			gs.bk = newBucketer(g.Bucket, g.Offset, g.Zone, g.text)
			gs.bk.months = g.Months
			if slices.ContainsFunc(a.groups, func(o groupSpec) bool { return o.kind == gBucket }) {
				return p.errAt(g.Pos, "only one time() bucket per query")
			}
		} else if k, ok := kindOfCol(g.Col.Name, p.fields); ok && g.Col.Name != ColSeq && g.Col.Name != ColTime {
			if k == kBytes {
				return p.errAt(g.Pos, "cannot group by bytes field %q", g.Col.Name)
			}
			gs.kind, gs.name, gs.out = gColumn, g.Col.Name, k
			if p.fields.instant(g.Col.Name) {
				gs.out = kTime
			}
			if p.fields.duration(g.Col.Name) {
				gs.out = kDuration
			}
			p.nd.add(g.Col.Name)
		} else if g.Col.Name == ColSeq || g.Col.Name == ColTime {
			return p.errAt(g.Pos, "cannot group by %s: use time(<bucket>), or date_trunc('day', time) and the like, for time", g.Col.Name)
		} else {
			// Not a column: a label of the series name.
			gs.kind, gs.name, gs.out = gLabel, g.Col.Name, kString
			p.nd.add(ColSeries)
		}
		a.groups = append(a.groups, gs)
	}
	used := make([]bool, len(a.groups))
	type item struct{ g, a int }
	var items []item
	// The aggregates and grouped columns arithmetic reads are hidden
	// columns after the output's.
	var hidden []item
	var hiddenCols []outCol
	var exprs []*arithPlan
	var wins []*winPlan
	// leaf plans a leaf of arithmetic: an aggregate or a grouped column,
	// read from a hidden column.
	leaf := func(x *Arith, ap *arithPlan) error {
		if x.Agg != nil {
			spec, err := p.aggSpec(x.Agg)
			if err != nil {
				return err
			}
			spec.name = x.Agg.String()
			a.aggs = append(a.aggs, spec)
			hidden = append(hidden, item{-1, len(a.aggs) - 1})
			hiddenCols = append(hiddenCols, outCol{name: spec.name, kind: spec.out, nullable: true, hidden: true})
			ap.in, ap.hid = spec.out, len(hidden)-1
			return nil
		}
		if x.Col == nil { // a window function in a window's argument (an item named in its own window)
			return p.errAt(x.Pos, "%s() in the argument of a window function: a window function takes aggregates and grouped columns", x.Win.Func)
		}
		gi := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.name == x.Col.Name })
		if gi < 0 {
			return p.errAt(x.Pos, "column %q must be grouped (GROUP BY %s) or aggregated", x.Col.Name, x.Col.Name)
		}
		hidden = append(hidden, item{gi, -1})
		hiddenCols = append(hiddenCols, outCol{name: x.Col.Name, kind: a.groups[gi].out, nullable: true, hidden: true})
		ap.in, ap.hid = a.groups[gi].out, len(hidden)-1
		return nil
	}
	// hide plans x, arithmetic on aggregates and grouped columns, as a
	// hidden column and returns its index among them.
	hide := func(x *Arith) (*arithPlan, int, error) {
		ap, err := p.compileArith(p.groupRefs(x), leaf)
		if err != nil {
			return nil, 0, err
		}
		exprs = append(exprs, ap)
		hidden = append(hidden, item{-1, -1})
		hiddenCols = append(hiddenCols, outCol{kind: ap.outKind(), nullable: true, hidden: true, expr: ap})
		return ap, len(hidden) - 1, nil
	}
	bucketed := slices.ContainsFunc(a.groups, func(g groupSpec) bool { return g.kind == gBucket })
	// planWin plans window function win (at pos) as a column named name.
	planWin := func(win *WinCall, pos int, name string) (outCol, error) {
		ordered := win.Over != nil && (len(win.Over.Order) > 0 || winAggs[win.Func]) // an aggregate needs no order
		switch {
		case !bucketed && !ordered:
			return outCol{}, p.errAt(pos, "%s in an aggregate query needs GROUP BY time(<bucket>), or OVER (ORDER BY ...): it runs over the result's rows in an order", win.Func)
		case !bucketed && strings.HasSuffix(win.Func, "derivative"):
			return outCol{}, p.errAt(pos, "%s in an aggregate query needs GROUP BY time(<bucket>): it divides by the time between buckets", win.Func)
		}
		w := &winPlan{fn: win.Func, n: win.N, unit: win.Unit, arg: -1, argHid: -1, seq: -1, ignoreNulls: win.IgnoreNulls, dflt: nullValue}
		if win.Arg != nil {
			ap, hid, err := hide(p.aggAliasRefs(win.Arg))
			if err != nil {
				return outCol{}, err
			}
			if err := p.winArg(win, ap); err != nil {
				return outCol{}, err
			}
			if w.dflt, err = p.lagDefault(win, ap); err != nil {
				return outCol{}, err
			}
			w.argPlan, w.argHid = ap, hid
		}
		if o := win.Over; o != nil {
			var keyKinds []colKind
			w.over = true
			w.partNames, w.keyNames = o.names()
			for _, x := range o.Partition {
				_, hid, err := hide(p.aggAliasRefs(x))
				if err != nil {
					return outCol{}, err
				}
				w.partHid = append(w.partHid, hid)
			}
			for _, k := range o.Order {
				ap, hid, err := hide(p.aggAliasRefs(k.Expr))
				if err != nil {
					return outCol{}, err
				}
				w.keyHid, w.keyDesc, w.keyNulls = append(w.keyHid, hid), append(w.keyDesc, k.Desc), append(w.keyNulls, k.Nulls)
				keyKinds = append(keyKinds, ap.outKind())
			}
			if pos, msg := checkFrame(o.Frame, w.fn, keyKinds); msg != "" {
				return outCol{}, p.errAt(pos, "%s", msg)
			}
			w.frame = o.Frame
		}
		wins = append(wins, w)
		return outCol{name: name, kind: winKind(w.fn, w.argPlan), nullable: !ranking(w.fn), win: w}, nil
	}
	for _, it := range st.Items {
		if it.Win != nil {
			c, err := planWin(it.Win, it.Pos, it.Name())
			if err != nil {
				return err
			}
			c.hidden = it.Hidden
			items = append(items, item{-1, -1})
			p.out = append(p.out, c)
			continue
		}
		if it.Expr != nil && it.Expr.hasWin() { // avg(value) - lag(avg(value))
			p.windowLeaves = true
			ap, err := p.compileArith(p.groupRefs(it.Expr), func(x *Arith, ap *arithPlan) error {
				if x.Win == nil {
					return leaf(x, ap)
				}
				c, err := planWin(x.Win, x.Pos, x.Win.String())
				if err != nil {
					return err
				}
				c.hidden = true
				hidden = append(hidden, item{-1, -1})
				hiddenCols = append(hiddenCols, c)
				ap.in, ap.hid = c.kind, len(hidden)-1
				return nil
			})
			p.windowLeaves = false
			if err != nil {
				return err
			}
			exprs = append(exprs, ap)
			items = append(items, item{-1, -1})
			p.out = append(p.out, outCol{name: it.Name(), kind: ap.outKind(), nullable: true, post: ap})
			continue
		}
		if gi := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.kind == gExpr && it.Expr != nil && g.name == it.Expr.String() }); gi >= 0 {
			used[gi] = true // SELECT hour(time) ... GROUP BY hour(time)
			items = append(items, item{gi, -1})
			p.out = append(p.out, outCol{name: it.Name(), kind: a.groups[gi].out, nullable: true})
			continue
		}
		if it.Expr != nil {
			ap, err := p.compileArith(p.groupRefs(it.Expr), leaf)
			if err != nil {
				return err
			}
			exprs = append(exprs, ap)
			items = append(items, item{-1, -1})
			p.out = append(p.out, outCol{name: it.Name(), kind: ap.outKind(), nullable: true, expr: ap})
			continue
		}
		if it.Agg == nil {
			gi := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.name == it.Col.Name })
			if gi < 0 {
				return p.errAt(it.Pos, "column %q must be grouped (GROUP BY %s) or aggregated", it.Col.Name, it.Col.Name)
			}
			used[gi] = true
			items = append(items, item{gi, -1})
			p.out = append(p.out, outCol{name: it.Name(), kind: a.groups[gi].out, nullable: a.groups[gi].nullable()})
			continue
		}
		spec, err := p.aggSpec(it.Agg)
		if err != nil {
			return err
		}
		spec.name = it.Name()
		a.aggs = append(a.aggs, spec)
		items = append(items, item{-1, len(a.aggs) - 1})
		p.out = append(p.out, outCol{name: spec.name, kind: spec.out, nullable: spec.fn != "count"})
	}
	// HAVING an aggregate the SELECT does not return: a hidden column
	// (SELECT series ... HAVING count(*) > 10).
	for _, c := range st.havingAggs {
		name := c.String()
		if slices.ContainsFunc(p.out, func(o outCol) bool { return o.name == name }) ||
			slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.Agg != nil && it.Agg.String() == name }) {
			continue
		}
		spec, err := p.aggSpec(c)
		if err != nil {
			return err
		}
		spec.name = name
		a.aggs = append(a.aggs, spec)
		items = append(items, item{-1, len(a.aggs) - 1})
		p.out = append(p.out, outCol{name: name, kind: spec.out, nullable: spec.fn != "count", hidden: true, having: true})
	}
	// ORDER BY an aggregate, or arithmetic on aggregates, the SELECT does
	// not return: a hidden column (ORDER BY max(value) DESC LIMIT 3).
	// So is arithmetic on the groups, and on the aggregates and groups
	// the SELECT names by alias (ORDER BY n * -1 after count(*) AS n).
	for _, o := range st.OrderBy {
		if o.Expr == nil || slices.ContainsFunc(p.out, func(c outCol) bool { return c.name == o.Name }) ||
			slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.Agg != nil && it.Agg.String() == o.Name }) {
			continue
		}
		o.Expr = p.aggAliasRefs(rowAliasRefs(st, p.fields, o.Expr))
		if o.Expr.hasWin() {
			continue // not a term ORDER BY computes: planOrder says so
		}
		if o.Expr.Agg != nil {
			spec, err := p.aggSpec(o.Expr.Agg)
			if err != nil {
				return err
			}
			spec.name = o.Name
			a.aggs = append(a.aggs, spec)
			items = append(items, item{-1, len(a.aggs) - 1})
			p.out = append(p.out, outCol{name: o.Name, kind: spec.out, nullable: true, hidden: true})
			continue
		}
		ap, err := p.compileArith(p.groupRefs(o.Expr), leaf)
		if err != nil {
			return err
		}
		exprs = append(exprs, ap)
		items = append(items, item{-1, -1})
		p.out = append(p.out, outCol{name: o.Name, kind: ap.outKind(), nullable: true, expr: ap, hidden: true})
	}
	// Group columns not selected come first, in GROUP BY order.
	var lead []outCol
	var leadItems []item
	for gi, g := range a.groups {
		if !used[gi] {
			lead = append(lead, outCol{name: g.name, kind: g.out, nullable: g.nullable()})
			leadItems = append(leadItems, item{gi, -1})
		}
	}
	p.out = append(lead, p.out...)
	for _, ap := range exprs {
		ap.leaves(func(l *arithPlan) { l.idx = len(p.out) + l.hid })
	}
	for _, w := range wins {
		if w.argHid >= 0 {
			w.arg = len(p.out) + w.argHid
		}
		for _, h := range w.partHid {
			w.part = append(w.part, len(p.out)+h)
		}
		for k, h := range w.keyHid {
			w.keys = append(w.keys, winKey{len(p.out) + h, w.keyDesc[k], w.keyNulls[k]})
		}
	}
	p.out = append(p.out, hiddenCols...)
	for _, it := range slices.Concat(leadItems, items, hidden) {
		a.outOf = append(a.outOf, struct{ g, a int }{it.g, it.a})
	}
	// A window runs over the buckets of each combination of the other
	// group values.
	for _, w := range wins {
		t, parts := a.timeAndParts()
		if w.time = -1; bucketed {
			w.time = t
		}
		if !w.over {
			w.part = parts
		}
	}
	return nil
}

// aggSynonyms are aggregates' other names, as DuckDB and PostgreSQL
// have them.
var aggSynonyms = map[string]string{"var_samp": "variance", "stddev_samp": "stddev", "favg": "avg", "mean": "avg", "geometric_mean": "geomean", "arbitrary": "first"}

func (p *plan) aggSpec(c *Call) (s aggSpec, err error) {
	if fn, ok := aggSynonyms[c.Func]; ok { // named as written, computed as fn
		named := *c
		named.Func = fn
		c = &named
	}
	s = aggSpec{fn: c.Func, q: c.Q, sep: c.Sep, distinct: c.Distinct}
	defer func() { s.extra = needsExtra(s.fn) }() // s.fn is final on return
	if c.Filter != nil {
		f, err := p.compileExpr(c.Filter, false)
		if err != nil {
			return s, err
		}
		s.filter = f
	}
	if c.Star {
		s.out = kInt
		return s, nil
	}
	k, expr, err := p.aggInput(c, c.Arg, c.Expr)
	if err != nil {
		return s, err
	}
	s.arg, s.in, s.expr = c.Arg.Name, k, expr
	if bivariate[c.Func] {
		return p.bivariateSpec(c, s)
	}
	if fn := argExtremes[c.Func]; fn != "" {
		s.fn = fn
		if s.byIn, s.by, err = p.aggInput(c, c.By, c.ByExpr); err != nil {
			return s, err
		}
		if s.byArg = c.By.Name; s.byIn == kBool || s.byIn == kBytes || s.byIn == kOp {
			return s, p.errAt(c.By.Pos, "type mismatch: %s orders the rows by %s column %q, which has no order", c.Func, s.byIn, c.By.Name)
		}
		s.out = k
	}
	switch c.Func {
	case "count":
		s.out = kInt
		if c.Distinct {
			s.fn = "count_distinct"
		}
	case "sum":
		if !k.numeric() {
			return s, p.errAt(c.Arg.Pos, "type mismatch: sum of %s column %q (want a number)", k, c.Arg.Name)
		}
		s.out = k
	case "avg", "rate", "quantile", "median", "stddev", "stddev_pop", "variance", "var_pop":
		if !k.numeric() {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q (want a number)", c.Func, k, c.Arg.Name)
		}
		s.out = kFloat
		if c.Func == "median" {
			s.fn = "quantile"
		}
	case "skewness", "kurtosis", "kurtosis_pop", "geomean", "product", "mad":
		if !k.numeric() {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q (want a number)", c.Func, k, c.Arg.Name)
		}
		s.out = kFloat
	case "bit_and", "bit_or", "bit_xor":
		if k != kInt {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q (want an integer)", c.Func, k, c.Arg.Name)
		}
		s.out = kInt
	case "mode":
		if k == kBytes || k == kOp {
			return s, p.errAt(c.Arg.Pos, "type mismatch: mode of %s column %q", k, c.Arg.Name)
		}
		s.out = k
	case "entropy":
		s.out = kFloat
	case "quantile_disc":
		if !k.numeric() {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q (want a number)", c.Func, k, c.Arg.Name)
		}
		s.out = k
	case "spread":
		if !k.numeric() {
			return s, p.errAt(c.Arg.Pos, "type mismatch: spread of %s column %q (want a number)", k, c.Arg.Name)
		}
		s.out = k
	case "min", "max": // of bools too, false < true (bool_and, bool_or)
		if k == kBytes || k == kOp {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q", c.Func, k, c.Arg.Name)
		}
		s.out = k
	case "bool_and", "bool_or": // the min and the max of bools: false < true
		if k != kBool {
			return s, p.errAt(c.Arg.Pos, "type mismatch: %s of %s column %q (want a bool)", c.Func, k, c.Arg.Name)
		}
		s.fn, s.out = map[string]string{"bool_and": "min", "bool_or": "max"}[c.Func], kBool
	case "first", "last":
		s.out = k
	case "string_agg":
		if k != kString && k != kSeries && k != kKey {
			return s, p.errAt(c.Arg.Pos, "type mismatch: string_agg of %s %q (want text: CAST(%s AS VARCHAR))", k, c.Arg.Name, c.Arg.Name)
		}
		s.out = kString
		if c.By != nil { // ORDER BY: the key each text is sorted by
			if s.byIn, s.by, err = p.aggInput(c, c.By, c.ByExpr); err != nil {
				return s, err
			}
			if s.byArg = c.By.Name; s.byIn == kBytes || s.byIn == kOp {
				return s, p.errAt(c.By.Pos, "type mismatch: string_agg orders its texts by %s column %q, which has no order", s.byIn, c.By.Name)
			}
			s.byDesc, s.byNulls = c.ByDesc, c.ByNulls
			for _, t := range c.Then {
				k := aggKey{arg: t.Col.Name, desc: t.Desc, nulls: t.Nulls}
				if k.in, k.expr, err = p.aggInput(c, t.Col, t.Expr); err != nil {
					return s, err
				}
				if k.in == kBytes || k.in == kOp {
					return s, p.errAt(t.Col.Pos, "type mismatch: string_agg orders its texts by %s column %q, which has no order", k.in, t.Col.Name)
				}
				s.then = append(s.then, k)
			}
		}
	}
	instant := s.expr != nil && s.expr.ts || s.expr == nil && p.fields.instant(c.Arg.Name)
	if instant && s.out == kInt && c.Func != "count" && c.Func != "sum" && c.Func != "spread" && !strings.HasPrefix(c.Func, "bit_") {
		s.out = kTime // min(date_trunc('day', time)) is an instant
	}
	span := s.expr != nil && s.expr.dur || s.expr == nil && p.fields.duration(c.Arg.Name)
	switch {
	case span && s.out == kInt && durationAggs[c.Func]:
		s.out = kDuration // max(time - lag_time) is a span
	case span && s.out == kFloat && (s.fn == "avg" || s.fn == "quantile"):
		s.out = kDuration // the mean or median span, to the nanosecond
	}
	return s, nil
}

// aggInput plans an argument of aggregate c: the column arg, or the
// arithmetic expr on the row's columns.
func (p *plan) aggInput(c *Call, arg *ColRef, expr *Arith) (colKind, *arithPlan, error) {
	if expr != nil {
		if in := expr.firstAgg(); in != nil {
			return 0, nil, p.errAt(in.Pos, "aggregates do not nest: %s inside %s()", in.String(), c.Func)
		}
		ap, err := p.rawArith(expr)
		if err != nil {
			return 0, nil, err
		}
		return ap.kind, ap, nil
	}
	k, err := p.column(arg)
	if err != nil {
		return 0, nil, err
	}
	if k == kOp && (c.Func != "count" || c.Distinct) { // op as its name, text (min(op), string_agg(op), arg_max(x, op)...); count(op) counts rows as they are
		ap, err := p.rawArith(&Arith{Op: 'f', Func: "cast_varchar", Args: []*Arith{{Col: arg, Pos: arg.Pos}}, Pos: arg.Pos})
		return kString, ap, err
	}
	p.nd.add(arg.Name)
	return k, nil, nil
}

// textPoint is one value of a string_agg() group, at its row, with the
// key it is ordered by (ORDER BY in the call).
type textPoint struct {
	t, seq int64
	s      string
	key    value
	then   []value // the further ORDER BY terms' values
}

// ratePoint is one sample of a rate() group.
type ratePoint struct {
	t, seq int64
	v      float64
}

// aggState is the partial state of one aggregate in one group. States of
// the same group built by different workers merge exactly, but for float
// sums (avg, sum of floats, stddev), which merge to within an ulp: fsum
// keeps sum and avg from depending on how blocks fell to workers.
type aggState struct {
	n      int64 // values seen (non-null)
	sum    fsum  // sum, avg: the sum of the values
	sumI   int64
	ext    value        // min or max; arg_max, arg_min: the picked row's order value
	pair   *pairMoments // the bivariate aggregates
	hasExt bool
	// aggExtra holds what the other aggregates keep: nil until one adds
	// a value (more), so that a group of counts, sums, averages, minima
	// and maxima stays small (there may be millions of groups).
	*aggExtra
}

// aggExtra is the state of first, last, arg_max, arg_min, spread,
// stddev, variance, rate, string_agg, quantile and count(DISTINCT).
type aggExtra struct {
	sumF float64 // stddev, variance, skewness, kurtosis: the running mean; product: the product
	m2   float64 // stddev, variance: Welford's sum of squared deviations from the mean (in sumF)
	// skewness, kurtosis: the sums of the deviations' third and fourth
	// powers, updated and merged as Pébay gives them.
	m3, m4 float64
	edge   value // first or last value; arg_max, arg_min: the picked row's value; spread: the max
	edgeT  int64
	edgeS  int64
	pts    []ratePoint           // rate
	texts  []textPoint           // string_agg
	vals   []float64             // quantile
	set    map[string]struct{}   // count(DISTINCT x): the values, as distinctKey
	freq   map[string]*valueFreq // mode, entropy: each value's count, by distinctKey
}

// valueFreq is how often a value occurs in a group (mode, entropy), and
// where first: of values as frequent, mode takes the earliest by (time,
// seq), as DuckDB's, reading rows in order, takes the first.
type valueFreq struct {
	n      int64
	t, seq int64
	v      value
}

// needsExtra reports whether aggregate fn keeps an aggExtra.
func needsExtra(fn string) bool {
	switch fn {
	case "count", "sum", "avg", "min", "max", "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count",
		"geomean", "bit_and", "bit_or", "bit_xor":
		return false
	}
	return true
}

// more makes s's aggExtra when a needs one.
func (s *aggState) more(a *aggSpec) {
	if s.aggExtra == nil && a.extra {
		s.aggExtra = new(aggExtra)
	}
}

// addDistinct adds v to the set of count(DISTINCT) and reports whether it
// was not there yet.
func (s *aggState) addDistinct(a *aggSpec, v value) bool {
	if v.null {
		return false
	}
	s.n++ // values seen: merge skips a state without any
	if s.set == nil {
		s.set = map[string]struct{}{}
	}
	k := distinctKey(a.in, v)
	if _, ok := s.set[k]; ok {
		return false
	}
	s.set[k] = struct{}{}
	return true
}

// distinctKey is v as a map key: equal values (0 and -0, every NaN) give
// equal keys.
func distinctKey(k colKind, v value) string {
	switch k {
	case kFloat:
		f := v.fl()
		switch {
		case f == 0:
			f = 0
		case f != f:
			f = math.NaN()
		}
		return strconv.FormatUint(math.Float64bits(f), 16)
	case kBool:
		return strconv.FormatBool(v.bl())
	case kString, kSeries, kKey, kBytes:
		return v.s
	}
	return strconv.FormatInt(v.i, 16) // seq, time, op, int64
}

// add folds in value v of the row at time t and seq.
func (s *aggState) add(a *aggSpec, v value, t, seq int64) {
	if v.null {
		return
	}
	s.n++
	switch a.fn {
	case "sum", "avg":
		if a.in == kInt {
			s.sumI += v.i
			s.sum.add(float64(v.i))
		} else {
			s.sum.add(v.fl())
		}
	case "min", "max":
		s.addExt(a, v)
	case "stddev", "stddev_pop", "variance", "var_pop":
		x := num(a.in, v)
		d := x - s.sumF
		s.sumF += d / float64(s.n)
		s.m2 += d * (x - s.sumF)
	case "skewness", "kurtosis", "kurtosis_pop":
		s.addMoments(num(a.in, v))
	case "geomean":
		s.sum.add(math.Log(num(a.in, v)))
	case "product":
		if x := num(a.in, v); s.n == 1 {
			s.sumF = x
		} else {
			s.sumF *= x
		}
	case "mad":
		s.vals = append(s.vals, num(a.in, v))
	case "mode", "entropy":
		s.addFreq(a, v, 1, t, seq)
	case "bit_and", "bit_or", "bit_xor":
		s.sumI = bitOp(a.fn, s.n == 1, s.sumI, v.i)
	case "spread":
		s.addSpread(a, v, v)
	case "first", "last":
		if s.n == 1 || edgeBefore(a.fn == "first", t, seq, s.edgeT, s.edgeS) {
			s.edge, s.edgeT, s.edgeS = v, t, seq
		}
	case "rate":
		s.pts = append(s.pts, ratePoint{t, seq, num(a.in, v)})
	case "string_agg":
		s.texts = append(s.texts, textPoint{t: t, seq: seq, s: v.s})
	case "quantile", "quantile_disc":
		s.vals = append(s.vals, num(a.in, v))
	}
}

// addArg folds in the row at time t and seq with value v, ordered by k
// (arg_max, arg_min); a row without either is skipped.
func (s *aggState) addArg(a *aggSpec, v, k value, t, seq int64) {
	if a.fn == "string_agg" { // a text and its sort key, which may be null
		if !v.null {
			s.add(a, v, t, seq)
			s.texts[len(s.texts)-1].key = k
		}
		return
	}
	if v.null || k.null {
		return
	}
	s.n++
	s.pickArg(a, v, k, t, seq)
}

// pickArg makes the row (v ordered by k, at t and seq) the pick when k
// is beyond the pick's or, equal, the row is earlier by (time, seq): the
// answer does not depend on the order rows come in.
func (s *aggState) pickArg(a *aggSpec, v, k value, t, seq int64) {
	if s.hasExt {
		c := compareValues(a.byIn, k, s.ext)
		if a.fn == "arg_min" {
			c = -c
		}
		if c < 0 || c == 0 && !edgeBefore(true, t, seq, s.edgeT, s.edgeS) {
			return
		}
	}
	s.ext, s.edge, s.edgeT, s.edgeS, s.hasExt = k, v, t, seq, true
}

func num(k colKind, v value) float64 {
	if k == kInt || k == kDuration {
		return float64(v.i)
	}
	return v.fl()
}

func (s *aggState) addExt(a *aggSpec, v value) {
	if !s.hasExt {
		s.ext, s.hasExt = v, true
	} else if c := compareValues(a.in, v, s.ext); c < 0 && a.fn == "min" || c > 0 && a.fn == "max" {
		s.ext = v
	}
}

// addSpread widens the spread's range, min in ext and max in edge, to
// lo and hi.
func (s *aggState) addSpread(a *aggSpec, lo, hi value) {
	if !s.hasExt {
		s.ext, s.edge, s.hasExt = lo, hi, true
		return
	}
	if compareValues(a.in, lo, s.ext) < 0 {
		s.ext = lo
	}
	if compareValues(a.in, hi, s.edge) > 0 {
		s.edge = hi
	}
}

// edgeBefore reports whether the row at (t, seq) comes before (first)
// or after (last) the current edge at (et, es).
func edgeBefore(first bool, t, seq, et, es int64) bool {
	if first {
		return t < et || t == et && seq < es
	}
	return t > et || t == et && seq > es
}

// merge folds o into s.
func (s *aggState) merge(a *aggSpec, o *aggState) {
	if o.n == 0 {
		return
	}
	s.more(a)
	switch a.fn {
	case "min", "max":
		if o.hasExt {
			s.addExt(a, o.ext)
		}
	case "first", "last":
		if s.n == 0 || edgeBefore(a.fn == "first", o.edgeT, o.edgeS, s.edgeT, s.edgeS) {
			s.edge, s.edgeT, s.edgeS = o.edge, o.edgeT, o.edgeS
		}
	case "arg_max", "arg_min":
		s.pickArg(a, o.edge, o.ext, o.edgeT, o.edgeS)
	case "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count":
		s.mergePairs(o)
		return
	case "skewness", "kurtosis", "kurtosis_pop":
		s.mergeMoments(o)
		return
	case "product":
		if s.n == 0 {
			s.sumF = o.sumF
		} else {
			s.sumF *= o.sumF
		}
		s.n += o.n
		return
	case "bit_and", "bit_or", "bit_xor":
		s.sumI = bitOp(a.fn, s.n == 0, s.sumI, o.sumI)
		s.n += o.n
		return
	case "mode", "entropy":
		for _, f := range o.freq {
			s.addFreq(a, f.v, f.n, f.t, f.seq)
		}
		s.n += o.n
		return
	case "stddev", "stddev_pop", "variance", "var_pop":
		// Chan et al.'s combination of two partial (n, mean, m2).
		n := float64(s.n + o.n)
		d := o.sumF - s.sumF
		s.sumF += d * float64(o.n) / n
		s.m2 += o.m2 + d*d*float64(s.n)*float64(o.n)/n
		s.n += o.n
		return
	case "spread":
		if o.hasExt {
			s.addSpread(a, o.ext, o.edge)
		}
	}
	s.n += o.n
	s.sum.merge(o.sum)
	s.sumI += o.sumI
	if o.aggExtra == nil {
		return
	}
	s.pts = append(s.pts, o.pts...)
	s.texts = append(s.texts, o.texts...)
	s.vals = append(s.vals, o.vals...)
	if s.set == nil {
		s.set = o.set
	} else {
		for k := range o.set {
			s.set[k] = struct{}{}
		}
	}
}

// result returns the aggregate's value.
func (s *aggState) result(a *aggSpec) value {
	s.more(a) // a group without a value has none yet
	switch a.fn {
	case "count":
		return value{i: s.n}
	case "regr_count":
		return value{i: s.n}
	case "count_distinct":
		return value{i: int64(len(s.set))}
	case "entropy": // 0 for no value, as DuckDB's
		return fv(s.entropy())
	}
	if s.n == 0 {
		return nullValue
	}
	switch a.fn {
	case "sum":
		if a.out == kInt || a.out == kDuration {
			return value{i: s.sumI}
		}
		return fv(s.sum.value())
	case "avg":
		if a.out == kDuration {
			return value{i: int64(math.Round(s.sum.value() / float64(s.n)))}
		}
		return fv(s.sum.value() / float64(s.n))
	case "min", "max":
		return s.ext
	case "first", "last", "arg_max", "arg_min":
		return s.edge
	case "string_agg": // in (time, seq) order, or by the ORDER BY key, then so: the same whatever the workers
		slices.SortFunc(s.texts, func(x, y textPoint) int {
			if a.by != nil || a.byArg != "" {
				if c := compareOrdered(a.byIn, x.key, y.key, a.byDesc, a.byNulls); c != 0 {
					return c
				}
				for i, k := range a.then {
					if c := compareOrdered(k.in, x.then[i], y.then[i], k.desc, k.nulls); c != 0 {
						return c
					}
				}
			}
			return cmp.Or(cmp.Compare(x.t, y.t), cmp.Compare(x.seq, y.seq))
		})
		var sb strings.Builder
		var seen map[string]bool
		if a.distinct {
			seen = make(map[string]bool, len(s.texts))
		}
		n := 0
		for _, x := range s.texts {
			if seen != nil {
				if seen[x.s] {
					continue
				}
				seen[x.s] = true
			}
			if n++; n > 1 {
				sb.WriteString(a.sep)
			}
			sb.WriteString(x.s)
		}
		return value{s: sb.String()}
	case "rate":
		r, ok := rate(s.pts)
		if !ok {
			return nullValue
		}
		return fv(r)
	case "quantile":
		if a.out == kDuration {
			return value{i: int64(math.Round(quantile(s.vals, a.q)))}
		}
		return fv(quantile(s.vals, a.q))
	case "quantile_disc":
		if x := quantileDisc(s.vals, a.q); a.out == kInt || a.out == kDuration {
			return value{i: int64(x)} // exact up to 2^53, as the values were held
		} else {
			return fv(x)
		}
	case "variance", "stddev":
		if s.n < 2 { // the sample variance of one value is undefined
			return nullValue
		}
		v := max(s.m2, 0) / float64(s.n-1)
		if a.fn == "stddev" {
			v = math.Sqrt(v)
		}
		return fv(v)
	case "skewness", "kurtosis", "kurtosis_pop":
		return s.momentResult(a.fn)
	case "geomean":
		return fv(math.Exp(s.sum.value() / float64(s.n)))
	case "product":
		return fv(s.sumF)
	case "mad":
		return fv(mad(s.vals))
	case "mode":
		return s.mode()
	case "bit_and", "bit_or", "bit_xor":
		return value{i: s.sumI}
	case "var_pop", "stddev_pop":
		v := max(s.m2, 0) / float64(s.n)
		if a.fn == "stddev_pop" {
			v = math.Sqrt(v)
		}
		return fv(v)
	case "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count":
		return s.pairResult(a.fn)
	case "spread":
		if a.out == kInt {
			d := s.edge.i - s.ext.i
			if d < 0 { // overflow
				return nullValue
			}
			return value{i: d}
		}
		return fv(s.edge.fl() - s.ext.fl())
	}
	return nullValue
}

// rate is the per-second rate of increase of a counter over its samples,
// ordered by (time, seq): the increase is the sum of the differences of
// successive samples, where a sample below its predecessor is a counter
// reset and counts as an increase by its own value (the counter
// restarted from 0), exactly as Prometheus' rate() treats resets; it is
// divided by the seconds between the first and the last sample. Unlike
// Prometheus there is no extrapolation to the bucket's edges. It needs
// two samples at different times.
func rate(pts []ratePoint) (float64, bool) {
	if len(pts) < 2 {
		return 0, false
	}
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].t != pts[j].t {
			return pts[i].t < pts[j].t
		}
		return pts[i].seq < pts[j].seq
	})
	span := float64(pts[len(pts)-1].t-pts[0].t) / 1e9
	if span <= 0 {
		return 0, false
	}
	var inc float64
	for i := 1; i < len(pts); i++ {
		if d := pts[i].v - pts[i-1].v; d >= 0 {
			inc += d
		} else {
			inc += pts[i].v
		}
	}
	return inc / span, true
}

// quantile is the exact q-quantile of vals with linear interpolation
// between the closest ranks (h = (n-1)q; NumPy's default, R's type 7).
// NaNs sort last.
func quantile(vals []float64, q float64) float64 {
	sortFloats(vals)
	h := float64(len(vals)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(vals)-1 {
		return vals[len(vals)-1]
	}
	return vals[lo] + (h-float64(lo))*(vals[lo+1]-vals[lo])
}

// sortFloats sorts vals, NaN above every number.
func sortFloats(vals []float64) { slices.SortFunc(vals, cmpFloat) }

// group is one group's values and aggregate states.
type group struct {
	vals   []value // one per groupSpec
	states []aggState
	filled bool // added by FILL: a bucket without rows
}

// groups is a partial aggregation: a worker's, or the merged total.
// Groups are found in two steps: by their non-bucket values joined into
// a string (few distinct: series, labels), then by bucket, so that the
// common lookup is an int64 one and the string one can be cached per
// block by dictionary code.
type groups struct {
	m       map[string]*buckets
	qvalues int64
	n       int // groups
	slab    groupSlab
}

// groupSlab hands out groups, their values and their states from
// arrays of many, so that a new group costs no allocation of its own
// (there may be millions; all live as long as the aggregation).
type groupSlab struct {
	groups []group
	vals   []value
	states []aggState
}

// slabSize is the groups of one array of a groupSlab.
const slabSize = 256

// newGroup returns a group of a copy of vals and nStates empty states.
func (s *groupSlab) newGroup(vals []value, nStates int) *group {
	if len(s.groups) == 0 {
		s.groups = make([]group, slabSize)
	}
	g := &s.groups[0]
	s.groups = s.groups[1:]
	if n := len(vals); n > 0 {
		if len(s.vals) < n {
			s.vals = make([]value, slabSize*n)
		}
		g.vals, s.vals = s.vals[:n:n], s.vals[n:]
		copy(g.vals, vals)
	}
	if nStates > 0 {
		if len(s.states) < nStates {
			s.states = make([]aggState, slabSize*nStates)
		}
		g.states, s.states = s.states[:nStates:nStates], s.states[nStates:]
	}
	return g
}

// buckets are the groups of one combination of non-bucket values.
type buckets struct {
	m map[int64]*group
}

func newGroups() *groups { return &groups{m: map[string]*buckets{}} }

func (gs *groups) rest(key string) *buckets {
	bk := gs.m[key]
	if bk == nil {
		bk = &buckets{m: map[int64]*group{}}
		gs.m[key] = bk
	}
	return bk
}

// restOf is rest of the key's bytes (copied only when new).
func (gs *groups) restOf(key []byte) *buckets {
	if bk := gs.m[string(key)]; bk != nil {
		return bk
	}
	return gs.rest(string(key))
}

// bucketBounds returns the bucket of width d (> 0) holding t, [lo, hi),
// saturating at the ends of int64: the bucket holding math.MinInt64
// starts there (its aligned start lies below), the last one ends at
// math.MaxInt64.
func bucketBounds(t, d int64) (lo, hi int64) {
	lo = t - t%d // t's bucket for t >= 0, the next one up for t < 0
	if t%d < 0 {
		if lo < math.MinInt64+d {
			return math.MinInt64, lo
		}
		lo -= d
	}
	if lo > math.MaxInt64-d {
		return lo, math.MaxInt64
	}
	return lo, lo + d
}

func appendKeyPart(dst []byte, k colKind, v value) []byte {
	if v.null {
		return append(dst, "\x00n"...)
	}
	dst = append(dst, "\x00v"...)
	switch k {
	case kSeries, kKey, kString, kBytes:
		return append(dst, v.s...)
	case kFloat:
		return strconv.AppendUint(dst, math.Float64bits(v.fl()), 16)
	case kBool:
		return strconv.AppendBool(dst, v.bl())
	}
	return strconv.AppendInt(dst, v.i, 10)
}

// merge folds o into gs.
func (a *aggPlan) merge(gs, o *groups) error {
	for k, ob := range o.m {
		bk := gs.m[k]
		if bk == nil {
			gs.m[k] = ob
			gs.n += len(ob.m)
			continue
		}
		for bucket, g := range ob.m {
			t := bk.m[bucket]
			if t == nil {
				bk.m[bucket] = g
				gs.n++
				continue
			}
			for ai := range a.aggs {
				t.states[ai].merge(&a.aggs[ai], &g.states[ai])
			}
		}
	}
	gs.qvalues += o.qvalues
	if gs.n > maxGroups {
		return errTooManyGroups
	}
	if gs.qvalues > maxQuantileValues {
		return errTooManyValues
	}
	return nil
}

// sorted returns the groups ordered by their values in GROUP BY order.
// The non-bucket values are ranked once per distinct combination, so
// the sort compares integers: (rank of the values before the bucket
// term, bucket, rank of the values after it).
func (a *aggPlan) sorted(gs *groups) []*group {
	p := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.kind == gBucket })
	if p < 0 {
		p = len(a.groups)
	}
	type restEnt struct {
		bk     *buckets
		vals   []value
		r1, r2 int32
	}
	rests := make([]*restEnt, 0, len(gs.m))
	for _, bk := range gs.m {
		for _, g := range bk.m {
			rests = append(rests, &restEnt{bk: bk, vals: g.vals})
			break
		}
	}
	rank := func(lo, hi int, set func(e *restEnt, r int32)) {
		cmp := func(x, y *restEnt) int {
			for gi := lo; gi < hi; gi++ {
				if c := compareValuePtrs(a.groups[gi].out, &x.vals[gi], &y.vals[gi]); c != 0 {
					return c
				}
			}
			return 0
		}
		slices.SortFunc(rests, cmp)
		var r int32
		for i, e := range rests {
			if i > 0 && cmp(rests[i-1], e) != 0 {
				r++
			}
			set(e, r)
		}
	}
	rank(0, p, func(e *restEnt, r int32) { e.r1 = r })
	rank(min(p+1, len(a.groups)), len(a.groups), func(e *restEnt, r int32) { e.r2 = r })
	type ent struct {
		r1     int32
		r2     int32
		bucket int64
		g      *group
	}
	ents := make([]ent, 0, gs.n+1)
	for _, e := range rests {
		for bucket, g := range e.bk.m {
			ents = append(ents, ent{e.r1, e.r2, bucket, g})
		}
	}
	slices.SortFunc(ents, func(x, y ent) int {
		if x.r1 != y.r1 {
			return cmp3(int64(x.r1), int64(y.r1))
		}
		if x.bucket != y.bucket {
			return cmp3(x.bucket, y.bucket)
		}
		return cmp3(int64(x.r2), int64(y.r2))
	})
	list := make([]*group, len(ents))
	for i := range ents {
		list[i] = ents[i].g
	}
	return list
}

// rows returns the result rows in group order (bucket, then the other
// group values). Without GROUP BY there is always one row.
func (a *aggPlan) rows(gs *groups, out []outCol) [][]value {
	if len(a.groups) == 0 && len(gs.m) == 0 {
		gs.rest("").m[0] = &group{states: make([]aggState, len(a.aggs))}
	}
	list := a.sorted(gs)
	rows := make([][]value, len(list))
	var filled []bool // FILL(linear): the rows to interpolate
	if a.fill != nil && a.fill.Kind == "linear" {
		filled = make([]bool, len(list))
	}
	for i, g := range list {
		if filled != nil {
			filled[i] = g.filled
		}
		row := make([]value, len(a.outOf))
		for c, o := range a.outOf {
			switch {
			case o.g >= 0:
				row[c] = g.vals[o.g]
			case o.a >= 0:
				row[c] = g.states[o.a].result(&a.aggs[o.a])
				if g.filled && a.fill.Kind == "value" {
					switch a.aggs[o.a].out {
					case kInt, kDuration: // a span: FILL(0) is 00:00:00
						row[c] = value{i: int64(a.fill.Value)}
					case kFloat:
						row[c] = fv(a.fill.Value)
					}
				}
			}
		}
		rows[i] = row
	}
	if filled != nil {
		a.linearFill(rows, filled, out)
	}
	for _, row := range rows {
		for c := range row {
			if ap := out[c].expr; ap != nil {
				row[c] = ap.eval(func(l *arithPlan) value { return row[l.idx] })
			}
		}
	}
	return rows
}

// groupAlias returns the expression a GROUP BY name stands for when it
// is not a column but the alias of a computed SELECT item (SELECT
// hour(time) AS h ... GROUP BY h); nil otherwise.
func groupAlias(st *Statement, name string, fields *fieldSet) *Arith {
	if _, ok := kindOfCol(name, fields); ok {
		return nil
	}
	for _, it := range st.Items {
		if it.Alias == name && it.Expr != nil && !it.Expr.hasAgg() {
			return it.Expr
		}
	}
	return nil
}

// aggAliasRefs returns x with each column that is no column of the
// stream nor a group but the alias of an aggregate SELECT item
// (SELECT avg(value) AS a ... OVER (ORDER BY a), lag(a)) replaced by
// the item's arithmetic, as DuckDB reads a window's terms.
func (p *plan) aggAliasRefs(x *Arith) *Arith {
	if x == nil || x.Agg != nil || x.Lit != nil || x.Scalar != nil {
		return x
	}
	if x.Col != nil {
		name := x.Col.Name
		if _, ok := kindOfCol(name, p.fields); ok || slices.ContainsFunc(p.agg.groups, func(g groupSpec) bool { return g.name == name }) {
			return x
		}
		for _, it := range p.st.Items {
			switch {
			case it.Alias != name:
			case it.Agg != nil:
				return &Arith{Agg: it.Agg, Pos: x.Pos}
			case it.Expr != nil && it.Expr.hasAgg():
				return it.Expr
			}
		}
		return x
	}
	return x.withChildren(p.aggAliasRefs)
}

// rowAliasRefs returns x with each column that is no column of the
// stream but the alias of a SELECT item computed from the row alone (no
// aggregate, no window) replaced by the item's value: ORDER BY abs(x -
// 50) after SELECT value AS x, as DuckDB reads it. A column's own name
// comes first, then an alias, then a series label.
func rowAliasRefs(st *Statement, fields *fieldSet, x *Arith) *Arith {
	if x == nil || x.Agg != nil || x.Lit != nil || x.Scalar != nil || x.Win != nil {
		return x
	}
	if x.Col != nil {
		if e := groupAlias(st, x.Col.Name, fields); e != nil && !e.hasWin() {
			return e
		}
		if c := groupColumnAlias(st, x.Col.Name, fields); c != nil {
			return &Arith{Col: c, Pos: x.Pos}
		}
		return x
	}
	return x.withChildren(func(y *Arith) *Arith { return rowAliasRefs(st, fields, y) })
}

// groupColumnAlias returns the column a GROUP BY name stands for when
// it is not a column but the alias of a column SELECT item (SELECT
// value AS v ... GROUP BY v); nil otherwise. A column's name comes
// first, then an alias, then a series label.
func groupColumnAlias(st *Statement, name string, fields *fieldSet) *ColRef {
	if _, ok := kindOfCol(name, fields); ok {
		return nil
	}
	for _, it := range st.Items {
		if it.Alias == name && it.Col != nil {
			return it.Col
		}
	}
	return nil
}

// groupRefs returns x with each part that is a computed group (GROUP BY
// lower(s): lower(s), or the alias it was grouped by) read from the
// group's column: concat(lower(s), '!') after GROUP BY lower(s).
func (p *plan) groupRefs(x *Arith) *Arith {
	if x == nil || x.Agg != nil || x.Lit != nil {
		return x
	}
	name := x.String()
	if x.Col != nil { // an alias of a computed group
		if e := groupAlias(p.st, x.Col.Name, p.fields); e != nil {
			name = e.String()
		}
	}
	for _, g := range p.agg.groups {
		if g.kind == gExpr && g.name == name {
			return &Arith{Col: &ColRef{Name: name, Pos: x.Pos}, Pos: x.Pos}
		}
	}
	if x.Col != nil {
		return x
	}
	y := x.withChildren(p.groupRefs)
	y.Whens = nil
	for _, w := range x.Whens {
		y.Whens = append(y.Whens, CaseWhen{Cond: w.Cond, Then: p.groupRefs(w.Then)})
	}
	return y
}
