package query

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// The frame of each row of a partition, as positions [start, end) in
// the partition's order. Every frame kind moves forward as the row
// does (both bounds never decrease), so aggregates over frames slide:
// each row enters and leaves the window state once (see slider).

// defaultFrame is SQL's frame when OVER gives none: the partition's
// rows up to the row's last peer; without ORDER BY every row of the
// partition is a peer, so the whole partition.
var defaultFrame = Frame{Mode: "range", Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}

// frameOf returns w's frame.
func (w *winPlan) frameOf() *Frame {
	if w.frame != nil {
		return w.frame
	}
	return &defaultFrame
}

// bounds computes the frames of partition part (rows in order) into
// start and end. Peers are the rows that tie on OVER's ORDER BY (every
// row without one).
func (w *winPlan) bounds(rows [][]value, part []int, out []outCol, start, end []int) {
	f, m := w.frameOf(), len(part)
	// group[i] is row i's run of peers, groups[g] where run g starts
	// (with m appended); ROWS frames need neither.
	var group, groups []int
	if f.Mode != "rows" {
		group = make([]int, m)
		for i := range part {
			if i == 0 || !w.framePeers(rows[part[i-1]], rows[part[i]], out) {
				groups = append(groups, i)
			}
			group[i] = len(groups) - 1
		}
		groups = append(groups, m)
	}
	var rk *rangeKey
	if f.Mode == "range" && (f.Start.Off != nil || f.End.Off != nil) {
		rk = newRangeKey(rows, part, out, w.keys[0])
	}
	for i := range part {
		start[i] = w.bound(f.Start, f.Mode, true, i, m, group, groups, rk)
		end[i] = w.bound(f.End, f.Mode, false, i, m, group, groups, rk)
	}
}

// bound returns where frame bound b (the start if isStart, else the
// end, exclusive) of row i of m lies.
func (w *winPlan) bound(b FrameBound, mode string, isStart bool, i, m int, group, groups []int, rk *rangeKey) int {
	switch b.Kind {
	case UnboundedPreceding:
		return 0
	case UnboundedFollowing:
		return m
	case CurrentRow:
		switch {
		case mode == "rows" && isStart:
			return i
		case mode == "rows":
			return i + 1
		case isStart:
			return groups[group[i]]
		}
		return groups[group[i]+1]
	}
	back := b.Kind == Preceding
	switch mode {
	case "rows":
		n := int(min(b.Off.Int, int64(m)))
		if back {
			n = -n
		}
		if isStart {
			return min(max(i+n, 0), m)
		}
		return min(max(i+n+1, 0), m)
	case "groups":
		n := int(min(b.Off.Int, int64(m)))
		if back {
			n = -n
		}
		g := group[i] + n
		switch {
		case isStart:
			return groups[min(max(g, 0), len(groups)-1)]
		case g < 0:
			return 0
		}
		return groups[min(g+1, len(groups)-1)]
	}
	if rk.null(i) { // a null key is a peer of the other nulls only
		if isStart {
			return groups[group[i]]
		}
		return groups[group[i]+1]
	}
	return rk.search(i, b, back, isStart)
}

// framePeers reports whether rows a and b tie on OVER's ORDER BY (every
// pair does without one).
func (w *winPlan) framePeers(a, b []value, out []outCol) bool {
	for _, k := range w.keys {
		if compareValuePtrs(out[k.col].kind, &a[k.col], &b[k.col]) != 0 {
			return false
		}
	}
	return true
}

// rangeKey finds RANGE frames' offset bounds: the rows whose one ORDER
// BY key lies within an offset of the current row's, among the
// partition's non-null keys, which are sorted. Each bound moves forward
// from where it was for the row before (a binary search should it not).
type rangeKey struct {
	rows   [][]value
	part   []int
	col    int
	kind   colKind
	dir    int // 1 ascending, -1 descending
	lo, hi int // the rows with a non-null key
	at     [2]int
}

func newRangeKey(rows [][]value, part []int, out []outCol, k winKey) *rangeKey {
	rk := &rangeKey{rows: rows, part: part, col: k.col, kind: out[k.col].kind, dir: 1}
	if k.desc {
		rk.dir = -1
	}
	rk.lo = slices.IndexFunc(part, func(i int) bool { return !rows[i][k.col].null })
	if rk.lo < 0 {
		rk.lo, rk.hi = len(part), len(part)
		return rk
	}
	rk.hi = rk.lo
	for rk.hi < len(part) && !rows[part[rk.hi]][k.col].null {
		rk.hi++
	}
	rk.at = [2]int{rk.lo, rk.lo}
	return rk
}

func (rk *rangeKey) null(i int) bool { return rk.rows[rk.part[i]][rk.col].null }

// search returns the start (isStart: the first row whose key is at or
// after the target in the order) or the end (the first row after it)
// of bound b, PRECEDING (back) or FOLLOWING row i's key.
func (rk *rangeKey) search(i int, b FrameBound, back, isStart bool) int {
	off := b.Off
	v := rk.rows[rk.part[i]][rk.col]
	sign := rk.dir // FOLLOWING moves along the order
	if back {
		sign = -sign
	}
	var t value
	switch rk.kind {
	case kFloat:
		d := off.Float
		if off.Kind == LitInt {
			d = float64(off.Int)
		}
		t = fv(v.fl() + float64(sign)*d)
		if math.IsNaN(t.fl()) { // inf - inf: the key's own peers
			t = fv(v.fl())
		}
	case kSeq:
		u, d := uint64(v.i), uint64(off.Int)
		switch {
		case sign > 0 && u+d < u:
			u = math.MaxUint64
		case sign > 0:
			u += d
		case u < d:
			u = 0
		default:
			u -= d
		}
		t.i = int64(u)
	case kTime:
		if b.Months != 0 {
			t.i = addMonths(v.i, sign*b.Months)
			break
		}
		t.i = clampAdd(v.i, int64(sign)*off.Int)
	default: // kInt
		t.i = clampAdd(v.i, int64(sign)*off.Int)
	}
	// past reports whether row j lies past the target (isStart: at it).
	past := func(j int) bool {
		c := rk.dir * compareValuePtrs(rk.kind, &rk.rows[rk.part[j]][rk.col], &t)
		return c > 0 || isStart && c == 0
	}
	at := &rk.at[b2i(!isStart)]
	if *at > rk.lo && past(*at-1) {
		lo, hi := rk.lo, *at
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if past(mid) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		*at = lo
		return lo
	}
	for *at < rk.hi && !past(*at) {
		*at++
	}
	return *at
}

// slider is the state of an aggregate over a frame that moves forward:
// rows enter at its end and leave at its start.
type slider struct {
	fn     string
	kind   colKind
	vals   func(j int) *value // row j's argument, nil for count(*)
	s, e   int                // the frame held: [s, e)
	n      int64              // non-null values (rows for count(*))
	sumHi  int64              // the exact sum of integers, 128 bits
	sumLo  uint64
	sum    fsum // the finite floats' sum
	nan    int  // NaNs and infinities, kept out of sum
	pinf   int
	ninf   int
	left   int   // rows that left since sum was summed afresh
	extr   []int // min, max: positions whose values only get worse toward the back
	extrAt int   // extr's front
}

// reset empties the state at position at.
func (sl *slider) reset(at int) {
	*sl = slider{fn: sl.fn, kind: sl.kind, vals: sl.vals, s: at, e: at, extr: sl.extr[:0]}
}

// move sets the frame to [s, e). Bounds that go back (they do not, for
// the frames there are) start it afresh.
func (sl *slider) move(s, e int) {
	if s < sl.s || e < sl.e || s >= sl.e {
		sl.reset(s)
	}
	for ; sl.e < e; sl.e++ {
		sl.enter(sl.e)
	}
	for ; sl.s < s; sl.s++ {
		sl.leave(sl.s)
	}
	if sl.s == sl.e {
		sl.reset(s)
	}
	// Subtracting floats leaves rounding behind: once as many rows have
	// left as the frame holds, its sum is taken afresh.
	if sl.left > sl.e-sl.s+64 {
		sl.resum()
	}
}

func (sl *slider) enter(j int) {
	if sl.vals == nil {
		sl.n++
		return
	}
	v := sl.vals(j)
	if v.null {
		return
	}
	sl.n++
	switch sl.fn {
	case "sum", "avg":
		sl.addNum(v, 1)
	case "min", "max":
		for len(sl.extr) > sl.extrAt && !sl.better(sl.vals(sl.extr[len(sl.extr)-1]), v) {
			sl.extr = sl.extr[:len(sl.extr)-1]
		}
		sl.extr = append(sl.extr, j)
	}
}

func (sl *slider) leave(j int) {
	if sl.vals == nil {
		sl.n--
		return
	}
	v := sl.vals(j)
	if v.null {
		return
	}
	sl.n--
	switch sl.fn {
	case "sum", "avg":
		sl.addNum(v, -1)
		sl.left++
	case "min", "max":
		if sl.extrAt < len(sl.extr) && sl.extr[sl.extrAt] == j {
			sl.extrAt++
		}
	}
}

// better reports whether a is strictly better than b for min or max:
// a row whose value is not better than a later one's never is the
// frame's extreme again.
func (sl *slider) better(a, b *value) bool {
	c := compareValuePtrs(sl.kind, a, b)
	return sl.fn == "min" && c < 0 || sl.fn == "max" && c > 0
}

// addNum adds (sign 1) or takes away (-1) number v.
func (sl *slider) addNum(v *value, sign int) {
	if sl.kind == kInt { // exact, in 128 bits
		var carry uint64
		if sign > 0 {
			sl.sumLo, carry = bits.Add64(sl.sumLo, uint64(v.i), 0)
			sl.sumHi += v.i>>63 + int64(carry)
		} else {
			sl.sumLo, carry = bits.Sub64(sl.sumLo, uint64(v.i), 0)
			sl.sumHi -= v.i>>63 + int64(carry)
		}
	}
	f := num(sl.kind, *v)
	switch {
	case math.IsNaN(f):
		sl.nan += sign
	case math.IsInf(f, 1):
		sl.pinf += sign
	case math.IsInf(f, -1):
		sl.ninf += sign
	default:
		sl.sum.add(float64(sign) * f)
	}
}

// resum sums the frame's finite floats afresh.
func (sl *slider) resum() {
	sl.sum, sl.left = fsum{}, 0
	for j := sl.s; j < sl.e; j++ {
		if v := sl.vals(j); !v.null {
			if f := num(sl.kind, *v); !math.IsNaN(f) && !math.IsInf(f, 0) {
				sl.sum.add(f)
			}
		}
	}
}

// floatSum returns the frame's sum as floats add up: NaN with a NaN or
// both infinities, else an infinity if there is one.
func (sl *slider) floatSum() float64 {
	switch {
	case sl.nan > 0 || sl.pinf > 0 && sl.ninf > 0:
		return math.NaN()
	case sl.pinf > 0:
		return math.Inf(1)
	case sl.ninf > 0:
		return math.Inf(-1)
	}
	if s := sl.sum.value(); !math.IsInf(s, 0) && !math.IsNaN(s) || sl.left == 0 {
		return s
	}
	// Finite values summed past the largest float, then taken away:
	// the running sum cannot come back from infinity.
	sl.resum()
	return sl.sum.value()
}

// result returns the aggregate of the frame.
func (sl *slider) result() value {
	switch {
	case sl.fn == "count":
		return value{i: sl.n}
	case sl.n == 0:
		return nullValue
	case sl.fn == "avg":
		return fv(sl.floatSum() / float64(sl.n))
	case sl.fn == "sum" && sl.kind == kInt:
		if sl.sumHi != int64(sl.sumLo)>>63 { // past int64
			return nullValue
		}
		return value{i: int64(sl.sumLo)}
	case sl.fn == "sum":
		return fv(sl.floatSum())
	}
	return *sl.vals(sl.extr[sl.extrAt])
}

// addMonths returns instant t (ns) moved n calendar months on the UTC
// calendar, the day of the month clamped to the month's last (March 31
// less a month is February 28 or 29), as SQL's interval arithmetic has
// it; past the int64 range, its end.
func addMonths(t int64, n int) int64 {
	tm := time.Unix(0, t).UTC()
	y, m, d := tm.Date()
	first := time.Date(y, m+time.Month(n), 1, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	last := time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	out := first.AddDate(0, 0, min(d, last)-1)
	switch {
	case out.Year() < 1678:
		return math.MinInt64
	case out.Year() > 2261:
		return math.MaxInt64
	}
	return out.UnixNano()
}
