package query

// IGNORE NULLS: lag, lead and the value functions of a window skip the
// rows of the partition whose argument is null. last_value(x IGNORE
// NULLS) OVER (ORDER BY time) carries the last value forward over the
// gaps of sparse rows.

// nonNull lists the places in part (a partition in order) whose
// argument is not null, and counts them: before[j] is how many come
// before place j (before[len(part)] is all of them).
func (w *winPlan) nonNull(rows [][]value, part []int) (places, before []int) {
	before = make([]int, len(part)+1)
	for j, r := range part {
		before[j] = len(places)
		if !rows[r][w.arg].null {
			places = append(places, j)
		}
	}
	before[len(part)] = len(places)
	return places, before
}

// shiftIgnoringNulls fills column c of partition part for lag (lead):
// the argument of the n-th row before (after) the row whose argument is
// not null; lag(x, 0) is the row's own.
func (w *winPlan) shiftIgnoringNulls(rows [][]value, part []int, c int) {
	places, before := w.nonNull(rows, part)
	for k, r := range part {
		i := int64(before[k]) - w.n // lag: the n-th of those before
		if w.fn == "lead" {
			i = int64(before[k+1]) + w.n - 1 // the n-th of those after
		}
		switch {
		case w.n == 0:
			rows[r][c] = rows[r][w.arg]
		case i < 0 || i >= int64(len(places)):
			rows[r][c] = w.dflt
		default:
			rows[r][c] = rows[part[places[i]]][w.arg]
		}
	}
}

// valueIgnoringNulls returns first_value, last_value or nth_value of the
// frame [s, e) of a partition whose non-null places and counts are
// places and before (nonNull), null if it has too few.
func (w *winPlan) valueIgnoringNulls(rows [][]value, part, places, before []int, s, e int) value {
	lo, hi := before[min(max(s, 0), len(part))], before[min(max(e, 0), len(part))] // the frame's non-null places: places[lo:hi]
	i := lo
	switch w.fn {
	case "last_value":
		i = hi - 1
	case "nth_value":
		i = lo + int(min(w.n, int64(len(places)))) - 1
	}
	if lo >= hi || i < lo || i >= hi {
		return nullValue
	}
	return rows[part[places[i]]][w.arg]
}
