package query

import "math"

// EXCLUDE CURRENT ROW, GROUP and TIES leave a hole in each row's frame:
// what is read is up to three runs of rows (before the hole, the row
// itself for TIES, after it). Aggregates over them come from a segment
// tree of the partition (O(log n) a run), the value functions from the
// runs in order.

// holes returns the runs of frame [s, e) of row i, whose peers are
// [g0, g1), that frame exclusion ex keeps.
func holes(ex string, s, e, i, g0, g1 int, runs [][2]int) [][2]int {
	runs = runs[:0]
	add := func(a, b int) {
		if a < b {
			runs = append(runs, [2]int{a, b})
		}
	}
	lo, hi := i, i+1 // the hole
	if ex != "current row" {
		lo, hi = g0, g1
	}
	add(s, min(e, lo))
	if ex == "ties" && i >= s && i < e {
		add(i, i+1)
	}
	add(max(s, hi), e)
	return runs
}

// aggNode is an aggregate's state over a run of rows: a node of the
// segment tree.
type aggNode struct {
	n           int64 // values not null (rows for count(*))
	hi          int64 // exact sum of integers, 128 bits
	lo          uint64
	sum         fsum // finite floats
	nan, pi, ni int32
	ext         *value // min, max
}

// aggTree is a segment tree of aggNodes over a partition's rows.
type aggTree struct {
	fn    string
	kind  colKind
	size  int
	nodes []aggNode
}

func newAggTree(fn string, k colKind, m int, val func(j int) *value) *aggTree {
	// Leaves at [m, 2m), node i the merge of 2i and 2i+1: 2m nodes
	// whatever m (query keeps the order of left and right parts).
	t := &aggTree{fn: fn, kind: k, size: m}
	t.nodes = make([]aggNode, 2*t.size)
	for j := range m {
		nd := &t.nodes[t.size+j]
		if val == nil { // count(*)
			nd.n = 1
			continue
		}
		v := val(j)
		if v.null {
			continue
		}
		nd.n = 1
		switch fn {
		case "min", "max":
			nd.ext = v
		case "sum", "avg":
			if k == kInt {
				nd.hi, nd.lo = v.i>>63, uint64(v.i)
			}
			switch f := num(k, *v); {
			case math.IsNaN(f):
				nd.nan = 1
			case math.IsInf(f, 1):
				nd.pi = 1
			case math.IsInf(f, -1):
				nd.ni = 1
			default:
				nd.sum.add(f)
			}
		}
	}
	for i := t.size - 1; i > 0; i-- {
		t.nodes[i] = t.merge(t.nodes[2*i], t.nodes[2*i+1])
	}
	return t
}

func (t *aggTree) merge(a, b aggNode) aggNode {
	out := aggNode{n: a.n + b.n, nan: a.nan + b.nan, pi: a.pi + b.pi, ni: a.ni + b.ni, sum: a.sum}
	out.sum.merge(b.sum)
	var carry uint64
	out.lo = a.lo + b.lo
	if out.lo < a.lo {
		carry = 1
	}
	out.hi = a.hi + b.hi + int64(carry)
	switch {
	case a.ext == nil:
		out.ext = b.ext
	case b.ext == nil:
		out.ext = a.ext
	default:
		c := compareValuePtrs(t.kind, b.ext, a.ext)
		if t.fn == "min" && c < 0 || t.fn == "max" && c > 0 {
			out.ext = b.ext
		} else {
			out.ext = a.ext
		}
	}
	return out
}

// query returns the node of rows [l, r).
func (t *aggTree) query(l, r int) aggNode {
	var left, right aggNode
	for l, r = l+t.size, r+t.size; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			left = t.merge(left, t.nodes[l])
			l++
		}
		if r&1 == 1 {
			r--
			right = t.merge(t.nodes[r], right)
		}
	}
	return t.merge(left, right)
}

// result is the aggregate of node a, as slider.result.
func (t *aggTree) result(a aggNode) value {
	switch {
	case t.fn == "count":
		return value{i: a.n}
	case a.n == 0:
		return nullValue
	case t.fn == "min" || t.fn == "max":
		return *a.ext
	case t.fn == "sum" && t.kind == kInt:
		if a.hi != int64(a.lo)>>63 {
			return nullValue
		}
		return value{i: int64(a.lo)}
	}
	var f float64
	switch {
	case a.nan > 0 || a.pi > 0 && a.ni > 0:
		f = math.NaN()
	case a.pi > 0:
		f = math.Inf(1)
	case a.ni > 0:
		f = math.Inf(-1)
	default:
		f = a.sum.value()
	}
	if t.fn == "avg" {
		f /= float64(a.n)
	}
	return fv(f)
}

// aggregateExcluding fills column c of partition part for a window whose
// frame excludes rows, from its bounds start and end.
func (w *winPlan) aggregateExcluding(rows [][]value, part []int, c int, k colKind, start, end []int, out []outCol) {
	ex := w.frameOf().Exclude
	group, groups := w.peerGroups(rows, part, out)
	var runs [][2]int
	var tree *aggTree
	var places, before []int
	if valueFuncs[w.fn] {
		if w.ignoreNulls {
			places, before = w.nonNull(rows, part)
		}
	} else {
		var val func(j int) *value
		if w.arg >= 0 {
			val = func(j int) *value { return &rows[part[j]][w.arg] }
		}
		tree = newAggTree(w.fn, k, len(part), val)
	}
	for i, r := range part {
		g := group[i]
		runs = holes(ex, start[i], end[i], i, groups[g], groups[g+1], runs)
		if tree != nil {
			var a aggNode
			for _, run := range runs {
				a = tree.merge(a, tree.query(run[0], run[1]))
			}
			rows[r][c] = spanMean(w.fn, tree.result(a), out[c].kind)
			continue
		}
		rows[r][c] = w.valueOfRuns(rows, part, runs, places, before)
	}
}

// valueOfRuns returns first_value, last_value or nth_value of the rows
// of runs (in order), of those with a value if places and before are
// given (nonNull).
func (w *winPlan) valueOfRuns(rows [][]value, part []int, runs [][2]int, places, before []int) value {
	count := func(run [2]int) int {
		if before != nil {
			return before[run[1]] - before[run[0]]
		}
		return run[1] - run[0]
	}
	at := func(run [2]int, k int) value { // the k-th row of run (with a value)
		if before != nil {
			return rows[part[places[before[run[0]]+k]]][w.arg]
		}
		return rows[part[run[0]+k]][w.arg]
	}
	total := 0
	for _, run := range runs {
		total += count(run)
	}
	k := 0 // the place wanted among all
	switch w.fn {
	case "last_value":
		k = total - 1
	case "nth_value":
		k = int(min(w.n-1, int64(total)))
	}
	if k < 0 || k >= total {
		return nullValue
	}
	for _, run := range runs {
		if n := count(run); k < n {
			return at(run, k)
		} else {
			k -= n
		}
	}
	return nullValue
}

// peerGroups returns each row's run of peers in partition part and
// where each run starts (len(part) appended).
func (w *winPlan) peerGroups(rows [][]value, part []int, out []outCol) (group, groups []int) {
	group = make([]int, len(part))
	for i := range part {
		if i == 0 || !w.framePeers(rows[part[i-1]], rows[part[i]], out) {
			groups = append(groups, i)
		}
		group[i] = len(groups) - 1
	}
	return group, append(groups, len(part))
}
