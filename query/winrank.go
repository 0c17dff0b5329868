package query

// number fills column c of the ranking functions: the row's place in
// its partition's order idx. row_number counts from 1; rank gives peers
// (rows that tie on the order) the place of the first of them,
// dense_rank the count of runs of peers so far; percent_rank is (rank -
// 1) / (rows - 1), cume_dist the share of the partition's rows up to
// the row's last peer, ntile(n) the row's bucket of n near-equal ones.
func (w *winPlan) number(rows [][]value, idx []int, c int, samePart func(a, b []value) int, peer func(a, b []value) bool) {
	partitions(rows, idx, samePart, func(part []int) {
		n := int64(len(part))
		var dense int64
		for lo := 0; lo < len(part); {
			hi := peersEnd(rows, part, lo, peer)
			rank := int64(lo + 1)
			dense++
			for j := lo; j < hi; j++ {
				var v value
				switch w.fn {
				case "row_number":
					v.i = int64(j + 1)
				case "rank":
					v.i = rank
				case "dense_rank":
					v.i = dense
				case "percent_rank":
					if n > 1 {
						v = fv(float64(rank-1) / float64(n-1))
					}
				case "cume_dist":
					v = fv(float64(hi) / float64(n))
				case "ntile":
					v.i = ntile(int64(j), n, w.n)
				}
				rows[part[j]][c] = v
			}
			lo = hi
		}
	})
}

// ntile is the bucket (from 1) of row j of n in n buckets of b near-equal
// sizes: the first n % b buckets hold one row more.
func ntile(j, n, b int64) int64 {
	q, r := n/b, n%b
	if j < r*(q+1) {
		return j/(q+1) + 1
	}
	return r + (j-r*(q+1))/q + 1
}

// shift fills column c of lag (lead): the argument of the row w.n rows
// before (after) in the partition's order idx, null if there is none.
// Unlike the other window functions it does not skip null arguments:
// the row w.n rows away gives its value, null or not, as in SQL.
func (w *winPlan) shift(rows [][]value, idx []int, c int, samePart func(a, b []value) int) {
	partitions(rows, idx, samePart, func(part []int) {
		if w.ignoreNulls {
			w.shiftIgnoringNulls(rows, part, c)
			return
		}
		for k := range part {
			from := int64(k) - w.n
			if w.fn == "lead" {
				from = int64(k) + w.n
			}
			if from < 0 || from >= int64(len(part)) {
				rows[part[k]][c] = w.dflt
				continue
			}
			rows[part[k]][c] = rows[part[from]][w.arg]
		}
	})
}

// partitions calls f with each partition of idx, the rows in a
// partition's order, partitions one after the other.
func partitions(rows [][]value, idx []int, samePart func(a, b []value) int, f func(part []int)) {
	for start := 0; start < len(idx); {
		end := start + 1
		for end < len(idx) && samePart(rows[idx[start]], rows[idx[end]]) == 0 {
			end++
		}
		f(idx[start:end])
		start = end
	}
}

// peersEnd returns the end of the run of peers of part[lo]: the rows
// after it that tie with it on the order.
func peersEnd(rows [][]value, part []int, lo int, peer func(a, b []value) bool) int {
	hi := lo + 1
	for hi < len(part) && peer(rows[part[lo]], rows[part[hi]]) {
		hi++
	}
	return hi
}

// ranking reports whether fn is a ranking function (number).
func ranking(fn string) bool { return rowNumbering[fn] || fn == "ntile" }
