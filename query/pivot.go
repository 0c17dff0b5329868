package query

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// PIVOT <source> ON x[, y ...] [IN (v, ...)] USING agg(...) [AS name][,
// ...] [GROUP BY ...] [ORDER BY ...] [LIMIT n], as DuckDB has it: a
// column for each value of x (each combination of x, y, ...), holding
// the aggregate of the group's rows with that value. It runs as
//
//	SELECT agg(...) FILTER (WHERE x = v1) AS "v1", agg(...) FILTER (WHERE x = v2) AS "v2", ...
//	FROM <source> GROUP BY ...
//
// the values being IN's, else the distinct ones of the source but NULL,
// in order (numbers by value, where DuckDB orders them as text; one scan
// more). A column is named by its values joined by "_", and
// "_" and the aggregate's name after them when USING has more than one
// or names it. Without GROUP BY the result is one row.

// Pivot is a PIVOT's ON, IN and USING.
type Pivot struct {
	On    []*Arith
	In    []*Lit // the values of On[0], when given
	Using []SelectItem
	Pos   int
}

// maxPivotColumns bounds the columns a PIVOT makes.
const maxPivotColumns = 1000

// pivotOrUnpivot parses PIVOT ... or UNPIVOT ... into st, a statement
// or a subquery (FROM (PIVOT ...)).
func (p *parser) pivotOrUnpivot(st *Statement) {
	t := p.advance()
	if isKw(t, "pivot") {
		p.pivotStmt(st, t.pos)
		return
	}
	p.unpivotStmt(st, t.pos)
}

// pivotStmt parses the rest of PIVOT (at pos).
func (p *parser) pivotStmt(st *Statement, pos int) {
	pv := &Pivot{Pos: pos}
	st.Pivot = pv
	p.source(st)
	if t := p.peek(); !p.acceptKw("on") {
		p.fail(t.pos, "PIVOT wants ON <column> after its source, found %s", t.describe())
	}
	for {
		start := p.i
		on := p.arith()
		if !isKw(p.peek(), "in") && p.condFollows(p.i) { // ON v > 50: a condition's value
			p.i = start
			on = p.valueOrCond()
		}
		pv.On = append(pv.On, on)
		if !p.acceptPunct(",") {
			break
		}
	}
	if t := p.peek(); p.acceptKw("in") {
		if len(pv.On) > 1 {
			p.fail(t.pos, "IN (...) lists the values of one ON column; with several, leave it out")
		}
		p.expectPunct("(")
		for {
			pv.In = append(pv.In, p.literal())
			if !p.acceptPunct(",") {
				break
			}
		}
		p.expectPunct(")")
	}
	if t := p.peek(); !p.acceptKw("using") {
		p.fail(t.pos, "PIVOT wants USING <aggregate> after ON, found %s", t.describe())
	}
	for {
		it := SelectItem{Pos: p.peek().pos}
		a := p.arith()
		if a.firstAgg() == nil {
			p.fail(a.Pos, "PIVOT ... USING wants an aggregate such as avg(value), found %s", a.String())
		}
		it.Agg, it.Expr = a.Agg, a
		if a.Agg != nil {
			it.Expr = nil
		}
		p.alias(&it)
		pv.Using = append(pv.Using, it)
		if !p.acceptPunct(",") {
			break
		}
	}
	if p.acceptKw("group") {
		p.expectKw("by")
		p.groupList(st)
		p.fill(st)
	}
	if p.acceptKw("order") {
		p.expectKw("by")
		for {
			st.OrderBy = append(st.OrderBy, p.orderItem())
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if p.acceptKw("limit") {
		st.Limit = p.count("LIMIT")
	}
}

// execPivot runs PIVOT st as the SELECT it stands for.
func execPivot(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	pv := st.Pivot
	combos := [][]*Lit{}
	for _, l := range pv.In {
		combos = append(combos, []*Lit{l})
	}
	if pv.In == nil {
		var err error
		if combos, err = pivotValues(ctx, st, text, open, o); err != nil {
			return nil, err
		}
	}
	if n := len(combos) * len(pv.Using); n > maxPivotColumns {
		return nil, errAt(text, pv.Pos, "PIVOT makes %d columns, more than %d: list the values with ON x IN (...), or narrow the source", n, maxPivotColumns)
	}
	sel := *st
	sel.Pivot, sel.Items = nil, nil
	for _, combo := range combos {
		var names []string
		var filter Expr
		for i, l := range combo {
			names = append(names, pivotName(l))
			var e Expr
			if l.Kind == LitNull {
				e = &ExprMatch{X: pv.On[i], Null: true, Pos: pv.On[i].Pos}
			} else {
				e = &ArithCompare{L: pv.On[i], R: &Arith{Lit: l, Pos: l.Pos}, Op: "=", Pos: pv.On[i].Pos}
			}
			if filter == nil {
				filter = e
			} else {
				filter = &And{filter, e}
			}
		}
		for _, u := range pv.Using {
			name := strings.Join(names, "_")
			if len(pv.Using) > 1 || u.Alias != "" {
				name += "_" + cmp.Or(u.Alias, u.Name())
			}
			it := SelectItem{Alias: name, Pos: u.Pos}
			if u.Agg != nil {
				it.Agg = filtered(u.Agg, filter)
			} else {
				it.Expr = filteredArith(u.Expr, filter)
			}
			sel.Items = append(sel.Items, it)
		}
	}
	if len(sel.Items) == 0 { // no value (an empty source): the groups alone
		if len(sel.GroupBy) == 0 {
			return nil, errAt(text, pv.Pos, "PIVOT: ON has no value in the source (it has no rows), so there is no column to make")
		}
		for _, g := range sel.GroupBy {
			switch {
			case g.Bucket != 0:
				sel.Items = append(sel.Items, SelectItem{Col: &ColRef{Name: ColTime, Pos: g.Pos}, Pos: g.Pos})
			case g.Col != nil:
				sel.Items = append(sel.Items, SelectItem{Col: g.Col, Pos: g.Pos})
			default:
				sel.Items = append(sel.Items, SelectItem{Expr: g.Expr, Pos: g.Pos})
			}
		}
	}
	return exec(ctx, &sel, text, open, o)
}

// filtered is a copy of aggregate c taking only the rows f passes too.
func filtered(c *Call, f Expr) *Call {
	d := *c
	if d.Filter != nil {
		d.Filter = &And{d.Filter, f}
	} else {
		d.Filter = f
	}
	return &d
}

// filteredArith is a copy of a whose aggregates are filtered by f.
func filteredArith(a *Arith, f Expr) *Arith {
	if a == nil {
		return nil
	}
	d := *a
	if d.Agg != nil {
		d.Agg = filtered(d.Agg, f)
	}
	d.L, d.R = filteredArith(a.L, f), filteredArith(a.R, f)
	if a.Args != nil {
		d.Args = make([]*Arith, len(a.Args))
		for i, x := range a.Args {
			d.Args[i] = filteredArith(x, f)
		}
	}
	return &d
}

// pivotValues returns the combinations of the distinct values of st's ON
// terms in the source (each term's, crossed, NULL left out), in order.
func pivotValues(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([][]*Lit, error) {
	pv := st.Pivot
	q := *st
	q.Pivot, q.Items, q.GroupBy, q.OrderBy, q.Limit, q.Offset, q.Explain, q.Analyze = nil, nil, nil, nil, -1, 0, false, false
	q.Fill = nil
	for i, on := range pv.On {
		if on.Col != nil {
			q.Items = append(q.Items, SelectItem{Col: on.Col, Alias: fmt.Sprintf("\x00on %d", i), Pos: on.Pos})
			q.GroupBy = append(q.GroupBy, GroupItem{Col: on.Col, Pos: on.Pos})
			continue
		}
		q.Items = append(q.Items, SelectItem{Expr: on, Alias: fmt.Sprintf("\x00on %d", i), Pos: on.Pos})
		q.GroupBy = append(q.GroupBy, GroupItem{Expr: on, Pos: on.Pos})
	}
	rr, err := exec(ctx, &q, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	values := make([][]*Lit, len(pv.On)) // each term's, distinct
	seen := make([]map[string]bool, len(pv.On))
	n := rr.Schema().NumFields()
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := range int(rec.NumRows()) {
			for i := range pv.On {
				l, err := litAt(rec.Column(n-len(pv.On)+i), r)
				if err != nil {
					return nil, errAt(text, pv.On[i].Pos, "PIVOT ON %s: %v", pv.On[i].String(), err)
				}
				if l.Kind == LitNull { // no column, as in DuckDB (IN (NULL) makes one)
					continue
				}
				if seen[i] == nil {
					seen[i] = map[string]bool{}
				}
				if k := fmt.Sprint(l.Kind, pivotName(l)); !seen[i][k] {
					if len(seen[i]) == maxPivotColumns {
						return nil, errAt(text, pv.On[i].Pos, "PIVOT ON %s gives more than %d values: list the ones wanted with ON x IN (...), or narrow the source", pv.On[i].String(), maxPivotColumns)
					}
					seen[i][k] = true
					l.Pos = pv.On[i].Pos
					values[i] = append(values[i], l)
				}
			}
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	combos := [][]*Lit{{}}
	for _, vs := range values {
		slices.SortFunc(vs, compareLits)
		var next [][]*Lit
		for _, c := range combos {
			for _, v := range vs {
				next = append(next, append(slices.Clip(c), v))
			}
			if len(next) > maxPivotColumns {
				return nil, errAt(text, pv.Pos, "PIVOT makes more than %d columns: list the values with ON x IN (...), or narrow the source", maxPivotColumns)
			}
		}
		combos = next
	}
	if len(values) == 0 || len(values[0]) == 0 {
		return nil, nil // an empty source: no value, no column
	}
	return combos, nil
}

// litAt is row r of column a as a literal.
func litAt(a arrow.Array, r int) (*Lit, error) {
	if a.IsNull(r) {
		return &Lit{Kind: LitNull}, nil
	}
	switch a := a.(type) {
	case *array.Int64:
		return &Lit{Kind: LitInt, Int: a.Value(r)}, nil
	case *array.Uint64:
		if a.Value(r) > math.MaxInt64 {
			return nil, fmt.Errorf("value %d beyond int64", a.Value(r))
		}
		return &Lit{Kind: LitInt, Int: int64(a.Value(r))}, nil
	case *array.Timestamp: // Int orders it, Str names it
		ns := int64(a.Value(r))
		return &Lit{Kind: LitTime, Int: ns, Str: time.Unix(0, ns).UTC().Format(time.RFC3339Nano)}, nil
	case *array.Float64:
		return &Lit{Kind: LitFloat, Float: a.Value(r)}, nil
	case *array.Boolean:
		return &Lit{Kind: LitBool, Bool: a.Value(r)}, nil
	}
	s, _, err := textAt(a, r)
	if err != nil {
		return nil, fmt.Errorf("a column of %s cannot be a column name", a.DataType())
	}
	return &Lit{Kind: LitString, Str: s}, nil
}

// compareLits orders two pivot values of one ON term: NULL last.
func compareLits(a, b *Lit) int {
	switch {
	case a.Kind == LitNull || b.Kind == LitNull:
		return cmp.Compare(boolInt(a.Kind == LitNull), boolInt(b.Kind == LitNull))
	case a.Kind == LitInt && b.Kind == LitInt, a.Kind == LitTime && b.Kind == LitTime:
		return cmp.Compare(a.Int, b.Int)
	case a.Kind == LitFloat || b.Kind == LitFloat:
		return cmp.Compare(litFloat(a), litFloat(b))
	case a.Kind == LitBool:
		return cmp.Compare(boolInt(a.Bool), boolInt(b.Bool))
	}
	return strings.Compare(a.Str, b.Str)
}

func litFloat(l *Lit) float64 {
	if l.Kind == LitInt {
		return float64(l.Int)
	}
	return l.Float
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pivotName is the text of a pivot value in its column's name.
func pivotName(l *Lit) string {
	switch l.Kind {
	case LitNull:
		return "NULL"
	case LitString, LitTime:
		return l.Str
	case LitInt:
		return strconv.FormatInt(l.Int, 10)
	case LitFloat:
		return strconv.FormatFloat(l.Float, 'g', -1, 64)
	case LitBool:
		return strconv.FormatBool(l.Bool)
	}
	return l.String()
}
