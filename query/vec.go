package query

import (
	"math"

	"github.com/tsqdb/tsq/chunk"
)

// vec holds arithmetic results for the rows of a selection, computed a
// node at a time (arithPlan.vec) rather than a row at a time (eval):
// the same values, without a call and a column lookup per row and leaf.
// A literal is a scalar, not repeated per row.
type vec struct {
	ints   []int64   // the node's kind is kInt
	floats []float64 // kFloat
	strs   []string  // kString
	null   []bool    // nil: no null
	scalar bool      // a literal: ints[0] or floats[0] for every row
}

func (v *vec) isNull(i int) bool { return v.null != nil && v.null[i] }

// rowsWhere returns the rows of sel (v's rows, or all of them for a
// scalar v) whose value j keep holds for.
func (v *vec) rowsWhere(sel []int32, keep func(j int) bool) []int32 {
	out := make([]int32, 0, len(sel))
	for i, r := range sel {
		j := i
		if v.scalar {
			j = 0
		}
		if keep(j) {
			out = append(out, r)
		}
	}
	return out
}

// newVec returns a vec of n rows of kind k, no row null yet.
func (m *vecArena) newVec(k colKind, n int) vec {
	switch k {
	case kString:
		return vec{strs: m.strsN(n)}
	case kFloat:
		return vec{floats: m.floatsN(n)}
	}
	return vec{ints: m.intsN(n)}
}

// set stores x (of kind k; a null marks the row) as row i of n.
func (v *vec) set(i int, k colKind, x value, m *vecArena, n int) {
	switch {
	case x.null:
		if v.null == nil {
			v.null = m.nulls(n)
		}
		v.null[i] = true
	case k == kString:
		v.strs[i] = x.s
	case k == kFloat:
		v.floats[i] = x.fl()
	default:
		v.ints[i] = x.i
	}
}

// at returns row i's value (v of kind k), null or not.
func (v *vec) at(i int, k colKind) value {
	switch k {
	case kString:
		return value{s: v.strs[i]}
	case kFloat:
		return fv(v.floats[i])
	}
	return value{i: v.ints[i]}
}

// vecArena hands out the slices of vecs, reused from block to block by
// a worker's scratch batch. An evaluation takes a mark and releases it
// when its vecs are no longer needed, freeing what it took and no more:
// a CASE's condition evaluates arithmetic inside another evaluation.
type vecArena struct {
	floats [][]float64
	ints   [][]int64
	bools  [][]bool
	strs   [][]string
	nf     int
	ni     int
	nb     int
	ns     int
}

type arenaMark struct{ nf, ni, nb, ns int }

func (a *vecArena) mark() arenaMark      { return arenaMark{a.nf, a.ni, a.nb, a.ns} }
func (a *vecArena) release(m arenaMark)  { a.nf, a.ni, a.nb, a.ns = m.nf, m.ni, m.nb, m.ns }
func (a *vecArena) strsN(n int) []string { return grab(&a.strs, &a.ns, n) }

func grab[T any](pool *[][]T, used *int, n int) []T {
	if *used == len(*pool) {
		*pool = append(*pool, nil)
	}
	s := (*pool)[*used]
	if cap(s) < n {
		s = make([]T, n)
	}
	s = s[:n]
	(*pool)[*used] = s
	*used++
	return s
}

func (a *vecArena) floatsN(n int) []float64 { return grab(&a.floats, &a.nf, n) }
func (a *vecArena) intsN(n int) []int64     { return grab(&a.ints, &a.ni, n) }

// nulls returns n bools, all false.
func (a *vecArena) nulls(n int) []bool {
	s := grab(&a.bools, &a.nb, n)
	clear(s)
	return s
}

// orNulls returns the rows null in x or in y, in a new slice.
func (a *vecArena) orNulls(x, y []bool, n int) []bool {
	if x == nil && y == nil {
		return nil
	}
	out := a.nulls(n)
	for _, s := range [][]bool{x, y} {
		for i, v := range s {
			out[i] = out[i] || v
		}
	}
	return out
}

// floatsOf returns v's values as float64 (v of kind k).
func (a *vecArena) floatsOf(v vec, k colKind) []float64 {
	if k == kFloat {
		return v.floats
	}
	out := a.floatsN(len(v.ints))
	for i, x := range v.ints {
		out[i] = float64(x)
	}
	return out
}

// vec computes a for the rows sel of b, as eval does for each.
func (a *arithPlan) vec(b *batch, sel []int32) vec {
	n, m := len(sel), &b.vecs
	switch {
	case a.nullLit(): // every row null
		out := m.newVec(a.kind, n)
		out.null = m.nulls(n)
		for i := range out.null {
			out.null[i] = true
		}
		return out
	case a.lit != nil:
		switch a.kind {
		case kFloat:
			return vec{floats: []float64{a.lit.fl()}, scalar: true}
		case kString:
			return vec{strs: []string{a.lit.s}, scalar: true}
		}
		return vec{ints: []int64{a.lit.i}, scalar: true}
	case a.op == 0:
		return a.leafVec(b, sel)
	case a.look != nil && a.dictCol == "":
		return a.lookupVec(b, sel)
	case a.dictCol != "":
		if c := b.strColOrField(a.dictCol); c != nil && c.Codes != nil && c.Strs == nil && c.Dict.Len() < len(sel) {
			return a.dictVec(c, sel, m)
		}
	}
	switch {
	case a.look != nil:
		return a.lookupVec(b, sel)
	case a.op == 'c':
		return a.caseVec(b, sel)
	case a.args != nil:
		return a.textVec(b, sel)
	}
	if a.fn == "coalesce" {
		return a.coalesceVec(b, sel)
	}
	if pairFuncs[a.fn] {
		return a.pairVec(b, sel)
	}
	l := a.l.vec(b, sel)
	if l.scalar && (a.op == 'f' || a.op == 'n') { // of a literal: no column below
		return a.scalarVec()
	}
	switch a.op {
	case 'f':
		var d int64
		if a.r != nil {
			d = a.r.lit.i
		}
		out := m.newVec(a.kind, n)
		out.null = m.orNulls(l.null, nil, n)
		if a.spanPart {
			for i, d := range l.ints {
				out.ints[i] = spanPart(a.fn, d)
			}
			return out
		}
		if a.part {
			for i, t := range l.ints {
				out.ints[i] = timePart(a.fn, t, a.loc)
			}
			return out
		}
		if a.bk != nil { // rows come mostly in time order: a bucket's span at a time
			lo, hi, k := int64(1), int64(0), int64(0)
			for i, t := range l.ints {
				if t < lo || t >= hi {
					k = a.bk.key(t)
					lo, hi = a.bk.span(t)
				}
				out.ints[i] = k
			}
			return out
		}
		for i := range n {
			if out.isNull(i) {
				continue
			}
			var x value
			if a.l.kind == kFloat {
				x = fv(l.floats[i])
			} else {
				x.i = l.ints[i]
			}
			out.set(i, a.kind, apply(a.fn, a.l.kind, x, d, a.r != nil), m, n)
		}
		return out
	case 'n':
		if a.kind == kFloat {
			x := m.floatsOf(l, a.l.kind)
			out := m.floatsN(n)
			for i := range x {
				out[i] = -x[i]
			}
			return vec{floats: out, null: l.null}
		}
		out := vec{ints: m.intsN(n), null: m.orNulls(l.null, nil, n)}
		for i, x := range l.ints {
			if x == math.MinInt64 {
				if out.null == nil {
					out.null = m.nulls(n)
				}
				out.null[i] = true
				continue
			}
			out.ints[i] = -x
		}
		return out
	}
	r := a.r.vec(b, sel)
	switch {
	case l.scalar && r.scalar:
		return a.scalarVec()
	case l.scalar:
		l = m.broadcast(l, n)
	case r.scalar && r.null != nil:
		r = m.broadcast(r, n)
	}
	out := vec{null: m.orNulls(l.null, r.null, n)}
	if a.kind == kFloat {
		out.floats = m.floatsN(n)
		x, y := m.floatsOf(l, a.l.kind), m.floatsOf(r, a.r.kind)
		if r.scalar {
			floatOpScalar(a.op, x, y[0], out.floats)
		} else {
			floatOp(a.op, x, y, out.floats)
		}
		if a.op == '/' || a.op == '%' { // division by zero is null
			for i := range n {
				if y[min(i, len(y)-1)] == 0 {
					if out.null == nil {
						out.null = m.nulls(n)
					}
					out.null[i] = true
				}
			}
		}
		return out
	}
	out.ints = m.intsN(n)
	for i := range out.ints {
		y := r.ints[0]
		if !r.scalar {
			y = r.ints[i]
		}
		v, ok := intOp(a.op, l.ints[i], y)
		if !ok {
			if out.null == nil {
				out.null = m.nulls(n)
			}
			out.null[i] = true
		}
		out.ints[i] = v
	}
	return out
}

// scalarVec is a (all of whose leaves are literals) as a scalar.
func (a *arithPlan) scalarVec() vec {
	v := a.eval(func(*arithPlan) value { return nullValue })
	switch {
	case v.null:
		return vec{ints: []int64{0}, floats: []float64{0}, strs: []string{""}, null: []bool{true}, scalar: true}
	case a.kind == kString:
		return vec{strs: []string{v.s}, scalar: true}
	case a.kind == kFloat:
		return vec{floats: []float64{v.fl()}, scalar: true}
	}
	return vec{ints: []int64{v.i}, scalar: true}
}

// broadcast repeats the scalar v for n rows.
func (a *vecArena) broadcast(v vec, n int) vec {
	out := vec{}
	if v.floats != nil {
		out.floats = a.floatsN(n)
		for i := range out.floats {
			out.floats[i] = v.floats[0]
		}
	}
	if v.ints != nil {
		out.ints = a.intsN(n)
		for i := range out.ints {
			out.ints[i] = v.ints[0]
		}
	}
	if v.strs != nil {
		out.strs = a.strsN(n)
		for i := range out.strs {
			out.strs[i] = v.strs[0]
		}
	}
	if v.null != nil && v.null[0] {
		out.null = a.nulls(n)
		for i := range out.null {
			out.null[i] = true
		}
	}
	return out
}

// floatOp sets out[i] = x[i] op y[i] (a division by zero is handled by
// the caller).
func floatOp(op byte, x, y, out []float64) {
	switch op {
	case '+':
		for i := range out {
			out[i] = x[i] + y[i]
		}
	case '-':
		for i := range out {
			out[i] = x[i] - y[i]
		}
	case '*':
		for i := range out {
			out[i] = x[i] * y[i]
		}
	case '%':
		for i := range out {
			out[i] = math.Mod(x[i], y[i])
		}
	default:
		for i := range out {
			out[i] = x[i] / y[i]
		}
	}
}

// floatOpScalar sets out[i] = x[i] op y.
func floatOpScalar(op byte, x []float64, y float64, out []float64) {
	switch op {
	case '+':
		for i := range out {
			out[i] = x[i] + y
		}
	case '-':
		for i := range out {
			out[i] = x[i] - y
		}
	case '*':
		for i := range out {
			out[i] = x[i] * y
		}
	case '%':
		for i := range out {
			out[i] = math.Mod(x[i], y)
		}
	default:
		for i := range out {
			out[i] = x[i] / y
		}
	}
}

// leafVec gathers a leaf column's values for the rows sel of b.
func (a *arithPlan) leafVec(b *batch, sel []int32) vec {
	n, m := len(sel), &b.vecs
	var src []int64
	switch a.src {
	case ColSeq:
		src = b.seq
	case ColTime:
		src = b.time
	case ColOp:
		src = b.op
	}
	var out vec
	if a.kind == kString && a.src == ColOp { // op as its name
		out.strs = m.strsN(n)
		for i, r := range sel {
			out.strs[i] = opName(b.op[r])
		}
		return out
	}
	if a.kind == kString { // series, key or a text field
		out.strs = m.strsN(n)
		var c = b.strColOrField(a.src)
		if c == nil || c.Type != chunk.String && c.Type != chunk.Bytes {
			out.null = m.nulls(n)
			for i := range out.null {
				out.null[i] = true
			}
			return out
		}
		// A dictionary's entries are made strings once each, shared by
		// their rows, when the rows outnumber them.
		var ents []string
		var made []bool
		if d := c.Dict.Len(); c.Strs == nil && d < n {
			ents, made = m.strsN(d), m.nulls(d)
		}
		for i, r := range sel {
			switch {
			case c.IsNull(int(r)):
				if out.null == nil {
					out.null = m.nulls(n)
				}
				out.null[i] = true
				continue
			case ents == nil:
				out.strs[i] = c.StringAt(int(r))
				continue
			}
			k := c.Codes[r]
			if !made[k] {
				ents[k], made[k] = string(c.Dict.At(int(k))), true
			}
			out.strs[i] = ents[k]
		}
		return out
	}
	if a.kind == kFloat {
		out.floats = m.floatsN(n)
	} else {
		out.ints = m.intsN(n)
	}
	if src != nil {
		for i, r := range sel {
			if a.kind == kFloat {
				out.floats[i] = float64(src[r])
			} else {
				out.ints[i] = src[r]
			}
		}
		return out
	}
	c := b.fields[a.src]
	if a.kind == kBool { // a bool field: 0 or 1
		if c == nil || c.Type != chunk.Bool {
			out.null = m.nulls(n)
			for i := range out.null {
				out.null[i] = true
			}
			return out
		}
		for i, r := range sel {
			out.ints[i] = 0
			if c.Bools[r] {
				out.ints[i] = 1
			}
		}
		if c.Valid != nil {
			out.null = m.nulls(n)
			for i, r := range sel {
				out.null[i] = !c.Valid[r]
			}
		}
		return out
	}
	// (a block of a float field read as int64 is possible only if it
	// came after planning; its rows are null then, not misread)
	if c == nil || c.Type != chunk.Int64 && c.Type != chunk.Float64 || c.Type == chunk.Float64 && a.kind != kFloat {
		out.null = m.nulls(n)
		for i := range out.null {
			out.null[i] = true
		}
		return out
	}
	switch {
	case c.Type == chunk.Float64:
		for i, r := range sel {
			out.floats[i] = c.Floats[r]
		}
	case a.kind == kFloat:
		for i, r := range sel {
			out.floats[i] = float64(c.Ints[r])
		}
	default:
		for i, r := range sel {
			out.ints[i] = c.Ints[r]
		}
	}
	if c.Valid != nil {
		out.null = m.nulls(n)
		for i, r := range sel {
			out.null[i] = !c.Valid[r]
		}
	}
	return out
}

// keepWhere sets keep[i] to x[i] op y[i] (y scalar: y[0]).
func keepWhere[T int64 | float64 | string](op string, x, y []T, scalar bool, keep []bool) {
	if scalar {
		v := y[0]
		switch op {
		case "=":
			for i := range keep {
				keep[i] = x[i] == v
			}
		case "!=":
			for i := range keep {
				keep[i] = x[i] != v
			}
		case "<":
			for i := range keep {
				keep[i] = x[i] < v
			}
		case "<=":
			for i := range keep {
				keep[i] = x[i] <= v
			}
		case ">":
			for i := range keep {
				keep[i] = x[i] > v
			}
		default:
			for i := range keep {
				keep[i] = x[i] >= v
			}
		}
		return
	}
	switch op {
	case "=":
		for i := range keep {
			keep[i] = x[i] == y[i]
		}
	case "!=":
		for i := range keep {
			keep[i] = x[i] != y[i]
		}
	case "<":
		for i := range keep {
			keep[i] = x[i] < y[i]
		}
	case "<=":
		for i := range keep {
			keep[i] = x[i] <= y[i]
		}
	case ">":
		for i := range keep {
			keep[i] = x[i] > y[i]
		}
	default:
		for i := range keep {
			keep[i] = x[i] >= y[i]
		}
	}
}

// coalesceVec computes coalesce(l, r): l's value where it has one, else
// r's.
func (a *arithPlan) coalesceVec(b *batch, sel []int32) vec {
	l, r, ok := a.sides(b, sel)
	if !ok {
		return a.scalarVec()
	}
	n, m := len(sel), &b.vecs
	out := vec{}
	if a.kind == kString {
		out.strs = m.strsN(n)
		copy(out.strs, l.strs)
		for i := range n {
			if l.isNull(i) {
				out.strs[i] = r.strs[i]
			}
		}
	} else if a.kind == kFloat {
		out.floats = m.floatsN(n)
		copy(out.floats, m.floatsOf(l, a.l.kind))
		rf := m.floatsOf(r, a.r.kind)
		for i := range n {
			if l.isNull(i) {
				out.floats[i] = rf[i]
			}
		}
	} else {
		out.ints = m.intsN(n)
		copy(out.ints, l.ints)
		for i := range n {
			if l.isNull(i) {
				out.ints[i] = r.ints[i]
			}
		}
	}
	if l.null != nil && r.null != nil {
		out.null = m.nulls(n)
		for i := range n {
			out.null[i] = l.null[i] && r.null[i]
		}
	}
	return out
}

// mixedRead is arithPlan.reads of an expression that reads more than
// one text column (or a number, or has a CASE).
const mixedRead = "\x00"

// columnRead computes a.reads from its operands' (set already: plans
// are built bottom up), so a deep expression costs no more than its size.
func (a *arithPlan) columnRead() string {
	switch {
	case a.lit != nil:
		return ""
	case a.hasCase, a.volatile:
		return mixedRead
	case a.op == 0:
		if (a.in == kSeries || a.in == kKey || a.in == kString) && a.src != "" {
			return a.src
		}
		return mixedRead
	}
	col := ""
	for _, x := range append([]*arithPlan{a.l, a.r}, a.args...) {
		switch {
		case x == nil || x.reads == "":
		case x.reads == mixedRead || col != "" && col != x.reads:
			return mixedRead
		default:
			col = x.reads
		}
	}
	return col
}

// dictVec computes a, a function of the dictionary-coded text column c
// alone, once per dictionary entry, and gives each row of sel its
// entry's value: split_part(series, '/', 2) costs a split per series,
// not per row.
func (a *arithPlan) dictVec(c *chunk.Column, sel []int32, m *vecArena) vec {
	n, d := len(sel), c.Dict.Len()
	vals := make([]value, d+1) // the last: a null row's
	for i := range d {
		s := string(c.Dict.At(i))
		vals[i] = a.eval(func(*arithPlan) value { return value{s: s} })
	}
	vals[d] = a.eval(func(*arithPlan) value { return nullValue })
	out := m.newVec(a.kind, n)
	for i, r := range sel {
		k := int(c.Codes[r])
		if c.IsNull(int(r)) || k < 0 || k >= d {
			k = d
		}
		out.set(i, a.kind, vals[k], m, n)
	}
	return out
}
