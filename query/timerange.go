package query

import "math"

// Time ranges implied by comparisons of computed instants, so that
// WHERE date_trunc('day', time) = '2024-03-01' or WHERE time + 1h >
// now() prunes blocks as WHERE time >= ... AND time < ... does. The
// comparison itself still decides each row: the range only has to hold
// every row it can be true of.

// arithBounds narrows the time range by e, a top-level conjunct, when
// one side moves or cuts the time column (time ± durations, date_trunc
// or time_bucket of it) and the other is a constant instant.
func (p *plan) arithBounds(e *ArithCompare) {
	side, other, op := e.L, e.R, e.Op
	if _, ok := p.constTime(other); !ok {
		side, other, op = e.R, e.L, flipped[op]
	}
	v, ok := p.constTime(other)
	if !ok {
		return
	}
	var shift int64 // side is time + shift, or a cut of time
	var bk *bucketer
	for x := side; ; {
		switch {
		case x.Col != nil && x.Col.Name == ColTime:
		case x.Op == 'f' && x.Trunc != nil && bk == nil && shift == 0:
			bk, x = x.Trunc.bucketer(x.Zone), x.L
			continue
		case (x.Op == '+' || x.Op == '-') && x.R.isDuration() && bk == nil:
			d := x.R.Lit.Int
			if x.Op == '-' {
				d = -d
			}
			if s := shift + d; d > 0 && s < shift || d < 0 && s > shift {
				return // no range past int64
			}
			shift, x = shift+d, x.L
			continue
		case x.Op == '+' && x.L.isDuration() && bk == nil:
			shift, x = shift+x.L.Lit.Int, x.R
			continue
		default:
			return
		}
		break
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if bk != nil {
		// key(t) <= t: key(t) >= v puts t at v or after. On the UTC clock
		// buckets are the intervals [key, next(key)): key(t) <= v puts t
		// before the end of v's bucket. On a zone's a repeated wall time
		// puts rows of a bucket after the start of later ones: t is
		// within maxSpan of key(t) <= v.
		end := func(v int64) int64 {
			if bk.loc != nil {
				return clampAdd(v, bk.maxSpan())
			}
			if e := bk.next(bk.key(v)); e > v {
				return e - 1
			}
			return math.MaxInt64
		}
		switch op {
		case "=":
			lo, hi = v, end(v)
		case ">=":
			lo = v
		case ">":
			lo = clampAdd(v, 1)
		case "<=":
			hi = end(v)
		case "<":
			if v == math.MinInt64 {
				lo, hi = 1, 0
			} else {
				hi = end(v - 1)
			}
		}
	} else {
		// time + shift op v: time op v - shift, unless that leaves int64.
		w := v - shift
		if shift > 0 && w > v || shift < 0 && w < v {
			return
		}
		lo, hi = timeBounds(op, w)
	}
	p.tlo, p.thi = max(p.tlo, lo), min(p.thi, hi)
}

// timeBounds returns the inclusive range of times t for which t op v
// holds (lo > hi: none); != and unknown ops bound nothing.
func timeBounds(op string, v int64) (lo, hi int64) {
	lo, hi = math.MinInt64, math.MaxInt64
	switch op {
	case "=":
		lo, hi = v, v
	case ">=":
		lo = v
	case ">":
		if v == math.MaxInt64 {
			return 1, 0
		}
		lo = v + 1
	case "<=":
		hi = v
	case "<":
		if v == math.MinInt64 {
			return 1, 0
		}
		hi = v - 1
	}
	return lo, hi
}

// constTime returns a, when it is a constant instant: a time in quotes,
// now(), either moved by durations, or cut by date_trunc or time_bucket.
func (p *plan) constTime(a *Arith) (int64, bool) {
	if a.Scalar != nil { // (SELECT max(time) ...): its value in this run
		x, err := p.scalarArith(a)
		if err != nil || x.Lit == nil || x.Lit.Kind != LitTime {
			return 0, false
		}
		a = x
	}
	switch {
	case a.Lit != nil && a.Lit.Kind == LitString:
		return parseTime(a.Lit.Str)
	case a.Lit != nil && a.Lit.Kind == LitTime:
		t, err := p.timeOf(a.Lit)
		return t, err == nil
	case a.Op == 'f' && a.Trunc != nil:
		t, ok := p.constTime(a.L)
		if !ok {
			return 0, false
		}
		return a.Trunc.bucketer(a.Zone).key(t), true
	case (a.Op == '+' || a.Op == '-') && a.R.isDuration():
		t, ok := p.constTime(a.L)
		if !ok {
			return 0, false
		}
		d := a.R.Lit.Int
		if a.Op == '-' {
			d = -d
		}
		if s := t + d; d > 0 && s < t || d < 0 && s > t {
			return 0, false
		}
		return t + d, true
	}
	return 0, false
}
