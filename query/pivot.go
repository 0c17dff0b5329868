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
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PIVOT <source> ON x[, y ...] [IN (v, ...)] USING agg(...) [AS name][,
// ...] [GROUP BY ...] [ORDER BY ...] [LIMIT n], as DuckDB has it: a
// column for each value of x (each combination of x, y, ...), holding
// the aggregate of the group's rows with that value. It runs as
//
//	SELECT agg(...), x, y FROM <source> GROUP BY ..., x, y
//
// (so that it takes the aggregates' fast paths), whose rows are then
// spread into columns: the values are IN's, else the distinct ones the
// result has but NULL, in order (numbers by value, where DuckDB orders
// them as text). A column is named by its values joined by "_", and "_"
// and the aggregate's name after them when USING has more than one or
// names it. Without GROUP BY it groups by the columns ON and USING leave
// (pivotImplicitGroup).

// Pivot is a PIVOT's ON, IN and USING.
type Pivot struct {
	On    []*Arith
	In    []*Lit // the values of On[0], when given
	Using []SelectItem
	Pos   int
	// OrderAll: ORDER BY ALL, its direction; nil otherwise
	OrderAll *OrderItem
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
	if t := p.peek(); p.acceptKw("group") {
		p.expectKw("by")
		p.groupList(st)
		if st.groupingSets != nil {
			p.fail(t.pos, "PIVOT's GROUP BY takes plain terms: ROLLUP, CUBE and GROUPING SETS are not supported (pivot a SELECT that has them)")
		}
		p.fill(st)
	}
	p.orderLimit(st)
}

// orderLimit parses [ORDER BY ...] [LIMIT n] after a PIVOT, UNPIVOT or VALUES:
// they apply to its result. A PIVOT's ORDER BY ALL orders by every
// column, left to right, once they are known (Pivot.OrderAll).
func (p *parser) orderLimit(st *Statement) {
	if p.acceptKw("order") {
		p.expectKw("by")
		if t := p.peek(); isKw(t, "all") {
			p.advance()
			if st.Pivot == nil {
				p.fail(t.pos, "ORDER BY ALL is not supported here: name the columns")
			}
			desc, nulls := p.direction()
			st.Pivot.OrderAll = &OrderItem{Desc: desc, Nulls: nulls, Pos: t.pos}
		}
		for st.Pivot == nil || st.Pivot.OrderAll == nil {
			st.OrderBy = append(st.OrderBy, p.orderItem())
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if p.acceptKw("limit") {
		p.limit(st)
	}
}

// execPivot runs PIVOT st: the aggregate query grouped by the GROUP BY
// terms and the ON terms, its rows then spread into a row per group with
// a column per ON value (combination). Where a group has no row of a
// value, the column holds the aggregate of no rows (count 0, the others
// NULL), as the same aggregate FILTER (WHERE term = value) would.
func execPivot(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	pv := st.Pivot
	opts := o.withDefaults()
	mem := opts.Allocator
	if st.Sub != nil && !st.Explain { // run the subquery once for the queries below
		src, err := subquerySource(ctx, st, text, open, o)
		if err != nil {
			return nil, err
		}
		outer := open
		open = func(name string) (Source, error) {
			if name == st.Stream {
				return src, nil
			}
			return outer(name)
		}
		held := *st
		held.Sub = nil
		st = &held
	}
	inner := *st
	inner.Pivot, inner.Items, inner.OrderBy, inner.Limit, inner.Offset = nil, nil, nil, -1, 0
	inner.GroupBy = slices.Clone(st.GroupBy)
	for i, u := range pv.Using { // named for EXPLAIN; the names go with the spreading
		it := u
		it.Alias = fmt.Sprintf("USING %d: %s", i+1, u.Name())
		inner.Items = append(inner.Items, it)
	}
	for i, on := range pv.On {
		it := SelectItem{Expr: on, Alias: fmt.Sprintf("ON %d: %s", i+1, on.String()), Pos: on.Pos}
		g := GroupItem{Expr: on, Pos: on.Pos}
		if on.Col != nil {
			it.Expr, it.Col, g.Expr, g.Col = nil, on.Col, nil, on.Col
		}
		inner.Items = append(inner.Items, it)
		inner.GroupBy = append(inner.GroupBy, g)
	}
	if len(st.GroupBy) == 0 || slices.ContainsFunc(pv.On, func(a *Arith) bool { return a.Col != nil }) {
		fields, err := pivotSourceFields(ctx, st, text, open, o)
		if err != nil {
			return nil, err
		}
		if len(st.GroupBy) == 0 { // the columns ON and USING leave, before ON's terms
			inner.GroupBy = append(pivotImplicitGroup(st, fields), inner.GroupBy...)
		}
	}
	if st.Explain { // the aggregate query's plan
		return exec(ctx, &inner, text, open, o)
	}
	rr, err := exec(ctx, &inner, text, open, o)
	if err != nil {
		return nil, err
	}
	rec, err := oneRecord(rr, mem)
	rr.Release()
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	nU, nOn := len(pv.Using), len(pv.On)
	nG := int(rec.NumCols()) - nU - nOn
	cols := rec.Columns()
	onCols := cols[nG+nU:]

	// The columns: IN's values, else each term's distinct values crossed.
	var combos [][]*Lit
	if pv.In != nil {
		for _, l := range pv.In {
			combos = append(combos, []*Lit{l})
		}
	} else if combos, err = pivotCombos(onCols, pv, text); err != nil {
		return nil, err
	}
	if n := len(combos) * nU; n > maxPivotColumns {
		return nil, errAt(text, pv.Pos, "PIVOT makes %d columns, more than %d: list the values with ON x IN (...), or narrow the source", n, maxPivotColumns)
	}
	if len(combos) == 0 && len(st.GroupBy) == 0 {
		return nil, errAt(text, pv.Pos, "PIVOT: ON has no value in the source (it has no rows), so there is no column to make")
	}
	comboOf := map[string]int{}
	for c, combo := range combos {
		var k []byte
		for i, l := range combo {
			k = pivotKey(k, l, onCols[i].DataType().ID() == arrow.TIMESTAMP)
		}
		comboOf[string(k)] = c
	}

	// The groups, in the order their rows come; each value's row in each.
	n := int(rec.NumRows())
	groupOf := map[string]int{}
	var first []int                     // a row of each group
	cells := make([][]int, len(combos)) // [combo][group]: the row, or n (none)
	var gk, ck []byte
	for r := range n {
		gk, _ = appendRowKey(gk[:0], cols[:nG], r)
		g, ok := groupOf[string(gk)]
		if !ok {
			g = len(first)
			groupOf[string(gk)] = g
			first = append(first, r)
			for c := range cells {
				cells[c] = append(cells[c], n)
			}
		}
		ck = ck[:0]
		for i, col := range onCols {
			l, err := litAt(col, r)
			if err != nil {
				return nil, errAt(text, pv.On[i].Pos, "PIVOT ON %s: %v", pv.On[i].String(), err)
			}
			ck = pivotKey(ck, l, false)
		}
		if c, ok := comboOf[string(ck)]; ok { // NULL has a column only in IN
			cells[c][g] = r
		}
	}

	if nG == 0 && len(first) == 0 { // no GROUP BY, no row: one row still, as an aggregate has
		first = append(first, -1) // (no group column to take it)
		for c := range cells {
			cells[c] = append(cells[c], n)
		}
	}
	// A row of the aggregates of no rows, for the groups a value misses.
	var empty arrow.RecordBatch // run only when a group misses a value
	if slices.ContainsFunc(cells, func(c []int) bool { return slices.Contains(c, n) }) {
		if empty, err = pivotEmpty(ctx, st, text, open, o, mem); err != nil {
			return nil, err
		}
		defer empty.Release()
	}
	var fields []arrow.Field
	var out []arrow.Array
	release := func() {
		for _, a := range out {
			a.Release()
		}
	}
	for g := range nG {
		a, err := takeIndices(mem, cols[g], first)
		if err != nil {
			release()
			return nil, err
		}
		fields, out = append(fields, rec.Schema().Field(g)), append(out, a)
	}
	for u := range nU {
		withEmpty := cols[nG+u] // no group misses a value: no row n
		withEmpty.Retain()
		if empty != nil {
			withEmpty.Release()
			if withEmpty, err = withEmptyRow(mem, cols[nG+u], empty.Column(u)); err != nil {
				release()
				return nil, err
			}
		}
		for c, combo := range combos {
			a, err := takeIndices(mem, withEmpty, cells[c])
			if err != nil {
				withEmpty.Release()
				release()
				return nil, err
			}
			fields = append(fields, arrow.Field{Name: pivotColumn(pv, combo, u), Type: withEmpty.DataType(), Nullable: true})
			out = append(out, a)
		}
		withEmpty.Release()
	}
	// each value's columns together: combo by combo, then USING's order
	order := make([]int, 0, len(out))
	for g := range nG {
		order = append(order, g)
	}
	for c := range combos {
		for u := range nU {
			order = append(order, nG+u*len(combos)+c)
		}
	}
	fs, as := make([]arrow.Field, len(order)), make([]arrow.Array, len(order))
	for i, j := range order {
		fs[i], as[i] = fields[j], out[j]
	}
	res := array.NewRecordBatch(arrow.NewSchema(fs, nil), as, int64(len(first)))
	release()
	defer res.Release()
	reader, err := array.NewRecordReader(res.Schema(), []arrow.RecordBatch{res})
	if err != nil {
		return nil, err
	}
	orderBy := st.OrderBy
	if all := pv.OrderAll; all != nil {
		for i := range fs {
			o := *all
			o.Index = i + 1
			orderBy = append(orderBy, o)
		}
	}
	if len(orderBy) == 0 && st.Limit < 0 {
		return reader, nil
	}
	held, err := holdResult(reader, pv.Pos, text) // ORDER BY and LIMIT over the pivoted rows
	reader.Release()
	if err != nil {
		return nil, err
	}
	outer := &Statement{Star: true, Sub: &Statement{}, Stream: "(subquery)", streamPos: pv.Pos, OrderBy: orderBy, Limit: st.Limit}
	return execSource(ctx, outer, text, held, o, inValues{})
}

// pivotSourceFields returns the columns of st's source, as SELECT *
// gives them, having checked that the columns ON names are among them
// (GROUP BY takes a column no row has as text, "" in every row).
func pivotSourceFields(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([]arrow.Field, error) {
	q := *st
	q.Pivot, q.Items, q.GroupBy, q.Fill, q.OrderBy, q.Limit, q.Offset, q.Explain, q.Star = nil, nil, nil, nil, nil, 0, 0, false, true
	rr, err := exec(ctx, &q, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	fields := rr.Schema().Fields()
	var names []string
	for _, f := range fields {
		names = append(names, f.Name)
	}
	for _, on := range st.Pivot.On {
		if on.Col != nil && !slices.Contains(names, on.Col.Name) {
			return nil, errAt(text, on.Pos, "unknown column %q in PIVOT's source (columns: %s)", on.Col.Name, strings.Join(names, ", "))
		}
	}
	return fields, nil
}

// pivotImplicitGroup returns the GROUP BY of a PIVOT that has none, as
// DuckDB has it: each column of the source that ON and USING do not
// name, but those no GROUP BY takes (seq, time: group by a bucket of
// it; bytes) and, when the source is a stream's view (its columns start
// seq, time, series, key, op), its key and op, which are each record's
// own rather than data: a stream's implicit groups are its series and
// its other fields.
func pivotImplicitGroup(st *Statement, fields []arrow.Field) []GroupItem {
	named := map[string]bool{}
	refs := &Statement{Items: slices.Clone(st.Pivot.Using)}
	for _, on := range st.Pivot.On {
		refs.Items = append(refs.Items, SelectItem{Expr: on})
	}
	eachCol(refs, func(name string, _ int) { named[name] = true })
	view := len(fields) >= 5
	for i, n := range []string{ColSeq, ColTime, ColSeries, ColKey, ColOp} {
		view = view && fields[i].Name == n
	}
	var group []GroupItem
	for _, f := range fields {
		switch {
		case named[f.Name], f.Name == ColSeq, f.Name == ColTime, f.Type.ID() == arrow.BINARY:
		case view && (f.Name == ColKey || f.Name == ColOp):
		default:
			group = append(group, GroupItem{Col: &ColRef{Name: f.Name, Pos: st.Pivot.Pos}, Pos: st.Pivot.Pos})
		}
	}
	return group
}

// take appends the rows idx of a (value reads one) to b and returns them.
func take[T any, B interface {
	array.Builder
	Append(T)
}](b B, a arrow.Array, idx []int, value func(int) T) arrow.Array {
	defer b.Release()
	b.Reserve(len(idx))
	for _, i := range idx {
		if a.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(value(i))
		}
	}
	return b.NewArray()
}

// pivotColumn names the column of USING item u for the values combo.
func pivotColumn(pv *Pivot, combo []*Lit, u int) string {
	var names []string
	for _, l := range combo {
		names = append(names, pivotName(l))
	}
	name := strings.Join(names, "_")
	if it := pv.Using[u]; len(pv.Using) > 1 || it.Alias != "" {
		name += "_" + cmp.Or(it.Alias, it.Name())
	}
	return name
}

// pivotKey appends the key of value l (a time in text read as one when
// asTime): numbers of equal value have equal keys.
func pivotKey(dst []byte, l *Lit, asTime bool) []byte {
	switch {
	case l.Kind == LitNull:
		return append(dst, 'z')
	case l.Kind == LitTime || asTime && l.Kind == LitString:
		ns := l.Int // litAt's
		if l.Kind == LitString {
			ns, _ = parseTime(l.Str)
		}
		return strconv.AppendInt(append(dst, 't'), ns, 10)
	case l.Kind == LitInt:
		return strconv.AppendFloat(append(dst, 'n'), float64(l.Int), 'g', -1, 64)
	case l.Kind == LitFloat:
		return strconv.AppendFloat(append(dst, 'n'), l.Float, 'g', -1, 64)
	case l.Kind == LitBool:
		return strconv.AppendBool(append(dst, 'b'), l.Bool)
	}
	return append(strconv.AppendInt(append(dst, 's'), int64(len(l.Str)), 10), l.Str...)
}

// pivotCombos returns the combinations of the distinct values of the ON
// columns (each term's, crossed, NULL left out), in order.
func pivotCombos(onCols []arrow.Array, pv *Pivot, text string) ([][]*Lit, error) {
	combos := [][]*Lit{{}}
	for i, col := range onCols {
		seen := map[string]bool{}
		var vs []*Lit
		for r := range col.Len() {
			l, err := litAt(col, r)
			if err != nil {
				return nil, errAt(text, pv.On[i].Pos, "PIVOT ON %s: %v", pv.On[i].String(), err)
			}
			if l.Kind == LitNull { // no column, as in DuckDB (IN (NULL) makes one)
				continue
			}
			if k := string(pivotKey(nil, l, false)); !seen[k] {
				if len(seen) == maxPivotColumns {
					return nil, errAt(text, pv.On[i].Pos, "PIVOT ON %s gives more than %d values: list the ones wanted with ON x IN (...), or narrow the source", pv.On[i].String(), maxPivotColumns)
				}
				seen[k] = true
				l.Pos = pv.On[i].Pos
				vs = append(vs, l)
			}
		}
		if len(vs) == 0 {
			return nil, nil
		}
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
	return combos, nil
}

// pivotEmpty returns the row of st's USING aggregates over no rows: its
// source with seq 0, which no row has (no block is read).
func pivotEmpty(ctx context.Context, st *Statement, text string, open Opener, o *Options, mem memory.Allocator) (arrow.RecordBatch, error) {
	q := *st
	q.Pivot, q.GroupBy, q.Fill, q.OrderBy, q.Limit, q.Offset, q.Explain = nil, nil, nil, nil, -1, 0, false
	q.Items = slices.Clone(st.Pivot.Using)
	for i := range q.Items {
		q.Items[i].Alias = fmt.Sprintf("\x00using %d", i)
	}
	q.Where = &Compare{Col: &ColRef{Name: ColSeq, Pos: st.Pivot.Pos}, Op: "=", Lit: &Lit{Kind: LitInt, Pos: st.Pivot.Pos}}
	rr, err := exec(ctx, &q, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return oneRecord(rr, mem)
}

// oneRecord reads rr's batches into one record.
func oneRecord(rr array.RecordReader, mem memory.Allocator) (arrow.RecordBatch, error) {
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for rr.Next() {
		r := rr.RecordBatch()
		r.Retain()
		recs = append(recs, r)
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	sc := rr.Schema()
	cols := make([]arrow.Array, sc.NumFields())
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for c := range cols {
		parts := []arrow.Array{}
		for _, r := range recs {
			parts = append(parts, r.Column(c))
		}
		var err error
		if len(parts) == 0 {
			cols[c] = array.MakeArrayOfNull(mem, sc.Field(c).Type, 0)
		} else if cols[c], err = array.Concatenate(parts, mem); err != nil {
			for _, a := range cols[:c] {
				a.Release()
			}
			return nil, err
		}
	}
	rec := array.NewRecordBatch(sc, cols, rows)
	for _, a := range cols {
		a.Release()
	}
	return rec, nil
}

// withEmptyRow is col with the value of e (one row) after its rows, or
// NULL when their types differ.
func withEmptyRow(mem memory.Allocator, col, e arrow.Array) (arrow.Array, error) {
	if !arrow.TypeEqual(col.DataType(), e.DataType()) {
		e = array.MakeArrayOfNull(mem, col.DataType(), 1)
		defer e.Release()
	}
	return array.Concatenate([]arrow.Array{col, e}, mem)
}

// takeIndices returns the rows idx of a, in that order: value by value
// for the common types, else as slices of its runs put together.
func takeIndices(mem memory.Allocator, a arrow.Array, idx []int) (arrow.Array, error) {
	if len(idx) == 0 {
		return array.NewSlice(a, 0, 0), nil
	}
	switch a := a.(type) {
	case *array.Int64:
		return take(array.NewInt64Builder(mem), a, idx, a.Value), nil
	case *array.Float64:
		return take(array.NewFloat64Builder(mem), a, idx, a.Value), nil
	case *array.Timestamp:
		return take(array.NewTimestampBuilder(mem, a.DataType().(*arrow.TimestampType)), a, idx, a.Value), nil
	case *array.Duration:
		return take(array.NewDurationBuilder(mem, a.DataType().(*arrow.DurationType)), a, idx, a.Value), nil
	case *array.String:
		return take(array.NewStringBuilder(mem), a, idx, a.Value), nil
	case *array.Boolean:
		return take(array.NewBooleanBuilder(mem), a, idx, a.Value), nil
	case *array.Int32:
		return take(array.NewInt32Builder(mem), a, idx, a.Value), nil
	case *array.Dictionary: // series, op: the codes taken, the dictionary shared
		codes, err := takeIndices(mem, a.Indices(), idx)
		if err != nil {
			return nil, err
		}
		defer codes.Release()
		return array.NewDictionaryArray(a.DataType(), codes, a.Dictionary()), nil
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && idx[j] == idx[j-1]+1 {
			j++
		}
		parts = append(parts, array.NewSlice(a, int64(idx[i]), int64(idx[j-1]+1)))
		i = j
	}
	return array.Concatenate(parts, mem)
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
	case *array.Duration:
		ns := int64(a.Value(r))
		return &Lit{Kind: LitDuration, Int: ns, Str: durationText(ns)}, nil
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
