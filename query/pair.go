package query

import "math"

// Functions of a pair of arguments, computed alike row by row (eval)
// and a batch at a time (pairVec). coalesce, greatest and least of more
// than two arguments are chains of pairs (chainRest).

// pairFuncs are the functions arithPlan.pair computes.
var pairFuncs = map[string]bool{"coalesce": true, "greatest": true, "least": true, "nullif": true, "power": true,
	"atan2": true, "logb": true, "gcd": true, "lcm": true, "intdiv": true}

// pair computes a.fn of l (of kind a.l.kind) and r (a.r.kind), as a
// value of a.kind:
//   - coalesce: l if not null, else r;
//   - greatest, least: the larger (smaller) of those not null, null if
//     both are (as PostgreSQL and DuckDB); NaN is above every number;
//   - nullif: l, or null where it equals r;
//   - power: l to the power r, a float; NULL where finite ones give no
//     finite number (power(-8, 1.0 / 3), power(0, -1)).
func (a *arithPlan) pair(l, r value) value {
	if mathPairs[a.fn] {
		if l.null || r.null {
			return nullValue
		}
		return a.mathPair(l, r)
	}
	if a.fn == "power" {
		if l.null || r.null {
			return nullValue
		}
		x, y := num(a.l.kind, l), num(a.r.kind, r)
		f := math.Pow(x, y)
		if (math.IsNaN(f) || math.IsInf(f, 0)) && !math.IsNaN(x) && !math.IsInf(x, 0) && !math.IsNaN(y) && !math.IsInf(y, 0) {
			return nullValue
		}
		return fv(f)
	}
	if a.fn == "nullif" {
		if !l.null && !r.null && compareMixed(a.l.kind, l, a.r.kind, r) == 0 {
			return nullValue
		}
		return l
	}
	l, r = a.widen(l, a.l.kind), a.widen(r, a.r.kind)
	switch {
	case l.null:
		return r
	case r.null || a.fn == "coalesce":
		return l
	}
	c := compareValues(a.kind, l, r)
	if a.fn == "least" {
		c = -c
	}
	if c < 0 {
		return r
	}
	return l
}

// widen returns v (of kind k) as a value of a.kind: an int64 becomes a
// float64 when a is a float.
func (a *arithPlan) widen(v value, k colKind) value {
	if !v.null && a.kind == kFloat && k != kFloat {
		return fv(float64(v.i))
	}
	return v
}

// compareMixed compares l (of kind lk) with r (rk): text with text,
// else as int64 when both are, else as float64.
func compareMixed(lk colKind, l value, rk colKind, r value) int {
	switch {
	case lk == kString:
		return compareValues(kString, l, r)
	case lk != kFloat && rk != kFloat:
		return compareValues(kInt, l, r)
	}
	return cmpFloat(num(lk, l), num(rk, r))
}

// sides computes a's operands for the rows sel of b, a literal one
// repeated for each row; ok is false when both are literals (a is then
// one value, scalarVec).
func (a *arithPlan) sides(b *batch, sel []int32) (l, r vec, ok bool) {
	l, r = a.l.vec(b, sel), a.r.vec(b, sel)
	if l.scalar && r.scalar {
		return l, r, false
	}
	if l.scalar {
		l = b.vecs.broadcast(l, len(sel))
	}
	if r.scalar {
		r = b.vecs.broadcast(r, len(sel))
	}
	return l, r, true
}

// pairVec computes a pair function for the rows sel of b.
func (a *arithPlan) pairVec(b *batch, sel []int32) vec {
	l, r, ok := a.sides(b, sel)
	if !ok {
		return a.scalarVec()
	}
	n, m := len(sel), &b.vecs
	out := m.newVec(a.kind, n)
	for i := range n {
		lv, rv := nullValue, nullValue
		if !l.isNull(i) {
			lv = l.at(i, a.l.kind)
		}
		if !r.isNull(i) {
			rv = r.at(i, a.r.kind)
		}
		out.set(i, a.kind, a.pair(lv, rv), m, n)
	}
	return out
}
