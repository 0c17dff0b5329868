package query

import (
	"cmp"
	"encoding/binary"
	"math"
	"sort"

	"github.com/tsqdb/tsq/chunk"
)

// keyOf appends the equality key of row r of side s to buf; ok is false
// when a column is null (no match).
func (jp *joinPlan) keyOf(buf []byte, s, r int) ([]byte, bool) {
	for k, e := range jp.eq {
		c := jp.sides[s].cols[e[s].col]
		if !c.valid[r] {
			return buf, false
		}
		switch jp.modes[k] {
		case keyInt:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(c.ints[r]))
		case keyFloat:
			f := 0.0
			if c.typ == chunk.Int64 {
				f = float64(c.ints[r])
			} else {
				f = c.floats[r]
			}
			switch {
			case f == 0:
				f = 0 // -0 equals 0
			case math.IsNaN(f):
				f = math.NaN()
			}
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
		case keyBool:
			if c.bools[r] {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		default:
			buf = binary.AppendUvarint(buf, uint64(len(c.strs[r])))
			buf = append(buf, c.strs[r]...)
		}
	}
	return buf, true
}

// orderOf is row r's ASOF value on side s; ok is false for a null.
func (jp *joinPlan) orderOf(s, r int) (i int64, f float64, ok bool) {
	c := jp.sides[s].cols[jp.ineq[s].col]
	if !c.valid[r] {
		return 0, 0, false
	}
	if c.typ == chunk.Int64 {
		return c.ints[r], float64(c.ints[r]), true
	}
	return 0, c.floats[r], true
}

// joinGroup is the right rows of one key; for ASOF in order of their
// inequality column (ties in the right's order).
type joinGroup struct {
	rows   []int32
	ints   []int64
	floats []float64
	// at is where the last ASOF search of the group ended: left rows
	// come mostly in order, so the next ends there or just after.
	at int
}

// buildRight groups the right rows by key: a pass that finds each row's
// group and counts them, then one that fills the groups, cut from one
// array each (no group grows).
func (jp *joinPlan) buildRight() map[string]*joinGroup {
	groups := map[string]*joinGroup{}
	var buf []byte
	n := jp.sides[1].rows
	of := make([]*joinGroup, n) // row r's group; nil: none (a NULL in its key or order)
	count := map[*joinGroup]int{}
	total := 0
	for r := range n {
		var ok bool
		buf, ok = jp.keyOf(buf[:0], 1, r)
		if !ok {
			continue
		}
		if jp.ineq != nil {
			if _, _, ok = jp.orderOf(1, r); !ok {
				continue
			}
		}
		g := groups[string(buf)]
		if g == nil {
			g = &joinGroup{}
			groups[string(buf)] = g
		}
		of[r] = g
		count[g]++
		total++
	}
	rows := make([]int32, total)
	var ints []int64
	var floats []float64
	if jp.ineq != nil {
		ints, floats = make([]int64, total), make([]float64, total)
	}
	off := 0
	for g, c := range count {
		g.rows = rows[off : off : off+c]
		if jp.ineq != nil {
			g.ints, g.floats = ints[off:off:off+c], floats[off:off:off+c]
		}
		off += c
	}
	for r, g := range of {
		if g == nil {
			continue
		}
		g.rows = append(g.rows, int32(r))
		if jp.ineq != nil {
			iv, fv, _ := jp.orderOf(1, r)
			g.ints, g.floats = append(g.ints, iv), append(g.floats, fv)
		}
	}
	if jp.ineq != nil {
		for _, g := range groups {
			sort.Stable(g)
		}
	}
	return groups
}

func (g *joinGroup) Len() int { return len(g.rows) }
func (g *joinGroup) Less(a, b int) bool {
	if g.floats[a] != g.floats[b] {
		return g.floats[a] < g.floats[b]
	}
	return g.ints[a] < g.ints[b]
}
func (g *joinGroup) Swap(a, b int) {
	g.rows[a], g.rows[b] = g.rows[b], g.rows[a]
	g.ints[a], g.ints[b] = g.ints[b], g.ints[a]
	g.floats[a], g.floats[b] = g.floats[b], g.floats[a]
}

// cmp compares row k of g with the value (iv, fv): -1, 0 or 1.
func (jp *joinPlan) cmp(g *joinGroup, k int, iv int64, fv float64) int {
	if !jp.floatOrder {
		return cmp.Compare(g.ints[k], iv)
	}
	switch {
	case g.floats[k] < fv:
		return -1
	case g.floats[k] > fv:
		return 1
	case g.floats[k] == fv:
		return 0
	}
	return 1 // NaN: never matches
}

// asofMatch is the right row ASOF matches to the left value, -1 if none.
func (jp *joinPlan) asofMatch(g *joinGroup, iv int64, fv float64) int32 {
	n := len(g.rows)
	if jp.floatOrder && math.IsNaN(fv) {
		return -1
	}
	last := func(k int) int32 { // the last row with row k's value
		e := sort.Search(n, func(x int) bool { return jp.cmp(g, x, g.ints[k], g.floats[k]) > 0 })
		return g.rows[e-1]
	}
	switch jp.ineqOp {
	case ">=": // right <= left: before the first row greater
		if ub := jp.bound(g, iv, fv, true); ub > 0 {
			return g.rows[ub-1]
		}
	case ">": // right < left: before the first row not less
		if lb := jp.bound(g, iv, fv, false); lb > 0 {
			return g.rows[lb-1]
		}
	case "<=": // right >= left
		if lb := jp.bound(g, iv, fv, false); lb < n {
			return last(lb)
		}
	case "<": // right > left
		if ub := jp.bound(g, iv, fv, true); ub < n {
			return last(ub)
		}
	}
	return -1
}

// bound returns the first row of g greater than the value (upper) or not
// less (else), trying where the group's last search ended and the row
// after it before searching.
func (jp *joinPlan) bound(g *joinGroup, iv int64, fv float64, upper bool) int {
	n := len(g.rows)
	past := func(k int) bool {
		c := jp.cmp(g, k, iv, fv)
		return c > 0 || !upper && c == 0
	}
	for _, k := range [2]int{g.at, g.at + 1} {
		if k <= n && (k == 0 || !past(k-1)) && (k == n || past(k)) {
			g.at = k
			return k
		}
	}
	g.at = sort.Search(n, past)
	return g.at
}
