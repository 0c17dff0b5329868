package query

import "slices"

// winAggs are the aggregates that are window functions when OVER
// follows them: sum(value) OVER (PARTITION BY series).
var winAggs = map[string]bool{"sum": true, "avg": true, "min": true, "max": true, "count": true}

// valueFuncs take the value of a row of the window's frame: its first,
// its last, its n-th (null if it has fewer rows), nulls included.
var valueFuncs = map[string]bool{"first_value": true, "last_value": true, "nth_value": true}

// aggregate fills column c of an aggregate or a value function over
// each row's frame (see frameOf: by default, without OVER's ORDER BY,
// the row's whole partition; with it, the partition's rows up to the
// row and its peers, so that a running sum gives tied rows one value
// and last_value is the last of the row's peers).
func (w *winPlan) aggregate(rows [][]value, idx []int, c int, out []outCol, samePart func(a, b []value) int) {
	k := kInt // count(*)
	if w.arg >= 0 {
		k = out[w.arg].kind
	}
	var start, end []int
	partitions(rows, idx, samePart, func(part []int) {
		m := len(part)
		start, end = slices.Grow(start[:0], m)[:m], slices.Grow(end[:0], m)[:m]
		w.bounds(rows, part, out, start, end)
		if w.frameOf().Exclude != "" {
			w.aggregateExcluding(rows, part, c, k, start, end, out)
			return
		}
		if valueFuncs[w.fn] && w.ignoreNulls {
			places, before := w.nonNull(rows, part)
			for i, r := range part {
				rows[r][c] = w.valueIgnoringNulls(rows, part, places, before, start[i], end[i])
			}
			return
		}
		if valueFuncs[w.fn] {
			for i, r := range part {
				s, e, v := start[i], end[i], nullValue
				switch {
				case w.fn == "first_value" && s < e:
					v = rows[part[s]][w.arg]
				case w.fn == "last_value" && s < e:
					v = rows[part[e-1]][w.arg]
				case w.fn == "nth_value" && int64(e-s) >= w.n:
					v = rows[part[s+int(w.n)-1]][w.arg]
				}
				rows[r][c] = v
			}
			return
		}
		sl := slider{fn: w.fn, kind: k}
		if w.arg >= 0 {
			sl.vals = func(j int) *value { return &rows[part[j]][w.arg] }
		}
		for i, r := range part {
			sl.move(start[i], end[i])
			rows[r][c] = spanMean(w.fn, sl.result(), out[c].kind)
		}
	})
}
