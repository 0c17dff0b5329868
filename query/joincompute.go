package query

import (
	"slices"
	"strings"

	"github.com/tsqdb/tsq/chunk"
)

// A term of ON that computes (a.time = b.time + 7d, date_trunc('hour',
// a.time) = b.hour) is a column of its side, hidden from the relation,
// computed by the query's arithmetic over the side's rows after each
// load: the right side's once, the left side's batch by batch.

// computed is a computed column of a side: its plan and its place.
type computed struct {
	ap  *arithPlan
	col int
}

// term resolves a side of an ON condition: a column, or arithmetic on
// the columns of one side, which becomes a computed column of that side.
func (jp *joinPlan) term(ref *ColRef, x *Arith, text string, now int64) (joinCol, error) {
	if x == nil {
		return jp.resolve(ref, text)
	}
	side := -1
	var err error
	walkArith(x, func(n string) {
		if err != nil {
			return
		}
		c, e := jp.resolve(&ColRef{Name: n, Pos: ref.Pos}, text)
		switch {
		case e != nil:
			err = e
		case side >= 0 && c.side != side:
			err = errAt(text, ref.Pos, "join: %s takes columns of both sides: each side of a condition in ON is of one side (a.time + 1h = b.time)", ref.Name)
		}
		side = c.side
	}, func() {})
	if err != nil {
		return joinCol{}, err
	}
	if side < 0 {
		return joinCol{}, errAt(text, ref.Pos, "join: %s names no column: ON compares the two sides' rows", ref.Name)
	}
	js := jp.sides[side]
	own := cloneArith(x, func(n string) string { return strings.TrimPrefix(n, js.side.Alias+".") })
	col, err := js.addComputed(own, text, now)
	return joinCol{side, col, ref.Name}, err
}

// addComputed plans x over the side's columns and adds its column.
func (js *joinSide) addComputed(x *Arith, text string, now int64) (int, error) {
	fs := &fieldSet{}
	for i, n := range js.names[:js.arrowCols] {
		c := js.cols[i]
		if isBase(n) {
			continue
		}
		if err := fs.add(n, c.typ); err != nil {
			return 0, err
		}
		if c.instant {
			if fs.instants == nil {
				fs.instants = map[string]bool{}
			}
			fs.instants[n] = true
		}
		if c.span {
			if fs.durations == nil {
				fs.durations = map[string]bool{}
			}
			fs.durations[n] = true
		}
	}
	p := &plan{st: js.side.St, src: text, fields: fs, now: now}
	ap, err := p.rawArith(x)
	if err != nil {
		return 0, err
	}
	c := &jcol{}
	switch ap.outKind() {
	case kTime:
		c.typ, c.instant = chunk.Int64, true
	case kDuration:
		c.typ, c.span = chunk.Int64, true
	case kInt, kSeq:
		c.typ = chunk.Int64
	case kFloat:
		c.typ = chunk.Float64
	case kString, kSeries, kKey:
		c.typ = chunk.String
	case kBool:
		c.typ = chunk.Bool
	default:
		return 0, errAt(text, x.Pos, "join: ON cannot compare %s (%s)", x.String(), ap.outKind())
	}
	js.names = append(js.names, "") // no name: hidden from the relation
	js.cols = append(js.cols, c)
	js.computed = append(js.computed, computed{ap, len(js.cols) - 1})
	return len(js.cols) - 1, nil
}

// recompute computes the side's computed columns over its rows.
func (js *joinSide) recompute() {
	if len(js.computed) == 0 {
		return
	}
	b := js.batch()
	sel := make([]int32, js.rows)
	for i := range sel {
		sel[i] = int32(i)
	}
	for _, cp := range js.computed {
		c := js.cols[cp.col]
		v := cp.ap.vec(b, sel)
		at := func(i int) int { // a literal's one value stands for every row
			if v.scalar {
				return 0
			}
			return i
		}
		c.ints, c.floats, c.strs, c.bools, c.valid = c.ints[:0], c.floats[:0], c.strs[:0], c.bools[:0], c.valid[:0]
		for i := range js.rows {
			c.valid = append(c.valid, !v.isNull(at(i)))
			switch {
			case c.typ == chunk.Float64:
				c.floats = append(c.floats, v.floats[at(i)])
			case c.typ == chunk.String:
				c.strs = append(c.strs, v.strs[at(i)])
			case c.typ == chunk.Bool:
				c.bools = append(c.bools, v.ints[at(i)] != 0)
			default:
				c.ints = append(c.ints, v.ints[at(i)])
			}
		}
	}
}

// batch is the side's rows as the query's arithmetic reads them.
func (js *joinSide) batch() *batch {
	n := js.rows
	b := &batch{rows: n, fields: map[string]*chunk.Column{}}
	for i, name := range js.names[:js.arrowCols] {
		c := js.cols[i]
		col := &chunk.Column{Name: name, Type: c.typ, Ints: c.ints, Floats: c.floats, Strs: c.strs, Bools: c.bools, Valid: c.valid}
		switch {
		case name == ColSeq && c.typ == chunk.Int64:
			b.seq = c.ints
		case name == ColTime && c.typ == chunk.Int64:
			b.time = c.ints
		case name == ColSeries && c.typ == chunk.String:
			b.series = col
		case name == ColKey && c.typ == chunk.String:
			b.key = col
		case name == ColOp && c.typ == chunk.String:
			b.op = make([]int64, n)
			for r, s := range c.strs {
				b.op[r] = int64(max(slices.Index(opNames[:], s), 0))
			}
		case !isBase(name):
			b.fields[name] = col
		}
	}
	// a subquery side may lack a base column: its rows' zero values
	if b.seq == nil {
		b.seq = make([]int64, n)
	}
	if b.time == nil {
		b.time = make([]int64, n)
	}
	if b.op == nil {
		b.op = make([]int64, n)
	}
	for _, c := range []**chunk.Column{&b.series, &b.key} {
		if *c == nil {
			*c = &chunk.Column{Type: chunk.String, Strs: make([]string, n)}
		}
	}
	return b
}
