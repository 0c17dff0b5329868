package query

import (
	"math"
	"slices"
)

// Window functions run over the result rows, after WHERE, grouping and
// HAVING and before ORDER BY and LIMIT: the rows are taken in time order
// (then seq) within each partition, the series in a raw query, the
// other GROUP BY terms in an aggregate query, whose time is its bucket.
// Null arguments are skipped (their row gets null) and do not reset the
// window.

// winPlan is a planned window column.
type winPlan struct {
	fn      string
	n, unit int64
	argPlan *arithPlan // the argument, before it becomes column arg; nil: none (row_number)
	arg     int        // the argument's column (hidden)
	argHid  int        // aggregate queries: its index among the hidden columns
	time    int        // the time column: raw time, or the bucket; -1: none
	seq     int        // raw queries: the seq column; -1 for aggregates
	part    []int      // the partition's columns
	// keys are OVER's ORDER BY, before time and seq; nil: time order.
	keys []winKey
	// OVER's terms: their plans (raw queries) or indexes among the
	// hidden columns (aggregate queries), before they become part and
	// keys; over: OVER was given, and part is its PARTITION BY.
	partPlans []*arithPlan
	keyPlans  []*arithPlan
	keyDesc   []bool
	keyNulls  []Nulls
	partHid   []int
	keyHid    []int
	over      bool
	// frame is OVER's frame, nil if none (SQL's default: see frameOf).
	frame *Frame
	// dflt: lag and lead's value past the partition's edge (NULL unless
	// given)
	dflt value
	// ignoreNulls: lag, lead and the value functions skip the rows whose
	// argument is null (nulls.go).
	ignoreNulls bool
	// partNames and keyNames are the terms' texts, for EXPLAIN.
	partNames, keyNames []string
}

// names returns the texts of o's PARTITION BY and ORDER BY terms.
func (o *Over) names() (part, keys []string) {
	for _, x := range o.Partition {
		part = append(part, x.String())
	}
	for _, k := range o.Order {
		keys = append(keys, k.Expr.String())
	}
	return part, keys
}

// postLeaf is a leaf of arithmetic on window functions in a raw query
// (value - lag(value)) and the hidden column it reads: the window, or
// the column computed as the row's other arithmetic is.
type postLeaf struct {
	leaf *arithPlan
	col  outCol
}

// postLeaf plans the column leaf x of arithmetic on windows reads.
func (p *plan) postLeaf(x *Arith) (outCol, error) {
	if x.Win != nil {
		return p.planRawWindow(&SelectItem{Win: x.Win, Pos: x.Pos})
	}
	ap, err := p.rawArith(x)
	if err != nil {
		return outCol{}, err
	}
	return outCol{name: x.String(), kind: ap.outKind(), nullable: true, expr: ap}, nil
}

// winKey is a column a window orders its partitions by.
type winKey struct {
	col   int
	desc  bool
	nulls Nulls
}

// winKind is the kind of a window function's result over argument ap.
func winKind(fn string, ap *arithPlan) colKind {
	switch {
	case fn == "percent_rank" || fn == "cume_dist":
		return kFloat
	case ranking(fn) || fn == "count":
		return kInt
	case fn == "avg" && ap.dur && ap.kind == kInt: // the mean span, to the nanosecond (spanMean)
		return kDuration
	case fn == "avg":
		return kFloat
	case fn == "min" || fn == "max" || valueFuncs[fn]:
		return ap.outKind()
	case fn == "sum" && ap.dur && ap.kind == kInt: // a running total of spans
		return kDuration
	case fn == "sum":
		return ap.kind
	}
	k := ap.kind
	switch fn {
	case "lag", "lead":
		return ap.outKind()
	case "difference", "non_negative_difference", "cumulative_sum":
		if k == kInt {
			return kInt
		}
	}
	return kFloat
}

// lagDefault returns the value lag or lead win gives past the
// partition's edge, of the kind of its argument ap (an integer for a
// number too): its default, else NULL.
func (p *plan) lagDefault(win *WinCall, ap *arithPlan) (value, error) {
	l := win.Default
	if l == nil || l.Kind == LitNull {
		return nullValue, nil
	}
	k := ap.outKind()
	switch {
	case k == kFloat && (l.Kind == LitInt || l.Kind == LitFloat):
		return fv(litFloat(l)), nil
	case k == kInt && l.Kind == LitInt:
		return value{i: l.Int}, nil
	case k == kString && l.Kind == LitString:
		return value{s: l.Str}, nil
	case k == kBool && l.Kind == LitBool:
		return value{i: int64(boolInt(l.Bool))}, nil
	case k == kTime && (l.Kind == LitString || l.Kind == LitTime):
		t, err := p.timeOf(l)
		return value{i: t}, err
	}
	return nullValue, p.errAt(l.Pos, "type mismatch: %s's default %s is not %s, as %s is", win.Func, l.String(), kindWord(k), win.Arg.String())
}

// planRawWindow plans a window item of a raw query; its hidden columns
// are added by rawWindowColumns once the visible ones are known.
func (p *plan) planRawWindow(it *SelectItem) (outCol, error) {
	w := &winPlan{fn: it.Win.Func, n: it.Win.N, unit: it.Win.Unit, arg: -1, ignoreNulls: it.Win.IgnoreNulls, dflt: nullValue}
	if it.Win.Arg != nil {
		ap, err := p.rawArith(it.Win.Arg)
		if err != nil {
			return outCol{}, err
		}
		if err := p.winArg(it.Win, ap); err != nil {
			return outCol{}, err
		}
		if w.dflt, err = p.lagDefault(it.Win, ap); err != nil {
			return outCol{}, err
		}
		w.argPlan = ap
	}
	if o := it.Win.Over; o != nil {
		var keyKinds []colKind
		w.over = true
		w.partNames, w.keyNames = o.names()
		for _, x := range o.Partition {
			ap, err := p.rawArith(x)
			if err != nil {
				return outCol{}, err
			}
			w.partPlans = append(w.partPlans, ap)
		}
		for _, k := range o.Order {
			ap, err := p.rawArith(k.Expr)
			if err != nil {
				return outCol{}, err
			}
			w.keyPlans, w.keyDesc, w.keyNulls = append(w.keyPlans, ap), append(w.keyDesc, k.Desc), append(w.keyNulls, k.Nulls)
			keyKinds = append(keyKinds, ap.outKind())
		}
		if pos, msg := checkFrame(o.Frame, w.fn, keyKinds); msg != "" {
			return outCol{}, p.errAt(pos, "%s", msg)
		}
		w.frame = o.Frame
	}
	return outCol{name: it.Name(), kind: winKind(w.fn, w.argPlan), nullable: !ranking(w.fn), win: w}, nil
}

// winArg refuses an argument of the wrong type: lag, lead, min, max,
// count and the value functions take what arithmetic does (numbers,
// instants, text), the others a number.
func (p *plan) winArg(w *WinCall, ap *arithPlan) error {
	switch w.Func {
	case "lag", "lead", "min", "max", "count", "first_value", "last_value", "nth_value":
		return nil
	}
	if ap == nil {
		return nil
	}
	return p.number(w.Arg, ap)
}

// rawWindowColumns adds, for each window column of a raw query, hidden
// columns for its argument, time, seq and series.
func (p *plan) rawWindowColumns() {
	for i := range p.out {
		w := p.out[i].win
		if w == nil {
			continue
		}
		if w.argPlan != nil {
			p.out = append(p.out, outCol{kind: w.argPlan.kind, nullable: true, expr: w.argPlan, hidden: true})
			w.arg = len(p.out) - 1
		}
		w.time, w.seq = p.rawColumn(ColTime, kTime), p.rawColumn(ColSeq, kSeq)
		if !w.over {
			w.part = []int{p.rawColumn(ColSeries, kSeries)}
		}
		for _, ap := range w.partPlans {
			p.out = append(p.out, outCol{name: "", kind: ap.outKind(), nullable: true, expr: ap, hidden: true})
			w.part = append(w.part, len(p.out)-1)
		}
		for k, ap := range w.keyPlans {
			p.out = append(p.out, outCol{kind: ap.outKind(), nullable: true, expr: ap, hidden: true})
			w.keys = append(w.keys, winKey{len(p.out) - 1, w.keyDesc[k], w.keyNulls[k]})
		}
	}
}

// rawColumn returns the column reading stored column name, adding it
// hidden if the result does not have it.
func (p *plan) rawColumn(name string, k colKind) int {
	if i := slices.IndexFunc(p.out, func(c outCol) bool { return c.src == name && c.expr == nil && c.win == nil }); i >= 0 {
		return i
	}
	p.out = append(p.out, outCol{name: name, kind: k, src: name, hidden: true})
	p.nd.add(name)
	return len(p.out) - 1
}

// qualified returns the rows QUALIFY keeps (all without it).
func (p *plan) qualified(rows [][]value) [][]value {
	if p.qualify == nil {
		return rows
	}
	return slices.DeleteFunc(rows, func(r []value) bool { return !p.qualify(r) })
}

// hasWindows reports whether the result has window columns.
func (p *plan) hasWindows() bool {
	return slices.ContainsFunc(p.out, func(c outCol) bool { return c.win != nil || c.post != nil })
}

// applyWindows computes every window column of rows, then the
// arithmetic on them.
func applyWindows(rows [][]value, out []outCol) {
	for c := range out {
		if w := out[c].win; w != nil {
			w.apply(rows, c, out)
		}
	}
	for c := range out {
		if ap := out[c].post; ap != nil {
			for _, row := range rows {
				row[c] = ap.eval(func(l *arithPlan) value { return row[l.idx] })
			}
		}
	}
}

// apply fills column c of rows.
func (w *winPlan) apply(rows [][]value, c int, out []outCol) {
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	samePart := func(a, b []value) int {
		for _, pc := range w.part {
			if d := compareValues(out[pc].kind, a[pc], b[pc]); d != 0 {
				return d
			}
		}
		return 0
	}
	// peer reports whether two rows of a partition tie on its order:
	// OVER's ORDER BY, else time.
	peer := func(a, b []value) bool {
		for _, k := range w.keys {
			if compareValues(out[k.col].kind, a[k.col], b[k.col]) != 0 {
				return false
			}
		}
		if len(w.keys) == 0 {
			return w.time >= 0 && a[w.time].i == b[w.time].i
		}
		return true
	}
	less := func(i, j int) int {
		a, b := rows[i], rows[j]
		if d := samePart(a, b); d != 0 {
			return d
		}
		for _, k := range w.keys {
			if d := compareOrdered(out[k.col].kind, a[k.col], b[k.col], k.desc, k.nulls); d != 0 {
				return d
			}
		}
		if w.time >= 0 {
			if d := cmp3(a[w.time].i, b[w.time].i); d != 0 {
				return d
			}
		}
		if w.seq >= 0 {
			return cmp3(a[w.seq].i, b[w.seq].i)
		}
		return 0
	}
	slices.SortStableFunc(idx, less)
	switch {
	case w.fn == "lag" || w.fn == "lead":
		w.shift(rows, idx, c, samePart)
		return
	case ranking(w.fn):
		w.number(rows, idx, c, samePart, peer)
		return
	case winAggs[w.fn] || valueFuncs[w.fn]:
		w.aggregate(rows, idx, c, out, samePart)
		return
	}
	argKind := out[w.arg].kind
	var st winState
	for k, i := range idx {
		row := rows[i]
		if k == 0 || samePart(rows[idx[k-1]], row) != 0 {
			st = winState{}
		}
		var t int64
		if w.time >= 0 {
			t = row[w.time].i
		}
		row[c] = w.step(&st, row[w.arg], argKind, t)
	}
}

// winState is a window function's state within one partition.
type winState struct {
	has   bool  // a previous value
	prev  value // difference, derivatives: the previous value
	prevT int64 // and its time
	sumI  int64 // cumulative_sum
	sumF  float64
	over  bool      // an int64 cumulative_sum overflowed: null from then on
	ring  []float64 // moving_average: the last n values
	next  int
	total float64
}

// step takes value v (of kind k, at time t) and returns the function's
// value for its row.
func (w *winPlan) step(st *winState, v value, k colKind, t int64) value {
	if v.null {
		return nullValue
	}
	switch w.fn {
	case "cumulative_sum":
		if k == kInt {
			if s := st.sumI + v.i; !st.over && (v.i > 0 && s < st.sumI || v.i < 0 && s > st.sumI) {
				st.over = true
			} else {
				st.sumI = s
			}
			if st.over {
				return nullValue
			}
			return value{i: st.sumI}
		}
		st.sumF += v.fl()
		return fv(st.sumF)
	case "moving_average":
		x := num(k, v)
		if st.ring == nil {
			st.ring = make([]float64, 0, min(w.n, 1024))
		}
		if int64(len(st.ring)) < w.n {
			st.ring = append(st.ring, x)
			st.total += x
		} else {
			st.total += x - st.ring[st.next]
			st.ring[st.next] = x
			if st.next = (st.next + 1) % len(st.ring); st.next == 0 {
				// Summed afresh once a window: the running total
				// would drift with rounding (and stay NaN or Inf).
				st.total = 0
				for _, y := range st.ring {
					st.total += y
				}
			}
		}
		if int64(len(st.ring)) < w.n {
			return nullValue
		}
		return fv(st.total / float64(w.n))
	}
	prev, prevT, had := st.prev, st.prevT, st.has
	st.prev, st.prevT, st.has = v, t, true
	if !had {
		return nullValue
	}
	switch w.fn {
	case "difference", "non_negative_difference":
		if k == kInt {
			d := v.i - prev.i
			if (prev.i < 0) != (v.i < 0) && (d < 0) != (v.i < 0) { // overflow
				return nullValue
			}
			if w.fn == "non_negative_difference" && d < 0 {
				return nullValue
			}
			return value{i: d}
		}
		d := v.fl() - prev.fl()
		if w.fn == "non_negative_difference" && d < 0 {
			return nullValue
		}
		return fv(d)
	}
	// derivative, non_negative_derivative
	if t == prevT {
		return nullValue
	}
	unit := w.unit
	if unit == 0 {
		unit = 1e9
	}
	d := (num(k, v) - num(k, prev)) / (float64(t-prevT) / float64(unit))
	if w.fn == "non_negative_derivative" && d < 0 || math.IsNaN(d) && !math.IsNaN(num(k, v)) {
		return nullValue
	}
	return fv(d)
}
