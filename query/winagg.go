package query

// winAggs are the aggregates that are window functions when OVER
// follows them: sum(value) OVER (PARTITION BY series).
var winAggs = map[string]bool{"sum": true, "avg": true, "min": true, "max": true, "count": true}

// valueFuncs take the value of a row of the window: its first, its last,
// its n-th (null if it has fewer rows), nulls included.
var valueFuncs = map[string]bool{"first_value": true, "last_value": true, "nth_value": true}

// aggregate fills column c of an aggregate or a value function over a
// window, its frame: without OVER's ORDER BY, the row's whole
// partition; with it, the partition's rows up to the row and its peers
// (SQL's default frame: a running sum gives tied rows one value, and
// last_value is the last of the row's peers).
func (w *winPlan) aggregate(rows [][]value, idx []int, c int, out []outCol, samePart func(a, b []value) int, peer func(a, b []value) bool) {
	k := kInt // count(*)
	if w.arg >= 0 {
		k = out[w.arg].kind
	}
	partitions(rows, idx, samePart, func(part []int) {
		var st winAgg
		for lo := 0; lo < len(part); {
			hi := len(part) // no ORDER BY: the whole partition at once
			if len(w.keys) > 0 {
				hi = peersEnd(rows, part, lo, peer)
			}
			var v value
			switch w.fn {
			case "first_value":
				v = rows[part[0]][w.arg]
			case "last_value":
				v = rows[part[hi-1]][w.arg]
			case "nth_value":
				v = nullValue
				if w.n <= int64(hi) {
					v = rows[part[w.n-1]][w.arg]
				}
			default:
				for _, i := range part[lo:hi] {
					v := value{} // count(*): every row
					if w.arg >= 0 {
						v = rows[i][w.arg]
					}
					st.add(w.fn, v, k)
				}
				v = st.result(w.fn, k)
			}
			for _, i := range part[lo:hi] {
				rows[i][c] = v
			}
			lo = hi
		}
	})
}

// winAgg is the state of an aggregate over a window.
type winAgg struct {
	n    int64
	sumI int64
	over bool // the int64 sum overflowed: null
	sum  fsum // avg, and sum of floats
	ext  value
}

func (s *winAgg) add(fn string, v value, k colKind) {
	if v.null {
		return
	}
	s.n++
	switch fn {
	case "sum", "avg":
		if k == kInt {
			if t := s.sumI + v.i; (v.i > 0 && t < s.sumI) || (v.i < 0 && t > s.sumI) {
				s.over = true
			} else {
				s.sumI = t
			}
		}
		s.sum.add(num(k, v))
	case "min", "max":
		if c := compareValues(k, v, s.ext); s.n == 1 || fn == "min" && c < 0 || fn == "max" && c > 0 {
			s.ext = v
		}
	}
}

func (s *winAgg) result(fn string, k colKind) value {
	switch {
	case fn == "count":
		return value{i: s.n}
	case s.n == 0:
		return nullValue
	case fn == "avg":
		return value{f: s.sum.value() / float64(s.n)}
	case fn == "sum" && k == kInt:
		if s.over {
			return nullValue
		}
		return value{i: s.sumI}
	case fn == "sum":
		return value{f: s.sum.value()}
	}
	return s.ext
}
